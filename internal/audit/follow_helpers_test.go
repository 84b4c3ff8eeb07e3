package audit

import (
	"context"
	"sync"
	"testing"
)

// followRun is Follow running on a log from its start, with every entry
// it has passed on.
type followRun struct {
	cancel context.CancelFunc
	done   chan error
	mu     sync.Mutex // guards got while Follow runs
	got    []Entry
}

// startFollow starts Follow on the log at path in a goroutine (in the
// caller's synctest bubble, when there is one); stop ends it.
func startFollow(path string) *followRun {
	ctx, cancel := context.WithCancel(context.Background())
	f := &followRun{cancel: cancel, done: make(chan error)}
	go func() {
		f.done <- Follow(ctx, path, 0, func(e Entry) {
			f.mu.Lock()
			f.got = append(f.got, e)
			f.mu.Unlock()
		})
	}()
	return f
}

// stop cancels Follow, fails t if Follow returned an error, and returns
// the entries it passed on, in order.
func (f *followRun) stop(t *testing.T) []Entry {
	t.Helper()
	f.cancel()
	if err := <-f.done; err != nil {
		t.Fatal(err)
	}
	return f.got
}
