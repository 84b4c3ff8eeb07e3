package governance

import (
	"fmt"
	"path"
	"strings"
)

// A glob word of a command is decided as the names it expands to on the
// file system when the request is decided, and as the names a policy's
// rules give that it may expand to once the line runs.

// globNames expands the absolute pattern p against the file system as a
// shell could (boundedGlob: through the links its path names, a leading
// dot matched and case ignored, since the line or the shell's start-up
// files may set dotglob or nocaseglob). ok is false when the expansion
// reads more than globBudget directory entries or matches more than most
// names: too many to check, and the caller asks instead of deciding some
// of them.
func globNames(p string, most int) (names []string, ok bool) {
	budget := globBudget
	names, ok = boundedGlob(p, &budget)
	if !ok || len(names) > most {
		return nil, false
	}
	return names, true
}

// tooManyNames is the verdict on a command whose glob word what expands to
// more names than the bridge checks (globNames): the person is asked.
func tooManyNames(what string) verdict {
	return verdict{value: RequireApproval, ref: "unreadable-command", ruleTx: "require-approval for commands the bridge cannot read through (built-in)",
		reason: fmt.Sprintf("%s: the pattern matches more names than the bridge checks (over %d, or over %d directory entries read)", what, maxGlobMatches, globBudget)}
}

// globMayMatch reports a restrictive path rule whose last segment the glob
// base could expand to once the line runs: it asks at least.
func (e *Engine) globMayMatch(in *reqInfo, base string) (verdict, bool) {
	for _, r := range e.policy.rules {
		if r.value == Allow || r.advisory || r.path == nil || !r.applies(in, catPath) || len(r.path.segs) == 0 {
			continue
		}
		seg := r.path.segs[len(r.path.segs)-1]
		if seg == "" || strings.ContainsAny(seg, "*?[{\\") || strings.HasPrefix(seg, ".") && !strings.HasPrefix(base, ".") {
			continue
		}
		if ok, _ := path.Match(base, seg); ok {
			return verdict{value: RequireApproval, rule: r, ref: r.ref, ruleTx: r.describe(),
				reason: fmt.Sprintf("the pattern %s may expand to %s, which %s %s", base, seg, r.text, pastTense(r.value))}, true
		}
	}
	return verdict{}, false
}
