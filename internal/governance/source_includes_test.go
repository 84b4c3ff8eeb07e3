package governance

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestSourceIncludes: rustfmt, cargo fmt and the C preprocessors and
// compilers read the files their sources include (#[path] and mod files,
// #include lines, the includes of those in turn), and the go command
// the files its module's sources embed (//go:embed) and include (cgo): each is decided as a
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
		files: []string{"ws/.env", "ws/secrets/a.key", "outside/v.rs", "ws/goembed/.env", "ws/gw/lib/.env", "ws/goglob/sub/.env", "ws/godir/static/.env",
			"ws/godir/static/a.css", "ws/goclean/a.txt"},
		texts: map[string]string{
			"ws/plain.c":                "#include <stdio.h>\n#include \"sub/ok.h\"\nint main(void) { return 0; }\n",
			"ws/sub/ok.h":               "int ok;\n",
			"ws/env.c":                  "#include \".env\"\n",
			"ws/comment.c":              "# /* x */ include \".env\"\n",
			"ws/digraph.c":              "%:include \".env\"\n",
			"ws/cont.c":                 "#inc\\\nlude \".env\"\n",
			"ws/key.c":                  "#include \"secrets/a.key\"\n",
			"ws/header.c":               "#include \"sub/h.h\"\n",
			"ws/sub/h.h":                "#include \"../.env\"\n",
			"ws/angle.c":                "#include <a.key>\n",
			"ws/macro.c":                "#define F \".env\"\n#include F\n",
			"ws/has.c":                  "#if __has_include(\".env\")\n#endif\n",
			"ws/plain.rs":               "fn main() {}\n",
			"ws/path.rs":                "#[path = \".env\"]\nmod e;\nfn main() {}\n",
			"ws/modlink.rs":             "mod e;\nfn main() {}\n",
			"ws/out.rs":                 "#[path = \"../outside/v.rs\"]\nmod v;\n",
			"ws/cfg.rs":                 "#[cfg_attr(all(), path = \".env\")]\nmod e;\n",
			"ws/inline.rs":              "mod a {\n    mod e;\n}\n",
			"ws/crate/Cargo.toml":       "[package]\nname = \"c\"\nversion = \"0.1.0\"\n",
			"ws/crate/src/main.rs":      "#[path = \"../../.env\"]\nmod e;\nfn main() {}\n",
			"ws/deps/Cargo.toml":        "[package]\nname = \"q\"\nversion = \"0.1.0\"\n[dependencies]\nd = { path = \"../clean\" }\n",
			"ws/clean/Cargo.toml":       "[package]\nname = \"d\"\nversion = \"0.1.0\"\n",
			"ws/clean/src/lib.rs":       "pub mod m;\n",
			"ws/clean/src/m.rs":         "pub fn f() {}\n",
			"ws/placed/Cargo.toml":      "[package]\nname = \"p\"\nversion = \"0.1.0\"\n[lib]\npath = \"../.env\"\n",
			"ws/inc.rs":                 "fn main() { print!(\"{}\", include_str!(\".env\")); }\n",
			"ws/incmac.rs":              "const K: &str = include_str!(concat!(\".e\", \"nv\"));\n",
			"ws/outdir.rs":              "include!(concat!(env!(\"OUT_DIR\"), \"/b.rs\"));\nconst T: &[u8] = include_bytes!(\"plain.rs\");\n",
			"ws/crate2/Cargo.toml":      "[package]\nname = \"c\"\nversion = \"0.1.0\"\n",
			"ws/crate2/src/main.rs":     "mod k;\nfn main() {}\n",
			"ws/crate2/src/k.rs":        "pub const K: &[u8] = include_bytes!(\"../../.env\");\n",
			"ws/i.s":                    ".section .rodata\nk: .incbin \".env\"\n",
			"ws/sub/k.S":                "\t.INCLUDE \".env\"\n",
			"ws/macro.s":                ".incbin F\n",
			"ws/cws/Cargo.toml":         "[workspace]\nmembers = [\"a\"]\n",
			"ws/cws/a/Cargo.toml":       "[package]\nname = \"a\"\nversion = \"0.1.0\"\n",
			"ws/cws/a/src/lib.rs":       "mod t;\n#[cfg(test)]\nmod tests {}\n",
			"ws/cws/a/src/t.rs":         "pub const K: &str = include_str!(\"../../../.env\");\n",
			"ws/cclean/Cargo.toml":      "[workspace]\nmembers = [\"a\"]\n",
			"ws/cclean/a/Cargo.toml":    "[package]\nname = \"a\"\nversion = \"0.1.0\"\n",
			"ws/cclean/a/src/lib.rs":    "mod m;\nmod big;\n#[cfg(test)]\nmod tests {}\nconst D: &[u8] = include_bytes!(\"data.bin\");\n",
			"ws/cclean/a/src/m.rs":      "pub fn f() {}\n",
			"ws/cclean/a/src/big.rs":    "// " + strings.Repeat("x", 300<<10) + "\n",
			"ws/cclean/a/src/data.bin":  strings.Repeat("\x00binary", 40<<10),
			"ws/clink/Cargo.toml":       "[package]\nname = \"l\"\nversion = \"0.1.0\"\n",
			"ws/clink/src/main.rs":      "mod e;\nfn main() {}\n",
			"ws/golink/go.mod":          "module x\n",
			"ws/goov/go.mod":            "module x\n",
			"ws/goov/main.go":           "package main\n\nimport _ \"embed\"\n\n//go:embed a.txt\nvar s string\n",
			"ws/goov/a.txt":             "plain\n",
			"ws/goov/b.txt":             "plain too\n",
			"ws/goov/ov.json":           "{\"Replace\":{\"a.txt\":\"../.env\"}}",
			"ws/goov/ovok.json":         "{\"Replace\":{\"a.txt\":\"b.txt\",\"gone.go\":\"\"}}",
			"ws/goov/ovgo.json":         "{\"Replace\":{\"x.go\":\"../gogen/x.go\"}}",
			"ws/gogen/x.go":             "package main\n\nimport _ \"embed\"\n\n//go:embed .env\nvar e string\n",
			"ws/goov/bad.json":          "{\"Replace\":",
			"ws/gw/go.work":             "go 1.21\n\nuse (\n\t./app\n\t./lib\n)\n",
			"ws/gw/app/go.mod":          "module app\n",
			"ws/gw/app/main.go":         "package main\n\nimport _ \"lib\"\n",
			"ws/gw/lib/go.mod":          "module lib\n",
			"ws/gw/lib/l.go":            "package lib\n\nimport _ \"embed\"\n\n//go:embed .env\nvar E string\n",
			"ws/gr/app/go.mod":          "module app\n\nrequire lib v0.0.0\n\nreplace lib => ../../gw/lib\n",
			"ws/gr/app/main.go":         "package main\n\nimport _ \"lib\"\n",
			"ws/goembed/go.mod":         "module x\n",
			"ws/goembed/main.go":        "package main\n\nimport _ \"embed\"\n\n//go:embed .env\nvar s string\n",
			"ws/goglob/go.mod":          "module x\n",
			"ws/goglob/sub/s.go":        "package sub\n\nimport \"embed\"\n\n//go:embed *\nvar F embed.FS\n",
			"ws/goglob/cmd/app/main.go": "package main\n\nimport \"x/sub\"\n",
			"ws/gocgo/go.mod":           "module x\n",
			"ws/gocgo/cg/main.go":       "package main\n\n/*\n#include \"../../.env\"\n*/\nimport \"C\"\n",
			"ws/gocgoline/go.mod":       "module x\n",
			"ws/gocgoline/main.go":      "package main\n\n// #include \"../.env\"\nimport \"C\"\n",
			"ws/godir/go.mod":           "module x\n",
			"ws/godir/main.go":          "package main\n\nimport \"embed\"\n\n//go:embed all:static `a b.txt`\nvar F embed.FS\n",
			"ws/goquoted/go.mod":        "module x\n",
			"ws/goquoted/main.go":       "package main\n\n//go:embed \"a.txt\n",
			"ws/goclean/go.mod":         "module x\n",
			"ws/goclean/main.go":        "package main\n\nimport _ \"embed\"\n\n//go:embed a.txt\nvar s string\n",
			"ws/gounsuf/go.mod":         "module x\n",
			"ws/gounsuf/cg/main.go":     "package main\n\n/*\n#include \"k\"\n*/\nimport \"C\"\n",
			"ws/gounsuf/cg/k":           "#include \"../../.env\"\n",
			"ws/gocflags/go.mod":        "module x\n",
			"ws/gocflags/cg/main.go":    "package main\n\n/*\n#cgo CFLAGS: -O2 -I${SRCDIR}/../inc\n#include \"k\"\n*/\nimport \"C\"\n",
			"ws/gocflags/inc/k":         "#include \"../../.env\"\n",
			"ws/gocforce/go.mod":        "module x\n",
			"ws/gocforce/cg/main.go":    "package main\n\n// #cgo CPPFLAGS: -include ../inc/k\nimport \"C\"\n",
			"ws/gocforce/inc/k":         "#include \"../../.env\"\n",
			"ws/gocprefix/go.mod":       "module x\n",
			"ws/gocprefix/main.go":      "package main\n\n// #cgo CFLAGS: -iprefix x/\nimport \"C\"\n",
			"ws/gocok/go.mod":           "module x\n",
			"ws/gocok/cg/main.go":       "package main\n\n/*\n#cgo CFLAGS: -DX=1 -I${SRCDIR}/../inc\n#cgo LDFLAGS: -lm\n#include \"ok.h\"\n*/\nimport \"C\"\n",
			"ws/gocok/inc/ok.h":         "int ok;\n",
			"ws/rpath.rs":               "#[path = \"rk\"]\nmod e;\nfn main() {}\n",
			"ws/rk":                     "pub const K: &str = include_str!(\".env\");\n",
			"ws/rinc.rs":                "include!(\"ri\");\nfn main() {}\n",
			"ws/ri":                     "const K: &[u8] = include_bytes!(\".env\");\n",
			"ws/rstr.rs":                "const K: &str = include_str!(\"ri\");\nfn main() {}\n",
			"ws/cpath/a/Cargo.toml":     "[package]\nname = \"a\"\nversion = \"0.1.0\"\n[dependencies]\nb = { path = \"../b\" }\n",
			"ws/cpath/a/src/main.rs":    "fn main() {}\n",
			"ws/cpath/b/Cargo.toml":     "[package]\nname = \"b\"\nversion = \"0.1.0\"\n",
			"ws/cpath/b/src/lib.rs":     "pub const K: &str = include_str!(\"../../../.env\");\n",
			"ws/goclean/big.go":         "package main\n\n// " + strings.Repeat("x", 300<<10) + "\n",
		},
		links: map[string]string{"ws/e.rs": ".env", "ws/clink/src/e.rs": "../../.env", "ws/golink/x.go": "../.env"},
	}.make(t, tmp)
	p := writePolicy(t, filepath.Join(root, "GOVERNANCE.md"), "  default: allow\n  deny:\n    - Read(**/.env)\n    - Read(./secrets/**)\n")
	e := NewEngine(p, EngineOptions{Roots: []string{root}})
	checkLines(t, e, root, lineCases(t, "source_include_lines.txt", nil))
}
