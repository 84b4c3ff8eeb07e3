package audit

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/gowebpki/jcs"
)

// forgedLine is the line an agent appends after prev, with a valid hash:
// seq, prevHash prev's hash, the action and the approval it wants a
// reviewer to read. Only the hash covers the line, and the agent can
// compute it.
func forgedLine(t *testing.T, prev []byte, seq int64) []byte {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(prev, &m); err != nil {
		t.Fatal(err)
	}
	m["prevHash"], m["seq"], m["action"] = m["hash"], seq, "approval.recorded"
	m["actor"] = map[string]any{"id": "user:alice", "role": "approver"}
	delete(m, "hash")
	delete(m, "hashAlg")
	meta, hasMeta := m["metadata"]
	delete(m, "metadata")
	b, _ := json.Marshal(m)
	canon, err := jcs.Transform(b)
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(canon)
	m["hash"], m["hashAlg"] = hex.EncodeToString(sum[:]), "sha256"
	if hasMeta {
		m["metadata"] = meta
	}
	b, _ = json.Marshal(m)
	if b, err = jcs.Transform(b); err != nil {
		t.Fatal(err)
	}
	if _, err := checkLine(b); err != nil {
		t.Fatalf("the forged line is not valid on its own: %v", err)
	}
	return b
}

// TestFollowForgedLine: while 'audit tail -f' follows the log, the agent
// appends a line of its own with a valid hash. The bridge notices, moves
// the file aside and goes on in a new file with its audit.tamper event at
// the next seq. A forged line claiming a seq far ahead used to move the
// follower past every event the bridge wrote after it (the audit.tamper
// event first), and one claiming the next seq took the place of the
// audit.tamper event: both hid the alarm from the person watching. Every
// event of the bridge is passed on; the forged line and the fork it makes
// are marked Unchained.
func TestFollowForgedLine(t *testing.T) {
	for _, tt := range []struct {
		name string
		seq  func(next int64) int64
		// wantMarked are the actions passed on with Unchained set.
		wantMarked []string
	}{
		{"seq far ahead", func(next int64) int64 { return next + 1_000_000 }, []string{"approval.recorded"}},
		{"the next seq", func(next int64) int64 { return next }, []string{"audit.tamper"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				path := filepath.Join(t.TempDir(), "audit.jsonl")
				l, err := Open(path, Options{})
				if err != nil {
					t.Fatal(err)
				}
				fl := startFollow(path)
				for i := range 3 {
					if err := l.AppendSync(syncEvent(i)); err != nil {
						t.Fatal(err)
					}
				}
				time.Sleep(FollowInterval)
				synctest.Wait()
				data, err := os.ReadFile(path)
				if err != nil {
					t.Fatal(err)
				}
				lines := strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
				forged := forgedLine(t, []byte(lines[len(lines)-1]), tt.seq(int64(len(lines))))
				f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
				if err != nil {
					t.Fatal(err)
				}
				f.Write(append(forged, '\n'))
				f.Close()
				time.Sleep(FollowInterval)
				synctest.Wait() // Follow has read the forged line
				for i := 3; i < 6; i++ {
					// The first append finds the file tampered with and
					// records it, then goes on in a new file.
					for l.AppendSync(syncEvent(i)) != nil {
						time.Sleep(10 * time.Millisecond)
					}
				}
				l.Close()
				time.Sleep(2 * FollowInterval)
				synctest.Wait()
				var passed, marked []string
				for _, e := range fl.stop(t) {
					passed = append(passed, fmt.Sprintf("%d %s", e.Seq, e.Action))
					if e.Unchained != "" {
						marked = append(marked, e.Action)
					}
				}
				all := strings.Join(passed, ", ")
				for _, want := range []string{"3 audit.tamper", "4 fs.read", "5 fs.read", "6 fs.read"} {
					if !strings.Contains(all, want) {
						t.Errorf("the bridge's event %q was not passed on; passed: %s", want, all)
					}
				}
				if !strings.Contains(all, "approval.recorded") {
					t.Errorf("the forged line was not passed on: %s", all)
				}
				if strings.Join(marked, ",") != strings.Join(tt.wantMarked, ",") {
					t.Errorf("marked %v, want %v; passed: %s", marked, tt.wantMarked, all)
				}
			})
		})
	}
}
