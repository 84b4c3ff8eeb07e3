package auditweb

import (
	"context"
	"fmt"
	"os"
)

// startLoad marks x as not read yet: pages say how far the first pass
// (load) got until it is done.
func (x *logIndex) startLoad() {
	x.mu.Lock()
	defer x.mu.Unlock()
	x.collecting, x.loading = true, true
	if names, err := chainFiles(x.base); err == nil {
		for _, name := range names {
			if fi, err := os.Lstat(name); err == nil {
				x.loadTotal += fi.Size()
			}
		}
	}
}

// load is the first indexing pass over x, begun by startLoad: it reads
// the log in steps (see refresh), tallying each session's summary as it
// goes, and then marks x loaded (also when it failed or ctx ended it, so
// nothing waits for it forever).
func (x *logIndex) load(ctx context.Context) error {
	_, err := x.refreshUntil(ctx)
	x.mu.Lock()
	defer x.mu.Unlock()
	if x.loading {
		x.loading = false
		x.summaries = false
		close(x.loaded)
		x.notify()
	}
	return err
}

// waitLoaded waits until the first pass over x is done, or ctx is.
func (x *logIndex) waitLoaded(ctx context.Context) error {
	select {
	case <-x.loaded:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// loadStatus says how far the first pass got, or "" when it is done.
// Called with mu held.
func (x *logIndex) loadStatus() string {
	if !x.loading {
		return ""
	}
	var read int64
	for _, xf := range x.files {
		read += xf.size
	}
	total := max(x.loadTotal, read)
	pct := 100
	if total > 0 {
		pct = int(read * 100 / total)
	}
	return fmt.Sprintf("Reading the log: %s of %s (%d%%) so far. The records, sessions and counts on this page are those read until now; it updates itself as reading goes on.",
		mb(read), mb(total), pct)
}

// mb formats a size in bytes for people.
func mb(n int64) string {
	if n < 1<<20 {
		return fmt.Sprintf("%d KB", n>>10)
	}
	return fmt.Sprintf("%.1f MB", float64(n)/(1<<20))
}
