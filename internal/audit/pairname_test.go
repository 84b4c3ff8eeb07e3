package audit

import (
	"strings"
	"testing"
)

// TestSecretPairNameRedactedWhole: an env entry or header whose name is a
// secret-shaped name and is itself a token ({"name": "ghp_...token",
// "value": "x"}) is encoded the same every time, whichever of name and
// value the redactor's walk meets first, and never panics: the agent
// chooses such names (terminal/create's env), and a record is prepared on
// the audit queue's goroutine, where a panic ends the bridge.
func TestSecretPairNameRedactedWhole(t *testing.T) {
	name := "ghp_" + strings.Repeat("A1", 15) + "Zabtoken" // a GitHub token's shape, ending in "token"
	if !isSecretKey(name) {
		t.Fatalf("isSecretKey(%q) = false", name)
	}
	l := fieldLog(Options{})
	var first string
	for i := range 200 {
		env := []any{map[string]any{"name": name, "value": "hunter2hunter2"}}
		for _, path := range []string{"map", "tree"} {
			var got []byte
			var err error
			func() {
				defer func() {
					if v := recover(); v != nil {
						t.Fatalf("run %d, %s: panic: %v", i, path, v)
					}
				}()
				in := map[string]any{"command": "env", "env": env}
				if path == "map" {
					got, _, err = l.field(nil, "input", in, true)
				} else {
					got, _, err = l.fieldTree(nil, "input", map[string]any{"command": "env", "env": []any{map[string]any{"name": name, "value": "hunter2hunter2"}}}, true)
				}
			}()
			if err != nil {
				t.Fatalf("run %d, %s: %v", i, path, err)
			}
			if strings.Contains(string(got), "hunter2") || strings.Contains(string(got), "A1A1A1") {
				t.Fatalf("run %d, %s: a secret is in %s", i, path, got)
			}
			if first == "" {
				first = string(got)
			} else if string(got) != first {
				t.Fatalf("run %d, %s: %s, before %s", i, path, got, first)
			}
		}
	}
}
