package governance

import (
	"path/filepath"
	"slices"
	"testing"
)

// TestImportedPaths: the names an "@" import in a text may stand for, as
// Claude Code and Gemini CLI read them (a word starting with '@' after a
// blank, '#' ending it for Claude, "\ " a space) and as a shell line
// quotes them.
func TestImportedPaths(t *testing.T) {
	cases := []struct {
		name, text string
		want       []string
	}{
		{"line start", "@.env", []string{"/d/.env"}},
		{"after a blank", "See @../.env for it.", []string{"/d/../.env", "/.env"}},
		{"fragment", "@notes.md#top", []string{"/d/notes.md#top", "/d/notes.md"}},
		{"escaped space", `@my\ file.md`, []string{`/d/my\ file.md`, "/d/my file.md"}},
		{"shell quotes", "echo '@.env' > CLAUDE.md", []string{"/d/.env'", "/d/.env"}},
		{"absolute", "\t@/etc/passwd", []string{"/etc/passwd"}},
		{"home", "@~/.ssh/id_rsa", []string{"/h/.ssh/id_rsa"}},
		{"Gemini's blanks: no-break space", "Settings: @x\u00a0/../.env", []string{"/d/x", "/d/.env"}},
		{"Gemini's blanks: vertical tab", "Settings: @x\v/../.env", []string{"/d/x", "/d/.env"}},
		{"Gemini's blanks: em space", "Settings: @x\u2003/../.env", []string{"/d/x", "/d/.env"}},
		{"JavaScript's blanks: BOM", "@.env\ufeffx", []string{"/d/.env"}},
		{"Go's blanks: NEL", "@.env\u0085x", []string{"/d/.env", "/d/.env\u0085x"}},
		{"email", "mail me at me@example.com", nil},
		{"glued to a word", "x@.env", nil},
		{"none", "no imports here", nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, more := ImportedPaths(c.text, "/d", "/h")
			want := c.want
			for i, w := range want {
				want[i] = filepath.Clean(w)
			}
			for _, w := range want {
				if !slices.Contains(got, w) {
					t.Errorf("ImportedPaths(%q) = %q, missing %q", c.text, got, w)
				}
			}
			if len(want) == 0 && len(got) > 0 || more {
				t.Errorf("ImportedPaths(%q) = %q, %v; want none", c.text, got, more)
			}
		})
	}
}

// TestWithImports: a write whose text imports a file the policy refuses
// reading is refused as that read; imports of readable files, names that
// do not exist (unless a rule denies them) and '@' inside a word change
// nothing.
func TestWithImports(t *testing.T) {
	e, root := testEngine(t)
	allow := Decision{Value: Allow}
	cases := []struct {
		name, file, text string
		want             Value
	}{
		{"root CLAUDE.md", root + "/CLAUDE.md", "# Notes\n@.env\n", Deny},
		{"nested CLAUDE.md", root + "/src/CLAUDE.md", "See @../.env please", Deny},
		{"any file of a chain", root + "/src/notes.md", "@../.env", Deny},
		{"shell line", "", "echo '@.env' >> CLAUDE.md", Deny},
		{"missing file a rule denies", root + "/CLAUDE.md", "@secrets/new.txt", Deny},
		{"outside the workspace", root + "/CLAUDE.md", "@../outside/passwd", Deny},
		{"readable import", root + "/CLAUDE.md", "@src/a.go", Allow},
		{"missing name", root + "/src/a.go", "@Override\nfunc x() {}", Allow},
		{"npm scope", "", "npm install @types/node", Allow},
		{"email", root + "/README.md", "write to dev@example.com", Allow},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			base := Request{Action: ActionFSWrite, Cwd: root, Roots: []string{root}}
			if got := WithImports(e.Decide, allow, base, c.file, c.text); got.Value != c.want {
				t.Errorf("WithImports(%q in %q) = %v, want %s", c.text, c.file, got, c.want)
			}
		})
	}
	// A decision already stricter stays.
	deny := Decision{Value: Deny, Reason: "already"}
	if got := WithImports(e.Decide, deny, Request{Cwd: root}, root+"/x.md", "@src/a.go"); got.Reason != "already" {
		t.Errorf("WithImports of a deny = %v", got)
	}
}

// FuzzImportedPaths: any text gives clean absolute names, at most
// maxImports of them, and every word starting '@' after a blank with a
// plain name gives that name below the directory.
func FuzzImportedPaths(f *testing.F) {
	for _, s := range []string{"@.env", "See @../.env#x.", `@a\ b`, "echo '@.env' > CLAUDE.md", "x@y @~/z", "@", "@@", "\u00a0@x"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		got, _ := ImportedPaths(text, "/d", "/h")
		if len(got) > maxImports {
			t.Fatalf("%d names", len(got))
		}
		for _, p := range got {
			if !filepath.IsAbs(p) || filepath.Clean(p) != p {
				t.Fatalf("ImportedPaths(%q) gave %q, not clean and absolute", text, p)
			}
		}
		got2, _ := ImportedPaths(text+" @plainname", "/d", "/h")
		if !slices.Contains(got2, "/d/plainname") {
			t.Fatalf("ImportedPaths(%q + plain import) = %q", text, got2)
		}
	})
}
