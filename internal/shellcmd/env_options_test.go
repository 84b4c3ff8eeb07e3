package shellcmd

import "testing"

// TestClassifyEnvProgramOptions: a variable a program reads as part of its
// command line is not plain. TAR_OPTIONS='--to-command=rm x' tar -xf a.tar
// runs rm and ZIP='-T -TT cmd' zip b.zip f runs cmd (checked with GNU tar
// 1.34 and Info-ZIP zip 3.0), so they are denied as code;
// UNZIP='-d /elsewhere' unzip a.zip and TAPE=/elsewhere/t.tar tar c f
// write outside the workspace, and a name ending as option variables do
// (MAVEN_OPTS, PYTEST_ADDOPTS) is asked about.
func TestClassifyEnvProgramOptions(t *testing.T) {
	checkClassifyEnv(t, map[string]EnvRisk{
		"TAR_OPTIONS":        EnvRunsCode,
		"ZIPOPT":             EnvRunsCode,
		"ZIP":                EnvRunsCode,
		"RSYNC_RSH":          EnvRunsCode,
		"RSYNC_CONNECT_PROG": EnvRunsCode,
		"CVS_RSH":            EnvRunsCode,
		"SVN_SSH":            EnvRunsCode,
		"GNUMAKEFLAGS":       EnvRunsCode,
		"PARALLEL":           EnvRunsCode,

		"TAPE":                      EnvChangesCommands,
		"UNZIP":                     EnvChangesCommands,
		"UNZIPOPT":                  EnvChangesCommands,
		"BZIP2":                     EnvChangesCommands,
		"XZ_DEFAULTS":               EnvChangesCommands,
		"SHELL":                     EnvChangesCommands,
		"FCEDIT":                    EnvChangesCommands,
		"XZ_OPT":                    EnvChangesCommands,
		"MAVEN_OPTS":                EnvChangesCommands,
		"PYTEST_ADDOPTS":            EnvChangesCommands,
		"PYTEST_PLUGINS":            EnvChangesCommands,
		"ERL_AFLAGS":                EnvChangesCommands,
		"CFLAGS":                    EnvChangesCommands,
		"HGEDITOR":                  EnvChangesCommands,
		"SUDO_EDITOR":               EnvChangesCommands,
		"CMAKE_C_COMPILER_LAUNCHER": EnvChangesCommands,
		"my_tool_cmd":               EnvChangesCommands,

		// Settings of a family known to be plain stay plain.
		"GIT_MERGE_AUTOEDIT": EnvPlain,
		"CI":                 EnvPlain,
		"RUST_BACKTRACE":     EnvPlain,
		"COLUMNS":            EnvPlain,
		"TZ":                 EnvPlain,
	})
}
