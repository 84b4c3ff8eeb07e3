package governance

import (
	"os"
	"path/filepath"
	"testing"
)

// TestZshModulesLines decides lines that reach programs and files through
// zsh's modules and autoloaded functions (zsh_modules_lines.txt). Before,
// zf_rm and zargs ran rm past a rule refusing it, and $mapfile[.env] read
// .env, once the zmodload or autoload was approved; so did autoload of a
// function's file by its path (hostile cases zshmodules/*).
func TestZshModulesLines(t *testing.T) {
	root := tempTree(t, nil, []string{".env", "a.txt", "x"})
	if err := os.WriteFile(filepath.Join(root, "fn"), []byte("rm x\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	p := writePolicy(t, filepath.Join(root, "GOVERNANCE.md"), "  default: allow\n  deny:\n    - Bash(rm:*)\n    - Read(**/.env)\n    - Edit(**/.env)\n")
	e := NewEngine(p, EngineOptions{Roots: []string{root}, Protected: SelfProtected(p, nil)})
	checkCommandLines(t, e, root, "zsh_modules_lines.txt", map[string]string{"$ROOT": root})
}
