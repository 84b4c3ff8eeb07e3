package accp

import (
	"strings"
	"sync"
	"time"
)

// Tier is one level of the state hierarchy of section 5.1.
type Tier uint8

// The state tiers. Ctx holds context the harness provides, referenced as
// $ctx.key (section 3.2's "src:$ctx.sales_db").
const (
	Hot Tier = iota
	Warm
	Cold
	Ctx
)

var tierNames = [...]string{"hot", "warm", "cold", "ctx"}

// String returns the tier's name as used in refs ("warm").
func (t Tier) String() string { return tierNames[t] }

func tierByName(s string) (Tier, bool) {
	for i, n := range tierNames {
		if n == s {
			return Tier(i), true
		}
	}
	return 0, false
}

// Store keeps the warm, cold and context state of any number of sessions.
// Entries belong to the session that stored them; a ref from another
// session resolves only after Grant (section 9, item 3). It is safe for
// concurrent use.
type Store struct {
	mu      sync.Mutex // guards entries, grants
	entries map[storeKey]entry
	grants  map[[2]string]bool // {from, to}
}

type storeKey struct {
	session string
	tier    Tier
	key     string
}

type entry struct {
	val     Value
	expires time.Time // zero: never
}

// NewStore returns an empty store.
func NewStore() *Store {
	return &Store{entries: map[storeKey]entry{}, grants: map[[2]string]bool{}}
}

// Put stores v under key in session's tier; ttl 0 means no expiry.
func (st *Store) Put(session string, tier Tier, key string, v Value, ttl time.Duration, now time.Time) {
	st.mu.Lock()
	defer st.mu.Unlock()
	e := entry{val: v}
	if ttl > 0 {
		e.expires = now.Add(ttl)
	}
	st.entries[storeKey{session, tier, key}] = e
}

// Delete removes a key.
func (st *Store) Delete(session string, tier Tier, key string) {
	st.mu.Lock()
	defer st.mu.Unlock()
	delete(st.entries, storeKey{session, tier, key})
}

// Forget removes every key of session, in every tier, and the grants from
// and to it.
func (st *Store) Forget(session string) {
	st.mu.Lock()
	defer st.mu.Unlock()
	for k := range st.entries {
		if k.session == session {
			delete(st.entries, k)
		}
	}
	for g := range st.grants {
		if g[0] == session || g[1] == session {
			delete(st.grants, g)
		}
	}
}

// Grant lets session from resolve refs into session to.
func (st *Store) Grant(from, to string) {
	st.mu.Lock()
	defer st.mu.Unlock()
	st.grants[[2]string{from, to}] = true
}

func (st *Store) hasSession(id string) bool {
	for k := range st.entries {
		if k.session == id {
			return true
		}
	}
	return false
}

// Get looks key up in session's tier: E2001 when absent, E2002 when expired.
func (st *Store) Get(session string, tier Tier, key string, now time.Time) (Value, error) {
	st.mu.Lock()
	defer st.mu.Unlock()
	return st.getLocked(session, tier, key, now)
}

func (st *Store) getLocked(session string, tier Tier, key string, now time.Time) (Value, error) {
	// Exact key first, then the longest stored prefix with the rest as a
	// path into its map value ($warm.ckpt_1.status).
	path := key
	var rest []string
	for {
		if e, ok := st.entries[storeKey{session, tier, path}]; ok {
			if !e.expires.IsZero() && now.After(e.expires) {
				return Value{}, errorf(CodeRefExpired, -1, "$%s.%s expired at %s", tier, key, e.expires.UTC().Format(time.RFC3339))
			}
			v := e.val
			for i := len(rest) - 1; i >= 0; i-- {
				w, ok := v.Get(rest[i])
				if !ok {
					return Value{}, errorf(CodeRefNotFound, -1, "$%s.%s: no field %q", tier, key, rest[i])
				}
				v = w
			}
			return v, nil
		}
		i := strings.LastIndexByte(path, '.')
		if i < 0 {
			return Value{}, errorf(CodeRefNotFound, -1, "$%s.%s not found", tier, key)
		}
		rest = append(rest, path[i+1:])
		path = path[:i]
	}
}

// Resolve resolves the ref key (without "$", such as "warm.ckpt_1") for
// session. Keys under an unknown first segment are not state refs: ok is
// false and the ref stays as it is (the draft's "budget:$42.30").
func (st *Store) Resolve(session, ref string, now time.Time) (v Value, ok bool, err error) {
	tname, key, found := strings.Cut(ref, ".")
	tier, known := tierByName(tname)
	if !known || !found || key == "" {
		return Value{}, false, nil
	}
	st.mu.Lock()
	defer st.mu.Unlock()
	v, err = st.getLocked(session, tier, key, now)
	if CodeOf(err) != CodeRefNotFound {
		return v, true, err
	}
	// $cold.<other-session>.key: a cross-session reference.
	other, okey, cut := strings.Cut(key, ".")
	if cut && other != session && st.hasSession(other) {
		if !st.grants[[2]string{session, other}] {
			return Value{}, true, errorf(CodeUnauthorizedRef, -1, "$%s refers to session %q, not granted to %q", ref, other, session)
		}
		v, err = st.getLocked(other, tier, okey, now)
		return v, true, err
	}
	return Value{}, true, err
}
