package governance

// applies reports whether r may match a request in. sub is the subject's
// category (catTool for the tool itself).
func (r *rule) applies(in *reqInfo, sub category) bool {
	if len(r.actions) > 0 {
		ok := false
		for _, a := range r.actions {
			if matchAction(a, in.req.Action) {
				ok = true
				break
			}
		}
		if !ok {
			return false
		}
	}
	return r.appliesTo(in.read, in.write, in.command || in.req.Command != "", in.fetch || in.req.URL != "", sub)
}

// appliesTo is applies without the actions: whether r may match subject
// sub of a request that reads, writes, runs a command or fetches.
func (r *rule) appliesTo(read, write, command, fetch bool, sub category) bool {
	switch r.cat {
	case catAny:
		return sub == catTool
	case catTool:
		return sub == catTool
	case catPath:
		return sub == catPath
	case catRead:
		return read && (sub == catPath || r.all && sub == catTool)
	case catWrite:
		return write && (sub == catPath || r.all && sub == catTool)
	case catCommand:
		return command && (sub == catCommand || r.all && sub == catTool)
	case catFetch:
		return fetch && (sub == catFetch || r.all && sub == catTool)
	case catEnv:
		return sub == catEnv
	}
	return false
}

// fold says whether a rule compares without regard to case. Rules that
// restrict do, so "READ.ENV" or "/W/.Env" cannot slip past them on a file
// system that ignores case; allow rules do not, so they never allow more
// than written.
func (r *rule) fold() bool { return r.value != Allow }

// rulesFor returns the rules that may apply to a subject of category sub
// (rule.applies is false for every other rule), in policy order.
func (e *Engine) rulesFor(sub category) []*rule { return e.bySubject[sub] }

// pick returns the strictest matching rule; among equals, the first.
// match is given each rule's index in e.rulesFor(sub).
func (e *Engine) pick(in *reqInfo, sub category, match func(i int, r *rule) bool, advisories *[]string) *rule {
	var best *rule
	for i, r := range e.rulesFor(sub) {
		if !r.applies(in, sub) || !match(i, r) {
			continue
		}
		if r.advisory {
			*advisories = append(*advisories, r.describe())
			continue
		}
		if best == nil || r.value.Stricter(best.value) {
			best = r
		}
	}
	return best
}
