package governance

import (
	"os"
	"path/filepath"
	"strings"
	"sync"
)

// absPath makes p absolute against cwd (and "~/" against home) without
// touching the file system. The result is cleaned, so "a//b/../c" becomes
// "a/c"; resolvePath, not this, decides what the kernel would open.
func absPath(p, cwd, home string) string {
	if p == "~" || strings.HasPrefix(p, "~/") {
		if home != "" {
			p = home + p[1:]
		}
	}
	if !filepath.IsAbs(p) {
		if cwd == "" {
			cwd = "/"
		}
		p = cwd + "/" + p
	}
	return filepath.Clean(p)
}

// joinRaw joins p to cwd without cleaning, so ".." after a symlink is
// resolved by the file system walk, not lexically.
func joinRaw(p, cwd, home string) string {
	if p == "~" || strings.HasPrefix(p, "~/") {
		if home != "" {
			p = home + p[1:]
		}
	}
	if filepath.IsAbs(p) {
		return p
	}
	if cwd == "" {
		cwd = "/"
	}
	return cwd + "/" + p
}

// resolvePath returns the path the file system would reach for the
// absolute path raw: symlinks are resolved on the longest prefix that
// exists, and the rest, which cannot contain links, is appended lexically.
// ".." is interpreted after the link before it, as the kernel does.
func resolvePath(raw string) string {
	if r, err := filepath.EvalSymlinks(raw); err == nil {
		return r
	}
	elems := strings.Split(raw, "/")
	for i := len(elems) - 1; i > 0; i-- {
		prefix := strings.Join(elems[:i], "/")
		if prefix == "" {
			prefix = "/"
		}
		r, err := filepath.EvalSymlinks(prefix)
		if err != nil {
			continue
		}
		return filepath.Clean(r + "/" + strings.Join(elems[i:], "/"))
	}
	return filepath.Clean(raw)
}

// resolveBelow resolves raw like resolvePath when raw lies beneath dir, a
// directory whose own path is already free of symlinks: only the elements
// below dir are looked at, one lstat each, and the first symlink among
// them hands the rest to resolvePath. ok is false when raw is not beneath
// dir.
func resolveBelow(dir, raw string) (string, bool) {
	rest, ok := strings.CutPrefix(raw, strings.TrimSuffix(dir, "/")+"/")
	if !ok {
		return "", false
	}
	cur := dir
	elems := strings.Split(rest, "/")
	for i, e := range elems {
		switch e {
		case "", ".":
			continue
		case "..":
			cur = filepath.Dir(cur)
			continue
		}
		next := cur + "/" + e
		if cur == "/" {
			next = "/" + e
		}
		fi, err := os.Lstat(next)
		switch {
		case err != nil:
			// Missing: nothing below can be a link.
			return filepath.Clean(next + "/" + strings.Join(elems[i+1:], "/")), true
		case fi.Mode()&os.ModeSymlink != 0:
			return resolvePath(next + "/" + strings.Join(elems[i+1:], "/")), true
		}
		cur = next
	}
	return filepath.Clean(cur), true
}

// pathForms returns the forms of p a rule must consider: as written
// (cleaned) and as the file system resolves it. The decision for a path is
// the strictest over its forms, so neither a symlink nor ".." after one
// can reach outside what a rule allows. roots are resolved workspace
// roots (see rootForms): beneath one, only the elements below it are
// resolved.
func pathForms(p, cwd, home string, roots ...string) []string {
	lit := absPath(p, cwd, home)
	raw := joinRaw(p, cwd, home)
	res := ""
	for _, r := range roots {
		if r == resolvedRoot(r) {
			if v, ok := resolveBelow(r, raw); ok {
				res = v
				break
			}
		}
	}
	if res == "" {
		res = resolvePath(raw)
	}
	if res == lit {
		return []string{lit}
	}
	return []string{lit, res}
}

// resolvedRoots remembers which root forms are free of symlinks.
var resolvedRoots sync.Map // string -> string (its resolved form)

// resolvedRoot returns r with its symlinks resolved, remembered.
func resolvedRoot(r string) string {
	if v, ok := resolvedRoots.Load(r); ok {
		return v.(string)
	}
	v := resolvePath(r)
	resolvedRoots.Store(r, v)
	return v
}

// rootForms returns the workspace roots as written and resolved.
func rootForms(roots []string) []string {
	var out []string
	seen := map[string]bool{}
	for _, r := range roots {
		if r == "" {
			continue
		}
		a := filepath.Clean(r)
		for _, f := range []string{a, resolvePath(a)} {
			if !seen[f] {
				seen[f] = true
				out = append(out, f)
			}
		}
	}
	return out
}

// homeDir returns the user's home directory, or "" if unknown.
func homeDir() string {
	h, err := os.UserHomeDir()
	if err != nil {
		return ""
	}
	return h
}
