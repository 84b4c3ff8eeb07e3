package acpwire

import "testing"

// TestIDKeySameValue holds ids every JSON reader reads as one value to one
// key: a peer answers under its own spelling of the id it read, and the
// answer must be matched to that request, never to another.
func TestIDKeySameValue(t *testing.T) {
	for _, tc := range []struct {
		name string
		a, b string
	}{
		{"escape of a letter", `"\u0061"`, `"a"`},
		{"escaped and raw soft hyphen", `"p\u00ad"`, "\"p\u00ad\""},
		{"escaped and raw line separator", `"p\u2028"`, "\"p\u2028\""},
		{"escaped and raw accented letter", `"\u00e9"`, "\"\u00e9\""},
		{"escaped and raw surrogate pair", `"\ud83d\ude00"`, "\"\U0001F600\""},
		{"escaped slash", `"a\/b"`, `"a/b"`},
		{"integer as float", `1.0`, `1`},
		{"integer with exponent", `1e0`, `1`},
		{"negative zero", `-0`, `0`},
		{"beyond a double's integers", `9007199254740993`, `9007199254740992`},
		{"space around", " \"a\" ", `"a"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if ka, kb := idKey([]byte(tc.a)), idKey([]byte(tc.b)); ka != kb {
				t.Errorf("idKey(%s) = %q, idKey(%s) = %q: want one key", tc.a, ka, tc.b, kb)
			}
		})
	}
}

// TestIDKeyDifferentValue keeps ids of different values apart, and an id
// the bridge refuses apart from every id it accepts.
func TestIDKeyDifferentValue(t *testing.T) {
	for _, tc := range []struct {
		name string
		a, b string
	}{
		{"number and string", `7`, `"7"`},
		{"null and string", `null`, `"null"`},
		{"case", `"a"`, `"A"`},
		{"refused surrogate and accepted backslash", `"\ud800"`, `"\\ud800"`},
		{"refused bad byte and accepted replacement", "\"\xff\"", `"\ufffd"`},
		{"refused infinity and accepted string", `1e400`, `"1e400"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if ka, kb := idKey([]byte(tc.a)), idKey([]byte(tc.b)); ka == kb {
				t.Errorf("idKey(%s) = idKey(%s) = %q: want two keys", tc.a, tc.b, ka)
			}
		})
	}
}

// TestIDReadDifferentlyRefused refuses a request whose id JSON readers
// decode to different values, or which a peer reading numbers as doubles
// writes back as another number (acp-go-sdk keeps the decimal, so the
// answer would match no request there).
func TestIDReadDifferentlyRefused(t *testing.T) {
	for _, tc := range []struct {
		name   string
		id     string
		refuse bool
	}{
		{"invalid UTF-8", "\"a\xff\"", true},
		{"truncated sequence", "\"a\xe2\x80\"", true},
		{"lone high surrogate", `"\ud800"`, true},
		{"lone low surrogate", `"\udc00x"`, true},
		{"overflowing number", `1e400`, true},
		{"overflowing negative number", `-1e400`, true},
		{"surrogate pair", `"\ud83d\ude00"`, false},
		{"raw format character", "\"p\u00ad\"", false},
		{"underflowing number (written back as 0)", `1e-400`, true},
		{"a decimal a double rounds (written back as 1)", `1.00000000000000000001`, true},
		{"beyond a double's integers (written back as ...992)", `9007199254740993`, true},
		{"large number", `1e300`, false},
		{"zero with an exponent past a double's", `0e5000`, true},
		{"negative zero with a large exponent", `-0e9999`, true},
		{"zero with a small exponent", `0e5`, false},
		{"a fraction written back as it is", `0.1`, false},
		{"an integer as a float", `1.0`, false},
		{"an integer with an exponent", `1e0`, false},
		{"a long number", `1.00000000000000000000000000000000000000000000000000000000000000001`, true},
		{"null", `null`, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			line := `{"jsonrpc":"2.0","id":` + tc.id + `,"method":"fs/read_text_file","params":{"sessionId":"s","path":"/ws/a"}}`
			m, err := Parse(AgentToClient, []byte(line))
			if err != nil {
				t.Fatalf("Parse: %v", err)
			}
			if refused := m.Kind != KindRequest; refused != tc.refuse {
				t.Errorf("id %s: refused %v (%q), want %v", tc.id, refused, m.invalid, tc.refuse)
			}
		})
	}
}
