package governance

import "strings"

// A process started in a directory named with ".." after a link (a
// terminal's cwd WS/l/.., l a link to WS/drafts/deep) is in the directory
// the kernel reaches, WS/drafts, not in the one the text cleans to, WS: a
// name the command gives (echo x > plan.md) is opened there. The names
// a command gives are judged against its cwd, so the cwd of a request
// that runs one, holding "..", is taken as the kernel resolves it; the cwd
// itself is judged as written and as resolved, as any path is. A tool's
// own paths and strings keep the cwd as written: a Node tool resolves a
// relative name against it as text (path.resolve), and the engine judges
// such a path as written and as resolved.

// kernelCwd returns cwd as the kernel resolves it when it holds a ".."
// element (resolvePath: ".." after the links before it), else cwd as it
// is. A cwd that cannot be resolved is returned as it is: it is refused
// where it is judged as a path.
func kernelCwd(cwd string) string {
	if !strings.HasPrefix(cwd, "/") || !hasDotDot(cwd) {
		return cwd
	}
	if r, refusal := resolvePath(cwd); refusal == nil {
		return r
	}
	return cwd
}

// hasDotDot reports whether the path p has a ".." element.
func hasDotDot(p string) bool {
	for {
		i := strings.Index(p, "..")
		if i < 0 {
			return false
		}
		if (i == 0 || p[i-1] == '/') && (i+2 == len(p) || p[i+2] == '/') {
			return true
		}
		p = p[i+2:]
	}
}
