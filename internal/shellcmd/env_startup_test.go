package shellcmd

import "testing"

// TestClassifyEnvStartupCode: a variable whose value is code an editor or
// interpreter runs as it starts (vim's EXINIT and VIMINIT, lua's LUA_INIT)
// runs code, as BASH_ENV does, whatever family its name is of; a name
// that only begins as one does is not taken for it.
// Its rows are in testdata/cases/env_startup.txt.
func TestClassifyEnvStartupCode(t *testing.T) {
	checkClassifyEnv(t, "env_startup.txt")
}
