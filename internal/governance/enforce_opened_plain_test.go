package governance

import (
	"testing"

	"github.com/acp-bridge/acp-bridge/internal/rawjson"
)

// openedEnforcer returns an enforcer to which the IDE opened sessions.
func openedEnforcer(sessions ...string) *Enforcer {
	x := NewEnforcer(EnforceOptions{})
	for _, s := range sessions {
		x.opened.add(s)
	}
	return x
}

// checkOpenedPlain fails t when openedPlain passes a sessionId value that
// the general path (rawjson.String, then unopened) would refuse.
func checkOpenedPlain(t *testing.T, x *Enforcer, v []byte) bool {
	t.Helper()
	if !x.openedPlain(v) {
		return false
	}
	sid, ok := rawjson.String(v)
	if !ok {
		t.Fatalf("openedPlain passes %q, which is not a JSON string", v)
	}
	if why := x.unopened(sid); why != "" {
		t.Fatalf("openedPlain passes %q, which the general path refuses: %s", v, why)
	}
	return true
}

// TestOpenedPlain: the fast path passes an open session's id written
// plainly, and leaves every other value to the general path, which
// refuses or passes it as before.
func TestOpenedPlain(t *testing.T) {
	x := openedEnforcer("s1", "sess-9", `a"b`, "caf\u00e9", `a\b`)
	for _, c := range []struct {
		v    string
		pass bool
	}{
		{`"s1"`, true},
		{`"sess-9"`, true},
		{`"s2"`, false},           // not opened
		{`""`, false},             // empty: the general path says so
		{`"s1`, false},            // not a string
		{`s1"`, false},            // not a string
		{`7`, false},              // not a string
		{`"\u0073\u0031"`, false}, // escaped: the general path decodes it
		{`"a\"b"`, false},         // escaped quote
		{`"a\\b"`, false},         // escaped backslash
		{"\"caf\u00e9\"", false},  // beyond ASCII
		{"\"s1\x00\"", false},     // a control byte
		{`"s1" `, false},          // not just the string
		{`"S1"`, false},           // ids compare exactly
		{`"s1\u0000"`, false},     // escaped NUL
		{"\"s\x7f1\"", false},     // DEL
	} {
		if got := checkOpenedPlain(t, x, []byte(c.v)); got != c.pass {
			t.Errorf("openedPlain(%s) = %v, want %v", c.v, got, c.pass)
		}
	}
}

// FuzzOpenedPlain: whatever the value, the fast path passes only what
// the general path passes.
func FuzzOpenedPlain(f *testing.F) {
	for _, s := range []string{`"s1"`, `"s\u0031"`, `""`, `"s1\"`, "\"\xff\"", `"s2"`, `null`} {
		f.Add([]byte(s))
	}
	x := openedEnforcer("s1", "sess-9", `s1\`, "\xff", "s1\x00")
	f.Fuzz(func(t *testing.T, v []byte) {
		checkOpenedPlain(t, x, v)
	})
}
