package adapter

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/acp-bridge/acp-bridge/internal/acpwire"
	"github.com/acp-bridge/acp-bridge/internal/governance"
)

// TestProtectedNativeRules checks that the engine's self-protection rules
// reach the agents' native rules: Claude's settings deny them, and
// Gemini's policy denies its edit and read tools on them, whatever the
// policy's own rules say.
func TestProtectedNativeRules(t *testing.T) {
	dir := t.TempDir()
	e := governance.NewEngine(nil, governance.EngineOptions{Roots: []string{dir}, Protected: []governance.ProtectedPath{
		{Path: dir + "/GOVERNANCE.md", What: "the governance policy"},
		{Path: dir + "/audit/audit.jsonl", What: "the audit log", Read: true, Rotated: true},
	}})
	rules := RulesFromPolicy(append([]string{"allow Edit (GOVERNANCE.md:3)", "allow Read (GOVERNANCE.md:4)"}, e.ImplicitRules()...))

	s, skipped := BuildClaudeSettings(rules, "")
	if len(skipped) > 0 {
		t.Errorf("skipped %q", skipped)
	}
	for _, want := range []string{"Edit(/" + dir + "/GOVERNANCE.md)", "Write(/" + dir + "/GOVERNANCE.md)",
		"Read(/" + dir + "/audit/audit.jsonl)", "Read(/" + dir + "/audit/audit.jsonl.*)", "Edit(/" + dir + "/audit/.audit.jsonl.*)"} {
		if s.Permissions == nil || !slices.Contains(s.Permissions.Deny, want) {
			t.Errorf("Claude deny rules lack %s: %+v", want, s.Permissions)
		}
	}

	g, _ := BuildGeminiPolicy(rules, dir)
	for _, c := range []struct {
		tool, path string
		deny       bool
	}{
		{"write_file", dir + "/GOVERNANCE.md", true},
		{"replace", dir + "/GOVERNANCE.md", true},
		{"read_file", dir + "/GOVERNANCE.md", false},
		{"read_file", dir + "/audit/audit.jsonl", true},
		{"read_file", dir + "/audit/audit.jsonl.000002", true},
		{"write_file", dir + "/src/a.go", false},
	} {
		args := geminiArgs(t, map[string]any{"file_path": c.path})
		denied := false
		for _, r := range g {
			if r.ToolName == c.tool && r.Decision == "deny" && regexp.MustCompile(geminiPattern(r)).MatchString(args) {
				denied = true
			}
		}
		if denied != c.deny {
			t.Errorf("Gemini %s %s: denied = %v, want %v", c.tool, c.path, denied, c.deny)
		}
	}
}

// TestAdapterProtectsWhatItCreates checks that the hook socket's directory
// and Gemini's policy file are handed to the engine and, for Claude, denied
// in its own settings; and that with Gemini the .env it loads into its
// environment is protected beneath every root.
func TestAdapterProtectsWhatItCreates(t *testing.T) {
	var got []governance.ProtectedPath
	protect := func(ps ...governance.ProtectedPath) { got = append(got, ps...) }

	a, err := New(Claude, Config{Decider: DeciderFunc(allowAll), Executable: "/usr/bin/acp-bridge", Protect: protect})
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	sockDir := filepath.Dir(a.(*claude).hook.SocketPath())
	if len(got) != 2 || got[0].Path != sockDir || !got[0].Read || got[1].Path != "/usr/bin/acp-bridge" || got[1].Read {
		t.Fatalf("protected = %+v, want the socket directory %s (reads included) and the program the hook runs", got, sockDir)
	}
	deny := a.(*claude).settings.Permissions.Deny
	for _, want := range []string{"Read(/" + sockDir + "/**)", "Edit(/" + sockDir + "/**)", "Edit(//usr/bin/acp-bridge)", "Write(//usr/bin/acp-bridge)"} {
		if !slices.Contains(deny, want) {
			t.Errorf("Claude settings deny %q; want %s", deny, want)
		}
	}

	got = nil
	cmd := &acpwire.AgentCommand{Path: "gemini", Args: []string{"--acp"}}
	spawn(t, Gemini, Config{Rules: Rules{Deny: []string{"Bash(rm:*)"}}, Protect: protect}, cmd)
	if len(got) != 2 || got[0].Path != ".env" || !got[0].BelowRoots || got[0].Read ||
		got[1].BelowRoots || !strings.HasPrefix(cmd.Args[2], got[1].Path+string(os.PathSeparator)) {
		t.Errorf("protected = %+v, want .env beneath every root (Gemini loads it into its environment) and the directory of %s", got, cmd.Args[2])
	}
}
