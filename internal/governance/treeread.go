package governance

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/acp-bridge/acp-bridge/internal/shellcmd"
)

// maxTreeEntries bounds the entries one command's directory operands are
// walked through; past it the command is asked about, not half checked. A
// variable only so that TestDecideTreeReadBounded can lower it; nothing
// else sets it.
var maxTreeEntries = 20000

// treeReadVerdict decides a command that reads everything beneath a
// directory (treeReadOf): each directory operand, or the cwd when it names
// none, is walked as the reader will walk it (symlinks beneath followed
// only when it follows them), and a file or directory there that a rule
// denies (or asks about) reading, or a read-protected location, decides
// the command as reading that file by name would. Exclusion options
// (--exclude, -g '!x', --exclude-dir, zip -x) are not trusted: the walk
// ignores them. ok is false when c reads no directory whole, or nothing
// beneath what it reads is refused.
func (e *Engine) treeReadVerdict(in *reqInfo, c *shellcmd.Command) (verdict, bool) {
	var worst strictest
	budget := maxTreeEntries
	for _, form := range c.Forms {
		if gp, ok := gitHistoryRead(form); ok {
			worst.keepIf(e.trackedReadVerdict(in, form, e.dirsOrRoots(in, c.Dir), gp, &budget))
		}
		worst.keepIf(e.indexDropVerdict(in, form, e.dirsOrRoots(in, c.Dir), &budget))
		tr, ok := treeReadOf(form)
		if !ok {
			continue
		}
		bases := e.dirsOrRoots(in, c.Dir)
		if tr.top {
			bases = workTreeTops(bases, in.roots, tr.base)
			tr.base = ""
		}
		dirs, ok := tr.roots(in, bases, e.home)
		if !ok {
			return verdict{value: RequireApproval, ref: "unreadable-command",
				ruleTx: "require-approval for commands the bridge cannot read through (built-in)",
				reason: fmt.Sprintf("%s reads every file beneath the names a pattern matches, too many to check (more than %d)", tr.reader, maxGlobMatches)}, true
		}
		for _, dir := range dirs {
			worst.keepIf(e.walkTreeRead(in, tr, dir, &budget))
			for _, f := range in.keptForms(dir) {
				worst.keepIf(e.walkTreeRead(in, tr, f, &budget)) // where a kept link leads (links_trees.go)
			}
		}
	}
	return worst.result()
}

// roots returns the absolute directories tr reads whole when its command
// runs in one of bases (every workspace root when where it runs is not
// known), a pattern expanded also where the links in kept leads
// (keptGlobNames: after "ln -s . kk", "tar cf - kk/v*" reads vault); ok
// is false when a pattern among them matches more names than globNames
// expands.
func (tr treeRead) roots(in *reqInfo, bases []string, home string) (dirs []string, ok bool) {
	ops := tr.dirs
	if tr.cwd {
		ops = append(ops[:len(ops):len(ops)], ".")
	}
	var out []string
	for _, b := range bases {
		if tr.base != "" {
			b = joinRaw(b, tr.base)
		}
		for _, op := range ops {
			p := op
			if strings.HasPrefix(p, "~/") && home != "" {
				p = joinRaw(home, p[2:])
			}
			// Not cleaned: the reader opens "link/.." through the link.
			p = joinRaw(b, p)
			if strings.ContainsAny(p, "*?[") {
				names, ok := in.keptGlobNames(p, maxGlobMatches)
				if !ok {
					return nil, false
				}
				out = append(out, names...)
				continue
			}
			out = append(out, p)
		}
	}
	return out, true
}

