package audit

import (
	"hash/maphash"
	"strings"
	"sync/atomic"
)

// Records repeat the same short strings: a decision's rule and reason,
// the agent's id, a tool's name, a status, a session id. Each is scanned
// for secrets (scanSecrets) in every record it is in. cleanStrings
// remembers recent short strings in which the scan found no secret, so
// that the next record holding one takes it as it is: the scan depends
// on nothing but the string. Only strings without a secret are kept, so
// the memory holds no secret the log left out.

// cleanStrings is a fixed set of strings known to hold no secret, one
// per slot by hash, the newest replacing the one before in its slot. It
// is safe for concurrent use: a slot holds a pointer to a string that is
// never changed, so a look-up needs no lock (several are made per record).
type cleanStrings struct {
	seed  maphash.Seed
	slots [cleanSlots]atomic.Pointer[string]
}

// cleanSlots is how many strings cleanStrings keeps; cleanMaxLen is the
// longest it keeps.
const (
	cleanSlots  = 512
	cleanMaxLen = 256
)

// clean is the set redactCount consults.
var clean = &cleanStrings{seed: maphash.MakeSeed()}

// has reports whether s is known to hold no secret.
func (c *cleanStrings) has(s string) bool {
	if len(s) > cleanMaxLen {
		return false
	}
	p := c.slots[maphash.String(c.seed, s)%cleanSlots].Load()
	return p != nil && *p == s
}

// add records that s holds no secret.
func (c *cleanStrings) add(s string) {
	if len(s) > cleanMaxLen {
		return
	}
	// A copy: s may be part of a much larger string, or a view of a
	// buffer that is used again.
	s = strings.Clone(s)
	c.slots[maphash.String(c.seed, s)%cleanSlots].Store(&s)
}
