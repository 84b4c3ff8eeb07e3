package governance

import (
	"path/filepath"
	"testing"
)

// TestSourceIncludes: rustfmt, cargo fmt and the C preprocessors and
// compilers read the files their sources include (#[path] and mod files,
// #include lines, the includes of those in turn): each is decided as a
// read, so a source including .env is refused as reading .env, and rustfmt
// rewriting a module outside the workspace as writing there; an include the
// bridge cannot read (a macro, a cfg_attr path) and a manifest placing
// targets elsewhere are asked about; sources without such includes decide
// as before. The policy allows by default and denies reading .env and
// secrets/.
func TestSourceIncludes(t *testing.T) {
	tmp := t.TempDir()
	root := filepath.Join(tmp, "ws")
	tree{
		files: []string{"ws/.env", "ws/secrets/a.key", "outside/v.rs"},
		texts: map[string]string{
			"ws/plain.c":           "#include <stdio.h>\n#include \"sub/ok.h\"\nint main(void) { return 0; }\n",
			"ws/sub/ok.h":          "int ok;\n",
			"ws/env.c":             "#include \".env\"\n",
			"ws/comment.c":         "# /* x */ include \".env\"\n",
			"ws/digraph.c":         "%:include \".env\"\n",
			"ws/cont.c":            "#inc\\\nlude \".env\"\n",
			"ws/key.c":             "#include \"secrets/a.key\"\n",
			"ws/header.c":          "#include \"sub/h.h\"\n",
			"ws/sub/h.h":           "#include \"../.env\"\n",
			"ws/angle.c":           "#include <a.key>\n",
			"ws/macro.c":           "#define F \".env\"\n#include F\n",
			"ws/has.c":             "#if __has_include(\".env\")\n#endif\n",
			"ws/plain.rs":          "fn main() {}\n",
			"ws/path.rs":           "#[path = \".env\"]\nmod e;\nfn main() {}\n",
			"ws/modlink.rs":        "mod e;\nfn main() {}\n",
			"ws/out.rs":            "#[path = \"../outside/v.rs\"]\nmod v;\n",
			"ws/cfg.rs":            "#[cfg_attr(all(), path = \".env\")]\nmod e;\n",
			"ws/inline.rs":         "mod a {\n    mod e;\n}\n",
			"ws/crate/Cargo.toml":  "[package]\nname = \"c\"\nversion = \"0.1.0\"\n",
			"ws/crate/src/main.rs": "#[path = \"../../.env\"]\nmod e;\nfn main() {}\n",
			"ws/deps/Cargo.toml":   "[package]\nname = \"q\"\nversion = \"0.1.0\"\n[dependencies]\nd = { path = \"../clean\" }\n",
			"ws/clean/Cargo.toml":  "[package]\nname = \"d\"\nversion = \"0.1.0\"\n",
			"ws/clean/src/lib.rs":  "pub mod m;\n",
			"ws/clean/src/m.rs":    "pub fn f() {}\n",
			"ws/placed/Cargo.toml": "[package]\nname = \"p\"\nversion = \"0.1.0\"\n[lib]\npath = \"../.env\"\n",
		},
		links: map[string]string{"ws/e.rs": ".env"},
	}.make(t, tmp)
	p := writePolicy(t, filepath.Join(root, "GOVERNANCE.md"), "  default: allow\n  deny:\n    - Read(**/.env)\n    - Read(./secrets/**)\n")
	e := NewEngine(p, EngineOptions{Roots: []string{root}})
	checkLines(t, e, root, lineCases(t, "source_include_lines.txt", nil))
}
