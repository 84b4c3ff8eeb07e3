package governance

import (
	"path/filepath"
	"regexp"
	"strings"

	"github.com/acp-bridge/acp-bridge/internal/shellcmd"
)

// rustc reads more than the modules rustfmt follows: include_str!(".env")
// and include_bytes! put the file's bytes into the crate (a binary an
// allowed cat then prints), and include! parses it as Rust, quoting its
// line in the error. So for rustc and the cargo commands that compile a
// package, each file a crate's sources include so is decided as a read,
// beside the module files (rustcLang), relative to the including file's
// directory as rustc reads it. An include whose name is not a string
// literal needs approval, but for the build script's output
// (concat!(env!("OUT_DIR"), ...)), which the build script writes.

// rustInclude matches an include macro naming its file literally.
var rustInclude = regexp.MustCompile(`\binclude(?:_str|_bytes)?\s*!\s*[(\[{]\s*(?:r#*)?"([^"\\]*)"`)

// rustIncludeAny matches any use of an include macro.
var rustIncludeAny = regexp.MustCompile(`\binclude(?:_str|_bytes)?\s*!`)

// rustOutDirInclude matches an include of the build script's output.
var rustOutDirInclude = regexp.MustCompile(`\binclude(?:_str|_bytes)?\s*!\s*[(\[{]\s*concat\s*!\s*\(\s*env\s*!\s*\(\s*"OUT_DIR"\s*\)`)

// rustcLang reads a Rust source as rustc does: its module files
// (rustLang) and the files its include macros name.
var rustcLang = sourceLang{includes: func(text, dir, stem string, search []string) ([]string, string) {
	out, why := rustLang.includes(text, dir, stem, search)
	if why != "" {
		return nil, why
	}
	lit := rustInclude.FindAllStringSubmatch(text, -1)
	if len(lit)+len(rustOutDirInclude.FindAllStringIndex(text, -1)) != len(rustIncludeAny.FindAllStringIndex(text, -1)) {
		return nil, "the source includes a file whose name the bridge cannot read"
	}
	for _, m := range lit {
		out = append(out, filepath.Join(dir, m[1]))
	}
	return out, ""
}}

// rustcValueOpts are rustc's options that take the next word.
var rustcValueOpts = map[string]bool{"-o": true, "--out-dir": true, "--crate-name": true, "--crate-type": true, "--edition": true,
	"-L": true, "-l": true, "--cfg": true, "-C": true, "--codegen": true, "--emit": true, "--target": true, "--extern": true,
	"-A": true, "-W": true, "-D": true, "-F": true, "--cap-lints": true, "--sysroot": true, "--error-format": true, "--json": true,
	"--print": true, "--remap-path-prefix": true, "-Z": true, "--explain": true, "--check-cfg": true, "--color": true}

// rustcForm reads rustc's sources: its operands.
func rustcForm(form []shellcmd.Word) sourceForm {
	sf := sourceForm{lang: &rustcLang}
	for i := 1; i < len(form); i++ {
		w, t := form[i], form[i].Text
		switch {
		case w.Kind == shellcmd.Static && rustcValueOpts[t]:
			i++
		case w.Kind == shellcmd.Static && strings.HasPrefix(t, "-"):
		default:
			sf.sources = append(sf.sources, w)
		}
	}
	return sf
}

// cargoCompiling are the cargo subcommands that compile the package.
var cargoCompiling = map[string]bool{"build": true, "b": true, "check": true, "c": true, "run": true, "r": true, "test": true,
	"t": true, "bench": true, "clippy": true, "doc": true, "d": true, "rustc": true, "install": true}

// cargoCompileForm reads a compiling cargo command's sources: the usual
// targets of the package, as cargo fmt's, read as rustc reads them.
func cargoCompileForm(form []shellcmd.Word) sourceForm {
	sf := cargoFmtForm(form)
	sf.lang, sf.rewrite = &rustcLang, false
	return sf
}
