package acpwire

import "testing"

// TestCreditNoLostWakeup: one taker (tryTake, then take) and one
// giver, with loads around the limits; every take must complete and the
// count must return to zero.
func TestCreditNoLostWakeup(t *testing.T) {
	c := newCredit(load{8, 1000})
	q := make(chan load, 64)
	done := make(chan struct{})
	go func() {
		for l := range q {
			c.give(l)
		}
		close(done)
	}()
	sizes := []load{{1, 10}, {3, 500}, {8, 100}, {1, 5000}, {2, 999}, {9, 1}}
	for i := range 200000 {
		l := sizes[i%len(sizes)]
		if !c.tryTake(l) {
			c.take(l)
		}
		c.mu.Lock()
		over := c.used.msgs > l.msgs && (c.used.msgs > c.max.msgs || c.used.bytes > c.max.bytes)
		c.mu.Unlock()
		if over {
			t.Fatalf("used %+v after taking %+v: over the limit without going alone", c.used, l)
		}
		q <- l
	}
	close(q)
	<-done
	if c.used != (load{}) {
		t.Fatalf("used %+v after all was given back", c.used)
	}
}
