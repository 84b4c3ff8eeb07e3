package shellcmd

import "testing"

// TestClassifyEnvConfig: variables that point a program at configuration
// or code the agent can write, or name a command it runs, are classified
// as such: each makes a command the policy allows run the agent's code
// (XDG_CONFIG_HOME=./x git status runs the core.fsmonitor of ./x/git/config;
// GOFLAGS=-toolexec=./x go build runs ./x; MAKEFILES=./x make reads ./x
// first), or write where the line does not show (GIT_TRACE=/elsewhere/f).
// Its rows are in testdata/cases/env_config.txt.
func TestClassifyEnvConfig(t *testing.T) {
	checkClassifyEnv(t, "env_config.txt")
}
