package acpwire

// memo is one reading of a message, under the key that names it.
type memo struct {
	key any
	val any
}

// Memo returns what read returns, calling read only the first time Memo is
// asked for key on m, so that features that read a message the same way
// (acpparams.UpdateOf) share one reading instead of each making its own.
// read must read m's bytes alone, which never change, and key must name
// read: a comparable value of a type of the reader's package. A
// replacement built with WithRaw or Patch is another message, read afresh.
// A message keeps one reading; asked for another key, Memo reads and keeps
// that one instead. A copy of the Message struct carries the reading along,
// so a copy whose bytes differ must not be read through Memo. Like the rest
// of a message's handling, Memo must not be called on one message from two
// goroutines at once.
func (m *Message) Memo(key any, read func() any) any {
	if m.memo != nil && m.memo.key == key {
		return m.memo.val
	}
	v := read()
	m.memo = &memo{key: key, val: v}
	return v
}
