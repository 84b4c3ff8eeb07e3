package e2e

import (
	"os"
	"testing"

	"github.com/acp-bridge/acp-bridge/internal/e2e/fakemodel"
)

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
	a := &geminiAgent
	for _, c := range []struct {
		name, cmd, file string
		runs            bool
	}{
		{"denied", "touch denied.txt", "denied.txt", false},
		{"allowed", "touch ok.txt", "ok.txt", true},
	} {
		t.Run(c.name, func(t *testing.T) {
			w := newWorkspace(t)
			r, _ := governedRun(t, s, a, w, geminiAllowDefaultPolicy, runOptions{
				name:   "gemini-yolo-" + c.name,
				script: fakemodel.Script{Steps: []fakemodel.Step{a.shell(c.cmd), fakemodel.Text("Done.")}},
				client: clientScript{Permission: "reject", Mode: "yolo", Prompts: textPrompts("Run it.")},
			})
			r.wait()
			_, err := os.Stat(w.path(c.file))
			switch ran := err == nil; {
			case ran && !c.runs:
				t.Errorf("BYPASS: %q ran in yolo mode", c.cmd)
			case !ran && c.runs:
				t.Errorf("the allowed %q did not run in yolo mode\n%s", c.cmd, r.stderrTail())
			}
		})
	}
}
