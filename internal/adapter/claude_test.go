package adapter

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/acp-bridge/acp-bridge/internal/acpwire"
	"github.com/acp-bridge/acp-bridge/internal/golden"
	"github.com/acp-bridge/acp-bridge/internal/governance"
	"github.com/acp-bridge/acp-bridge/internal/rawjson"
)

var testRules = Rules{
	Deny:  []string{"Read(**/.env)", "Bash(rm:*)", "Read(/etc/shadow)", "read_file"},
	Ask:   []string{"Bash(git push:*)", "WebFetch(domain:example.com)"},
	Allow: []string{"Bash(npm run test:*)", "Read(./src/**)", "Edit(**/*.go)"},
}

const testHookCommand = `'/usr/local/bin/acp-bridge' hook --socket '/tmp/acp-bridge-hook-1/hook.sock'`

func TestBuildClaudeSettings(t *testing.T) {
	s, skipped := BuildClaudeSettings(testRules, testHookCommand)
	got, err := json.MarshalIndent(s, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	golden.Check(t, "testdata/claude-settings.json", append(got, '\n'))
	if len(skipped) != 1 || skipped[0] != "read_file" {
		t.Errorf("skipped = %q, want [read_file]", skipped)
	}
}

func TestBuildClaudeSettingsEmpty(t *testing.T) {
	s, _ := BuildClaudeSettings(Rules{}, "")
	got, _ := json.Marshal(s)
	if string(got) != "{}" {
		t.Errorf("settings for no rules and no hook = %s, want {}", got)
	}
}

func TestHookCommandQuoting(t *testing.T) {
	got := HookCommand("/opt/it's here/acp-bridge", "/tmp/d/hook.sock")
	want := `'/opt/it'\''s here/acp-bridge' hook --socket '/tmp/d/hook.sock'`
	if got != want {
		t.Errorf("HookCommand = %s, want %s", got, want)
	}
}

func TestMergeClaudeSettings(t *testing.T) {
	ours, _ := BuildClaudeSettings(Rules{Deny: []string{"Read(**/.env)"}, Allow: []string{"Bash(ls:*)"}}, "'/b' hook --socket '/s'")
	tests := []struct {
		name, existing, want string
		wantErr              bool
	}{
		{
			name:     "empty object",
			existing: `{}`,
			want:     `{"permissions":{"deny":["Read(**/.env)"],"allow":["Bash(ls:*)"]},"hooks":{"PreToolUse":[{"matcher":"*","hooks":[{"type":"command","command":"'/b' hook --socket '/s'","timeout":60}]}]}}`,
		},
		{
			name:     "keeps the IDE's rules, hooks and other keys byte for byte",
			existing: `{"model": "opus",  "permissions": {"deny": ["Bash(curl:*)"], "defaultMode":"acceptEdits"}, "hooks": {"PreToolUse": [{"matcher":"Bash","hooks":[{"type":"command","command":"./check.sh"}]}], "Stop": []}}`,
			want:     `{"model": "opus",  "permissions": {"deny": ["Bash(curl:*)","Read(**/.env)"], "defaultMode":"acceptEdits","allow":["Bash(ls:*)"]}, "hooks": {"PreToolUse": [{"matcher":"Bash","hooks":[{"type":"command","command":"./check.sh"}]},{"matcher":"*","hooks":[{"type":"command","command":"'/b' hook --socket '/s'","timeout":60}]}], "Stop": []}}`,
		},
		{
			name:     "does not repeat a rule already there",
			existing: `{"permissions":{"deny":["Read(**/.env)"]}}`,
			want:     `{"permissions":{"deny":["Read(**/.env)"],"allow":["Bash(ls:*)"]},"hooks":{"PreToolUse":[{"matcher":"*","hooks":[{"type":"command","command":"'/b' hook --socket '/s'","timeout":60}]}]}}`,
		},
		{
			name:     "null lists are replaced",
			existing: `{"permissions":{"deny":null},"hooks":null}`,
			want:     `{"permissions":{"deny":["Read(**/.env)"],"allow":["Bash(ls:*)"]},"hooks":{"PreToolUse":[{"matcher":"*","hooks":[{"type":"command","command":"'/b' hook --socket '/s'","timeout":60}]}]}}`,
		},
		{name: "deny is not a list", existing: `{"permissions":{"deny":"Read(x)"}}`, wantErr: true},
		{name: "not an object", existing: `["x"]`, wantErr: true},
		{name: "not JSON", existing: `{"a":`, wantErr: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := MergeClaudeSettings([]byte(tt.existing), ours)
			if (err != nil) != tt.wantErr {
				t.Fatalf("error = %v, wantErr %v", err, tt.wantErr)
			}
			if err == nil && string(got) != tt.want {
				t.Errorf("merged:\n got %s\nwant %s", got, tt.want)
			}
		})
	}
}

