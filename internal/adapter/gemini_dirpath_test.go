package adapter

import (
	"regexp"
	"testing"
)

// TestGeminiShellDirRule: every Gemini policy the bridge writes refuses a
// run_shell_command given a directory of its own, in every mode and above
// every rule the policy's own rules become, and lets one through that runs
// in the session's directory (no dir_path, "" or "."). The pattern is one
// Gemini keeps (geminiSafe) and is matched against Gemini's stable JSON of
// the arguments.
func TestGeminiShellDirRule(t *testing.T) {
	for _, rules := range []Rules{{Default: "allow"}, {Default: "deny"}, {Allow: []string{"Bash(touch:*)"}, Deny: []string{"Bash(rm:*)"}}} {
		out, _ := BuildGeminiPolicy(rules, "/ws")
		found := false
		for _, g := range out {
			if g.ArgsPattern != geminiShellDirPattern {
				continue
			}
			found = true
			if g.ToolName != "run_shell_command" || g.Decision != "deny" || g.Modes != "" || g.Priority <= geminiDenyPriority {
				t.Errorf("rules %+v: the shell directory rule is %+v", rules, g)
			}
		}
		if !found {
			t.Errorf("rules %+v: no rule refuses a shell command's dir_path", rules)
		}
	}
	if !geminiSafe(geminiShellDirPattern) {
		t.Fatalf("Gemini would drop %s as unsafe", geminiShellDirPattern)
	}
	re := regexp.MustCompile(geminiShellDirPattern)
	for args, refused := range map[string]bool{
		`{"command":"touch x","description":"Touch","dir_path":"secrets"}`: true,
		`{"command":"touch x","dir_path":"/elsewhere"}`:                    true,
		`{"command":"touch x","dir_path":"./secrets"}`:                     true,
		`{"command":"touch x","dir_path":".."}`:                            true,
		`{"command":"touch x","dir_path":".git"}`:                          true,
		`{"command":"touch x","dir_path":"."}`:                             false,
		`{"command":"touch x","dir_path":""}`:                              false,
		`{"command":"touch x","description":"Touch"}`:                      false,
		`{"command":"echo \"dir_path\":\"x\""}`:                            false,
	} {
		if got := re.MatchString(args); got != refused {
			t.Errorf("%s: refused %v, want %v", args, got, refused)
		}
	}
}
