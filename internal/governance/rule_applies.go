package governance

// applies reports whether r may match a request in. sub is the subject's
// category (catTool for the tool itself).
func (r *rule) applies(in *reqInfo, sub category) bool {
	return r.actionApplies(in.req.Action) && r.appliesTo(in.read, in.write, in.command || in.req.Command != "", in.fetch || in.req.URL != "", sub)
}

// actionApplies reports whether r may match a request of action: it
// names no actions, or one of its patterns matches.
func (r *rule) actionApplies(action string) bool {
	if len(r.actions) == 0 {
		return true
	}
	for _, a := range r.actions {
		if matchAction(a, action) {
			return true
		}
	}
	return false
}

// kindSets is the number of combinations of appliesTo's four request
// kinds (kindSet).
const kindSets = 16

// kindSet numbers the combination of appliesTo's request kinds for in:
// whether it reads, writes, runs a command, fetches.
func (in *reqInfo) kindSet() int {
	k := 0
	if in.read {
		k |= 1
	}
	if in.write {
		k |= 2
	}
	if in.command || in.req.Command != "" {
		k |= 4
	}
	if in.fetch || in.req.URL != "" {
		k |= 8
	}
	return k
}

// appliesToBits returns, for each combination of request kinds (kindSet)
// and each subject category, which rules of rulesFor(sub) appliesTo says
// may match: made when the engine is, so that pick asks a rule only for
// its actions.
func appliesToBits(bySubject *[catEnv + 1][]*rule) (out [kindSets][catEnv + 1]ruleBits) {
	for k := range kindSets {
		for sub, rules := range bySubject {
			bits := make(ruleBits, (len(rules)+63)/64)
			for i, r := range rules {
				if r.appliesTo(k&1 != 0, k&2 != 0, k&4 != 0, k&8 != 0, category(sub)) {
					bits[i>>6] |= 1 << (i & 63)
				}
			}
			out[k][sub] = bits
		}
	}
	return out
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
	applies := e.appliesBits[in.kindSet()][sub] // r.applies(in, sub) but for r's actions
	for i, r := range e.rulesFor(sub) {
		if !applies.has(i) || !r.actionApplies(in.req.Action) || !match(i, r) {
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
