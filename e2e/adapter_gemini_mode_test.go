package e2e

import "testing"

// geminiAllowDefaultPolicy allows what no rule names and denies writing
// denied.txt.
const geminiAllowDefaultPolicy = `---
schema: governance.workspace/v1
name: e2e-gemini-allow-default
title: e2e Gemini allow default
description: The policy the Gemini mode scenarios run under.
version: 1.0.0
rules:
  default: allow
  deny:
    - Edit(**/denied.txt)
    - Write(**/denied.txt)
---

# e2e Gemini allow default
`

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
