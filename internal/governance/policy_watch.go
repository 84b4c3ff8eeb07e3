package governance

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"slices"
	"sync"
	"time"

	"github.com/acp-bridge/acp-bridge/internal/audit"
)

// The bridge decides with the policy it loaded when it started; a change
// to a policy file while it runs takes effect at the next start. The agent
// may not make one (self-protection), but the person may, and so may a
// command the person approved that changed files it did not name (git
// checkout BRANCH): either way the next run obeys a different policy. So
// the files are checked while the bridge runs, and a change is recorded
// (policy.changed, with the content's SHA-256 before and after) and told to
// the person, who can see what changed it before the next start.

// policyWatchInterval is how often the policy files are checked.
const policyWatchInterval = 2 * time.Second

// fileDigest is a file's content as the watch last saw it: its SHA-256 in
// hex, "missing" when it does not exist, or "unreadable: <error>".
func fileDigest(path string) string {
	b, err := os.ReadFile(path)
	switch {
	case os.IsNotExist(err):
		return "missing"
	case err != nil:
		return "unreadable: " + err.Error()
	}
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

// watchFiles calls changed(path, before, after) from its own goroutine,
// in order, each time one of files differs from what it held when the
// watch started (or at the last change), checking every interval until
// the returned stop is called; stop waits for the goroutine to end.
func watchFiles(files []string, interval time.Duration, changed func(path, before, after string)) (stop func()) {
	seen := make(map[string]string, len(files))
	for _, f := range files {
		seen[f] = fileDigest(f)
	}
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	wg.Go(func() {
		t := time.NewTicker(interval)
		defer t.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-t.C:
			}
			for _, f := range files {
				if now := fileDigest(f); now != seen[f] {
					changed(f, seen[f], now)
					seen[f] = now
				}
			}
		}
	})
	return func() { cancel(); wg.Wait() }
}

// WatchPolicy checks the policy's files (the GOVERNANCE.md, what it
// extends, its POLICY.md files) every two seconds while the bridge runs,
// and records and tells the person of each change (see PolicyChanged). It
// returns the function that stops the watch; with no policy it does
// nothing.
func (s *Setup) WatchPolicy() (stop func()) {
	if s.Policy == nil || s.Enforcer == nil {
		return func() {}
	}
	return watchFiles(s.Policy.Files(), policyWatchInterval, s.Enforcer.PolicyChanged)
}

// PolicyChanged records that the policy file path changed on disk while
// the bridge ran (its content's digest before and after, fileDigest's
// words), logs it and tells the person in every session open: the bridge
// keeps deciding with the policy it loaded, and the next run loads the
// file as it is.
func (x *Enforcer) PolicyChanged(path, before, after string) {
	text := fmt.Sprintf("acp-bridge: the governance policy %s changed on disk while the agent ran (SHA-256 %s, then %s). "+
		"This run keeps the policy it started with; the next run loads the file as it is now: check who changed it before you start again.",
		path, before, after)
	x.log.Warn("governance: the policy changed on disk", "file", path, "before", before, "after", after)
	ev := audit.Event{Actor: actorBridge, Action: "policy.changed", Subject: audit.Subject{Kind: "file", Path: path},
		Input: map[string]any{"before": before, "after": after}}
	if err := x.record(ev); err != nil {
		x.log.Error("governance: recording a policy change", "err", err)
	}
	x.mu.Lock()
	sids := make([]string, 0, x.opened.len())
	for sid := range x.opened.at {
		sids = append(sids, sid)
	}
	x.mu.Unlock()
	slices.Sort(sids)
	for _, sid := range sids {
		x.tell(sid, text)
	}
}
