package shellcmd

import (
	"strconv"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// A shell, or source, given /dev/stdin, /dev/fd/N or /proc/self/fd/N as
// its script reads its commands from that descriptor, which the same
// statement may feed a here-document or here-string: "bash /dev/stdin
// <<< 'rm x'", "bash 3<<<'rm x' /dev/fd/3" and ". /dev/fd/3 3<<<'rm x'"
// run rm x, as "bash -s <<< 'rm x'" does. The text is analysed as the
// shell's code; a descriptor the statement feeds otherwise (a file, a
// pipe, text with expansions) runs commands not known until the line runs.

// fdScript returns the descriptor a script operand names, when it names
// one: /dev/stdin is 0, /dev/fd/N, /proc/self/fd/N and
// /proc/thread-self/fd/N are N.
func fdScript(wd Word) (int, bool) {
	if wd.Kind != Static {
		return 0, false
	}
	if wd.Text == "/dev/stdin" {
		return 0, true
	}
	for _, dir := range []string{"/dev/fd/", "/proc/self/fd/", "/proc/thread-self/fd/"} {
		if n, ok := strings.CutPrefix(wd.Text, dir); ok {
			fd, err := strconv.Atoi(n)
			return fd, err == nil && fd >= 0
		}
	}
	return 0, false
}

// fdInputs returns what the statement's redirections feed each input
// descriptor: a here-document's or here-string's text when static, else
// what it is.
func fdInputs(st *syntax.Stmt, src string) map[int]*stdin {
	var out map[int]*stdin
	for _, r := range st.Redirs {
		fd := 0
		if r.N != nil {
			n, err := strconv.Atoi(r.N.Value)
			if err != nil {
				continue
			}
			fd = n
		}
		one := &syntax.Stmt{Redirs: []*syntax.Redirect{r}}
		in := stdinOf(one, src)
		if in == nil {
			continue
		}
		if out == nil {
			out = map[int]*stdin{}
		}
		out[fd] = in
	}
	return out
}

// fdShellCode analyses the code a shell reads from descriptor fd as its
// script, or notes that it runs commands not known until the line runs.
func (w *walker) fdShellCode(c *Command, head Word, fd int, langs dialects, hop, depth int) {
	in := w.fds[fd]
	switch {
	case in != nil && in.known:
		w.line(in.text, depth+1, langs)
	case in != nil:
		if in.file != nil {
			c.ShellScripts = append(c.ShellScripts, ShellScript{Name: *in.file, Form: hop})
		}
		c.Notes = append(c.Notes, Note{Kind: RunsCode, Text: head.Text + " runs the commands in " + in.what, Form: hop})
	default:
		c.Notes = append(c.Notes, Note{Kind: RunsCode, Text: head.Text + " runs the commands it reads from descriptor " + strconv.Itoa(fd), Form: hop})
	}
}
