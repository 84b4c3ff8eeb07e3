package audit

import (
	"strconv"
	"sync"
	"testing"
)

// TestCleanStrings: a string scanned once is taken as it is the next
// time only when the scan found no secret in it.
func TestCleanStrings(t *testing.T) {
	for _, s := range []string{"allow Read (/work/GOVERNANCE.md:75)", "export GITHUB_TOKEN=ghp_0123456789abcdefghijklmnopqrstuvwxyzAB",
		"password=hunter22", "agent:claude-code"} {
		want, wantReason, wantN := scanSecrets(s)
		for range 2 {
			got, reason, n := redactCount(s)
			if got != want || reason != wantReason || n != wantN {
				t.Errorf("redactCount(%q) = %q, %q, %d; want %q, %q, %d", s, got, reason, n, want, wantReason, wantN)
			}
		}
		if clean.has(s) != (wantN == 0) {
			t.Errorf("%q kept as clean: %v, found %d secrets", s, clean.has(s), wantN)
		}
	}
}

// FuzzCleanStrings: redactCount, asked twice, says what the scan says.
func FuzzCleanStrings(f *testing.F) {
	for _, s := range []string{"tool-call", "password=hunter22", "Authorization: Bearer abcdefgh12345678", "the build failed on line 12",
		"aws_secret_access_key wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		want, wantReason, wantN := scanSecrets(s)
		if len(s) < 8 {
			want, wantReason, wantN = s, "", 0
		}
		for range 2 {
			if got, reason, n := redactCount(s); got != want || reason != wantReason || n != wantN {
				t.Fatalf("redactCount(%q) = %q, %q, %d; want %q, %q, %d", s, got, reason, n, want, wantReason, wantN)
			}
		}
	})
}

// TestCleanStringsConcurrent: redactCount from many goroutines at once,
// on strings that share slots, says what the scan says (run with -race).
func TestCleanStringsConcurrent(t *testing.T) {
	texts := []string{"allow Read (/work/GOVERNANCE.md:75)", "password=hunter22", "agent:claude-code", "session-0123456789",
		"export GITHUB_TOKEN=ghp_0123456789abcdefghijklmnopqrstuvwxyzAB", "the build failed on line 12"}
	for i := range 600 {
		texts = append(texts, "call_"+strconv.Itoa(i)+"_src/file.go")
	}
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Go(func() {
			for i := range 3000 {
				s := texts[(i*7+g)%len(texts)]
				want, wantReason, wantN := scanSecrets(s)
				if got, reason, n := redactCount(s); got != want || reason != wantReason || n != wantN {
					t.Errorf("redactCount(%q) = %q, %q, %d; want %q, %q, %d", s, got, reason, n, want, wantReason, wantN)
					return
				}
			}
		})
	}
	wg.Wait()
}
