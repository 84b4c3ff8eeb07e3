package governance

import (
	"path/filepath"
	"regexp"
	"strings"

	"github.com/acp-bridge/acp-bridge/internal/shellcmd"
)

// rustc names the files it writes after its crate, not after a word of the
// line: the program is the crate's name followed by -C extra-filename, its
// last extension taken off, in the directory it runs in (or --out-dir's),
// and each other output that name with its own extension (.d, .o, .rmeta)
// or lib before it (libNAME.rlib). The crate's name is --crate-name's, else
// the source's #![crate_name = "..."] attribute, else the source file's
// stem. So "rustc --crate-name GOVERNANCE -C extra-filename=.md.x m.rs"
// writes its program over GOVERNANCE.md, and with the attribute in m.rs no
// word of the line names GOVERNANCE at all. rustcOutputArgs gives each
// name rustc may write so, decided as a write; a crate name or extra file
// name the bridge cannot know needs approval.

// rustcCrateNameAttr matches a crate_name attribute naming its crate
// literally.
var rustcCrateNameAttr = regexp.MustCompile(`#!\s*\[\s*crate_name\s*=\s*"([^"\\]*)"\s*\]`)

// rustcCrateNameAny matches any mention of crate_name, for an attribute
// rustcCrateNameAttr cannot read (a cfg_attr, an escape).
var rustcCrateNameAny = regexp.MustCompile(`\bcrate_name\b`)

// rustcOutputExts are the extensions of the files rustc may write beside
// its program: dep-info, assembly, LLVM IR and bitcode, objects, MIR,
// metadata and the library kinds.
var rustcOutputExts = []string{"d", "s", "ll", "bc", "o", "mir", "rmeta", "rlib", "so", "a", "dylib", "dll", "lib", "exe", "pdb", "wasm", "js"}

// rustcOutputArgs returns the names rustc forms of c write after their
// crate (see above), each decided as a write, and a question for what the
// bridge cannot know.
func (e *Engine) rustcOutputArgs(in *reqInfo, c *shellcmd.Command) []argWord {
	var out []argWord
	for _, form := range c.Forms {
		if filepath.Base(form[0].Text) != "rustc" {
			continue
		}
		ask := func(why string) {
			out = append(out, argWord{word: form[0], text: form[0].Text, write: true, namedBy: "the files rustc names after its crate", unplaced: why})
		}
		r, why := readRustcOutputs(form)
		if why != "" {
			ask(why)
			continue
		}
		bases, unknown := e.commandDirs(in, c.Dir)
		if unknown || len(bases) != 1 {
			ask("the line changes directory before it, so where rustc writes is not known")
			continue
		}
		name := r.crateName
		if name == "" && r.source != "" {
			n, why := rustcSourceCrateName(e.operandPath(bases[0], r.source))
			if why != "" {
				ask(why)
				continue
			}
			name = n
		}
		if name == "" {
			continue // no source: rustc writes nothing of a crate
		}
		stems := []string{name + r.extra}
		if r.output != "" {
			stems = append(stems, filepath.Base(r.output))
		}
		for _, s := range stems {
			for _, n := range rustcOutputNames(s) {
				p := e.operandPath(bases[0], filepath.Join(r.outDir, n))
				out = append(out, argWord{word: shellcmd.Word{Kind: shellcmd.Static, Text: p}, text: p, write: true,
					namedBy: "a file rustc names after its crate"})
			}
		}
	}
	return out
}

// rustcOutputs is what a rustc form says of the names it writes.
type rustcOutputs struct {
	crateName, extra, outDir, output, source string
}

// readRustcOutputs reads a rustc form's --crate-name, -C extra-filename,
// --out-dir, -o and first source, or says why it cannot: a word computed
// when the line runs.
func readRustcOutputs(form []shellcmd.Word) (rustcOutputs, string) {
	r := rustcOutputs{outDir: "."}
	o := optionWords{form: form}
	for o.next() {
		t := o.opt.Text
		if o.opt.Kind != shellcmd.Static {
			return r, "rustc is given an option computed when the line runs"
		}
		name, v, attached := strings.Cut(t, "=")
		var val *shellcmd.Word
		switch {
		case name == "--crate-name" || name == "--out-dir" || name == "--codegen":
			val = o.value(v, attached)
		case t == "-o" || t == "-C":
			val = o.value("", false)
			name = t
		case strings.HasPrefix(t, "-o") || strings.HasPrefix(t, "-C"):
			name, val = t[:2], &shellcmd.Word{Kind: shellcmd.Static, Text: t[2:]}
		case rustcValueOpts[t]:
			o.value("", false)
			continue
		default:
			continue
		}
		if val == nil {
			continue
		}
		if val.Kind != shellcmd.Static {
			return r, "rustc is given " + name + " computed when the line runs, so the names it writes are not known"
		}
		switch name {
		case "--crate-name":
			r.crateName = val.Text
		case "--out-dir":
			r.outDir = val.Text
		case "-o":
			r.output = val.Text
			r.outDir = filepath.Dir(val.Text)
		case "-C", "--codegen":
			if x, ok := strings.CutPrefix(val.Text, "extra-filename="); ok {
				r.extra = x
			}
		}
	}
	for _, w := range o.ops {
		if w.Kind != shellcmd.Static {
			return r, "rustc's source is computed when the line runs, so the names it writes are not known"
		}
		if r.source == "" {
			r.source = w.Text
		}
	}
	return r, ""
}

// rustcSourceCrateName returns the crate name rustc takes for the source
// at p: its #![crate_name] attribute's, else its file's stem ("-" read as
// "_"); why says the attribute is in a form the bridge cannot read.
func rustcSourceCrateName(p string) (string, string) {
	stem := strings.ReplaceAll(strings.TrimSuffix(filepath.Base(p), filepath.Ext(p)), "-", "_")
	text, why := readTextFile(p)
	if why != "" {
		return stem, "" // rustc cannot compile what is not there to read either
	}
	m := rustcCrateNameAttr.FindAllStringSubmatch(text, -1)
	switch {
	case len(m) != len(rustcCrateNameAny.FindAllStringIndex(text, -1)):
		return "", "the source names its crate in a form the bridge cannot read, so the names rustc writes are not known"
	case len(m) > 0:
		return m[0][1], ""
	}
	return stem, ""
}

// rustcOutputNames returns the names rustc may give its outputs from the
// stem s: the program (s with its last extension taken off, or s), and s
// with each output extension in its place or after it, with lib before it
// too.
func rustcOutputNames(s string) []string {
	trimmed := strings.TrimSuffix(s, filepath.Ext(s))
	out := []string{s, trimmed}
	for _, x := range rustcOutputExts {
		for _, b := range []string{s, trimmed} {
			out = append(out, b+"."+x, "lib"+b+"."+x)
		}
	}
	return out
}
