package governance

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/acp-bridge/acp-bridge/internal/shellcmd"
)

// The links a copy or a move puts in place (kept as links_made.go keeps
// links): a symlink copied or moved, each symlink beneath a copied or
// moved tree, and each kept link a copy or move carries to a new name.

// copyPair is a source a copier's or mover's form names and the names
// its copy may take: beneath the destination under the source's name,
// and the destination itself when it is not a directory there now or the
// source's content goes in (rsync's and cp's "src/" or "src/.", -T,
// ditto), or should a line remove that directory first (see madeLink).
type copyPair struct {
	src  string
	made []string
}

// copyPairs returns the copy pairs of a copier's or mover's form run in
// dir.
func copyPairs(name string, form []shellcmd.Word, dir string) []copyPair {
	ops, dest := operands(name, form[1:])
	if dest == "" {
		return nil
	}
	abs := func(p string) string {
		if strings.HasPrefix(p, "/") {
			return filepath.Clean(p)
		}
		return filepath.Clean(dir + "/" + p)
	}
	d := abs(dest)
	fi, err := os.Lstat(d)
	realDir := err == nil && fi.IsDir()
	into := name == "ditto" || readCopyFlags(name, form).noTarget
	var out []copyPair
	for i, op := range ops {
		if op == dest && i == len(ops)-1 {
			continue
		}
		src := abs(op)
		p := copyPair{src: src, made: []string{d + "/" + filepath.Base(src)}}
		if !realDir || into || strings.HasSuffix(op, "/") || strings.HasSuffix(op, "/.") || mayTakeDirName(dest, dir) {
			// The copy goes at the destination's name: it is not a
			// directory now, the source's content goes in, or a line
			// may remove the directory first (links_atname.go).
			p.made = append(p.made, d)
		}
		out = append(out, p)
	}
	return out
}

// copiedFormLinks returns the links a copier's or mover's form run in dir
// puts in place: a source that is a symlink, kept at the name the copy
// gives it with its target read from there and from where it is now; and
// each symlink beneath a source directory, the same at its place in the
// copy (a tree too large to look through is kept whole, as leading to its
// source). A copy that follows links makes files instead; they are kept
// all the same, to err on the side of the rule.
func copiedFormLinks(name string, form []shellcmd.Word, dir string) []madeLink {
	var out []madeLink
	for _, p := range copyPairs(name, form, dir) {
		fi, err := os.Lstat(p.src)
		if err != nil {
			continue
		}
		switch {
		case fi.Mode()&fs.ModeSymlink != 0:
			for _, m := range p.made {
				out = appendReadLink(out, p.src, m)
			}
		case fi.IsDir():
			rels, whole := treeLinks(p.src)
			for _, m := range p.made {
				if whole {
					out = append(out, madeLink{name: m, target: p.src})
					continue
				}
				for _, rel := range rels {
					out = appendReadLink(out, p.src+"/"+rel, m+"/"+rel)
				}
			}
		}
	}
	return out
}

// keptCopies returns the kept links (kept: the engine's, and those the
// request's line made before) that a copy or move of pairs carries to a
// new name: a kept link at a source or beneath it, which may not exist
// yet when the copy is decided (the terminal that makes it has not run),
// is kept again at its place in the copy, leading where it led, and for
// a relative target also where it leads from there. srcForms gives the
// forms a source path takes (as written and resolved).
func keptCopies(kept []madeLink, pairs []copyPair, srcForms func(string) []string) []madeLink {
	var out []madeLink
	for _, p := range pairs {
		for _, sf := range srcForms(p.src) {
			for _, k := range kept {
				rest, ok := cutDir(sf, k.name)
				if !ok {
					continue
				}
				for _, m := range p.made {
					n := m
					if rest != "" {
						n += "/" + rest
					}
					c := k
					c.name = n
					out = append(out, c)
					if k.op != "" && !strings.HasPrefix(k.op, "/") {
						c.target = filepath.Dir(n) + "/" + k.op
						out = append(out, c)
					}
				}
			}
		}
	}
	return out
}

// appendReadLink appends the link at made that copying the symlink src
// makes: its target as read from made and from src.
func appendReadLink(out []madeLink, src, made string) []madeLink {
	t, err := os.Readlink(src)
	if err != nil {
		return out
	}
	if strings.HasPrefix(t, "/") {
		return append(out, madeLink{name: made, target: t, op: t})
	}
	return append(out, madeLink{name: made, target: filepath.Dir(made) + "/" + t, op: t}, madeLink{name: made, target: filepath.Dir(src) + "/" + t, op: t})
}

// treeLinks returns the paths, relative to the directory src, of the
// symlinks beneath it; whole when the tree is past maxLinkTreeEntries or
// cannot be listed, and is to be kept whole, as leading to src.
func treeLinks(src string) (rels []string, whole bool) {
	n := 0
	err := filepath.WalkDir(src, func(p string, ent fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if n++; n > maxLinkTreeEntries {
			return fs.SkipAll
		}
		if ent.Type()&fs.ModeSymlink != 0 {
			rel, _ := filepath.Rel(src, p)
			rels = append(rels, rel)
		}
		return nil
	})
	return rels, err != nil || n > maxLinkTreeEntries
}
