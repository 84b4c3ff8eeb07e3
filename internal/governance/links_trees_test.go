package governance

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestLinksMadeTreeWalks decides a line that makes a link, which the test
// never runs, then a command that reads or changes a directory whole
// through the link's name, or a pattern beneath it: the walk and the
// pattern's expansion go where the link will lead, and a
// command that acts on the link itself (find without -L or a trailing
// slash, rm -r of the name) is left alone. A reader that follows links
// beneath the directory it reads (grep -R, tar -h) is walked where a link
// made beneath that directory will lead too, and so is a command that
// changes a directory whole and follows links (find -L, chown -R -L), or
// changes every name of a file (chmod -R of a hard link made beneath); a
// pattern whose elements match the link's name is expanded where it leads.
func TestLinksMadeTreeWalks(t *testing.T) {
	e, root, _ := treeWriteWorkspace(t)
	checkAfterLink(t, e, root, []linkCase{
		{"find through the link, followed by its slash", "ln -s keys kk", "find kk/ -name a.key -delete", Deny, "keys/a.key", Allow},
		{"find -L through the link", "ln -s keys kk", "find -L kk -name a.key -delete", Deny, "keys/a.key", Allow},
		{"rm -r through the link, followed by its slash", "ln -s keys kk", "rm -r kk/", Deny, "keys/a.key", Allow},
		{"chmod -R through the link", "ln -s keys kk", "chmod -R 600 kk", Deny, "keys/a.key", Allow},
		{"rm -r beneath a link to the workspace", "ln -s . kk", "rm -rf kk/keys", Deny, "keys/a.key", Allow},
		{"grep -r of the link", "ln -s vault vv", "grep -r x vv", Deny, "vault/x.pem", Allow},
		{"grep -r beneath a link to the workspace", "ln -s . vv", "grep -r x vv/vault", Deny, "vault/x.pem", Allow},
		{"find of the link itself, not followed", "ln -s keys kk", "find kk -name a.key -delete", Allow, "", Allow},
		{"rm -r of the link itself", "ln -s keys kk", "rm -r kk", Allow, "", Allow},
		{"grep -r of a link to a plain directory", "ln -s src ss", "grep -r x ss", Allow, "", Allow},
		{"a pattern beneath the link", "ln -s vault vv", "cat vv/x.*", Deny, "vault/x.pem", Allow},
		{"a pattern beneath a link to the workspace", "ln -s . kk", "cat kk/vault/*", Deny, "vault/x.pem", Allow},
		{"a pattern beneath the link, edited in place", "ln -s keys kk", "sed -i s/a/b/ kk/*", Deny, "keys/a.key", Allow},
		{"a pattern beneath a link to a plain directory", "ln -s src ss", "cat ss/*.go", Allow, "", Allow},
		{"a pattern beneath the link, archived whole", "ln -s . kk", "tar cf - kk/v*", Deny, "vault/x.pem", Allow},
		{"a pattern beneath the link, zipped whole", "ln -s . kk", "zip -r o.zip kk/va*", Deny, "vault/x.pem", Allow},
		{"a pattern beneath the link a program expands itself", "ln -s keys kk", "prettier --write 'kk/*.key'", Deny, "keys/a.key", Allow},
		{"a ** pattern beneath the link a program expands itself", "ln -s . kk", "eslint --fix 'kk/keys/**/*.key'", Deny, "keys/a.key", Allow},
		{"a pattern beneath a link to a plain directory, archived whole", "ln -s src ss", "tar cf - ss/b", Allow, "", Allow},
		{"grep -R of a directory the link is made beneath", "ln -s ../vault src2/vv", "grep -R x src2", Deny, "vault/x.pem", Allow},
		{"tar -h of a directory the link is made beneath", "ln -s ../vault src2/vv", "tar chf - src2", Deny, "vault/x.pem", Allow},
		{"grep -R of a directory the link is made deeper beneath", "ln -s ../../vault src2/n/vv", "grep -R x src2", Deny, "vault/x.pem", Allow},
		{"grep -R of a directory a link to the workspace is made beneath", "ln -s .. src2/up", "grep -R x src2", Deny, "vault/x.pem", Allow},
		{"grep -r passes over the link made beneath", "ln -s ../vault src2/vv", "grep -r x src2", Allow, "", Allow},
		{"grep -R of a directory a link to a plain directory is made beneath", "ln -s ../src/b src2/bb", "grep -R x src2", Allow, "", Allow},
		{"grep -R of a directory ln -r makes the link beneath", "ln -sr vault src2/vv", "grep -R x src2", Deny, "vault/x.pem", Allow},
		{"grep -r passes over the link ln -r makes beneath", "ln -sr vault src2/vv", "grep -r x src2", Allow, "", Allow},
		{"find -L of a directory the link is made beneath", "ln -s ../keys src2/kk", "find -L src2 -name a.key -delete", Deny, "keys/a.key", Allow},
		{"chown -R -L of a directory the link is made beneath", "ln -s ../keys src2/kk", "chown -R -L me src2", Deny, "keys/a.key", Allow},
		{"chown -R -L of a directory ln -r makes the link beneath", "ln -sr keys src2/kk", "chown -R -L me src2", Deny, "keys/a.key", Allow},
		{"chmod -R of a directory a hard link is made beneath", "ln keys/a.key src2/h", "chmod -R 600 src2", Deny, "keys/a.key", Allow},
		{"rm -r of a directory a hard link is made beneath", "ln keys/a.key src2/h", "rm -r src2", Allow, "", Allow},
		{"find without -L passes over the link made beneath", "ln -s ../keys src2/kk", "find src2 -name a.key -delete", Allow, "", Allow},
		{"a pattern whose element matches the link's name", "ln -s ../keys src2/kk", "sed -i s/a/b/ src2/*/a.key", Deny, "keys/a.key", Allow},
		{"a pattern whose elements match the link's name, read", "ln -s ../vault src2/vv", "cat src2/v*/*", Deny, "vault/x.pem", Allow},
		{"a pattern ending at the link's name", "ln -s ../vault/x.pem src2/pp", "cat src2/p?", Deny, "vault/x.pem", Allow},
		{"a pattern matching a link to a plain directory", "ln -s ../src src2/ss", "cat src2/*/a.go", Allow, "", Allow},
	})
}