// newTestClaude returns a Claude adapter with fixed settings (no socket), so
// its output is stable.
func newTestClaude(t *testing.T, rules Rules) *claude {
	t.Helper()
	c := &claude{logger: nil}
	c.settings, _ = BuildClaudeSettings(rules, testHookCommand)
	return c
}

func TestClaudePatchSession(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "ide-settings.json"), []byte(`{"permissions":{"allow":["Bash(make:*)"]}}`), 0o600); err != nil {
		t.Fatal(err)
	}
	c := newTestClaude(t, Rules{Deny: []string{"Read(**/.env)"}})
	// Each input line is one session request as an IDE might send it; the
	// golden file holds the patched lines. Everything the IDE sent must be
	// in the output byte for byte, with the bridge's additions appended.
	inputs := []struct{ name, line string }{
		{"no _meta", `{"jsonrpc":"2.0","id":1,"method":"session/new","params":{"cwd":"/ws","mcpServers":[]}}`},
		{"IDE _meta kept", `{"jsonrpc":"2.0","id":2,"method":"session/new","params":{"cwd":"/ws","mcpServers":[],"_meta":{"zed":{"threadId":"t-1"},"traceparent":"00-abc-def-01","claudeCode":{"options":{"model":"opus","extraArgs":{"debug":""}}}}}}`},
		{"IDE extraArgs.settings string", `{"jsonrpc":"2.0","id":3,"method":"session/load","params":{"sessionId":"s","cwd":"/ws","mcpServers":[],"_meta":{"claudeCode":{"options":{"extraArgs":{"settings":"{\"model\":\"haiku\",\"permissions\":{\"deny\":[\"Bash(curl:*)\"]}}"}}}}}}`},
		{"IDE options.settings object", `{"jsonrpc":"2.0","id":4,"method":"session/resume","params":{"sessionId":"s","cwd":"/ws","_meta":{"claudeCode":{"options":{"settings":{"env":{"A":"1"}},"extraArgs":{"settings":"{}"}}}}}}`},
		{"IDE settings file", `{"jsonrpc":"2.0","id":5,"method":"session/new","params":{"cwd":"` + dir + `","mcpServers":[],"_meta":{"claudeCode":{"options":{"extraArgs":{"settings":"ide-settings.json"}}}}}}`},
	}
	var out bytes.Buffer
	for _, in := range inputs {
		m, err := acpwire.Parse(acpwire.ClientToAgent, []byte(in.line))
		if err != nil {
			t.Fatal(err)
		}
		got, err := c.PatchSession(m)
		if err != nil {
			t.Fatalf("%s: %v", in.name, err)
		}
		keptByteForByte(t, in.name, m, got)
		line := strings.ReplaceAll(string(got.Raw), dir, "$DIR")
		out.WriteString("# " + in.name + "\n" + line + "\n")
		// The settings Claude will use must carry the deny rule and the hook.
		eff, err := effectiveSettings(got)
		if err != nil {
			t.Fatalf("%s: %v", in.name, err)
		}
		if eff.Permissions == nil || !slices.Contains(eff.Permissions.Deny, "Read(**/.env)") || len(eff.Hooks["PreToolUse"]) == 0 {
			t.Errorf("%s: effective settings lack the bridge's rule or hook: %+v", in.name, eff)
		}
	}
	golden.Check(t, "testdata/claude-patch-session.txt", out.Bytes())
}

