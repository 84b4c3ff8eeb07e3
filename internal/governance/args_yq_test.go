package governance

import (
	"path/filepath"
	"testing"
)

// TestYqLoads: yq's load functions (load, load_str, strload, load_xml,
// load_props, load_base64) read the file their argument names, in every
// form of the command (eval, e, eval-all, ea, --expression): a string
// literal is decided as a read of that file, a computed name and an
// expression from --from-file are asked about, and yq without a load
// decides as before. The policy allows by default and denies reading .env
// and editing secrets.
func TestYqLoads(t *testing.T) {
	root := tempTree(t, []string{"secrets"}, []string{"secrets/a.key", ".env", "a.txt", "a.yaml"})
	p := writePolicy(t, filepath.Join(root, "GOVERNANCE.md"), "  default: allow\n  deny:\n    - Edit(./secrets/*.key)\n    - Read(**/.env)\n    - Read(./secrets/**)\n")
	e := NewEngine(p, EngineOptions{Roots: []string{root}})
	checkLines(t, e, root, lineCases(t, "yq_load_lines.txt", nil))
}
