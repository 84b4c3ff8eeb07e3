package compress

import (
	"fmt"
	"slices"
	"testing"
)

// FuzzUpdateSessionHit plays the same operations on two pipelines, one
// answering updateSession from its last answer where it can (p.hit) and
// one always taking the locked path, and checks that every answer, the
// sessions kept and their recency are the same: updates (which never
// open a session) for a few
// downstream ids, lookups and sessionFor of IDE ids (which move a session
// to the front), the IDE loading a session, a rollover's id translation,
// the IDE closing a session, with room for three sessions so that the least recently used is
// forgotten.
func FuzzUpdateSessionHit(f *testing.F) {
	f.Add([]byte{0, 0, 0, 0, 0, 1, 1, 0, 0, 0, 2, 3, 0, 0, 0, 1})
	f.Add([]byte{0, 0, 0, 1, 0, 2, 0, 3, 0, 4, 0, 0, 1, 1, 0, 0})
	f.Add([]byte{0, 2, 3, 2, 0, 2, 4, 2, 0, 2, 0, 2, 4, 3, 0, 3, 0, 2})
	f.Add([]byte{2, 1, 0, 1, 5, 1, 0, 1, 2, 1, 0, 1})
	f.Fuzz(func(t *testing.T, ops []byte) {
		cached, err := New(Config{CacheDir: t.TempDir(), MaxSessions: 3}, nil)
		if err != nil {
			t.Fatal(err)
		}
		locked, err := New(Config{CacheDir: t.TempDir(), MaxSessions: 3}, nil)
		if err != nil {
			t.Fatal(err)
		}
		ids := []string{"a", "b", "c", "d", "e"}
		for i := 0; i+1 < len(ops); i += 2 {
			id, other := ids[int(ops[i+1])%len(ids)], ids[int(ops[i+1]/8)%len(ids)]
			var got, want string
			for _, p := range []*Pipeline{cached, locked} {
				var out string
				switch ops[i] % 6 {
				case 0:
					if p == locked {
						p.hit.Store(nil)
					}
					ide, s, loading := p.updateSession(id)
					kept := "none"
					if s != nil {
						kept = s.ide
					}
					out = fmt.Sprintf("update %s: %s %s %v", id, ide, kept, loading)
				case 1:
					if s := p.lookup(id); s != nil {
						out = "lookup " + s.ide
					}
				case 2:
					out = "sessionFor " + p.sessionFor(id, "").ide
				case 3:
					p.lockChanging()
					p.loading[id] = !p.loading[id]
					p.mu.Unlock()
				case 4:
					p.lockChanging()
					p.downToIDE[id] = other
					p.mu.Unlock()
				case 5:
					p.closeSession(id)
				}
				p.mu.Lock()
				var order []string
				for e := p.recency.Front(); e != nil; e = e.Next() {
					order = append(order, e.Value.(*session).ide)
				}
				sessions := make([]string, 0, len(p.sessions))
				for k := range p.sessions {
					sessions = append(sessions, k)
				}
				slices.Sort(sessions)
				p.mu.Unlock()
				out += fmt.Sprintf(" | recency %v sessions %v", order, sessions)
				if p == cached {
					got = out
				} else {
					want = out
				}
			}
			if got != want {
				t.Fatalf("op %d (%d on %s): with the last answer kept %q, locked %q", i/2, ops[i]%6, id, got, want)
			}
		}
		for _, p := range []*Pipeline{cached, locked} {
			if err := p.Close(); err != nil {
				t.Fatal(err)
			}
		}
	})
}
