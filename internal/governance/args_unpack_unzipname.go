package governance

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
)

// unzip finds its archive under other names than the word that names it:
// a name it cannot open as a zip (not there, a directory, not a zip) it
// tries again with .zip and then .ZIP added ("unzip -o src/evil" reads
// src/evil.zip), and a name holding a wildcard (*, ? or a [...] class,
// quoted so that the shell leaves it) it matches itself against the files
// of the directory the name gives, reading each that matches ("unzip -o
// 'src/ev*'"). unzipArchivePaths gives every file unzip may read for a
// name, and each is read and its members decided; one that cannot be read
// needs approval.

// maxUnzipMatches bounds the files a wildcard archive name may match.
const maxUnzipMatches = 64

// archivePaths returns the files prog reads for the archive at p (tar
// reads p alone), or why they cannot be known.
func archivePaths(p, prog string) ([]string, string) {
	if prog != "unzip" {
		return []string{p}, ""
	}
	return unzipArchivePaths(p)
}

// unzipArchivePaths returns the files unzip may read for the archive
// name p: p and every file of p's directory its last element matches as a
// wildcard (when p holds a wildcard character), each as it is and with
// .zip and .ZIP added, that is there and is no directory. More than
// maxUnzipMatches matches cannot be known.
func unzipArchivePaths(p string) ([]string, string) {
	names := []string{p}
	if strings.ContainsAny(p, "*?[") {
		dir, base := filepath.Split(p)
		match := unzipWildcard(base)
		entries, _ := os.ReadDir(filepath.Clean(dir))
		for _, d := range entries {
			if !match.MatchString(latin1(d.Name())) {
				continue
			}
			if len(names) > maxUnzipMatches {
				return nil, fmt.Sprintf("the name of its archive, a wildcard, matches more than %d files", maxUnzipMatches)
			}
			names = append(names, dir+d.Name())
		}
	}
	var out []string
	for _, n := range names {
		for _, suffix := range []string{"", ".zip", ".ZIP"} {
			if fi, err := os.Stat(n + suffix); err == nil && !fi.IsDir() {
				out = append(out, n+suffix)
			}
		}
	}
	return uniqueNames(out), ""
}

// unzipWildcard returns a pattern that matches every name unzip's
// wildcard w matches, and maybe more: * any run of bytes, ? any one, a
// [...] class (unzip negates one with ! or ^) any run from there to the
// end, a backslash (which escapes the next byte) itself or nothing, the
// rest themselves in either case. Names and pattern are bytes, each read
// as one character (latin1), as unzip matches them.
func unzipWildcard(w string) *regexp.Regexp {
	var b strings.Builder
	b.WriteString("(?is)^")
	for _, c := range latin1(w) {
		switch c {
		case '*':
			b.WriteString(".*")
		case '?':
			b.WriteString(".")
		case '[':
			b.WriteString(".*$")
			return regexp.MustCompile(b.String())
		case '\\':
			b.WriteString(`\\?`)
		default:
			b.WriteString(regexp.QuoteMeta(string(c)))
		}
	}
	b.WriteString("$")
	return regexp.MustCompile(b.String())
}

// latin1 returns s with each byte as one character.
func latin1(s string) string {
	r := make([]rune, len(s))
	for i := 0; i < len(s); i++ {
		r[i] = rune(s[i])
	}
	return string(r)
}
