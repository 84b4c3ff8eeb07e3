package governance

import (
	"os"
	"path/filepath"
	"testing"
)

// TestOffloadCacheReadProtected: the compression cache, read-protected
// with the session's own offloads let through (ProtectedPath.OwnOffloads),
// is decided the same inside the workspace (the README runs the bridge
// with --cache-dir cache there) as outside it. The agent reads its own
// offload by the exact path it was given; another session's offload, a
// conversation archive or spool, the cache through a link or "..", a
// command naming it and a tree read reaching into it are refused, though
// the policy allows every read.
func TestOffloadCacheReadProtected(t *testing.T) {
	for _, place := range []string{"ws/cache", "cache"} {
		t.Run(place, func(t *testing.T) {
			tmp := tempTree(t, []string{"ws", "ws/src", place, place + "/offloaded", place + "/conversations"},
				[]string{"ws/src/a.go", place + "/offloaded/mine.md", place + "/offloaded/theirs.md",
					place + "/conversations/s2_full.md", place + "/conversations/.s2-0123456789abcdef.spool.0",
					place + "/offloaded/asked.md", place + "/offloaded/denied.md"})
			root, cache := filepath.Join(tmp, "ws"), filepath.Join(tmp, place)
			off := func(name string) string { return filepath.Join(cache, "offloaded", name) }
			mine := off("mine.md")
			if err := os.Symlink(mine, filepath.Join(root, "link.md")); err != nil {
				t.Fatal(err)
			}
			set := offloadSet{"s1": {mine: true, off("asked.md"): true, off("denied.md"): true}, "s2": {off("theirs.md"): true}}
			p := testPolicy(t, "  default: allow\n  allow: [Read, Grep, Bash(grep:*), Bash(cat:*)]\n"+
				"  ask: [Read(//"+off("asked.md")[1:]+")]\n  deny: [Read(//"+off("denied.md")[1:]+")]\n")
			e := NewEngine(p, EngineOptions{Roots: []string{root}, Protected: []ProtectedPath{
				{Path: cache, What: "the compression cache", Read: true, OwnOffloads: true}}})
			e.SetOffloadReader(set)
			tests := []offloadCase{
				{"own offload, fs read", Request{Action: ActionFSRead, Paths: []string{mine}}, Allow, "session-offload"},
				{"own offload, Read tool", Request{Action: ActionToolCall, Tool: "Read", Kind: "read", Paths: []string{mine}}, Allow, "session-offload"},
				{"own offload, a rule asks", Request{Action: ActionFSRead, Paths: []string{off("asked.md")}}, RequireApproval, ""},
				{"own offload, a rule denies", Request{Action: ActionFSRead, Paths: []string{off("denied.md")}}, Deny, ""},
				{"own offload, another session", Request{Action: ActionFSRead, Paths: []string{mine}, Session: "s2"}, Deny, "self-protection"},
				{"another session's offload", Request{Action: ActionFSRead, Paths: []string{off("theirs.md")}}, Deny, "self-protection"},
				{"another session's, Read tool", Request{Action: ActionToolCall, Tool: "Read", Kind: "read", Paths: []string{off("theirs.md")}}, Deny, "self-protection"},
				{"an archive", Request{Action: ActionFSRead, Paths: []string{filepath.Join(cache, "conversations", "s2_full.md")}}, Deny, "self-protection"},
				{"a spool", Request{Action: ActionFSRead, Paths: []string{filepath.Join(cache, "conversations", ".s2-0123456789abcdef.spool.0")}}, Deny, "self-protection"},
				{"dot-dot from own offload", Request{Action: ActionFSRead, Paths: []string{mine + "/../theirs.md"}}, Deny, ""},
				{"workspace link to own offload", Request{Action: ActionFSRead, Paths: []string{root + "/link.md"}}, Deny, "self-protection"},
				{"the cache directory", Request{Action: ActionToolCall, Tool: "LS", Kind: "search", Paths: []string{cache + "/offloaded"}}, Deny, ""},
				{"cat own offload", Request{Action: ActionTerminalCreate, Command: "cat " + mine, Cwd: root}, Deny, "self-protection"},
				{"grep -r the cache", Request{Action: ActionTerminalCreate, Command: "grep -r KEY " + cache, Cwd: root}, Deny, ""},
				{"grep -r a clean directory", Request{Action: ActionTerminalCreate, Command: "grep -r KEY src", Cwd: root}, Allow, ""},
				{"write own offload", Request{Action: ActionFSWrite, Paths: []string{mine}}, Deny, ""},
			}
			if place == "ws/cache" {
				// Tree reads of the workspace reach into the cache.
				tests = append(tests,
					offloadCase{"grep -r the workspace holding it", Request{Action: ActionTerminalCreate, Command: "grep -r KEY .", Cwd: root}, Deny, "self-protection"},
					offloadCase{"find -exec cat over the workspace", Request{Action: ActionTerminalCreate, Command: "find . -type f -exec cat {} +", Cwd: root}, Deny, "self-protection"},
					offloadCase{"tar of the workspace", Request{Action: ActionTerminalCreate, Command: "tar cf - .", Cwd: root}, Deny, "self-protection"},
					offloadCase{"cp -r of the workspace into it", Request{Action: ActionTerminalCreate, Command: "cp -r src copy && cp -r . copy", Cwd: root}, Deny, "self-protection"},
					offloadCase{"Grep tool over the workspace", Request{Action: ActionToolCall, Tool: "Grep", Kind: "search", Searched: []Search{{Tool: "Grep", Dir: root}}}, Deny, "self-protection"},
				)
			}
			for _, tt := range tests {
				t.Run(tt.name, func(t *testing.T) { decideOffloadCase(t, e, root, tt) })
			}
		})
	}
}

// TestOffloadCacheNativeRules: an agent's native rules (ImplicitRules)
// cannot tell the session's own offloads from the rest of the cache, so
// the cache gets no native Read deny (the bridge decides those reads);
// a read-protected location without offloads does.
func TestOffloadCacheNativeRules(t *testing.T) {
	tmp := tempTree(t, []string{"ws", "cache"}, []string{"events.jsonl"})
	cache, events := filepath.Join(tmp, "cache"), filepath.Join(tmp, "events.jsonl")
	e := NewEngine(testPolicy(t, "  default: allow\n"), EngineOptions{Roots: []string{filepath.Join(tmp, "ws")}, Protected: []ProtectedPath{
		{Path: cache, What: "the compression cache", Read: true, OwnOffloads: true},
		{Path: events, What: "the compression event log", Read: true}}})
	rules := map[string]bool{}
	for _, r := range e.ImplicitRules() {
		rules[r] = true
	}
	for _, want := range []string{
		"deny Edit(/" + cache + "/**) (built-in: the compression cache)",
		"deny Read(/" + events + ") (built-in: the compression event log)",
	} {
		if !rules[want] {
			t.Errorf("ImplicitRules lacks %q", want)
		}
	}
	if bad := "deny Read(/" + cache + "/**) (built-in: the compression cache)"; rules[bad] {
		t.Errorf("ImplicitRules has %q: an agent's own Read would refuse the session's offloads", bad)
	}
}
