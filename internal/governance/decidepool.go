package governance

import "sync"

// A decision's working state (its request, the facts of its first paths,
// its verdicts) is a few KiB that Decide needs for microseconds. Made
// afresh for each decision it was memory the processor had not touched
// for a while, cleared and then written; Decide takes it from a pool
// instead and gives it back cleared, so the next decision finds it warm.
// Only the working state is reused: what a decision says (Decision, its
// Subjects and Advisories) is made for it, and no answer of the file
// system outlives the decision that asked (decidememo.go).

// decisions holds cleared *decision values for Decide.
var decisions = sync.Pool{New: func() any { return new(decision) }}

// poisonReleased, when set (by the package's tests), is given each
// decision Decide releases in place of clearing it, so that anything that
// kept a pointer into a released decision reads garbage at once rather
// than, now and then, another decision's state; newDecision clears what
// it takes when it is set.
var poisonReleased func(*decision)

// takeDecision returns a cleared decision.
func takeDecision() *decision {
	d := decisions.Get().(*decision)
	if poisonReleased != nil {
		*d = decision{}
	}
	return d
}

// release gives d back for another decision. Nothing may use d, or any
// pointer into it, afterwards.
func release(d *decision) {
	if poisonReleased != nil {
		poisonReleased(d)
	} else {
		*d = decision{}
	}
	decisions.Put(d)
}
