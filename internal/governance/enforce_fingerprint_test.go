package governance

import (
	"crypto/sha256"
	"slices"
	"strings"
	"testing"
)

// fingerprintByHash is fingerprint as a stream of writes to a SHA-256
// hash, the reading of its doc comment: the reference the buffered one
// must agree with, so that a fingerprint recorded before still matches.
func fingerprintByHash(req Request, diffs []string) string {
	h := sha256.New()
	paths := append([]string(nil), req.Paths...)
	slices.Sort(paths)
	for _, s := range append([]string{req.Action, req.Tool, req.Kind, req.Command, req.URL, req.Cwd, boolString(req.CommandUnknown)}, paths...) {
		h.Write([]byte(s))
		h.Write([]byte{0})
	}
	if !writes(req) {
		h.Write([]byte("diffs\x00"))
		for _, d := range diffs {
			h.Write([]byte(d))
			h.Write([]byte{0})
		}
	}
	return string(h.Sum(nil))
}

func TestFingerprintMatchesHash(t *testing.T) {
	long := strings.Repeat("/ws/very/long/path", 100)
	for _, tc := range []struct {
		name  string
		req   Request
		diffs []string
	}{
		{"empty", Request{}, nil},
		{"read", Request{Action: ActionToolCall, Kind: "read", Paths: []string{"/ws/a.go"}, Cwd: "/ws"}, nil},
		{"unsorted paths", Request{Action: ActionToolCall, Kind: "search", Paths: []string{"/ws/b", "/ws/a", "/ws/c"}}, []string{"/ws/d"}},
		{"edit ignores diffs", Request{Action: ActionToolCall, Kind: "edit", Paths: []string{"/ws/a"}}, []string{"/etc/passwd"}},
		{"execute", Request{Action: ActionToolCall, Kind: "execute", Command: "ls -la", Cwd: "/ws", CommandUnknown: true}, nil},
		{"longer than the buffer", Request{Action: ActionToolCall, Kind: "read", Paths: []string{long, long + "2"}, Command: long}, []string{long}},
		{"zero bytes in fields", Request{Tool: "a\x00b", Kind: "c"}, []string{"\x00"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			paths := slices.Clone(tc.req.Paths)
			if got, want := fingerprint(tc.req, tc.diffs), fingerprintByHash(tc.req, tc.diffs); got != want {
				t.Errorf("fingerprint = %x, want %x", got, want)
			}
			if !slices.Equal(paths, tc.req.Paths) {
				t.Errorf("fingerprint reordered the request's paths: %q, was %q", tc.req.Paths, paths)
			}
		})
	}
}

// FuzzFingerprint: the buffered fingerprint is the hashed one on every
// request, and leaves the request's paths as they were.
func FuzzFingerprint(f *testing.F) {
	f.Add("read", "", "/ws", "/ws/b\n/ws/a", "/ws/c", false)
	f.Add("edit", "rm -rf /", "", "", "/ws/a\n/ws/a", true)
	f.Fuzz(func(t *testing.T, kind, command, cwd, paths, diffs string, unknown bool) {
		req := Request{Action: ActionToolCall, Kind: kind, Command: command, Cwd: cwd, CommandUnknown: unknown}
		if paths != "" {
			req.Paths = strings.Split(paths, "\n")
		}
		var ds []string
		if diffs != "" {
			ds = strings.Split(diffs, "\n")
		}
		before := slices.Clone(req.Paths)
		if got, want := fingerprint(req, ds), fingerprintByHash(req, ds); got != want {
			t.Fatalf("fingerprint = %x, want %x", got, want)
		}
		if !slices.Equal(before, req.Paths) {
			t.Fatalf("paths changed: %q, was %q", req.Paths, before)
		}
	})
}

// BenchmarkFingerprint fingerprints a soak read call (one location) the
// buffered way and as a stream of hash writes.
func BenchmarkFingerprint(b *testing.B) {
	req := Request{Action: ActionToolCall, Kind: "read", Title: "read src/file7.go", Paths: []string{"/work/repo/src/file7.go"}, Cwd: "/work/repo"}
	for _, way := range []struct {
		name string
		fp   func(Request, []string) string
	}{{"buffered", fingerprint}, {"hash", fingerprintByHash}} {
		b.Run(way.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				way.fp(req, nil)
			}
		})
	}
}
