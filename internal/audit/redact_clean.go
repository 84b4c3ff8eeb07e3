package audit

import (
	"hash/maphash"
	"strings"
	"sync"
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
// is safe for concurrent use.
type cleanStrings struct {
	seed  maphash.Seed
	mu    sync.Mutex // guards slots
	slots [cleanSlots]string
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
	i := maphash.String(c.seed, s) % cleanSlots
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.slots[i] == s
}

// add records that s holds no secret.
func (c *cleanStrings) add(s string) {
	if len(s) > cleanMaxLen {
		return
	}
	i := maphash.String(c.seed, s) % cleanSlots
	// A copy: s may be part of a much larger string.
	s = strings.Clone(s)
	c.mu.Lock()
	defer c.mu.Unlock()
	c.slots[i] = s
}
