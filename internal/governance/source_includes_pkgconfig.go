package governance

import (
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
)

// A cgo preamble's "#cgo pkg-config: NAME" line has the go command run
// pkg-config in the package's directory and give the C compiler the flags
// it prints: the Cflags (and Libs) of NAME's .pc file and of those it
// Requires. A NAME ending in .pc, or holding a "/", is that file ("./x.pc"
// is the package's own), and a .pc file of the workspace may say "Cflags:
// -include ${pcfiledir}/../.env", which has gcc read .env and quote its
// line, though no word of the line, nor of the preamble, names it.
// pkgConfigFlags reads the .pc files such a line reaches, as pkg-config
// does, and returns the flags they give, which cgoFlags reads as it reads
// the preamble's own.

// pkgConfigVar matches a .pc file's variable definition: name=value, any
// of C's blanks between the name and "=" (pkgconf skips them with isspace,
// so "Cflags\v: ..." is a field, not a line of nothing).
var pkgConfigVar = regexp.MustCompile(`^([A-Za-z0-9_.]+)[ \t\v\f]*=(.*)$`)

// pkgConfigField matches a .pc file's field: Name: value, blanks between
// as pkgConfigVar has them.
var pkgConfigField = regexp.MustCompile(`^([A-Za-z0-9_.]+)[ \t\v\f]*:(.*)$`)

// pkgConfigRef matches a variable's use: ${name}.
var pkgConfigRef = regexp.MustCompile(`\$\{([^}]*)\}`)

// pkgConfigFlagFields are the fields whose flags the go command gives the
// C compiler and the linker.
var pkgConfigFlagFields = map[string]bool{"cflags": true, "cflags.private": true, "libs": true, "libs.private": true}

// pkgConfigRequireFields are the fields naming the packages a .pc file
// brings in with it.
var pkgConfigRequireFields = map[string]bool{"requires": true, "requires.private": true}

// pkgConfigFlags returns the flags pkg-config prints for the words of a
// "#cgo pkg-config:" line, run in dir: those of each package named by its
// .pc file's path, or found in a directory --with-path adds (a package
// found nowhere else is the system's), and of the packages they Require,
// in turn; why says what the bridge cannot follow (another option, a .pc
// file it cannot read, an undefined variable, quoting).
func pkgConfigFlags(words []string, dir string) (flags string, why string) {
	var search []string
	defined := map[string]string{}
	var names []string
	for _, w := range words {
		switch {
		case w == "--static" || w == "--shared":
		case strings.HasPrefix(w, "--with-path="):
			search = append(search, joinRaw(dir, strings.TrimPrefix(w, "--with-path=")))
		case strings.HasPrefix(w, "--define-variable="):
			k, v, _ := strings.Cut(strings.TrimPrefix(w, "--define-variable="), "=")
			defined[k] = v
		case strings.HasPrefix(w, "-"):
			return "", "pkg-config is given an option the bridge does not follow (" + w + ")"
		default:
			names = append(names, w)
		}
	}
	var out []string
	seen := map[string]bool{}
	var read func(names, search []string, depth int) string
	read = func(names, search []string, depth int) string {
		if depth > maxScriptDepth {
			return "the .pc files require others more than " + strconv.Itoa(maxScriptDepth) + " deep"
		}
		for _, n := range names {
			p := pkgConfigFile(n, dir, search)
			if p == "" || seen[p] {
				continue
			}
			seen[p] = true
			fields, why := readPkgConfigFile(p, defined)
			if why != "" {
				return "the .pc file " + p + ": " + why
			}
			var requires []string
			for k, v := range fields {
				switch {
				case pkgConfigFlagFields[k]:
					out = append(out, v)
				case pkgConfigRequireFields[k]:
					requires = append(requires, pkgConfigRequired(v)...)
				}
			}
			if why := read(requires, append([]string{filepath.Dir(p)}, search...), depth+1); why != "" {
				return why
			}
		}
		return ""
	}
	if why := read(names, search, 0); why != "" {
		return "", why
	}
	return strings.Join(out, " "), ""
}

// pkgConfigFile returns the .pc file pkg-config reads for the package
// name, run in dir: the file a path names, else name.pc in the first
// search directory holding one; "" for one found in none (the system's).
func pkgConfigFile(name, dir string, search []string) string {
	if strings.HasSuffix(name, ".pc") || strings.Contains(name, "/") {
		return joinRaw(dir, name)
	}
	for _, s := range search {
		if p := filepath.Join(s, name+".pc"); fileExists(p) {
			return p
		}
	}
	return ""
}

// readPkgConfigFile reads the .pc file at p: its fields, by lower-case
// name, with the variables expanded (pcfiledir is p's directory; defined
// are those given on the line, which win), or why it cannot. A field given
// twice is the two values together, as pkgconf appends a second Cflags to
// the first: keeping the last let "Cflags: -DX" hide an -include before it.
func readPkgConfigFile(p string, defined map[string]string) (map[string]string, string) {
	text, why := readTextFile(p)
	if why != "" {
		return nil, why
	}
	vars := map[string]string{"pcfiledir": filepath.Dir(p)}
	fields := map[string]string{}
	var bad string
	expand := func(s string) string {
		s = strings.ReplaceAll(s, "$$", "\x00")
		s = pkgConfigRef.ReplaceAllStringFunc(s, func(ref string) string {
			k := ref[2 : len(ref)-1]
			if v, ok := defined[k]; ok {
				return v
			}
			v, ok := vars[k]
			if !ok {
				bad = "it uses a variable it does not define (" + k + ")"
			}
			return v
		})
		return strings.ReplaceAll(s, "\x00", "$")
	}
	lines, why := pkgConfigLines(text)
	if why != "" {
		return nil, why
	}
	for _, l := range lines {
		l = strings.TrimSpace(l)
		v := pkgConfigVar.FindStringSubmatch(l)
		f := pkgConfigField.FindStringSubmatch(l)
		switch {
		case v != nil && (f == nil || len(v[1]) < len(f[1])):
			if _, ok := defined[v[1]]; !ok {
				vars[v[1]] = expand(strings.TrimSpace(v[2]))
			}
		case f != nil:
			k := strings.ToLower(f[1])
			fields[k] = strings.TrimSpace(fields[k] + " " + expand(strings.TrimSpace(f[2])))
		}
	}
	if bad != "" {
		return nil, bad
	}
	for k, v := range fields {
		if pkgConfigFlagFields[k] && strings.ContainsAny(v, "\"'\\") {
			return nil, "its " + k + " are quoted in a way the bridge does not read"
		}
	}
	return fields, ""
}

// pkgConfigRequired returns the package names of a Requires field: each
// name, without the version a comparison after it gives.
func pkgConfigRequired(v string) []string {
	var out []string
	toks := strings.Fields(strings.ReplaceAll(v, ",", " "))
	for i := 0; i < len(toks); i++ {
		switch toks[i] {
		case "=", "!=", "<", ">", "<=", ">=":
			i++ // and the version
		default:
			out = append(out, toks[i])
		}
	}
	return out
}
