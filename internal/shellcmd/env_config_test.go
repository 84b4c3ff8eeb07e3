package shellcmd

import "testing"

// TestClassifyEnvConfig: variables that point a program at configuration
// or code the agent can write, or name a command it runs, are classified
// as such: each makes a command the policy allows run the agent's code
// (XDG_CONFIG_HOME=./x git status runs the core.fsmonitor of ./x/git/config;
// GOFLAGS=-toolexec=./x go build runs ./x; MAKEFILES=./x make reads ./x
// first), or write where the line does not show (GIT_TRACE=/elsewhere/f).
func TestClassifyEnvConfig(t *testing.T) {
	checkClassifyEnv(t, map[string]EnvRisk{
		"XDG_CONFIG_HOME":           EnvRunsCode,
		"GIT_SEQUENCE_EDITOR":       EnvRunsCode,
		"GOFLAGS":                   EnvRunsCode,
		"GOENV":                     EnvRunsCode,
		"RUSTC_WRAPPER":             EnvRunsCode,
		"RUSTC":                     EnvRunsCode,
		"CARGO_BUILD_RUSTC_WRAPPER": EnvRunsCode,
		"CARGO_HOME":                EnvRunsCode,
		"MAKEFILES":                 EnvRunsCode,
		"MAKEFLAGS":                 EnvRunsCode,
		"PYTHONWARNINGS":            EnvRunsCode,
		"PERL5DB":                   EnvRunsCode,
		"KUBECONFIG":                EnvRunsCode,
		"AWS_CONFIG_FILE":           EnvRunsCode,
		"HGRCPATH":                  EnvRunsCode,
		"npm_config_script_shell":   EnvRunsCode,
		"NPM_CONFIG_USERCONFIG":     EnvRunsCode,
		"GIT_COMMON_DIR":            EnvChangesCommands,
		"GIT_INDEX_FILE":            EnvChangesCommands,
		"GIT_TRACE":                 EnvChangesCommands,
		"GIT_TRACE2_EVENT":          EnvChangesCommands,
		"EXECIGNORE":                EnvChangesCommands,
		"CC":                        EnvChangesCommands,
		"CXX":                       EnvChangesCommands,
		"GOROOT":                    EnvChangesCommands,
		"GOTOOLCHAIN":               EnvChangesCommands,
		"GOPROXY":                   EnvChangesCommands,
		"GOINSECURE":                EnvChangesCommands,
		"CGO_LDFLAGS":               EnvChangesCommands,
		"GOCACHE":                   EnvPlain,
		"GOPATH":                    EnvPlain,
		"RUST_LOG":                  EnvPlain,
		"NODE_ENV":                  EnvPlain,
	})
}
