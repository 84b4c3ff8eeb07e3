package governance

import (
	"fmt"

	"github.com/acp-bridge/acp-bridge/internal/shellcmd"
)

// A variable's value that a program or the line itself may run as a
// command line ($x as a command word, eval "$x", EDITOR, a make variable)
// runs what its words name as the line's own commands would: after
// x='cat .env', "$x" reads .env. Its commands were matched against the
// command rules only, so a rule refusing rm refused x='rm x', while the
// files its commands open went undecided and x='cat .env'; $x, asked about
// as a computed command word, read the secret once approved. Each command
// of such a value is decided with the files it names and its
// redirections, as a command of the line is.

// decideValueLine decides the commands of a, the command line a variable's
// value holds (where says which), the files each names and the files its
// redirections open.
func (e *Engine) decideValueLine(in *reqInfo, a *shellcmd.Analysis, where string, advisories *[]string, consider func(verdict, string, []string)) {
	for _, c := range a.Commands {
		what := fmt.Sprintf("running %q (%s)", c.Source, where)
		if v, ok := e.decideCommand(in, c, advisories); ok {
			consider(v, what, describeCommand(c))
		}
		if v, ok := e.decideArgs(in, c, advisories); ok {
			consider(v, "opening the files "+what+" names", nil)
		}
	}
	for _, r := range a.Redirects {
		if v, ok := e.decideRedirect(in, r, advisories); ok {
			consider(v, fmt.Sprintf("opening %s (a redirection in %s)", r.Target.Text, where), nil)
		}
	}
}
