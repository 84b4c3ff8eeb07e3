package shellcmd

import "testing"

// TestClassifyEnvStartupCode: a variable whose value is code an editor or
// interpreter runs as it starts (vim's EXINIT and VIMINIT, lua's LUA_INIT)
// runs code, as BASH_ENV does, whatever family its name is of; a name
// that only begins as one does is not taken for it.
func TestClassifyEnvStartupCode(t *testing.T) {
	checkClassifyEnv(t, map[string]EnvRisk{
		"EXINIT":         EnvRunsCode, // checked: EXINIT='!touch m' vim a.txt </dev/null writes m
		"NEXINIT":        EnvRunsCode,
		"VIMINIT":        EnvRunsCode,
		"GVIMINIT":       EnvRunsCode,
		"LUA_INIT":       EnvRunsCode,
		"LUA_INIT_5_4":   EnvRunsCode,
		"PYTHONUSERBASE": EnvRunsCode,
		"IPYTHONDIR":     EnvRunsCode,
		"FPATH":          EnvRunsCode,
		"EMACSLOADPATH":  EnvRunsCode,

		"LUA_PATH":      EnvChangesCommands, // its family's, asked
		"VIMRUNTIME":    EnvChangesCommands,
		"LUA_INITIALLY": EnvChangesCommands,
		"EXINIT_X":      EnvPlain,
		"MYFPATH":       EnvPlain,
	})
}
