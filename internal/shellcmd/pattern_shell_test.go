package shellcmd

import (
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"mvdan.cc/sh/v3/syntax"
)

// patternNames are the files a pattern is expanded against: each bracket
// member the shells treat specially, letters in both cases and beyond
// ASCII, and controls.
var patternNames = []string{
	".env", "env", "e", "E", "é", "É", "ÿ", "€", "٣", "ǅ", "ß", "x1", "_", "~",
	"-", "]", "[", "!", "^", ":", "=", ".", "a-b", "a]b", "a[b", "a!b", "a^b", `a\b`, "a b", "a:b",
	"\t", "\x01", "\u0085", "\u00a0", "\u2028", ".e", ".en", "..env",
}

// patternWord reads the one word of "cat PAT" as the analysis does; ok is
// false when the line is not one plain command with one argument.
func patternWord(pat string) (w Word, ok bool) {
	f, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader("cat "+pat), "")
	if err != nil || len(f.Stmts) != 1 {
		return Word{}, false
	}
	call, isCall := f.Stmts[0].Cmd.(*syntax.CallExpr)
	if !isCall || len(call.Args) != 2 || len(f.Stmts[0].Redirs) > 0 || len(call.Assigns) > 0 {
		return Word{}, false
	}
	ws, ok := fields(call.Args[1], "cat "+pat)
	if !ok || len(ws) != 1 {
		return Word{}, false
	}
	return ws[0], true
}

// shellExpansions returns the names pat expands to in dir, run by shell
// with leading dots matched like any character and a pattern matching
// nothing dropped (zsh, bash), or kept when it names a file (sh).
func shellExpansions(t testing.TB, shell, dir, pat string) []string {
	var script string
	switch shell {
	case "bash":
		script = "shopt -s dotglob nullglob; for f in " + pat + `; do printf '%s\0' "$f"; done`
	case "zsh":
		script = "setopt globdots nullglob; for f in " + pat + `; do printf '%s\0' "$f"; done`
	case zshExtendedGlobShell:
		shell = "zsh"
		script = "setopt globdots nullglob extendedglob; for f in " + pat + `; do printf '%s\0' "$f"; done`
	default:
		script = "for f in " + pat + `; do [ -e "$f" ] && printf '%s\0' "$f"; done; true`
	}
	cmd := exec.Command(shell, "-c", script)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "LC_ALL=C.UTF-8")
	out, err := cmd.Output()
	if err != nil {
		// A line the shell does not run reads no file.
		return nil
	}
	return strings.FieldsFunc(string(out), func(r rune) bool { return r == 0 })
}

// checkPatternCovers fails when a name shell expands pat to is one the
// word the analysis reads from pat cannot be.
func checkPatternCovers(t testing.TB, shell, dir, pat string) {
	w, ok := patternWord(pat)
	if !ok {
		return
	}
	for _, name := range shellExpansions(t, shell, dir, pat) {
		if shell == "sh" && strings.ContainsFunc(name, func(r rune) bool { return r >= utf8.RuneSelf }) {
			// dash matches byte by byte: ? is one byte of a character
			// beyond ASCII (docs/security.md, Limits).
			continue
		}
		switch w.Kind {
		case Dynamic:
			continue
		case Static:
			if name == w.Text {
				continue
			}
		case Glob:
			// The shells write "a//b" and "a/" as they please; the
			// names are the same.
			if m, err := path.Match(squashSlashes(w.Text), squashSlashes(name)); err == nil && m {
				continue
			}
			if name == Unescape(w.Text) {
				continue
			}
		}
		t.Errorf("%s expands %q to %q, which the word %v cannot be", shell, pat, name, w)
	}
}

// squashSlashes writes each run of slashes as one and drops a trailing one.
func squashSlashes(p string) string {
	for strings.Contains(p, "//") {
		p = strings.ReplaceAll(p, "//", "/")
	}
	if len(p) > 1 {
		p = strings.TrimSuffix(p, "/")
	}
	return p
}

