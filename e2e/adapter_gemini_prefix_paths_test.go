package e2e

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/acp-bridge/acp-bridge/internal/e2e/fakemodel"
)

// geminiPrefixPolicy allows touch by its prefix and denies writing
// denied.txt.
const geminiPrefixPolicy = `---
schema: governance.workspace/v1
name: e2e-gemini-prefix
title: e2e Gemini allowed prefixes
description: The policy the Gemini allowed-prefix scenarios run under.
version: 1.0.0
rules:
  default: ask
  allow:
    - Bash(touch:*)
  deny:
    - Edit(**/denied.txt)
    - Write(**/denied.txt)
---

# e2e Gemini allowed prefixes
`

// TestAdapterGeminiAllowedPrefixPaths: a command Gemini CLI's admin policy
// allows by its prefix runs without a permission request, so the bridge
// sees it only as it starts: an allowed command writing where the bridge's
// policy refuses (a denied file, a protected one, outside the workspace)
// must not run. An allowed command on an allowed file still runs without
// asking the person (the test client rejects every permission request).
func TestAdapterGeminiAllowedPrefixPaths(t *testing.T) {
	s := needSuite(t)
	a := &geminiAgent
	for _, c := range []struct {
		name, cmd, file string
		runs            bool
	}{
		{"allowed", "touch ok.txt", "ws/ok.txt", true},
		{"denied-file", "touch denied.txt", "ws/denied.txt", false},
		{"protected", "touch .gemini/settings.json", "ws/.gemini/settings.json", false},
		{"outside", "touch ../outside.txt", "outside.txt", false},
	} {
		t.Run(c.name, func(t *testing.T) {
			w := newWorkspace(t)
			if err := os.MkdirAll(w.path(".gemini"), 0o755); err != nil {
				t.Fatal(err)
			}
			r, _ := governedRun(t, s, a, w, geminiPrefixPolicy, runOptions{
				name:   "gemini-prefix-" + c.name,
				script: fakemodel.Script{Steps: []fakemodel.Step{a.shell(c.cmd), fakemodel.Text("Done.")}},
				client: clientScript{Permission: "reject", Prompts: textPrompts("Run it.")},
			})
			r.wait()
			_, err := os.Stat(filepath.Join(w.base, c.file))
			switch ran := err == nil; {
			case ran && !c.runs:
				t.Errorf("BYPASS: %q ran", c.cmd)
			case !ran && c.runs:
				t.Errorf("the allowed %q did not run\n%s", c.cmd, r.stderrTail())
			}
		})
	}
}
