package governance

import (
	"fmt"
	"io/fs"
	"os"
)

// specialFileVerdict denies an fs/read_text_file or fs/write_text_file
// whose path leads to a file that is not a regular file or a directory: a
// named pipe (the IDE's open blocks until another process opens the other
// end, so a FIFO the agent made hangs the IDE's read or write), a socket,
// or a device (/dev/zero never ends, /dev/tty is the person's terminal).
// f holds the path's forms (pathForms); the last is where it leads, and
// what resolving it last looked up there (never a symlink) is what stat
// says of it.
func (e *Engine) specialFileVerdict(in *reqInfo, p string, f *pathFacts) (verdict, bool) {
	if in.req.Action != ActionFSRead && in.req.Action != ActionFSWrite || f.last.missing {
		return verdict{}, false
	}
	fi, err := f.last.fi, error(nil)
	if fi == nil {
		fi, err = os.Stat(f.forms[len(f.forms)-1])
	}
	if err != nil || fi.Mode().IsRegular() || fi.IsDir() {
		return verdict{}, false
	}
	what := "a device"
	switch t := fi.Mode().Type(); {
	case t&fs.ModeNamedPipe != 0:
		what = "a named pipe, whose open waits for another process and would hang the IDE"
	case t&fs.ModeSocket != 0:
		what = "a socket"
	case t&fs.ModeCharDevice != 0:
		what = "a character device"
	}
	return verdict{value: Deny, ref: "special-file", ruleTx: refusalRules["special-file"],
		reason: fmt.Sprintf("%s %q: it is %s, not a file the IDE can read or write as text", e.describeAction(in), p, what)}, true
}

// hardLinkVerdict asks about a read or write of a regular file with more
// than one name (hard links) when the policy restricts any path: the other
// name may be one a rule denies (a hard link to .env reads the secret), and
// nothing in a name says where else the file lives. Hard links to the
// bridge's own files are refused by self-protection instead. f holds the
// path's forms (pathForms); the last is where it leads.
func (e *Engine) hardLinkVerdict(in *reqInfo, p string, f *pathFacts) (verdict, bool) {
	if !in.read && !in.write || in.req.Action == ActionSessionNew {
		return verdict{}, false
	}
	if linked := f.links(); linked[len(linked)-1] == nil {
		return verdict{}, false
	}
	for _, r := range e.policy.rules {
		if r.value == Allow || r.advisory || r.path == nil || !r.applies(in, catPath) {
			continue
		}
		return verdict{value: RequireApproval, ref: "hard-link", ruleTx: refusalRules["hard-link"],
			reason: fmt.Sprintf("%s %q: the file has other names (hard links), and one of them may be a file %s restricts; the bridge cannot tell which", e.describeAction(in), p, r.text)}, true
	}
	return verdict{}, false
}