func patternDir(t testing.TB) string {
	dir := t.TempDir()
	for _, n := range patternNames {
		if n == "." {
			continue
		}
		if err := os.WriteFile(filepath.Join(dir, n), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// patternShells are the shells a terminal may be run with that are
// installed: bash and sh always (the suite needs them), zsh where present.
func patternShells(t testing.TB) []string {
	shells := []string{"bash", "sh"}
	for _, s := range shells {
		if _, err := exec.LookPath(s); err != nil {
			t.Fatalf("%s: %v", s, err)
		}
	}
	if _, err := exec.LookPath("zsh"); err == nil {
		shells = append(shells, "zsh")
	}
	return shells
}

// TestPatternCoversShells holds the analysis's reading of bracket
// expressions to the shells': every name bash, sh or zsh expands a word
// to is a name the word, as the analysis reads it, can be. At 0e3d9ac
// ".[[:alpha:]]nv", ".[!]]nv", ".[]e]nv", ".[-e]nv" and ".[e-]nv" were
// read as patterns matching nothing (or literal names), so cat .[-e]nv
// read .env under a policy denying it.
func TestPatternCoversShells(t *testing.T) {
	dir := patternDir(t)
	pats := []string{
		".[[:alpha:]]nv", ".[[:lower:]]nv", ".[[:alnum:]]nv", ".[[:graph:]]nv", ".[[:print:]]nv",
		".[[:alpha:]x]nv", ".[x[:alpha:]]nv", ".[[:xdigit:]]nv", ".[[:word:]]nv",
		".[[=e=]]nv", ".[[.e.]]nv", ".[[.e.]-f]nv", ".[d-[.e.]]nv",
		".[!]]nv", ".[^]]nv", ".[]e]nv", ".[]]nv", ".[-e]nv", ".[e-]nv", ".[!-]nv", ".[!x]nv", ".[^x]nv",
		".[!!]nv", ".[^^]nv", ".[!^]nv", ".[\\e]nv", ".[e\\-]nv", ".[a-z]nv", ".[d-f]nv", ".[f-d]nv",
		".[a'-'z]nv", ".['!'x]nv", ".['!'e]nv", ".[\"^\"x]nv", ".[']'e]nv", ".[[:foo:]]nv", ".[[:foo]]nv",
		".[[:alpha]nv", "[[:punct:]]env", "[.]env", "[^[:alpha:]]", "[![:alnum:]]", "[[:space:]]",
		"[[:blank:]]", "[[:cntrl:]]", "[^[:cntrl:]]", "[[:punct:]]", "[![:punct:]]", "[[:upper:]]",
		"[![:lower:]]", "[[:digit:]]", "[^[:digit:]]", "[[=é=]]", "[[=E=]]", "a[!-]b", "a[]]b", "a[!]]b",
		"a[\\]]b", "a[[]b", "a[!a]b", "a[^[:alpha:]]b", "a[[:punct:]]b", "a[[:space:]]b", "a[\\\\]b",
		"[]-a]", "[!]-a]", "[a-]", "[-]", "[!-]", "[]", "[!]", "a[", "[a", "[[:alpha:]", "*[[:punct:]]*",
		"?[!-]?", "[[:alpha:][:digit:]]?", "[[.-.]]", "[[.].]]", "[[=]=]]", "[[:a]b:]", "[/]", "a[/]b",
		"[]-!]", "[!]]", "[^]]", "[!]", "[^]", "**/!", "***/!", "**/*", "*/**/e", "**", "e**",
		"[!/]", "[a/]", "a[b/c", "[a-/]", "[\\/]",
	}
	for _, shell := range patternShells(t) {
		for _, pat := range pats {
			checkPatternCovers(t, shell, dir, pat)
		}
	}
}

// FuzzPatternCoversShells is TestPatternCoversShells over patterns made
// of bracket syntax, quotes and backslashes.
func FuzzPatternCoversShells(f *testing.F) {
	for _, s := range []string{".[[:alpha:]]nv", ".[!]]nv", ".[]e]nv", "[a-]", "a[\\]]b", ".['!'e]nv", "[[=e=]]", "[[.-.]-z]"} {
		f.Add(s)
	}
	const alphabet = "[]!^-:=.\\'\"*?aeEnvxz/é_"
	dir := patternDir(f)
	shells := patternShells(f)
	f.Fuzz(func(t *testing.T, s string) {
		// A word starting "=" is zsh's =cmd, a problem of the line
		// (walker.equals), not a pattern; one starting "/" would list the
		// machine's root.
		if len(s) > 24 || strings.HasPrefix(s, "=") || strings.HasPrefix(s, "/") || strings.ContainsFunc(s, func(r rune) bool { return !strings.ContainsRune(alphabet, r) }) {
			return
		}
		for _, shell := range shells {
			checkPatternCovers(t, shell, dir, s)
		}
	})
}
