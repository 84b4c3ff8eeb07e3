package audit

// Most strings hold no secret, and most rules are never needed: before
// any rule runs, candidates finds which rules' triggers occur in the
// string at all, in one pass over its bytes. A byte pair that starts a
// trigger is common in prose (the "se" of "session" starts "secret",
// the "to" of "tool" starts "token"), so the pass looks at three bytes a
// position, without a branch, and tries the triggers only where the
// three bytes start one: a branch taken every few bytes, and
// mispredicted, cost more than the look-ups.

// trigger is one of a rule's triggers.
type trigger struct {
	text string // lowercase
	rule int    // index in rules
}

// triggerPairs lists the triggers by their first two bytes, in both cases
// for letters: pairTriggers[triggerPairs[a][b]] are the triggers that
// start with a, b (index 0 holds none). pairThirds[triggerPairs[a][b]]
// is the set of bytes c (a bit each) such that a, b, c starts one of
// those triggers, in both cases for letters, or every byte for a pair
// that is a whole trigger; pairThirds[0] is empty. Every trigger is at
// least two bytes long.
var triggerPairs, pairTriggers, pairThirds = func() (pairs *[256][256]uint8, lists [][]trigger, thirds *[256][4]uint64) {
	both := func(c byte) []byte {
		if c >= 'a' && c <= 'z' {
			return []byte{c, c - 'a' + 'A'}
		}
		return []byte{c}
	}
	pairs = new([256][256]uint8)
	thirds = new([256][4]uint64)
	lists = [][]trigger{nil}
	for i, r := range rules {
		for _, t := range r.triggers {
			if len(t) < 2 {
				panic("audit: redaction trigger shorter than two bytes: " + t)
			}
			for _, c0 := range both(t[0]) {
				for _, c1 := range both(t[1]) {
					k := pairs[c0][c1]
					if k == 0 {
						if len(lists) > 255 {
							panic("audit: more than 255 pairs of bytes start redaction triggers")
						}
						k = uint8(len(lists))
						pairs[c0][c1] = k
						lists = append(lists, nil)
					}
					lists[k] = append(lists[k], trigger{t, i})
					if len(t) == 2 {
						thirds[k] = [4]uint64{^uint64(0), ^uint64(0), ^uint64(0), ^uint64(0)}
						continue
					}
					for _, c2 := range both(t[2]) {
						thirds[k][c2>>6] |= 1 << (c2 & 63)
					}
				}
			}
		}
	}
	return pairs, lists, thirds
}()

// candidates returns a bit per rule whose triggers occur in s, compared
// without regard to ASCII case.
func candidates(s string) uint64 {
	if len(s) < 2 {
		return 0
	}
	var m uint64
	pairs, thirds := triggerPairs, pairThirds
	c0, c1 := s[0], s[1]
	for i := 2; i < len(s); i++ {
		c2 := s[i]
		if k := pairs[c0][c1]; thirds[k][c2>>6]>>(c2&63)&1 != 0 {
			m = pairMatches(s, i-2, k, m)
		}
		c0, c1 = c1, c2
	}
	// The last pair has no third byte: only a two-byte trigger ends the
	// string there.
	return pairMatches(s, len(s)-2, pairs[c0][c1], m)
}

// pairMatches adds to m the rules of the triggers of pair k that s[i:]
// starts with.
func pairMatches(s string, i int, k uint8, m uint64) uint64 {
	for _, t := range pairTriggers[k] {
		if m&(1<<t.rule) == 0 && hasPrefixFold(s[i:], t.text) {
			m |= 1 << t.rule
		}
	}
	return m
}