// TestLinksMadeProtectedNames decides a line that makes a link, which the
// test never runs, then a line whose pattern beneath the link's name
// matches a protected file once the link is there: the text of the line
// names the policy, and a script the line runs changes it. Each is
// refused as the same line naming the file directly is.
func TestLinksMadeProtectedNames(t *testing.T) {
	e, root, _ := treeWriteWorkspace(t)
	tree{files: []string{"ws/GOVERNANCE.md"}}.make(t, filepath.Dir(root))
	if err := os.WriteFile(filepath.Join(root, "run.sh"), []byte("echo 'default: allow' > GOVERNANCE.md\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	e.Protect(ProtectedPath{Path: filepath.Join(root, "GOVERNANCE.md"), What: "the governance policy"})
	const policy = "GOVERNANCE.md"
	checkAfterLink(t, e, root, []linkCase{
		{"a pattern in the line's text", "ln -s . kk", "foo kk/GOVERN*", Deny, policy, Allow},
		{"a pattern in a shell's code", "ln -s . kk", "bash -c 'cat kk/GOV*'", Deny, policy, Allow},
		{"a script a pattern names", "ln -s . kk", "bash kk/r*.sh", Deny, policy, RequireApproval},
		{"a program a pattern names", "ln -s . kk", "python3 kk/r*.sh", Deny, policy, RequireApproval},
		{"a pattern beneath a link to a plain directory", "ln -s src ss", "foo ss/*.go", Allow, "", Allow},
	})
}

// linkCase is a line that makes a link (first, decided and never run),
// then a line decided while the link is pending (later): want, about the
// file what names; and later decided alone, without the link (alone).
type linkCase struct {
	name, first, later string
	want               Value
	what               string
	alone              Value
}

// checkAfterLink decides each case's lines in e, whose workspace is root.
func checkAfterLink(t *testing.T, e *Engine, root string, cases []linkCase) {
	t.Helper()
	line := func(l string) Request { return Request{Action: ActionTerminalCreate, Command: l, Cwd: root} }
	for _, tt := range cases {
		t.Run(tt.name, func(t *testing.T) {
			e.made.forget()
			if d := e.Decide(line(tt.first)); d.Value == Deny {
				t.Fatalf("Decide(%q) = %v (%s); want it run", tt.first, d.Value, d.Reason)
			}
			d := e.Decide(line(tt.later))
			if d.Value != tt.want || tt.want != Allow && !strings.Contains(d.Reason, tt.what) {
				t.Errorf("after %q: Decide(%q) = %v (%s); want %v about %q", tt.first, tt.later, d.Value, d.Reason, tt.want, tt.what)
			}
			e.made.forget()
			if d := e.Decide(line(tt.later)); d.Value != tt.alone {
				t.Errorf("Decide(%q) alone = %v (%s); want %v", tt.later, d.Value, d.Reason, tt.alone)
			}
		})
	}
}

// TestLinksMadeSearchTools decides a line that makes a link, which the
// test never runs, then an agent's own search tool given the link's name,
// or a directory the link is made beneath: the search reads where the
// link will lead, as "grep -r" of the name does (Claude Code's Grep, whose
// ripgrep follows the path it is given; Gemini CLI's grep_search, which
// follows links beneath).
func TestLinksMadeSearchTools(t *testing.T) {
	tests := []struct {
		name, first, tool, input string
		want                     Value
	}{
		{"Grep of the link's name", "ln -s vault vv", "Grep", `{"pattern":"x","path":"$ROOT/vv"}`, Deny},
		{"Grep of a link to a plain directory", "ln -s src ss", "Grep", `{"pattern":"x","path":"$ROOT/ss"}`, Allow},
		{"grep_search of a directory the link is made beneath", "ln -s ../vault src2/vv", "grep_search", `{"pattern":"x","dir_path":"$ROOT/src2"}`, Deny},
		{"grep_search of the link's name", "ln -s vault vv", "grep_search", `{"pattern":"x","dir_path":"$ROOT/vv"}`, Deny},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e, root, _ := treeWriteWorkspace(t)
			if d := e.Decide(Request{Action: ActionTerminalCreate, Command: tt.first, Cwd: root}); d.Value == Deny {
				t.Fatalf("Decide(%q) = %v (%s); want it run", tt.first, d.Value, d.Reason)
			}
			input := strings.ReplaceAll(tt.input, "$ROOT", root)
			d := e.Decide(ToolCallRequest(ToolCall{Tool: tt.tool, RawInput: []byte(input)}, root))
			if d.Value != tt.want || tt.want == Deny && !strings.Contains(d.Reason, "vault/x.pem") {
				t.Errorf("after %q: %s %s = %v (%s); want %v about vault/x.pem", tt.first, tt.tool, input, d.Value, d.Reason, tt.want)
			}
		})
	}
}