// TestClaudeSettingsFileProtected: a settings file the IDE names by its
// path is read for every session, so the adapter protects it once read:
// the agent must not give its next session disableAllHooks or hooks of its
// own. It is protected once, however many sessions read it.
func TestClaudeSettingsFileProtected(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "ide-settings.json"), []byte(`{}`), 0o600); err != nil {
		t.Fatal(err)
	}
	c := newTestClaude(t, Rules{Deny: []string{"Read(**/.env)"}})
	var got []governance.ProtectedPath
	c.protect = func(ps ...governance.ProtectedPath) { got = append(got, ps...) }
	for _, line := range []string{
		`{"jsonrpc":"2.0","id":1,"method":"session/new","params":{"cwd":"` + dir + `","mcpServers":[],"_meta":{"claudeCode":{"options":{"settings":"{\"model\":\"opus\"}"}}}}}`,
		`{"jsonrpc":"2.0","id":2,"method":"session/new","params":{"cwd":"` + dir + `","mcpServers":[],"_meta":{"claudeCode":{"options":{"extraArgs":{"settings":"ide-settings.json"}}}}}}`,
		`{"jsonrpc":"2.0","id":3,"method":"session/new","params":{"cwd":"` + dir + `","mcpServers":[],"_meta":{"claudeCode":{"options":{"extraArgs":{"settings":"ide-settings.json"}}}}}}`,
	} {
		m, err := acpwire.Parse(acpwire.ClientToAgent, []byte(line))
		if err != nil {
			t.Fatal(err)
		}
		if _, err := c.PatchSession(m); err != nil {
			t.Fatal(err)
		}
	}
	if len(got) != 1 || got[0].Path != filepath.Join(dir, "ide-settings.json") || got[0].Read {
		t.Errorf("protected %+v; want the settings file alone, from writes", got)
	}
}

