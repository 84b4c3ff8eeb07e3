package governance

import (
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/acp-bridge/acp-bridge/internal/shellcmd"
)

// A file a line redirects into a command is open to it, and a descriptor's
// name opens that file again, in any mode: "echo x < .env > /dev/stdin"
// opens .env, which the line opened to read, again to write it, as do
// "tee /dev/fd/0 < .env" and a program given /dev/stdin that writes the
// file it is given. So when a line writes through a descriptor's name, every
// file it redirects is decided as a write too. And a program the bridge
// does not know may open its input again by itself (/proc/self/fd/0), as it
// may change the files it is given (args_maywrite.go): where one runs, a
// file the line redirects is decided as a write under the policy's own
// rules, a rule asking before an edit asking unless rules allowed every such
// program of the line.

// reopenedDescriptor returns the descriptor the name p opens again, and
// whether it names one: /dev/stdin, /dev/stdout and /dev/stderr (0, 1, 2),
// /dev/fd/N and a descriptor beneath /proc (/proc/self/fd/N,
// /proc/PID/task/TID/fd/N) N, -1 for a name beneath those that is not a
// number.
func reopenedDescriptor(p string) (int, bool) {
	p = filepath.Clean(p)
	switch p {
	case "/dev/stdin":
		return 0, true
	case "/dev/stdout":
		return 1, true
	case "/dev/stderr":
		return 2, true
	}
	_, n, ok := strings.Cut(p, "/dev/fd/")
	if !ok && strings.HasPrefix(p, "/proc/") {
		_, n, ok = strings.Cut(p, "/fd/")
	}
	if !ok || !strings.HasPrefix(p, "/dev/fd/") && !strings.HasPrefix(p, "/proc/") {
		return 0, false
	}
	fd, err := strconv.Atoi(n)
	if err != nil || fd < 0 {
		return -1, true
	}
	return fd, true
}

// lineGiven is what a request's lines do with the files they redirect,
// gathered from their commands (note) and redirections.
type lineGiven struct {
	// reopened are the descriptors the line writes through their names
	// (-1: any), and names the first of them.
	reopened []int
	name     string
	// dups are the line's descriptor copies (2>&1).
	dups []shellcmd.Duplication
	// unknown is the first program the line runs that the bridge does not
	// know leaves what it is given as it is, and unvouched the first of
	// those no rule of the policy allowed; "" when none.
	unknown, unvouched string
}

// reopen adds a write through the descriptor name p, if it is one.
func (g *lineGiven) reopen(p string) {
	if fd, ok := reopenedDescriptor(p); ok {
		if g.name == "" {
			g.name = p
		}
		g.reopened = append(g.reopened, fd)
	}
}

// note adds command c of the line: args are its words that may name
// files, vouched whether a rule of the policy allowed it.
func (g *lineGiven) note(c *shellcmd.Command, args []argWord, vouched bool) {
	for _, a := range args {
		if a.write || a.mayWrite {
			g.reopen(a.text)
		}
	}
	if len(c.Forms) == 0 {
		return
	}
	if last := c.Forms[len(c.Forms)-1]; mayWriteOperands(last, true) {
		name := filepath.Base(last[0].Text)
		if g.unknown == "" {
			g.unknown = name
		}
		if g.unvouched == "" && !vouched {
			g.unvouched = name
		}
	}
}

// redirects adds the line's redirections and descriptor copies.
func (g *lineGiven) redirects(a *shellcmd.Analysis) {
	for _, r := range a.Redirects {
		if r.Write && r.Target.Kind == shellcmd.Static {
			g.reopen(r.Target.Text)
		}
	}
	g.dups = append(g.dups, a.Duplications...)
}

// reopens reports whether a write through a descriptor's name may open the
// file the line gave descriptor fd (-1: one bash picks) again: the
// descriptor written, or one copied onto it, is fd.
func (g *lineGiven) reopens(fd int) bool {
	for _, k := range g.reopened {
		if k < 0 || fd < 0 {
			return true
		}
		held := []int{k}
		for i := 0; i < len(held); i++ {
			if held[i] == fd {
				return true
			}
			for _, d := range g.dups {
				// A copy onto a descriptor bash picks ({fd}<&3) may be
				// the one written.
				if d.To >= 0 && d.To != held[i] || slices.Contains(held, d.From) {
					continue
				}
				if d.From < 0 {
					return true
				}
				held = append(held, d.From)
			}
		}
	}
	return false
}

// decideRedirectGiven decides the file redirection r opens to read as a
// write, where the line g describes may write it; ok is false when it
// does not, or the write's decision adds nothing.
func (e *Engine) decideRedirectGiven(in *reqInfo, r shellcmd.Redirect, g *lineGiven, advisories *[]string) (verdict, bool) {
	reopened := g.reopens(r.FD)
	if !r.Read || r.Write || !reopened && g.unknown == "" {
		return verdict{}, false
	}
	wr := r
	wr.Read, wr.Write = false, true
	v, ok := e.decideRedirect(in, wr, advisories)
	if !ok {
		return verdict{}, false
	}
	if reopened {
		v.reason = "the line writes through " + g.name + ", which opens what a descriptor holds again: " + v.reason
		return v, true
	}
	if v.rule == nil || !(v.value.Stricter(RequireApproval) || v.value == RequireApproval && g.unvouched != "") {
		return verdict{}, false
	}
	who := g.unknown
	if v.value == RequireApproval {
		who = g.unvouched // the one no rule vouched for
	}
	v.reason = who + " may open what it is given again to write it (/proc/self/fd/0), and the bridge does not know that it does not: " + v.reason
	return v, true
}
