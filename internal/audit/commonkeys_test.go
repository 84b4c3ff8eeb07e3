package audit

import "testing"

// commonKeys are the names commonKey takes, as its switch lists them.
var commonKeys = []string{
	"type", "text", "content", "kind", "path", "status", "session", "rule", "reason",
	"toolCall", "violation", "enforcement", "advisories", "policyRule", "sessionUpdate", "replay",
	"method", "direction", "size", "title", "locations", "line", "stdout", "stderr", "exitCode",
	"command", "args", "cwd", "toolCallId", "oldText", "newText", "terminalId",
}

// FuzzCommonKey: a name commonKey takes names no secret and is not
// renamed, by the full tests (secretName, renamedName), so the short cut
// changes no answer of isSecretKey or keyRenamed.
func FuzzCommonKey(f *testing.F) {
	for _, k := range commonKeys {
		f.Add(k)
	}
	f.Add("token")
	f.Add("$redacted")
	f.Fuzz(func(t *testing.T, k string) {
		if isSecretKey(k) != (!commonKey(k) && secretName(k)) || keyRenamed(k) != (!commonKey(k) && renamedName(k)) {
			t.Fatalf("%q: the short cut and the full tests disagree in form", k)
		}
		if commonKey(k) && (secretName(k) || renamedName(k)) {
			t.Fatalf("commonKey(%q), yet secretName %v, renamedName %v", k, secretName(k), renamedName(k))
		}
	})
}

// TestCommonKeys: every name of the list is taken by commonKey.
func TestCommonKeys(t *testing.T) {
	for _, k := range commonKeys {
		if !commonKey(k) {
			t.Errorf("commonKey(%q) = false", k)
		}
	}
	for _, k := range []string{"token", "password", "sessionToken", "apiKey", "$redacted", "Type"} {
		if commonKey(k) {
			t.Errorf("commonKey(%q) = true", k)
		}
	}
}
