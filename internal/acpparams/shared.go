package acpparams

// Memoizer is a message that keeps a reading of its bytes for whoever reads
// it next the same way: an *acpwire.Message (see its Memo).
type Memoizer interface {
	Memo(key any, read func() any) any
}

// updateKey names ReadUpdate's reading of a message (Memoizer.Memo).
type updateKey struct{}

// updateRead is ReadUpdate's result, as kept on a message, with the params
// it read.
type updateRead struct {
	params []byte
	u      Update
	err    error
}

// UpdateOf returns ReadUpdate(params), where params are m's params
// (m.Params of an *acpwire.Message), reading them only the first time it is
// asked for m: compression and governance both read each session/update
// they see, and share the reading. Params other than those the reading
// kept on m was made from are read afresh. The Update's slices
// (Items, Locations) are shared by every caller: read them, do not change
// them.
func UpdateOf(m Memoizer, params []byte) (Update, error) {
	r := m.Memo(updateKey{}, func() any {
		u, err := ReadUpdate(params)
		return &updateRead{params: params, u: u, err: err}
	}).(*updateRead)
	if !sameSlice(r.params, params) {
		return ReadUpdate(params)
	}
	return r.u, r.err
}

// sameSlice reports whether a and b are the same bytes in memory.
func sameSlice(a, b []byte) bool {
	return len(a) == len(b) && (len(a) == 0 || &a[0] == &b[0])
}
