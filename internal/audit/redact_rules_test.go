package audit

import "testing"

// TestRedactRulesCompile compiles every redaction rule's expression, which
// the redactor otherwise compiles only when a string first holds one of the
// rule's triggers: a bad expression fails here, not in a bridge's session.
// An anchored rule's expression must start with ^.
func TestRedactRulesCompile(t *testing.T) {
	for _, r := range rules {
		re := r.re()
		if re == nil {
			t.Fatalf("%s: no regexp", r.reason)
		}
		if re != r.re() {
			t.Errorf("%s: compiled again on the second call", r.reason)
		}
		if expr := re.String(); r.anchored && (len(expr) == 0 || expr[0] != '^') {
			t.Errorf("%s: anchored, but its expression %q does not start with ^", r.reason, expr)
		}
	}
}
