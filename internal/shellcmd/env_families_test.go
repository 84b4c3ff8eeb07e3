package shellcmd

import "testing"

// TestClassifyEnvFamilies: the C library's loaders, the variables that
// name a file a program writes, and the families of readers that take code
// from their variables are not plain; the families' formatting and
// identity settings are.
func TestClassifyEnvFamilies(t *testing.T) {
	checkClassifyEnv(t, map[string]EnvRisk{
		"GCONV_PATH":  EnvRunsCode, // iconv loads gconv modules from it (checked with a module that writes a file)
		"GETCONF_DIR": EnvRunsCode,

		"MALLOC_TRACE":        EnvChangesCommands,
		"SSLKEYLOGFILE":       EnvChangesCommands,
		"LESSHISTFILE":        EnvChangesCommands,
		"GIT_REDIRECT_STDERR": EnvChangesCommands,

		"PYTHONBREAKPOINT": EnvChangesCommands,
		"CARGO_TARGET_X86_64_UNKNOWN_LINUX_GNU_RUNNER": EnvChangesCommands,
		"RUSTFLAGS":                 EnvChangesCommands,
		"PHPRC":                     EnvChangesCommands,
		"R_PROFILE_USER":            EnvChangesCommands,
		"JULIA_LOAD_PATH":           EnvChangesCommands,
		"CLASSPATH":                 EnvChangesCommands,
		"JDK_JAVA_OPTIONS":          EnvChangesCommands,
		"JAVA_HOME":                 EnvChangesCommands,
		"DOTNET_STARTUP_HOOKS":      EnvChangesCommands,
		"COMPlus_EnableDiagnostics": EnvChangesCommands,
		"GCC_EXEC_PREFIX":           EnvChangesCommands,
		"OPENSSL_CONF":              EnvChangesCommands,
		"GTK_MODULES":               EnvChangesCommands,
		"GST_PLUGIN_PATH":           EnvChangesCommands,
		"QT_PLUGIN_PATH":            EnvChangesCommands,
		"PIP_INDEX_URL":             EnvChangesCommands,
		"GEM_HOME":                  EnvChangesCommands,
		"BUNDLE_GEMFILE":            EnvChangesCommands,
		"WGETRC":                    EnvChangesCommands,
		"CURL_HOME":                 EnvChangesCommands,
		"VIMRUNTIME":                EnvChangesCommands,
		"GIT_SSL_NO_VERIFY":         EnvChangesCommands,

		// Names listed with a stronger risk keep it.
		"PYTHONPATH":   EnvRunsCode,
		"NODE_OPTIONS": EnvRunsCode,
		"GIT_SSH":      EnvRunsCode,

		"PYTHONUNBUFFERED": EnvPlain,
		"NODE_ENV":         EnvPlain,
		"GIT_AUTHOR_NAME":  EnvPlain,
		"CARGO_TERM_COLOR": EnvPlain,
		"RUST_LOG":         EnvPlain,
		"GOOS":             EnvPlain,
		"CI":               EnvPlain,
		"python_x":         EnvPlain, // the readers' names are case-exact
	})
}
