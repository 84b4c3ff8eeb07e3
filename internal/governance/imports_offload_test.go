package governance

import (
	"path/filepath"
	"testing"
)

// TestImportsOfOwnOffload: the session reads its own offload, but a text
// it writes that imports the offload with "@" is decided as a read of the
// compression cache: Claude Code and Gemini CLI load the import, and the
// "@" names in the offload's text (a command's output the agent chose), in
// a later session, and no write of that text was judged.
func TestImportsOfOwnOffload(t *testing.T) {
	for _, place := range []string{"ws/cache", "cache"} {
		t.Run(place, func(t *testing.T) {
			tmp := tempTree(t, []string{"ws", "ws/src", place, place + "/offloaded"},
				[]string{"ws/src/a.go", place + "/offloaded/mine.md"})
			root, cache := filepath.Join(tmp, "ws"), filepath.Join(tmp, place)
			mine := filepath.Join(cache, "offloaded", "mine.md")
			p := testPolicy(t, "  default: allow\n  allow: [Read, Edit]\n")
			e := NewEngine(p, EngineOptions{Roots: []string{root}, Protected: []ProtectedPath{
				{Path: cache, What: "the compression cache", Read: true, OwnOffloads: true}}})
			e.SetOffloadReader(offloadSet{"s1": {mine: true}})
			rel, err := filepath.Rel(root, mine)
			if err != nil {
				t.Fatal(err)
			}
			cases := []struct {
				name, file, text string
				want             Value
			}{
				{"CLAUDE.md imports the offload", root + "/CLAUDE.md", "See @" + mine + " for the log\n", Deny},
				{"GEMINI.md imports it by a relative name", root + "/GEMINI.md", "@" + rel, Deny},
				{"a chained file imports it", root + "/src/notes.md", "log: @" + mine, Deny},
				{"a shell line imports it", "", "echo '@" + mine + "' >> CLAUDE.md", Deny},
				{"an import the policy allows", root + "/CLAUDE.md", "@src/a.go", Allow},
				{"naming it without an import", root + "/notes.md", "the log is in " + mine, Allow},
			}
			for _, c := range cases {
				t.Run(c.name, func(t *testing.T) {
					base := Request{Action: ActionFSWrite, Cwd: root, Roots: []string{root}, Session: "s1"}
					if got := WithImports(e.Decide, Decision{Value: Allow}, base, c.file, c.text); got.Value != c.want {
						t.Errorf("WithImports(%q in %q) = %v, want %s", c.text, c.file, got, c.want)
					}
				})
			}
			// The session still reads the offload itself.
			decideOffloadCase(t, e, root, offloadCase{"own offload, fs read", Request{Action: ActionFSRead, Paths: []string{mine}}, Allow, "session-offload"})
		})
	}
}
