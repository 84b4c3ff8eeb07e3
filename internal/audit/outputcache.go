package audit

import (
	"bytes"
	"sync"
)

// A tool call's output often goes into more than one record: governance
// records a finished call with its output, then a policy.violation whose
// tool-call mirror carries the same output again. Reading an output
// (validating it, hashing and redacting its strings, encoding it) is most
// of what a record costs, and what it gives depends only on the output's
// bytes and on the Log's options, which do not change: so the Log keeps
// the last output it read, and a record with the same bytes takes the
// tree made for it.

// maxLastOutput is the largest output lastOutput keeps: it holds a copy
// of the bytes and the tree made from them.
const maxLastOutput = 256 << 10

// lastOutput is the tool output a Log read last and its tree. It is safe
// for concurrent use.
type lastOutput struct {
	mu  sync.Mutex // guards raw and st
	raw []byte     // a copy of the output's bytes: the caller's may change
	st  *sharedTree
}

// get returns the tree of raw when raw is the output read last, else nil.
func (c *lastOutput) get(raw []byte) *sharedTree {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.st == nil || !bytes.Equal(c.raw, raw) {
		return nil
	}
	return c.st
}

// put keeps st as the tree of raw. A tree whose canonical form is not
// made yet is not kept: appendCanonical makes it on first use, which two
// records appended at once must not do together.
func (c *lastOutput) put(raw []byte, st *sharedTree) {
	if st.canon == nil || len(raw) > maxLastOutput {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.raw = append(c.raw[:0], raw...)
	c.st = st
}
