package governance

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// gzip and pigz decompressing do not always read the file an operand
// names. One that is not there they look for with a suffix added: -S's
// value, then .gz, .z, -z and .Z (gzip 1.12), and, in other versions and
// in pigz, -gz, _z, .zz, .zip and more: "gunzip -N src/x" reads src/x.gz
// and "gunzip -N -S .bin data/blob" reads data/blob.bin. A directory
// operand given -r (--recursive; pigz's PIGZ variable may hold it) has
// every file beneath it decompressed, each under the name it stores, in
// its own directory. storedNameFiles gives every file the operand may
// stand for, and the name each stores is decided; a tree of more than
// maxTreeEntries entries, or holding a link to a directory, cannot be
// known.

// storedNameSuffixes are the suffixes gzip and pigz try, in one version
// or another, after a name that is not there.
var storedNameSuffixes = []string{".gz", "-gz", ".z", "-z", "_z", ".Z", ".zz", "-zz", ".zip", ".ZIP", ".tgz", ".taz"}

// storedNameFiles returns, as text beginning with the operand's text,
// the files a decompressing f may read for the operand text at p: p
// itself when it is there and no directory, every file beneath it when it
// is a directory and f is recursive, and every file p with a suffix
// names when p is not there; or why they cannot be known.
func storedNameFiles(p, text string, f storedNameForm) ([]string, string) {
	fi, err := os.Stat(p)
	switch {
	case err == nil && fi.IsDir():
		if !f.recursive {
			return nil, "" // gzip skips a directory without -r
		}
		return storedNameTree(p, text)
	case err == nil, !errors.Is(err, fs.ErrNotExist):
		return []string{text}, "" // storedName reads it, or says why it cannot
	}
	var out []string
	for _, s := range append(append([]string(nil), f.suffixes...), storedNameSuffixes...) {
		if s == "" {
			continue
		}
		if _, err := os.Stat(p + s); err != nil {
			continue
		}
		files, why := storedNameFiles(p+s, text+s, f)
		if why != "" {
			return nil, why
		}
		out = append(out, files...)
	}
	return uniqueNames(out), ""
}

// storedNameTree returns every file beneath the directory p (named by
// text), which gzip -r decompresses, or why they cannot be known: more
// than maxTreeEntries entries, or a link to a directory, which gzip -rf
// follows.
func storedNameTree(p, text string) ([]string, string) {
	var out []string
	budget := maxTreeEntries
	var why string
	within := walkBudget(p, &budget, func(q string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return nil
		}
		rel, err := filepath.Rel(p, q)
		if err != nil {
			why = "the names beneath " + text + " cannot be read"
			return filepath.SkipAll
		}
		name := strings.TrimSuffix(text, "/") + "/" + filepath.ToSlash(rel)
		if d.Type()&fs.ModeSymlink != 0 {
			if fi, err := os.Stat(q); err == nil && fi.IsDir() {
				why = name + " is a link to a directory"
				return filepath.SkipAll
			}
		}
		out = append(out, name)
		return nil
	})
	if !within {
		return nil, fmt.Sprintf("%s holds more than %d entries", text, maxTreeEntries)
	}
	if why != "" {
		return nil, why
	}
	return out, ""
}

// gzipSuffixOpt reads the option word t that o gave: when it is -S
// (alone or ending a cluster, its value attached or the next word) or
// --suffix (or a prefix of it, "--su"), it returns the suffix, reading
// the next word when the value is not attached.
func gzipSuffixOpt(o *optionWords, t string) (string, bool) {
	if strings.HasPrefix(t, "--") {
		name, v, attached := strings.Cut(t[2:], "=")
		if len(name) < 2 || !strings.HasPrefix("suffix", name) {
			return "", false
		}
		if w := o.value(v, attached); w != nil {
			return w.Text, true
		}
		return "", false
	}
	for j := 1; j < len(t); j++ {
		if t[j] == 'S' {
			if w := o.value(t[j+1:], j+1 < len(t)); w != nil {
				return w.Text, true
			}
			return "", false
		}
		if strings.IndexByte(gzipNameOpts.shortValue, t[j]) >= 0 {
			return "", false
		}
	}
	return "", false
}
