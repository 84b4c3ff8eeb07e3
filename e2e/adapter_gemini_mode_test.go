package e2e

import "testing"

// geminiAllowDefaultPolicy allows what no rule names and denies writing
// denied.txt.
var geminiAllowDefaultPolicy = governanceDoc("e2e-gemini-allow-default", "e2e Gemini allow default", "The policy the Gemini mode scenarios run under.", "  default: allow\n  deny:\n    - Edit(**/denied.txt)\n    - Write(**/denied.txt)\n")

// TestAdapterGeminiModeRunsNothingUnjudged: in yolo mode Gemini CLI runs
// every tool by its own rules without asking; under a policy whose default
// is allow, a command the policy refuses must still not run, and an allowed
// one still runs without asking the person (the test client rejects every
// permission request).
func TestAdapterGeminiModeRunsNothingUnjudged(t *testing.T) {
	s := needSuite(t)
	for _, c := range []touchCase{
		{"denied", "touch denied.txt", "denied.txt", false},
		{"allowed", "touch ok.txt", "ok.txt", true},
	} {
		t.Run(c.name, func(t *testing.T) {
			checkGeminiTouch(t, s, newWorkspace(t), geminiAllowDefaultPolicy, "gemini-yolo-"+c.name, "yolo", c)
		})
	}
}
