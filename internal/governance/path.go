package governance

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"unicode/utf8"
)

// Limits a path must respect before the engine judges it: Linux's PATH_MAX
// and NAME_MAX, and the number of symlinks the kernel follows in one
// lookup (MAXSYMLINKS) before it fails with ELOOP.
const (
	maxPathLen = 4096
	maxNameLen = 255
	maxLinks   = 40
)

// pathRefusal says why a path cannot be judged at all: the process that
// opens it (the IDE for fs/* calls, the agent for its own tools) may reach
// something other than what the bridge resolved. Such a path is denied
// whatever the policy says.
type pathRefusal struct {
	// ref is the audit slug of the built-in rule.
	ref string
	// why completes "<action> <path>: ..." in the user's words.
	why string
}

func (r *pathRefusal) Error() string { return r.why }

// The built-in rules a pathRefusal stands for, as Decision.Rule shows them.
var refusalRules = map[string]string{
	"relative-path":     "deny relative paths (built-in)",
	"magic-link":        "deny paths through /proc and /dev/fd links (built-in)",
	"unresolvable-path": "deny paths that cannot be resolved (built-in)",
	"special-file":      "deny reads and writes of pipes, sockets and devices (built-in)",
	"hard-link":         "require-approval for files with several hard links (built-in)",
}

func refuse(ref, format string, args ...any) *pathRefusal {
	return &pathRefusal{ref: ref, why: fmt.Sprintf(format, args...)}
}

// checkPathText refuses what no file system lookup may be trusted with:
// relative paths (an IDE opens them against its own working directory, not
// the session's, and no process expands "~"), NUL bytes (C APIs end the
// path there), bytes that are not UTF-8 (the IDE may decode them to other
// characters) and paths or names longer than the kernel accepts.
func checkPathText(p string) *pathRefusal {
	switch {
	case strings.IndexByte(p, 0) >= 0:
		return refuse("unresolvable-path", "the path contains a NUL byte, where programs written in C end it")
	case !utf8.ValidString(p):
		return refuse("unresolvable-path", "the path is not valid UTF-8, so the IDE may read it as a different name")
	case len(p) > maxPathLen:
		return refuse("unresolvable-path", "the path is %d bytes long, more than the %d the system opens", len(p), maxPathLen)
	case !strings.HasPrefix(p, "/"):
		return refuse("relative-path", "a relative path is opened against the IDE's own working directory, not the session's; the agent must name files by absolute path")
	}
	// An element is no longer than the path.
	for rest := p; len(rest) > maxNameLen; {
		e, after, _ := strings.Cut(rest, "/")
		if len(e) > maxNameLen {
			return refuse("unresolvable-path", "a path element is %d bytes long, more than the %d the system allows", len(e), maxNameLen)
		}
		rest = after
	}
	return nil
}

// magicPrefixes are the places whose meaning depends on the process that
// opens them: /proc/self is the opener, /dev/fd its descriptors, and
// /proc/<pid>/{cwd,root,exe,fd/*} are links the kernel resolves without
// reading them as paths. The bridge resolving them in its own process says
// nothing about what the IDE or the agent would reach.
var magicPrefixes = []string{"/proc/self", "/proc/thread-self", "/dev/fd", "/dev/stdin", "/dev/stdout", "/dev/stderr"}