// walkTreeRead walks dir as tr's reader would and returns the strictest
// verdict on the entries it refuses (the first denied one ends the walk),
// or a require-approval once budget runs out.
//
// An entry a followed link leads to outside the workspace roots is read
// there: when dir itself lies inside them, that entry is asked about as
// naming it would be ("grep -R x sub" with sub/s.txt a link to a file
// outside reads that file, as "cat sub/s.txt" would). A dir outside the
// roots is decided by its own name, as the command's operand, and what
// lies beneath it with it.
func (e *Engine) walkTreeRead(in *reqInfo, tr treeRead, dir string, budget *int) (verdict, bool) {
	// The reader follows a symlink it is given by name, and reads a file
	// it is given whole ("git grep x -- '*'" is given every name of its
	// directory, .env among them).
	fi, err := os.Stat(dir)
	if err != nil {
		return verdict{}, false
	}
	sub := *in
	sub.read, sub.write, sub.command = true, false, false
	sub.defaultLast = true
	var scratch []string
	inside := false // dir lies inside the workspace roots
	refused := func(p string) (verdict, bool) {
		v := e.decidePath(&sub, p, &scratch)
		if r, ok := e.ruledBeyondRoots(&sub, p, v); ok {
			v = r // outside the roots, a rule naming where it leads
		}
		if v.value == Allow || v.ref == "default" || v.ref == "workspace-roots" && !inside {
			return verdict{}, false
		}
		if v.ref == "workspace-roots" {
			// As a plain argument naming it: asked about, not denied.
			v.value = RequireApproval
			v.ruleTx = "require-approval for a file outside the workspace roots a command reads through a link (built-in)"
		}
		v.reason = fmt.Sprintf("%s %s beneath %s, which holds %s: %s", tr.reader, tr.what(), dir, p, v.reason)
		return v, true
	}
	if v, ok := refused(dir); ok || !fi.IsDir() {
		return v, ok
	}
	top := e.decidePath(&sub, dir, &scratch)
	inside = top.ref != "workspace-roots"
	var worst strictest
	seen := map[string]bool{}
	// visited holds each directory the walk reached, as reached and as
	// resolved, and kept the kept links beneath them already decided
	// (keptBeneath).
	visited, kept := map[string]bool{}, map[string]bool{}
	if forms, r := in.pathForms(dir); r == nil {
		for _, f := range forms {
			visited[f] = true
		}
	}
	stack := []string{dir}
	for len(stack) > 0 || in.links != nil && in.links.n.Load() > 0 {
		if len(stack) == 0 {
			// The links a line still running may make beneath what was
			// walked: decided by their names, which the kept links
			// extend, and walked where they lead (links_trees.go).
			more := in.keptBeneath(func(d string) bool { return visited[d] }, kept)
			if len(more) == 0 {
				break
			}
			for _, l := range more {
				if l.symlink() && !tr.follow {
					continue // read as a link, not through it
				}
				for _, f := range in.keptForms(l.name) {
					fi, err := os.Stat(f)
					isDir := err == nil && fi.IsDir()
					if !isDir && (tr.names || !picked(tr.picks, filepath.Base(l.name))) {
						continue
					}
					if v, ok := refused(l.name); ok {
						if v.value == Deny {
							return v, true
						}
						worst.keep(v)
					}
					if isDir {
						stack = append(stack, f)
					}
				}
			}
			continue
		}
		d := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		visited[d] = true
		if r, err := filepath.EvalSymlinks(d); err == nil {
			visited[r] = true
			if seen[r] {
				continue
			}
			seen[r] = true
		}
		ents, err := os.ReadDir(d)
		if err != nil {
			continue // the reader cannot read it either
		}
		for _, ent := range ents {
			if tr.names && !ent.IsDir() && (!tr.follow || ent.Type()&os.ModeSymlink == 0) {
				continue // a name the reader lists, not a directory it reads: neither decided nor counted
			}
			*budget--
			if *budget < 0 {
				return verdict{value: RequireApproval, ref: "unreadable-command",
					ruleTx: "require-approval for commands the bridge cannot read through (built-in)",
					reason: fmt.Sprintf("%s %s beneath %s, too large to check (more than %d entries) for files the policy denies reading", tr.reader, tr.what(), dir, maxTreeEntries)}, true
			}
			p := d + "/" + ent.Name()
			isDir := ent.IsDir()
			if ent.Type()&os.ModeSymlink != 0 {
				if !tr.follow {
					continue // read as a link, not through it
				}
				fi, err := os.Stat(p)
				if err != nil {
					continue
				}
				isDir = fi.IsDir()
			}
			if !isDir && (tr.names || !picked(tr.picks, ent.Name())) {
				continue // a file the reader's own filter leaves unread, or a link to one it only names
			}
			if v, ok := refused(p); ok {
				if v.value == Deny {
					return v, true
				}
				worst.keep(v)
			}
			if isDir {
				stack = append(stack, p)
			}
		}
	}
	return worst.result()
}

// what says, for a reason, what tr's reader does beneath a directory.
func (tr treeRead) what() string {
	if tr.names {
		return "lists the files"
	}
	return "reads every file"
}
