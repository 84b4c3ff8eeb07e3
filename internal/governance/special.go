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
// forms are the path's forms (pathForms); the last is where it leads.
func (e *Engine) specialFileVerdict(in *reqInfo, p string, forms []string) (verdict, bool) {
	if in.req.Action != ActionFSRead && in.req.Action != ActionFSWrite {
		return verdict{}, false
	}
	fi, err := os.Stat(forms[len(forms)-1])
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
