package governance

import (
	"os"
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
var rustInclude = regexp.MustCompile(`\binclude(_str|_bytes)?\s*!\s*[(\[{]\s*(?:r#*)?"([^"\\]*)"`)

// rustIncludeAny matches any use of an include macro.
var rustIncludeAny = regexp.MustCompile(`\binclude(?:_str|_bytes)?\s*!`)

// rustOutDirInclude matches an include of the build script's output.
var rustOutDirInclude = regexp.MustCompile(`\binclude(?:_str|_bytes)?\s*!\s*[(\[{]\s*concat\s*!\s*\(\s*env\s*!\s*\(\s*"OUT_DIR"\s*\)`)

// rustcLang reads a Rust source as rustc does: its module files
// (rustLang) and the files its include macros name.
var rustcLang = sourceLang{includes: func(text, dir, stem string, _ []string) ([]sourceInclude, string) {
	mods, why := rustModFiles(text, dir, stem)
	if why != "" {
		return nil, why
	}
	inc, why := rustIncludes(text, dir)
	return append(includesOf(mods), inc...), why
}}

// cargoLang reads a Rust source of a workspace cargo walks whole
// (cargoTreeSources): each module file there is a source of its own, so
// only the files a #[path] attribute names, anywhere, and those its
// include macros name are read from it.
var cargoLang = sourceLang{includes: func(text, dir, stem string, _ []string) ([]sourceInclude, string) {
	if len(rustPath.FindAllStringIndex(text, -1)) != len(rustPathAny.FindAllStringIndex(text, -1)) || rustCfgPath.MatchString(text) {
		return nil, "the source gives a module's path in a form the bridge cannot read"
	}
	if rustInlineMod.MatchString(text) && rustPathAny.MatchString(text) {
		return nil, "the source gives a module's path inside an inline module, found where the bridge does not look"
	}
	var out []string
	for _, m := range rustPath.FindAllStringSubmatch(text, -1) {
		out = append(out, filepath.Join(dir, m[1]))
		if stem != "mod" && stem != "lib" && stem != "main" {
			out = append(out, filepath.Join(dir, stem, m[1]))
		}
	}
	inc, why := rustIncludes(text, dir)
	return append(includesOf(out), inc...), why
}}

// rustLangFor returns how rustc reads the file at p: a Rust file as lang,
// nil for one an include macro only puts into the crate (a text or data
// file, read whole but compiled nothing of).
func rustLangFor(lang *sourceLang) func(string) *sourceLang {
	return func(p string) *sourceLang {
		if filepath.Ext(p) == ".rs" {
			return lang
		}
		return nil
	}
}

// rustIncludes returns the files text's include macros name, from dir, or
// why the bridge cannot tell: include! parses its file as Rust whatever
// its name, include_str! and include_bytes! put theirs in as data.
func rustIncludes(text, dir string) ([]sourceInclude, string) {
	var out []sourceInclude
	lit := rustInclude.FindAllStringSubmatch(text, -1)
	if len(lit)+len(rustOutDirInclude.FindAllStringIndex(text, -1)) != len(rustIncludeAny.FindAllStringIndex(text, -1)) {
		return nil, "the source includes a file whose name the bridge cannot read"
	}
	for _, m := range lit {
		out = append(out, sourceInclude{path: filepath.Join(dir, m[2]), data: m[1] != ""})
	}
	return out, ""
}

// rustMayInclude matches a source that may give a module's path or
// include a file, the ones cargoTreeSources reads whole.
var rustMayInclude = regexp.MustCompile(`\binclude(?:_str|_bytes)?\s*!|#\s*!?\s*\[\s*path\b|cfg_attr`)

// rustcValueOpts are rustc's options that take the next word.
var rustcValueOpts = map[string]bool{"-o": true, "--out-dir": true, "--crate-name": true, "--crate-type": true, "--edition": true,
	"-L": true, "-l": true, "--cfg": true, "-C": true, "--codegen": true, "--emit": true, "--target": true, "--extern": true,
	"-A": true, "-W": true, "-D": true, "-F": true, "--cap-lints": true, "--sysroot": true, "--error-format": true, "--json": true,
	"--print": true, "--remap-path-prefix": true, "-Z": true, "--explain": true, "--check-cfg": true, "--color": true}

// rustcForm reads rustc's sources: its operands.
func rustcForm(form []shellcmd.Word) sourceForm {
	o := optionWords{form: form}
	for o.next() {
		if rustcValueOpts[o.opt.Text] {
			o.value("", false)
		}
	}
	return sourceForm{lang: &rustcLang, langFor: rustLangFor(&rustcLang), sources: o.ops}
}

// cargoCompiling are the cargo subcommands that compile the package.
var cargoCompiling = map[string]bool{"build": true, "b": true, "check": true, "c": true, "run": true, "r": true, "test": true,
	"t": true, "bench": true, "clippy": true, "doc": true, "d": true, "rustc": true, "install": true}

// cargoCompileForm reads a compiling cargo command's sources: every Rust
// file of the workspace in dir, where it runs (or whose manifest
// --manifest-path names, from there), whichever packages -p, --workspace
// or the manifest's members and target paths pick (cargoTreeSources).
func cargoCompileForm(form []shellcmd.Word, dir shellcmd.Word) sourceForm {
	sf := sourceForm{lang: &cargoLang, langFor: rustLangFor(&cargoLang), treeSources: cargoTreeSources}
	top := dir.Text
	for i := 2; i < len(form); i++ {
		w, t := form[i], form[i].Text
		switch {
		case t == "--":
			i = len(form)
		case t == "--manifest-path" && i+1 < len(form):
			dir = shellcmd.Word{Kind: form[i+1].Kind, Text: filepath.Dir(joinRaw(top, form[i+1].Text))}
			i++
		case strings.HasPrefix(t, "--manifest-path="):
			dir = shellcmd.Word{Kind: w.Kind, Text: filepath.Dir(joinRaw(top, strings.TrimPrefix(t, "--manifest-path=")))}
		}
	}
	if dir.Kind != shellcmd.Static {
		sf.why = "cargo " + form[1].Text + " reads a manifest computed when the line runs, so the files its sources include are not known"
	}
	sf.tree = append(sf.tree, dir)
	return sf
}

// cargoSkipped are the directories of a cargo workspace holding no source
// cargo compiles of its own: the build's output.
var cargoSkipped = map[string]bool{"target": true}

// cargoTreeSources returns the Rust files of the cargo workspace dir is in
// (see treeSources): from the topmost directory at or above it holding
// Cargo.toml. Those that may give a module's path or include a file are
// read (rustMayInclude); one that cannot be read is read, and asked about.
// When a manifest there places a package or target elsewhere (a path
// dependency, a [patch], a target's path, a build script, a member), whose
// sources cargo compiles from there, or cannot be read as TOML
// (cargoManifest.placesElsewhere), the whole workspace root is walked.
func cargoTreeSources(in *reqInfo, dir string) (compiled, read []string, why string) {
	elsewhere := false
	kind := func(p string) (bool, bool) {
		if filepath.Base(p) == "Cargo.toml" {
			m, why := readCargoManifest(p)
			elsewhere = elsewhere || why != "" || m.placesElsewhere()
			return false, false
		}
		if filepath.Ext(p) != ".rs" {
			return false, false
		}
		b, err := os.ReadFile(p)
		return true, err != nil || rustMayInclude.Match(b)
	}
	compiled, read, why = treeSources(in, dir, "Cargo.toml", true, cargoSkipped, kind)
	if why != "" || !elsewhere {
		return compiled, read, why
	}
	return treeSources(in, in.rootOf(dir), "Cargo.toml", true, cargoSkipped, kind)
}
