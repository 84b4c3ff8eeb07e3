package governance

// Most locations of a request's protected list are agent configuration
// beneath the workspace roots (agentConfig), one after another: tail
// locations (protected.tail), which a path reaches, beneath one or as a
// nested copy, only through an element starting with the first byte of
// their rel (TestTailFar). The loops over a list (protectedHitOf,
// linkedProtected, protectedCommand) pass over such a run at once when
// no path they compare has an element starting with one of those bytes
// and nothing else could make a location of the run a hit there (a
// rotated sibling, a hard link, a removal of a directory above it, a
// named form): one location at a time they would find nothing in it.

// tailRun is the run of plain tail locations (tail, not Rotated) a
// location of a protected list starts: it and the ones after it up to
// the first that is not one.
type tailRun struct {
	n      int     // locations in the run; 0 when this one is not plain tail
	forms  int     // their forms, together
	starts byteSet // the first bytes of their rels
}

// markTailRuns sets the run of every location of list, which it writes:
// a list protectedForRoots is making, before anyone reads it.
func markTailRuns(list []protected) {
	var run tailRun
	for i := len(list) - 1; i >= 0; i-- {
		pr := &list[i]
		if !pr.tail || pr.Rotated || pr.lrel == "" {
			run = tailRun{}
		} else {
			run.n++
			run.forms += len(pr.forms)
			run.starts.add(pr.lrel[0])
		}
		pr.run = run
	}
}

// passes reports whether no location of the run is reached through an
// element starting as s says a path's elements start (elementStarts).
func (r *tailRun) passes(s byteSet) bool {
	return r.n > 0 && s[0]&r.starts[0]|s[1]&r.starts[1]|s[2]&r.starts[2]|s[3]&r.starts[3] == 0
}

// union returns the bytes in s or t.
func (s byteSet) union(t byteSet) byteSet {
	return byteSet{s[0] | t[0], s[1] | t[1], s[2] | t[2], s[3] | t[3]}
}
