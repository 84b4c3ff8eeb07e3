package governance

import (
	"path/filepath"
	"testing"
)

// TestJqImports: jq's data imports read the file their path names from
// each directory of the search path (the directive's search metadata, the
// directory jq runs in, -L and --library-path), as P.json and P/B.json: a
// plain path is decided as a read of each such file, so env.json leading
// to .env is refused as reading .env; a module (include, import as NAME),
// a path escaped or computed, a search path the bridge cannot place and a
// program from a file (-f, --from-file) are asked about; jq without
// imports decides as before. The policy allows by default and denies
// reading .env and secrets/.
func TestJqImports(t *testing.T) {
	root := t.TempDir()
	tree{
		files: []string{".env", "a.json", "secrets/a.key", "lib/x/ok.json"},
		links: map[string]string{"env.json": ".env", "sub/env.json": "../.env", "lib/deep/deep.json": "../../.env",
			"key.json": "secrets/a.key"},
		dirs: []string{"sub", "lib/deep"},
	}.make(t, root)
	p := writePolicy(t, filepath.Join(root, "GOVERNANCE.md"), "  default: allow\n  deny:\n    - Read(**/.env)\n    - Read(./secrets/**)\n")
	e := NewEngine(p, EngineOptions{Roots: []string{root}})
	checkLines(t, e, root, lineCases(t, "jq_import_lines.txt", nil))
}