// isMagicPath reports whether the clean absolute path p is, or is beneath,
// a per-process location: one of magicPrefixes or /proc/<pid>.
func isMagicPath(p string) bool {
	if !strings.HasPrefix(p, "/proc/") && !strings.HasPrefix(p, "/dev/") {
		return false // every magic prefix starts with one of those
	}
	for _, m := range magicPrefixes {
		if p == m || len(p) > len(m) && p[len(m)] == '/' && p[:len(m)] == m {
			return true
		}
	}
	rest, ok := strings.CutPrefix(p, "/proc/")
	if !ok {
		return false
	}
	pid, _, _ := strings.Cut(rest, "/")
	if pid == "" {
		return false
	}
	for _, c := range pid {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

func magicRefusal(p string) *pathRefusal {
	return refuse("magic-link", "the path goes through %s, which names a different place in each process that opens it", p)
}

// resolvePath returns the path the kernel reaches when a process opens the
// absolute path raw: each element is looked up with lstat; a symlink's
// target takes its place, whether the target exists or not (open with
// O_CREAT follows a dangling link and creates its target); ".." steps up
// from the directory reached so far, after any link, as the kernel does;
// and from the first element that does not exist the rest, which cannot
// contain links, is appended lexically. Lookups start below the first of
// roots (symlink-free directories) that raw lies beneath, if any.
//
// The walk refuses a path that meets a per-process location (isMagicPath,
// or any symlink on a procfs mount), that follows more than maxLinks
// links (a loop), or whose elements cannot be looked up.
func resolvePath(raw string, roots ...string) (string, *pathRefusal) {
	res, _, r := resolveLooked(raw, roots...)
	return res, r
}

// lookup is what the last lstat of a path's resolution said about the
// path it returns: the file (never a symlink), or that nothing is there;
// neither when the walk did not end on a lookup of that path (a root, a
// step up with ".."). It saves looking the same path up again in the
// same decision.
type lookup struct {
	fi      os.FileInfo
	missing bool
}

// known reports whether l says anything about the path.
func (l lookup) known() bool { return l.fi != nil || l.missing }

// resolveLooked is resolvePath that also returns what its last lstat said
// about the resolved path. A path the kernel finds no symlink on is
// answered by one lookup (resolvePlain); any other is walked
// (resolveWalk).
func resolveLooked(raw string, roots ...string) (string, lookup, *pathRefusal) {
	if res, last, ok := resolvePlain(raw, roots); ok {
		return res, last, nil
	}
	return resolveWalk(raw, roots...)
}

// resolveWalk is resolveLooked element by element. The elements still to
// walk are kept in one string; pathWalk.step walks each.
func resolveWalk(raw string, roots ...string) (string, lookup, *pathRefusal) {
	return walkPath(raw, roots, nil)
}

// walkPath is resolveWalk that also appends to made, when not nil, each
// missing directory the walk steps back out of with ".." (madeParents).
func walkPath(raw string, roots []string, made *[]string) (string, lookup, *pathRefusal) {
	w, rest, done := startWalk(raw, roots)
	if done {
		return w.cur, w.last, nil
	}
	// rest holds the elements still to walk, separated by "/" (an empty
	// one is skipped); more says whether one is left, which may be "".
	for more := true; more; {
		var e string
		e, rest, more = strings.Cut(rest, "/")
		target, link, r := w.step(e)
		switch {
		case r != nil:
			return "", w.last, r
		case w.missing != "" && !climbsBack(rest):
			return w.beneathMissing(rest)
		case w.missing != "":
			// A ".." after a missing directory: an open fails there, but
			// an opener that first makes the missing parent directories
			// (mkdir -p, as the e2e TypeScript client's write does) makes
			// it, then steps up out of it and follows the links beyond.
			// Walk on as if it were a new, plain directory.
			if made != nil {
				*made = append(*made, w.missing)
			}
			w.cur, w.missing, w.last = w.missing, "", lookup{missing: true}
		case !link:
		case more:
			rest = target + "/" + rest
		default:
			rest, more = target, true
		}
	}
	return w.cur, w.last, nil
}

// pathWalk is a resolution under way (resolvePath): the directory it has
// reached, what its last lstat said, and how many links it has followed.
type pathWalk struct {
	cur   string
	last  lookup
	links int
	// missing is the path of the element step found missing, which ends
	// the walk (beneathMissing); "" until then.
	missing string
}

// startWalk starts resolving raw below the first of roots raw lies
// beneath that has no link in it now (rootIsPlain), if any, else at "/",
// and returns what of raw is left to walk; done when raw is such a root.
func startWalk(raw string, roots []string) (w pathWalk, rest string, done bool) {
	w.cur = "/"
	for _, r := range roots {
		if r == "/" || !(raw == r || len(raw) > len(r) && raw[len(r)] == '/' && raw[:len(r)] == r) || !rootIsPlain(r) {
			continue
		}
		if raw == r {
			w.cur = r
			return w, "", true
		}
		if len(raw) > len(r) && raw[len(r)] == '/' && raw[:len(r)] == r {
			w.cur = r
			return w, raw[len(r)+1:], false
		}
	}
	return w, raw, false
}

// step walks the element e: "" and "." stay, ".." steps up from the
// directory reached, any other element is looked up with lstat. A
// symlink's target is returned (link) for the caller to walk before the
// rest, from w.cur ("/" when the target is absolute); an element that
// does not exist sets w.missing.
func (w *pathWalk) step(e string) (target string, link bool, r *pathRefusal) {
	switch e {
	case "", ".":
		return "", false, nil
	case "..":
		w.cur, w.last = filepath.Dir(w.cur), lookup{}
		return "", false, nil
	}
	next := w.cur + "/" + e
	if w.cur == "/" {
		next = "/" + e
	}
	if isMagicPath(next) {
		return "", false, magicRefusal(next)
	}
	fi, err := os.Lstat(next)
	switch {
	case errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR):
		// Nothing below a missing element can be a link.
		w.missing = next
		return "", false, nil
	case err != nil:
		return "", false, refuse("unresolvable-path", "%s cannot be looked up (%v), so where the path leads is unknown", next, unwrapPathError(err))
	case fi.Mode()&fs.ModeSymlink == 0:
		w.cur, w.last = next, lookup{fi: fi}
		return "", false, nil
	}
	w.last = lookup{}
	w.links++
	if w.links > maxLinks {
		return "", false, refuse("unresolvable-path", "the path follows more than %d symlinks (a loop?)", maxLinks)
	}
	if onProcfs(w.cur) {
		return "", false, magicRefusal(next)
	}
	target, err = os.Readlink(next)
	if err != nil {
		return "", false, refuse("unresolvable-path", "the link %s cannot be read (%v)", next, unwrapPathError(err))
	}
	if strings.HasPrefix(target, "/") {
		w.cur = "/"
	}
	return target, true, nil
}

// madeParents returns the directories an opener that makes a write's
// missing parent directories first (mkdir -p, the e2e TypeScript client's
// fs.mkdir of path.dirname, recursive) makes on its way to the absolute
// path raw, beside where the path leads: each missing directory the walk
// steps back out of with "..", where the walk reached it. The cleaned
// path no longer names them, yet they are made: OUT/made/../../ws/x leads
// into the workspace and makes OUT/made outside it. None when raw holds no
// "..", or cannot be resolved (it is refused then).
func madeParents(raw string, roots ...string) []string {
	if !climbsBack(raw) {
		return nil
	}
	var made []string
	if _, _, r := walkPath(raw, roots, &made); r != nil {
		return nil
	}
	return made
}

// beneathAny reports whether the clean absolute path p is one of dirs or
// beneath one.
func beneathAny(p string, dirs []string) bool {
	for _, d := range dirs {
		if p == d || d == "/" || len(p) > len(d) && p[len(d)] == '/' && p[:len(d)] == d {
			return true
		}
	}
	return false
}

// climbsBack reports whether the elements still to walk, rest, hold a
// "..": one that may step back out of a directory that does not exist yet
// into ones whose links a lexical join would never follow.
func climbsBack(rest string) bool {
	for more := rest != ""; more; {
		var e string
		e, rest, more = strings.Cut(rest, "/")
		if e == ".." {
			return true
		}
	}
	return false
}

// beneathMissing ends a walk at the missing element: the rest of the
// path, which cannot contain links, is appended to it lexically.
func (w *pathWalk) beneathMissing(rest string) (string, lookup, *pathRefusal) {
	next := w.missing
	out := filepath.Clean(next + "/" + rest)
	if isMagicPath(out) {
		return "", w.last, magicRefusal(out)
	}
	// out is next or beneath it (no ".." climbed back out), so its
	// lookup fails as next's did.
	return out, lookup{missing: out == next || len(out) > len(next) && out[len(next)] == '/' && out[:len(next)] == next}, nil
}

// unwrapPathError drops the operation and path an *fs.PathError repeats.
func unwrapPathError(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// pathForms returns the forms of the absolute path p a rule must consider:
// as written (cleaned) and as the file system resolves it (resolvePath).
// The decision for a path is the strictest over its forms, so neither a
// symlink nor ".." after one can reach outside what a rule allows. roots
// are resolved workspace roots (see rootForms). A path that cannot be
// judged (checkPathText, resolvePath) is refused instead.
func pathForms(p string, roots ...string) ([]string, *pathRefusal) {
	forms, _, r := pathFormsLooked(nil, p, roots...)
	return forms, r
}

// pathFormsLooked is pathForms that also returns what resolving p last
// looked up about its last form, where it leads (resolveLooked). The
// forms are appended to dst, so a caller with room for two allocates
// nothing for them.
func pathFormsLooked(dst []string, p string, roots ...string) ([]string, lookup, *pathRefusal) {
	if r := checkPathText(p); r != nil {
		return nil, lookup{}, r
	}
	lit := cleanPath(p)
	if isMagicPath(lit) {
		return nil, lookup{}, magicRefusal(lit)
	}
	res, last, r := resolveLooked(p, roots...)
	if r != nil {
		return nil, lookup{}, r
	}
	n := len(dst)
	dst = append(dst, lit)
	// The directories a maker of parents makes on the way outside the
	// roots are written too (one inside a root is the workspace's, as
	// the path itself is); the form where the path leads stays last.
	for _, d := range madeParents(p, roots...) {
		if !beneathAny(d, roots) && d != lit && d != res && !slices.Contains(dst[n:], d) {
			dst = append(dst, d)
		}
	}
	if res != lit || len(dst) > n+1 {
		dst = append(dst, res)
	}
	for _, other := range otherSpellings(lit) {
		more, r := spellingForms(other, roots...)
		if r != nil {
			return nil, lookup{}, r
		}
		for _, f := range more {
			if !slices.Contains(dst[n:], f) {
				dst = append(dst, f)
			}
		}
	}
	return dst, last, nil
}

// spellingForms returns the forms of another spelling of a path
// (otherSpellings): as written and resolved, as pathFormsLooked gives
// them, without spelling it again.
func spellingForms(p string, roots ...string) ([]string, *pathRefusal) {
	if r := checkPathText(p); r != nil {
		return nil, r
	}
	lit := cleanPath(p)
	if isMagicPath(lit) {
		return nil, magicRefusal(lit)
	}
	res, _, r := resolveLooked(p, roots...)
	if r != nil {
		return nil, r
	}
	if res != lit {
		return []string{lit, res}, nil
	}
	return []string{lit}, nil
}

// absPath makes p absolute against cwd (and "~/" against home) without
// touching the file system, for configured roots and session roots (which
// the person chose); request paths are never resolved this way.
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
	return cleanPath(p)
}

// cleanPath is filepath.Clean(p), with no walk over a path that is clean
// and absolute already (cleanAbsolute), as most are.
func cleanPath(p string) string {
	if cleanAbsolute(p) {
		return p
	}
	return filepath.Clean(p)
}

// resolveDir resolves a configured directory (a root, a rule's fixed
// directory, a protected location). If it cannot be resolved it is
// returned marked with a NUL byte, so it equals no path.
func resolveDir(d string) string {
	v, r := resolvePath(filepath.Clean(d))
	if r != nil {
		return d + "\x00"
	}
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
		for _, f := range []string{a, resolveDir(a)} {
			if !seen[f] && !strings.Contains(f, "\x00") {
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
