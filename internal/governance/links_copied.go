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
// ditto), or once a line removes that directory (ifRemoved).
type copyPair struct {
	src  string
	made [2]string
	// ifRemoved is made[0] when that is a directory now, which the copy
	// takes the place of only once a line removes it (madeLink.ifRemoved).
	ifRemoved string
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
		p := copyPair{src: src, made: [2]string{d, d + "/" + filepath.Base(src)}}
		if realDir && !into && !strings.HasSuffix(op, "/") && !strings.HasSuffix(op, "/.") {
			// The copy goes beneath the directory, or at its name once
			// a line removes it first.
			p.ifRemoved = d
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
		from := len(out)
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
		p.markIfRemoved(out[from:])
	}
	return out
}

// markIfRemoved marks the links of ls made at or beneath the pair's
// made[0] as counting only once a line removes that directory, when it is
// one now (copyPair.ifRemoved).
func (p copyPair) markIfRemoved(ls []madeLink) {
	if p.ifRemoved == "" {
		return
	}
	for i := range ls {
		_, under := cutDir(p.ifRemoved, ls[i].name)
		_, beneathCopy := cutDir(p.made[1], ls[i].name)
		if under && !beneathCopy {
			ls[i].ifRemoved = p.ifRemoved
		}
	}
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
				from := len(out)
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
				p.markIfRemoved(out[from:])
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