func TestClaudePatchSessionErrors(t *testing.T) {
	c := newTestClaude(t, Rules{Deny: []string{"Read(**/.env)"}})
	tests := []struct{ name, line string }{
		{"settings file missing", `{"jsonrpc":"2.0","id":1,"method":"session/new","params":{"cwd":"/nonexistent","_meta":{"claudeCode":{"options":{"extraArgs":{"settings":"nope.json"}}}}}}`},
		{"settings not an object", `{"jsonrpc":"2.0","id":1,"method":"session/new","params":{"cwd":"/ws","_meta":{"claudeCode":{"options":{"settings":42}}}}}`},
		{"_meta not an object", `{"jsonrpc":"2.0","id":1,"method":"session/new","params":{"cwd":"/ws","_meta":"x"}}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m, err := acpwire.Parse(acpwire.ClientToAgent, []byte(tt.line))
			if err != nil {
				t.Fatal(err)
			}
			if got, err := c.PatchSession(m); err == nil {
				t.Errorf("PatchSession succeeded: %s", got.Raw)
			}
		})
	}
}

func TestClaudeSpawnEnv(t *testing.T) {
	cmd := &acpwire.AgentCommand{Path: "claude-agent-acp", Env: []string{"PATH=/bin"}}
	a := spawn(t, Claude, Config{Decider: DeciderFunc(allowAll), Executable: "/usr/bin/acp-bridge"}, cmd)
	if !NewSelector(a, false, Config{}).PreToolHook() {
		t.Error("PreToolHook is false for a Claude adapter with a hook")
	}
	sock := a.(*claude).hook.SocketPath()
	want := []string{"PATH=/bin", HookSocketEnv + "=" + sock}
	if strings.Join(cmd.Env, "\n") != strings.Join(want, "\n") {
		t.Errorf("env = %q, want %q", cmd.Env, want)
	}
	if _, err := New(Claude, Config{Decider: DeciderFunc(allowAll), Executable: "acp-bridge"}); err == nil {
		t.Error("a relative executable path was accepted for the hook command")
	}
}

// effectiveSettings returns the Claude settings claude-agent-acp will use for
// a patched session request: options.settings if set, else
// extraArgs.settings, each an object or a JSON string.
func effectiveSettings(m *acpwire.Message) (ClaudeSettings, error) {
	var s ClaudeSettings
	for _, path := range [][]string{claudeOptionsSettings, claudeExtraSettings} {
		v, ok := m.Get(path...)
		if !ok || string(v) == "null" {
			continue
		}
		var str string
		if json.Unmarshal(v, &str) == nil {
			v = []byte(str)
		}
		return s, json.Unmarshal(v, &s)
	}
	return s, nil
}

// keptByteForByte checks that every member of the IDE's params and of its
// _meta, other than the claudeCode options the bridge merges into, is in the
// patched message with exactly the bytes the IDE sent.
func keptByteForByte(t *testing.T, name string, before, after *acpwire.Message) {
	t.Helper()
	check := func(path ...string) {
		members, err := rawjson.Members(mustGet(t, before, path...))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		for _, mem := range members {
			switch mem.Key {
			case "_meta", "claudeCode", "options", "settings", "extraArgs":
				// Where the bridge merges; checked level by level.
				continue
			}
			got, ok := after.Get(append(path, mem.Key)...)
			if !ok || !bytes.Equal(got, mem.Value) {
				t.Errorf("%s: %v.%s changed: sent %s, forwarded %s", name, path, mem.Key, mem.Value, got)
			}
		}
	}
	check("params")
	if _, ok := before.Get("params", "_meta"); ok {
		check("params", "_meta")
	}
	for _, p := range [][]string{{"params", "_meta", "claudeCode"}, {"params", "_meta", "claudeCode", "options"}, {"params", "_meta", "claudeCode", "options", "extraArgs"}} {
		if _, ok := before.Get(p...); ok {
			check(p...)
		}
	}
}

func mustGet(t *testing.T, m *acpwire.Message, path ...string) []byte {
	t.Helper()
	v, ok := m.Get(path...)
	if !ok {
		t.Fatalf("%v missing in %s", path, m.Raw)
	}
	return v
}

func FuzzMergeClaudeSettings(f *testing.F) {
	for _, s := range []string{`{}`, `{"permissions":{"deny":["Bash(curl:*)"]},"hooks":{"PreToolUse":[]}}`,
		`{"permissions":null,"hooks":null}`, `{"permissions":{"deny":"x"}}`, `[]`, `{"a":`, `{"hooks":{"PreToolUse":[{"matcher":"Bash","hooks":[]}],"Stop":[]}}`} {
		f.Add(s)
	}
	ours, _ := BuildClaudeSettings(Rules{Deny: []string{"Read(**/.env)"}, Allow: []string{"Bash(ls:*)"}}, "'/b' hook --socket '/s'")
	f.Fuzz(func(t *testing.T, s string) {
		merged, err := MergeClaudeSettings([]byte(s), ours)
		if err != nil {
			return
		}
		// Decoded loosely: the IDE's own parts may hold anything.
		var got struct {
			Permissions struct {
				Deny []any `json:"deny"`
			} `json:"permissions"`
			Hooks struct {
				PreToolUse []any `json:"PreToolUse"`
			} `json:"hooks"`
		}
		if err := json.Unmarshal(merged, &got); err != nil {
			t.Fatalf("merged settings do not parse: %v\n%s", err, merged)
		}
		if !slices.Contains(got.Permissions.Deny, any("Read(**/.env)")) || len(got.Hooks.PreToolUse) == 0 {
			t.Fatalf("merge of %s lost the bridge's rules or hook: %s", s, merged)
		}
	})
}
