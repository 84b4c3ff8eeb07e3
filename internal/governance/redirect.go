package governance

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/acp-bridge/acp-bridge/internal/shellcmd"
)

// A redirection opens its file before the command runs, whatever the
// command is: "echo x > ~/.bashrc" writes a start-up file that "echo" rules
// know nothing about. The file is decided as a path: outside the workspace
// roots it is denied, and Read/Edit/Write rules that restrict apply. The
// policy's default does not: the command's own decision covers a file its
// line writes in the workspace.

// deviceFiles are the names a shell opens without touching a file.
var deviceFiles = map[string]bool{"/dev/null": true, "/dev/stdout": true, "/dev/stderr": true, "/dev/stdin": true, "/dev/tty": true, "/dev/zero": true}

// fdPath reports whether p is /dev/fd/N, an open descriptor: not
// /dev/fd/.., which is /proc/self, nor anything else beneath /dev/fd.
func fdPath(p string) bool {
	n, ok := strings.CutPrefix(p, "/dev/fd/")
	if !ok || n == "" {
		return false
	}
	for i := 0; i < len(n); i++ {
		if n[i] < '0' || n[i] > '9' {
			return false
		}
	}
	return true
}

// decideRedirect decides the file one redirection opens; ok is false when
// the command's decision covers it. A file opened for reading and writing
// (<>) is decided as both, the stricter standing.
func (e *Engine) decideRedirect(in *reqInfo, r shellcmd.Redirect, advisories *[]string) (verdict, bool) {
	if r.Read && r.Write {
		rd, wr := r, r
		rd.Write, wr.Read = false, false
		v, ok := e.decideRedirect(in, rd, advisories)
		if w, wok := e.decideRedirect(in, wr, advisories); wok && (!ok || w.value.Stricter(v.value)) {
			v, ok = w, true
		}
		return v, ok
	}
	verb := "reading"
	if r.Write {
		verb = "writing"
	}
	what := fmt.Sprintf("%s %s (%s)", verb, r.Target.Text, redirectVia(r))
	p := r.Target.Text
	switch {
	case r.Target.Kind == shellcmd.Dynamic && strings.HasPrefix(p, "~/") && !strings.ContainsAny(p[2:], "$`\"'\\*?["):
		p = filepath.Join(e.home, p[2:])
	case r.Target.Kind == shellcmd.Glob:
		return e.decideRedirectGlob(in, r, what, advisories), true
	case r.Target.Kind != shellcmd.Static:
		v := runtimeName(what)
		if name, ok := statedLastElement(p); ok && len(in.roots) > 0 {
			n := filepath.Join(in.roots[0], name)
			if w, ok := e.decideRedirectAt(in, r, what, n, advisories); ok && deniesNameAnywhere(w, name) {
				w.reason += "; the directory before " + name + " is known only when the line runs, and the rule names a file of that name wherever it is"
				v = w
			}
		}
		return v, true
	}
	if deviceFiles[p] || fdPath(p) {
		return verdict{}, false
	}
	if strings.HasPrefix(p, "/dev/tcp/") || strings.HasPrefix(p, "/dev/udp/") {
		return verdict{value: RequireApproval, ref: "unreadable-command", ruleTx: "require-approval for commands the bridge cannot read through (built-in)",
			reason: what + ": bash opens a network connection for it"}, true
	}
	if filepath.IsAbs(p) {
		return e.decideRedirectAt(in, r, what, p, advisories)
	}
	bases, unknown := e.commandDirs(in, r.Dir)
	if unknown {
		if len(in.roots) > 0 {
			n := filepath.Join(in.roots[0], filepath.Base(p))
			if v, ok := e.decideRedirectAt(in, r, what, n, advisories); ok && deniesNameAnywhere(v, filepath.Base(n)) {
				v.reason += "; the line changes directory, and the rule names a file of that name wherever it is"
				return v, true
			}
		}
		return verdict{value: RequireApproval, ref: "unreadable-command", ruleTx: "require-approval for commands the bridge cannot read through (built-in)",
			reason: what + ": the line changes directory, so where the file is is not known"}, true
	}
	var worst strictest
	for _, b := range bases {
		// Not cleaned: bash opens "link/../x" through the link, not as
		// the x beside it.
		q, w := joinRaw(b, p), what
		if b != in.req.Cwd {
			w = fmt.Sprintf("%s, run in %s", what, b)
		}
		worst.keepIf(e.decideRedirectAt(in, r, w, q, advisories))
	}
	return worst.result()
}

// redirectVia says, to the person, what opens r's file: a redirection, or
// what r.Via names.
func redirectVia(r shellcmd.Redirect) string {
	if r.Via != "" {
		return r.Via
	}
	return "a redirection"
}

// decideRedirectAt decides the file p a redirection opens; what names it.
func (e *Engine) decideRedirectAt(in *reqInfo, r shellcmd.Redirect, what, p string, advisories *[]string) (verdict, bool) {
	sub := *in
	sub.read, sub.write, sub.command = !r.Write, r.Write, false
	sub.defaultLast = true
	v := e.decidePath(&sub, p, advisories)
	if v.ref == "default" || v.value == Allow {
		return verdict{}, false
	}
	v.reason = what + ": " + v.reason
	return v, true
}

// decideRedirectGlob decides a redirection whose target is a glob: bash
// opens the one name it matches ("cat < *nv" reads .env, with dotglob),
// and the name as written when it matches none. Each name it may match
// now (globNames: leading dots, case ignored) is decided, and a refusal of
// one refuses the line; otherwise the name is not known until the line
// runs and is asked about.
func (e *Engine) decideRedirectGlob(in *reqInfo, r shellcmd.Redirect, what string, advisories *[]string) verdict {
	v := runtimeName(what)
	bases, unknown := e.commandDirs(in, r.Dir)
	if unknown {
		return v
	}
	for _, b := range bases {
		pat := r.Target.Text
		if !filepath.IsAbs(pat) {
			pat = joinRaw(b, pat)
		}
		names, ok := in.keptGlobNames(pat, maxGlobMatches)
		if !ok {
			continue
		}
		for _, n := range names {
			if w, ok := e.decideRedirectAt(in, r, what, n, advisories); ok && w.value.Stricter(v.value) {
				v = w
			}
		}
	}
	return v
}
