package governance

import (
	"fmt"
	"strings"
)

// describeAction names what the request does to its paths, for reasons.
func (e *Engine) describeAction(in *reqInfo) string {
	switch {
	case in.req.Action == ActionSessionNew:
		return "opening a session in"
	case in.command:
		return "running a command on"
	case in.write:
		return "writing"
	case in.read:
		return "reading"
	}
	return "using"
}

// insideRoots reports whether the path form p is one of the request's
// workspace roots or below one.
func (in *reqInfo) insideRoots(p string) bool {
	for _, r := range in.roots {
		if _, ok := cutDir(r, p); ok {
			return true
		}
	}
	return false
}

// decidePath decides the request path p.
func (e *Engine) decidePath(in *reqInfo, p string, advisories *[]string) verdict {
	v := e.decidePathLazy(in, p, advisories)
	v.reason = v.text()
	return v
}

// decidePathLazy is decidePath with the reason possibly left in pieces
// (verdict.lazy), for a caller that reads it only through verdict.text.
func (e *Engine) decidePathLazy(in *reqInfo, p string, advisories *[]string) verdict {
	f := in.facts(p)
	forms, refusal := f.forms, f.refusal
	if refusal != nil {
		return verdict{value: Deny, ref: refusal.ref, ruleTx: refusalRules[refusal.ref],
			reason: fmt.Sprintf("%s %q: %s", e.describeAction(in), p, refusal.why)}
	}
	if v, ok := e.protectedVerdict(in, p, f); ok {
		return v
	}
	if v, ok := e.specialFileVerdict(in, p, f); ok {
		return v
	}
	var worst verdict
	lowerRoots := in.lowerRoots()
	action := e.describeAction(in)
	subjects := f.subjects()
	for i, form := range forms {
		inside := in.insideRoots(form)
		var matches ruleBits // pathRuleMatches of the form, when a rule asks
		best := e.pick(in, catPath, func(j int, r *rule) bool {
			if !inside && r.value != Deny && (r.path == nil || r.path.anchor != anchorAbs) {
				// Outside the roots only a rule that names a fixed
				// directory speaks for a path: a rule written for the
				// workspace (Edit, Write(**/*.sh)) can neither allow it
				// nor turn the built-in deny into a question. A deny
				// is a deny anywhere.
				return false
			}
			if r.all || r.cat == catAny || r.cat == catTool {
				return true
			}
			if r.path == nil {
				return false
			}
			if in.rootsEnt == nil {
				return r.path.matchSubject(&subjects[i], in.roots, lowerRoots, r.fold())
			}
			if matches == nil {
				matches = e.pathRuleMatches(in.rootsEnt, &subjects[i])
			}
			return matches.has(j)
		}, advisories)
		// The session's own offload is decided the same wherever the
		// cache lies: allowed unless a rule stricter than allow names it.
		own := e.ownOffload(in, form, forms[len(forms)-1])
		var v verdict
		switch {
		case best != nil && !(own && best.value == Allow):
			v = ruleVerdictOf(best, action, " ", form)
		case own:
			v = offloadVerdict(action, form)
		case !inside && !in.rootsAside:
			v = verdict{value: Deny, ref: "workspace-roots", ruleTx: "deny paths outside the workspace roots (built-in)",
				reason: fmt.Sprintf("%s %s: outside the workspace roots %s; a rule naming it decides it, such as ask: [%s]",
					action, form, strings.Join(in.roots, ", "), e.ruleNaming(in, form))}
		case in.req.Action == ActionSessionNew:
			// The default is about what the agent does; a session
			// inside the workspace is the person's own choice.
			v = verdict{value: Allow, ref: "workspace-roots", ruleTx: "allow sessions inside the workspace roots (built-in)",
				reason: fmt.Sprintf("%s %s: inside the workspace roots", action, form)}
		default:
			v = e.defaultVerdictOf(in, action, " ", form)
		}
		if i == 0 || in.outranks(v, worst) {
			worst = v
		}
	}
	if v, ok := e.hardLinkVerdict(in, p, f); ok && in.outranks(v, worst) {
		worst = v
	}
	if v, ok := e.instructionWriteVerdict(in, p, forms); ok && in.outranks(v, worst) {
		worst = v
	}
	return worst
}

// outranks is outranks(v, worst) for one of the request's paths: for a
// decider that passes over the default (defaultLast), any other verdict
// outranks the default's, and the default's none.
func (in *reqInfo) outranks(v, worst verdict) bool {
	if in.defaultLast && (v.ref == "default") != (worst.ref == "default") {
		return worst.ref == "default"
	}
	return outranks(v, worst)
}

// ruledBeyondRoots returns the verdict a rule gives the path p, whose
// verdict v is the built-in deny of paths outside the workspace roots,
// with that deny set aside, when the rule restricts it; ok is false for
// any other v. The deny outranks a rule's question, but the deciders of a
// file a command reads, of a variable's value, of a tool's input and of
// the files beneath a directory a command reads pass over it or ask in
// its stead, and that of a file a program may change weighs the policy's
// rules alone: they must not pass over a rule naming where the path leads
// (a symlink outside, or ".." after a symlink, to a file an ask or
// escalate rule names).
func (e *Engine) ruledBeyondRoots(in *reqInfo, p string, v verdict) (verdict, bool) {
	if v.ref != "workspace-roots" || v.value != Deny {
		return verdict{}, false
	}
	sub := *in
	sub.rootsAside = true
	var scratch []string
	w := e.decidePath(&sub, p, &scratch)
	return w, w.rule != nil && w.value != Allow
}

// ruleNaming returns a rule that names the path p outside the roots, for a
// reason's hint: Read or Edit as the request reads or writes, of ~/... for
// a path in the home directory and //... for another. A glob character in
// p is written as a class holding it ([[], [*], [?]) so that the rule
// names p alone, and a rule holding a character YAML's flow sequence reads
// is quoted, as it must be in a policy's list.
func (e *Engine) ruleNaming(in *reqInfo, p string) string {
	tool := "Edit"
	if in.read && !in.write && !in.command {
		tool = "Read"
	}
	pat := "/" + literalPattern.Replace(p)
	switch rel, ok := cutDir(e.home, p); {
	case p == "/":
		pat = "//**"
	case ok && e.home != "" && rel != "":
		pat = "~/" + literalPattern.Replace(rel)
	}
	rule := tool + "(" + pat + ")"
	if strings.ContainsAny(rule, "[]{},#'\"&!|>%@`") || strings.Contains(rule, ": ") {
		rule = "'" + strings.ReplaceAll(rule, "'", "''") + "'"
	}
	return rule
}

// literalPattern writes a rule pattern's glob characters as classes that
// hold them alone.
var literalPattern = strings.NewReplacer("[", "[[]", "*", "[*]", "?", "[?]")
