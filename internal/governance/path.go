package governance

import (
	"os"
	"path/filepath"
	"strings"
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

// pathForms returns the forms of p a rule must consider: as written
// (cleaned) and as the file system resolves it. The decision for a path is
// the strictest over its forms, so neither a symlink nor ".." after one
// can reach outside what a rule allows.
func pathForms(p, cwd, home string) []string {
	lit := absPath(p, cwd, home)
	res := resolvePath(joinRaw(p, cwd, home))
	if res == lit {
		return []string{lit}
	}
	return []string{lit, res}
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
