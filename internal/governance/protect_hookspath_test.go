package governance

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestProtectsConfiguredHooksPath checks that the directory the workspace
// repository's configuration names as core.hooksPath is protected as
// .git/hooks is: the person's next commit runs the scripts there. The
// configuration is read again when it changes (one engine decides every
// row, each with its own configuration), includes are followed, and a
// configuration that cannot be read strictly protects the whole root.
func TestProtectsConfiguredHooksPath(t *testing.T) {
	e, root, tmp := protectedWorkspace(t)
	hook := filepath.Join(root, "tools/hooks/pre-commit")
	tests := []struct {
		name   string
		files  []string // below root: name, text pairs in order; "" removes
		path   string
		want   Value
		reason string
	}{
		{"no hooksPath", []string{".git/config", "[core]\n\tbare = false\n"}, hook, Allow, ""},
		{"hooksPath", []string{".git/config", "[core]\n\thooksPath = tools/hooks\n"}, hook, Deny, "core.hooksPath"},
		{"hooksPath changed away", []string{".git/config", "[core]\n\tbare = false\n"}, hook, Allow, ""},
		{"hooksPath in other case", []string{".git/config", "[CORE]\n\tHOOKSPATH = tools/hooks\n"}, hook, Deny, "core.hooksPath"},
		{"hooksPath quoted, with a comment", []string{".git/config", "[core] # c\n\thooksPath = \"tools/hooks\" ; c\n"}, hook, Deny, "core.hooksPath"},
		{"hooksPath on the section line", []string{".git/config", "[core] hooksPath = tools/hooks\n"}, hook, Deny, "core.hooksPath"},
		{"hooksPath continued", []string{".git/config", "[core]\n\thooksPath = tools/\\\nhooks\n"}, hook, Deny, "core.hooksPath"},
		{"hooksPath absolute", []string{".git/config", "[core]\n\thooksPath = " + root + "/tools/hooks\n"}, hook, Deny, "core.hooksPath"},
		{"hooksPath dotted", []string{".git/config", "[core]\n\thooksPath = ./tools/../tools/hooks/\n"}, hook, Deny, "core.hooksPath"},
		{"hooksPath by an include", []string{".git/config", "[include]\n\tpath = ../git.inc\n", "git.inc", "[core]\nhooksPath = tools/hooks\n"}, hook, Deny, "core.hooksPath"},
		{"hooksPath by includeIf", []string{".git/config", "[includeIf \"gitdir:/nowhere/\"]\n\tpath = ../git.inc\n", "git.inc", "[core]\nhooksPath = tools/hooks\n"}, hook, Deny, "core.hooksPath"},
		{"an included file", []string{".git/config", "[include]\n\tpath = ../git.inc\n", "git.inc", "[user]\nname = x\n"}, filepath.Join(root, "git.inc"), Deny, "git configuration"},
		{"a missing included file", []string{".git/config", "[include]\n\tpath = ../git2.inc\n", "git.inc", ""}, filepath.Join(root, "git2.inc"), Deny, "git configuration"},
		{"an unterminated quote", []string{".git/config", "[core]\n\thooksPath = \"tools/hooks\n"}, filepath.Join(root, "src/a.go"), Deny, "could not be read"},
		{"a bad section", []string{".git/config", "[core\n\thooksPath = tools/hooks\n"}, filepath.Join(root, "src/a.go"), Deny, "could not be read"},
		{"a .git file", []string{".git", "", ".git", "gitdir: ../repo.git\n"}, hook, Allow, ""},
		{"a .git file's repository", []string{"../repo.git/config", "[core]\n\thooksPath = tools/hooks\n"}, hook, Deny, "core.hooksPath"},
		{"the git directory a .git file names", []string{".git", "gitdir: gd\n", "gd/config", "[core]\n"}, filepath.Join(root, "gd/config"), Deny, "git directory"},
		{"the git directory's hooks", nil, filepath.Join(root, "gd/hooks/pre-commit"), Deny, "git directory"},
		{"the common git directory", []string{"gd/commondir", "../common\n"}, filepath.Join(root, "common/config"), Deny, "commondir"},
		{"an ordinary write", []string{".git", "", ".git/config", "[core]\n\thooksPath = tools/hooks\n"}, filepath.Join(root, "src/a.go"), Allow, ""},
	}
	for _, tt := range tests {
		for i := 0; i+1 < len(tt.files); i += 2 {
			name, text := tt.files[i], tt.files[i+1]
			p := filepath.Join(root, name)
			if text == "" {
				if err := os.RemoveAll(p); err != nil {
					t.Fatal(err)
				}
				continue
			}
			writeFile(t, p, text)
		}
		t.Run(tt.name, func(t *testing.T) {
			d := e.Decide(Request{Action: ActionFSWrite, Paths: []string{tt.path}, Cwd: root})
			if d.Value != tt.want || tt.want == Deny && (d.Ref != "self-protection" || !strings.Contains(d.Reason, tt.reason)) {
				t.Errorf("Decide(write %s) = %v (%s: %s); want %v about %q", tt.path, d.Value, d.Ref, d.Reason, tt.want, tt.reason)
			}
		})
	}
	_ = tmp
}
