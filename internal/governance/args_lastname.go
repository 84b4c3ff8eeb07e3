package governance

import (
	"strings"

	"github.com/acp-bridge/acp-bridge/internal/shellcmd"
	"mvdan.cc/sh/v3/syntax"
)

// A name whose directory is computed at run time may still end in a file
// name the line states: "cat $(pwd)/.env", "cat ${PWD%/*}/.env", "cat
// \"$D/.env\"". Such a name was asked about as any name known only when the
// line runs, so a person approving it let a read that a rule refusing the
// name wherever it is (Read(**/.env)) refuses happen. Its last element is
// decided as a name in an unknown directory is after a cd the bridge
// cannot follow: refused where a rule refuses that name by itself.

// statedLastElement returns the last element of the name text (a word as
// written) when the word ends in a "/" and literal text after it: the file
// name the line states whatever the directory before it is.
func statedLastElement(text string) (string, bool) {
	call := oneWordCall(text)
	if call == nil {
		return "", false
	}
	parts := call.Args[0].Parts
	if len(parts) == 1 {
		if dq, ok := parts[0].(*syntax.DblQuoted); ok && !dq.Dollar {
			parts = dq.Parts
		}
	}
	tail := ""
	for i := len(parts) - 1; i >= 0; i-- {
		lit, ok := literalPart(parts[i])
		if !ok {
			break
		}
		tail = lit + tail
		if j := strings.LastIndexByte(tail, '/'); j >= 0 {
			name := tail[j+1:]
			if name == "" || name == "." || name == ".." || strings.ContainsAny(name, "*?[") {
				return "", false
			}
			return name, true
		}
	}
	return "", false
}

// literalPart returns the text of a word part that is literal text after
// quote removal (shellcmd.LiteralWord).
func literalPart(p syntax.WordPart) (string, bool) {
	return shellcmd.LiteralWord(&syntax.Word{Parts: []syntax.WordPart{p}})
}

// runtimeNameArg is runtimeName for the file word a names, or the refusal
// of the file name it states last (statedLastElement) where a rule
// refuses that name in a directory that is not known.
func (e *Engine) runtimeNameArg(in *reqInfo, a argWord, what string, advisories *[]string) verdict {
	v := runtimeName(what)
	name, ok := statedLastElement(a.text)
	if !ok || len(in.roots) == 0 {
		return v
	}
	if w, ok := e.decideArgAt(in, a, what, name, shellcmd.Static, in.roots[0], true, advisories); ok && w.value.Stricter(v.value) {
		w.reason += "; the directory before " + name + " is known only when the line runs, and the rule names a file of that name wherever it is"
		return w
	}
	return v
}
