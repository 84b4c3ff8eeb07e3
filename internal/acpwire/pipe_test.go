package acpwire

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

func osPipe(t testing.TB) (*os.File, *os.File) {
	t.Helper()
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	return r, w
}

// regularFile creates an empty file in t's temporary directory, closed
// when t ends.
func regularFile(t testing.TB) *os.File {
	t.Helper()
	f, err := os.Create(filepath.Join(t.TempDir(), "f"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	return f
}

// settle is how long waitFor waits for a condition that should hold at
// once; only a broken bridge takes that long.
const settle = 10 * time.Second

// waitFor waits until cond holds, failing the test if it does not within
// settle. It polls: the conditions it waits on (bytes in a pipe) have no
// event to wait on.
func waitFor(t testing.TB, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(settle)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("still waiting after %v: %s", settle, what)
		}
		time.Sleep(time.Millisecond)
	}
}
