package governance

// verdict is the decision for one subject of a request.
type verdict struct {
	value  Value
	rule   *rule // nil for the default and the workspace-roots rule
	ref    string
	ruleTx string
	reason string // if "", the pieces of lazy joined (text)
	// lazy is the reason in pieces, joined only for a verdict a decision
	// keeps: a decision weighs many verdicts (each path as written and
	// resolved, as a read and as a write) and keeps few.
	lazy [4]string
}

// text returns the verdict's reason.
func (v *verdict) text() string {
	if v.reason == "" {
		return v.lazy[0] + v.lazy[1] + v.lazy[2] + v.lazy[3]
	}
	return v.reason
}

// defaultVerdict is the policy's default for what, with its reason joined.
func (e *Engine) defaultVerdict(in *reqInfo, what string) verdict {
	v := e.defaultVerdictOf(in, what, "", "")
	v.reason = v.text()
	return v
}

// defaultVerdictOf is defaultVerdict of what+what1+what2 with its reason
// left in pieces (verdict.lazy).
func (e *Engine) defaultVerdictOf(in *reqInfo, what, what1, what2 string) verdict {
	v, tx := e.policy.Default, e.defaultTx[0]
	if e.policy.OnMutate {
		v, tx = Allow, e.defaultTx[1]
		if in.write || in.command || in.req.Action == ActionSessionNew || !in.read && in.req.Action == ActionToolCall && in.req.Kind != "think" && in.req.Kind != "search" {
			v, tx = RequireApproval, e.defaultTx[2]
		}
	}
	return verdict{value: v, ref: "default", ruleTx: tx, lazy: [4]string{what, what1, what2, ": no rule matches, so the default applies"}}
}

// defaultRuleTexts returns the rule texts of p's default as
// defaultVerdictOf picks them: the default, on-mutate's allow and its
// require-approval.
func defaultRuleTexts(p *Policy) [3]string {
	tx := func(name string) string { return "default " + name + " (" + p.DefaultWhere + ")" }
	return [3]string{tx(string(p.Default)), tx("on-mutate: " + string(Allow)), tx("on-mutate: " + string(RequireApproval))}
}

// ruleVerdict is r's verdict for what, with its reason joined.
func ruleVerdict(r *rule, what string) verdict {
	v := ruleVerdictOf(r, what, "", "")
	v.reason = v.text()
	return v
}

// ruleVerdictOf is ruleVerdict of what+what1+what2 with its reason left
// in pieces (verdict.lazy).
func ruleVerdictOf(r *rule, what, what1, what2 string) verdict {
	return verdict{value: r.value, rule: r, ref: r.ref, ruleTx: r.describe(), lazy: [4]string{what, what1, what2, r.verdictTail()}}
}

// pastTense words v as what happened to a request.
func pastTense(v Value) string {
	switch v {
	case Allow:
		return "allowed"
	case Deny:
		return "denied"
	case Escalate:
		return "escalated"
	}
	return "approval required"
}

// strictest keeps the first strictest of the verdicts it is given, of
// equally strict ones the first the deciders of a command's files pass
// over least (outranks), for a decision weighing several:
//
//	var s strictest
//	s.keep(v) // for each
//	return s.result()
type strictest struct{ v *verdict }

// keep records v when it outranks every verdict kept so far.
func (s *strictest) keep(v verdict) {
	if s.v == nil || outranks(v, *s.v) {
		s.v = &v
	}
}

// keepIf is keep of v when ok, the shape of a decider's results.
func (s *strictest) keepIf(v verdict, ok bool) {
	if ok {
		s.keep(v)
	}
}

// result returns the verdict kept; ok is false when none was.
func (s *strictest) result() (verdict, bool) {
	if s.v == nil {
		return verdict{}, false
	}
	return *s.v, true
}

// outranks reports whether v replaces worst as the verdict of a path (of
// its forms, its other names) or of what a command opens (its files, in
// each place it may run): it is stricter, or it is as strict and comes
// from a source the deciders of a command's operands honour more
// (passedOver).
//
// Those deciders pass over the default (operands are written under the
// rule that allows the command) and, for a file read or beneath what a
// command walks, the workspace roots: a rule's or a built-in's verdict of
// the same value must not hide behind either (the path as written matching
// nothing, or lying outside the roots, while where it leads matches a rule,
// or the file having other names).
func outranks(v, worst verdict) bool {
	return v.value.Stricter(worst.value) || v.value == worst.value && passedOver(worst.ref) > passedOver(v.ref)
}

// passedOver ranks a verdict's ref by how often the deciders of a
// command's operands, files it walks and values of its variables pass over
// it: the default most (2), the workspace roots (1), any other never (0).
func passedOver(ref string) int {
	switch ref {
	case "default":
		return 2
	case "workspace-roots":
		return 1
	}
	return 0
}
