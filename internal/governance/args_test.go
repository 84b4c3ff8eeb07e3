package governance

import (
	"path/filepath"
	"testing"
)

// TestDecideCommandFiles: the files a command names are judged as paths
// against a real workspace: globs expand against it, relative words join
// the cwd, an existing file outside the roots is asked about, a
// destination outside them is denied.
func TestDecideCommandFiles(t *testing.T) {
	dir := t.TempDir()
	ws, out := filepath.Join(dir, "ws"), filepath.Join(dir, "out")
	tree{
		dirs:  []string{"ws/sub"},
		files: []string{"ws/.env", "ws/a.txt", "out/secret.txt"},
		texts: map[string]string{"ws/GOVERNANCE.md": "---\nschema: governance.workspace/v1\nname: files-test\ntitle: Files\ndescription: Files a command names.\nversion: 1.0.0\nrules:\n  default: ask\n  deny: [Read(**/.env)]\n  allow: [Read, Bash(cat:*), Bash(ls:*), Bash(cp:*)]\n---\n"},
	}.make(t, dir)
	p, err := LoadPolicy(filepath.Join(ws, "GOVERNANCE.md"))
	if err != nil {
		t.Fatal(err)
	}
	e := NewEngine(p, EngineOptions{Roots: []string{ws}})
	for _, c := range []struct {
		cmd, cwd string
		want     Value
	}{
		{"cat .env", ws, Deny},
		{"cat " + ws + "/.env", ws, Deny},
		{"cat ../.env", filepath.Join(ws, "sub"), Deny},
		{"cat .en?", ws, Deny},
		{"cat " + ws + "/*.env", ws, Deny}, // with dotglob, which a start-up file may set, * matches a leading dot
		{"cat " + ws + "/.*", ws, Deny},
		{"cat .[e]nv", ws, Deny},
		{"cat .*", ws, Deny},
		{"cd sub && cat .env", ws, Deny},
		{"cd sub && cat ../.env", ws, Deny},
		{"cd - && cat .env", ws, Deny}, // Read(**/.env) names a .env wherever cd leads
		{"cd - && cat a.txt", ws, RequireApproval},
		{"cat ~/.env", ws, Deny},
		{"cat " + ws + "/../out/secre*", ws, RequireApproval},
		{"cat " + out + "/secret.txt", ws, RequireApproval},
		{"cp a.txt " + out + "/copy", ws, Deny},
		{"cat a.txt > " + out + "/copy", ws, Deny},
		{"cat a.txt", ws, Allow},
		{"cat *.txt", ws, Allow},
		{"ls " + out + "/missing", ws, Allow},
	} {
		checkLine(t, e, c.cwd, c.cmd, c.want)
	}
}
