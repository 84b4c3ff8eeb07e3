package e2e

import (
	"os"
	"testing"
)

// geminiPrefixPolicy allows touch by its prefix and denies writing
// denied.txt.
var geminiPrefixPolicy = governanceDoc("e2e-gemini-prefix", "e2e Gemini allowed prefixes", "The policy the Gemini allowed-prefix scenarios run under.", "  default: ask\n  allow:\n    - Bash(touch:*)\n  deny:\n    - Edit(**/denied.txt)\n    - Write(**/denied.txt)\n")

// TestAdapterGeminiAllowedPrefixPaths: a command Gemini CLI's admin policy
// allows by its prefix runs without a permission request, so the bridge
// sees it only as it starts: an allowed command writing where the bridge's
// policy refuses (a denied file, a protected one, outside the workspace)
// must not run. An allowed command on an allowed file still runs without
// asking the person (the test client rejects every permission request).
func TestAdapterGeminiAllowedPrefixPaths(t *testing.T) {
	s := needSuite(t)
	for _, c := range []touchCase{
		{"allowed", "touch ok.txt", "ok.txt", true},
		{"denied-file", "touch denied.txt", "denied.txt", false},
		{"protected", "touch .gemini/settings.json", ".gemini/settings.json", false},
		{"outside", "touch ../outside.txt", "../outside.txt", false},
	} {
		t.Run(c.name, func(t *testing.T) {
			w := newWorkspace(t)
			if err := os.MkdirAll(w.path(".gemini"), 0o755); err != nil {
				t.Fatal(err)
			}
			checkGeminiTouch(t, s, w, geminiPrefixPolicy, "gemini-prefix-"+c.name, "", c)
		})
	}
}
