package governance

import (
	"fmt"
	"path"

	"github.com/acp-bridge/acp-bridge/internal/shellcmd"
)

// Environment variables a command sets (a terminal request's env, or an
// assignment in a command line: NAME=v cmd, export NAME=v, env NAME=v cmd)
// are subjects of their own. Env(NAME) rules decide them, NAME a glob
// ("Env(LD_*)", "Env" for every variable); a variable no rule names is
// denied when it makes a shell, the loader or an interpreter run code
// (BASH_ENV, LD_PRELOAD, PROMPT_COMMAND, BASH_FUNC_*, GIT_SSH_COMMAND...),
// needs approval when it changes what a command name runs (PATH, IFS,
// PAGER, EDITOR...), and is not a subject otherwise.

// envPatternError checks an Env rule's argument.
func envPatternError(pattern string) error {
	if _, err := path.Match(pattern, ""); err != nil || pattern == "" {
		return fmt.Errorf("%q is not a variable name or glob", pattern)
	}
	return nil
}

// decideEnv decides setting the variable name; ok is false when neither a
// rule nor the built-in list has anything to say about it.
func (e *Engine) decideEnv(in *reqInfo, name string, advisories *[]string) (verdict, bool) {
	what := "setting " + name
	best := e.pick(in, catEnv, func(_ int, r *rule) bool {
		return r.all || globName(r.tool, name, r.fold())
	}, advisories)
	if best != nil {
		return ruleVerdict(best, what), true
	}
	risk, why := shellcmd.ClassifyEnv(name)
	switch risk {
	case shellcmd.EnvRunsCode:
		return verdict{value: Deny, ref: "dangerous-env", ruleTx: "deny environment variables that run code (built-in; allow with Env(NAME))",
			reason: fmt.Sprintf("%s: %s", what, why)}, true
	case shellcmd.EnvChangesCommands:
		return verdict{value: RequireApproval, ref: "dangerous-env", ruleTx: "require-approval for environment variables that change what commands run (built-in; allow with Env(NAME))",
			reason: fmt.Sprintf("%s: %s", what, why)}, true
	}
	return verdict{}, false
}
