package shellcmd

import (
	"path"

	"mvdan.cc/sh/v3/syntax"
)

// $PWD, a leading ~+ and $(pwd) give the directory the line has come to:
// after f=$PWD/.env, cat "$f" reads the .env where the line starts. Where
// the line starts in a directory it is given (Options.Dir) and every cd
// before leads where the line shows, those directories are the values.

// workingDirs returns the values PWD may hold where the line has come to:
// the directory it starts in (Options.Dir) or each one a cd before leads
// to, as bash keeps it (a logical path, ".." taken off by name); none
// where the line starts in a directory not given or moves to one it does
// not show.
func (w *walker) workingDirs() []string {
	if w.opts.Dir == "" || w.cur.Unknown || w.cur.AtTop || w.cur.Searched {
		return nil
	}
	var out []string
	for _, p := range w.cur.paths() {
		if !path.IsAbs(p) {
			p = w.opts.Dir + "/" + p
		}
		out = append(out, path.Clean(p))
	}
	return out
}

// runsPwd reports whether the command substitution c is pwd alone (or
// pwd -L or -P), which prints the directory the line has come to.
func runsPwd(c *syntax.CmdSubst) bool {
	if len(c.Stmts) != 1 || len(c.Stmts[0].Redirs) > 0 || c.Stmts[0].Background || c.Stmts[0].Negated {
		return false
	}
	call, isCall := c.Stmts[0].Cmd.(*syntax.CallExpr)
	if !isCall || len(call.Assigns) > 0 || len(call.Args) == 0 || len(call.Args) > 2 {
		return false
	}
	for i, arg := range call.Args {
		s, ok := LiteralWord(arg)
		if !ok || i == 0 && s != "pwd" || i == 1 && s != "-L" && s != "-P" {
			return false
		}
	}
	return true
}
