package governance

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/acp-bridge/acp-bridge/internal/shellcmd"
)

// The links a command line the engine let run may make, kept for the
// requests that come after it. The IDE carries out what it receives in
// order, but a terminal it has started may not have made its link when
// the agent's next request arrives, and that request would be decided
// against a file system without the link and carried out with it
// ("ln -s . d", then a write of d/GOVERNANCE.md sent straight behind it).
// So each link a decided line may put at a name (ln, link, symlink,
// cp -s/-l, rsync --link-dest, a copy or move of a symlink or of a tree
// holding one, the links git puts in place that the bridge can read:
// gitlinks_made.go) is kept,
// name and target, for the engine's life, and every later path through
// the name is decided also as the path through the target
// (madeLinks.extend): the strictest decision over the forms stands, so a
// kept link only ever adds to what a path is decided as.

// maxMadeLinks bounds the links kept; a line that would make more once
// it is reached needs approval (madeLinksVerdict).
const maxMadeLinks = 4096

// maxLinkForms bounds the forms one path may take through kept links
// (a link kept to a name beneath itself, or many links on one path).
const maxLinkForms = 32

// maxLinkTreeEntries bounds the entries of a copied or moved directory
// looked through for the symlinks it holds; a larger tree is kept as
// leading back to its source.
const maxLinkTreeEntries = 10000

// madeLink is a name a decided line may make a link at, and where the
// link leads: an absolute path, not cleaned (".." after a link is read as
// the kernel reads it), or "" when that is known only when the line runs.
//
// op is the target as the link holds it (what readlink returns) for a
// symlink (for one ln -r makes, the target as an absolute path, where the
// relative one it holds leads), "" for a hard link or a copied tree; hard
// says the link is a hard one, to the file at target.
//
// A link made into a directory that exists goes beneath it, under the
// target's name, unless the directory is gone by the time the line runs:
// terminals run side by side, and many programs remove a directory (rm,
// rmdir, mv, find -delete, git clean, rsync --delete, trash, a script). So
// such a line keeps a link beneath the directory and one at its name, and
// both count.
type madeLink struct {
	name, target, op string
	hard             bool
}

// madeLinks is the engine's record of madeLink, shared by its decisions:
// the links, each once, by name.
type madeLinks struct {
	n      atomic.Int32 // how many are kept, read without the lock
	mu     sync.Mutex   // guards byName, reserved
	byName map[string][]madeLink
	// reserved counts the room reserve gave decisions still under way.
	reserved int
}

// reserve reports whether n more links fit beside those kept and those
// reserved for decisions under way, and if so reserves room for them
// until keep.
func (m *madeLinks) reserve(n int) bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	if int(m.n.Load())+m.reserved+n > maxMadeLinks {
		return false
	}
	m.reserved += n
	return true
}

// keep gives back the room reserved for n links and, if run is set (the
// line was not refused), keeps links in it.
func (m *madeLinks) keep(links []madeLink, n int, run bool) {
	m.mu.Lock()
	m.reserved -= n
	m.mu.Unlock()
	if run {
		m.add(links)
	}
}

// add keeps links, each once; it reports false, keeping none, when they
// would take the record past maxMadeLinks. A link is never dropped: one
// the file system shows in place may be removed and made again by the
// terminal that keeps it.
func (m *madeLinks) add(links []madeLink) bool {
	if len(links) == 0 {
		return true
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.byName == nil {
		m.byName = make(map[string][]madeLink)
	}
	fresh := make(map[madeLink]bool, len(links))
	for _, l := range links {
		if !fresh[l] && !slices.Contains(m.byName[l.name], l) {
			fresh[l] = true
		}
		if int(m.n.Load())+len(fresh) > maxMadeLinks {
			return false
		}
	}
	for _, l := range links {
		if fresh[l] {
			m.byName[l.name] = append(m.byName[l.name], l)
			delete(fresh, l)
			m.n.Add(1)
		}
	}
	return true
}

// snapshot returns the links kept so far.
func (m *madeLinks) snapshot() []madeLink {
	if m.n.Load() == 0 {
		return nil
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	var out []madeLink
	for _, ls := range m.byName {
		out = append(out, ls...)
	}
	return out
}

// at returns the links kept at the name p.
func (m *madeLinks) at(p string) []madeLink {
	m.mu.Lock()
	defer m.mu.Unlock()
	return slices.Clip(m.byName[p])
}

// extend appends to forms, the forms of one path, each form the path
// takes through a kept link at it or at one of its directories (the
// target, then the rest of the path), resolved as the file system
// resolves it now (spellingForms); and so on for the forms it adds. A
// link the file system already shows is followed all the same: the forms
// were resolved a moment before, maybe before the terminal making it ran,
// and a form that is the same as one of them adds nothing. A path those
// forms cannot be judged by is refused.
func (m *madeLinks) extend(forms []string, roots []string) ([]string, *pathRefusal) {
	if m == nil || m.n.Load() == 0 {
		return forms, nil
	}
	for i := 0; i < len(forms); i++ {
		for at := forms[i]; ; at = filepath.Dir(at) {
			for _, l := range m.at(at) {
				rest, _ := cutDir(l.name, forms[i])
				var r *pathRefusal
				if forms, r = l.through(forms, rest, roots); r != nil {
					return forms, r
				}
			}
			if at == "/" || at == "." {
				break
			}
		}
	}
	return forms, nil
}

// through appends to forms the forms of the path through l, rest being
// what of the path lies beneath l's name.
func (l madeLink) through(forms []string, rest string, roots []string) ([]string, *pathRefusal) {
	if l.target == "" {
		return forms, refuse("unresolvable-path", "the path runs through %s, a link a command already let run makes to a place known only when it ran", l.name)
	}
	alt := l.target
	if rest != "" {
		alt += "/" + rest
	}
	more, r := spellingForms(alt, roots...)
	if r != nil {
		return forms, &pathRefusal{ref: r.ref, why: fmt.Sprintf("through %s, a link a command already let run makes: %s", l.name, r.why)}
	}
	for _, f := range more {
		if slices.Contains(forms, f) {
			continue
		}
		if len(forms) == maxLinkForms {
			return forms, refuse("unresolvable-path", "the path runs through more links that commands already let run make than the bridge follows (%d forms)", maxLinkForms)
		}
		forms = append(forms, f)
	}
	return forms, nil
}

// linksMadeBy returns the links the command c may make, in each directory
// it may run in, and whether one of them is known only when it runs (an
// operand computed by the shell).
func (e *Engine) linksMadeBy(in *reqInfo, c *shellcmd.Command) (links []madeLink, unknown bool) {
	for _, form := range c.Forms {
		if len(form) < 2 || form[0].Kind != shellcmd.Static {
			continue
		}
		name := filepath.Base(form[0].Text)
		if isGit(form[0].Text) {
			links = append(links, gitFormLinks(form, e.dirsOrRoots(in, c.Dir), in.roots)...)
			continue
		}
		link := makesLink(form)
		if !link && !copiers[name] {
			continue
		}
		for _, dir := range e.dirsOrRoots(in, c.Dir) {
			if rl, ok := rsyncLinkDest(form, dir); ok {
				unknown = unknown || rl.unknown
				links = append(links, rl.links...)
			}
			if link && linkUnknown(form) {
				// The name the link is made at, if it is spelled out
				// (the last word), is kept as leading where no one
				// can tell.
				unknown = true
				if last := form[len(form)-1]; last.Kind == shellcmd.Static && !strings.HasPrefix(last.Text, "-") {
					links = append(links, madeLink{name: filepath.Clean(joinRaw(dir, last.Text))})
				}
				continue
			}
			if link {
				links = append(links, linkFormLinks(form, dir)...)
			} else {
				links = append(links, copiedFormLinks(name, form, dir)...)
			}
		}
	}
	return links, unknown
}

// copyPairsOf returns the copy pairs (copyPairs) of the copiers' and
// movers' forms of c, git mv's among them, in each directory it may run
// in.
func (e *Engine) copyPairsOf(in *reqInfo, c *shellcmd.Command) []copyPair {
	var out []copyPair
	for _, form := range c.Forms {
		if len(form) < 2 || form[0].Kind != shellcmd.Static {
			continue
		}
		for _, dir := range e.dirsOrRoots(in, c.Dir) {
			if isGit(form[0].Text) {
				if f, _, rdir, ok := gitRemover(form, dir); ok && f[0].Text == "mv" {
					out = append(out, copyPairs("mv", f, rdir)...)
				}
				continue
			}
			if name := filepath.Base(form[0].Text); copiers[name] && !makesLink(form) {
				out = append(out, copyPairs(name, form, dir)...)
			}
		}
	}
	return out
}

// linkFormLinks returns the links a link-making form (makesLink) run in
// dir makes: at the name it gives (or, when that is a directory, beneath
// it under each target's base name; or in dir under the target's base
// name when it gives none), to each target, read as the link reads it.
func linkFormLinks(form []shellcmd.Word, dir string) []madeLink {
	who := filepath.Base(form[0].Text)
	ops, dest := operands(who, form[1:])
	symbolic := makesSymlink(form)
	relative := lnRelative(form)
	abs := func(p string) string {
		if strings.HasPrefix(p, "/") {
			return p
		}
		return dir + "/" + p
	}
	var out []madeLink
	for i, op := range ops {
		if op == dest && i == len(ops)-1 && len(ops) > 1 {
			continue
		}
		base := filepath.Base(filepath.Clean(op))
		var names []string
		d := filepath.Clean(abs(dest))
		fi, err := os.Lstat(d)
		switch {
		case dest == "":
			names = []string{filepath.Clean(dir + "/" + base)}
		case err == nil && fi.IsDir():
			// Beneath a directory, which ln never replaces; at its name
			// should a line remove it first (links_atname.go).
			names = []string{d + "/" + base}
			if mayTakeDirName(dest, dir) {
				names = append(names, d)
			}
		case err != nil && strings.HasSuffix(dest, "/"):
			names = []string{d + "/" + base}
		case err == nil && fi.Mode()&fs.ModeSymlink != 0 && isDirNow(d):
			// Beneath the directory a link leads to, or in the link's
			// place with -n or -T.
			names = []string{d + "/" + base, d}
		default:
			names = []string{d}
		}
		for _, n := range names {
			l := madeLink{name: n, target: abs(op), hard: !symbolic}
			switch {
			case symbolic && !relative:
				l.op = op
				if !strings.HasPrefix(op, "/") {
					l.target = filepath.Dir(n) + "/" + op
				}
			case symbolic:
				// ln -r writes the path from the link to the target,
				// which leads where the target named from the cwd does.
				l.op = l.target
			}
			out = append(out, l)
		}
	}
	return out
}

// nameForms returns links with each link also at every form its name's
// directory takes, as written and as the kernel resolves it through the
// links there now and those kept (dirForms): a link made in d, where d
// leads to sub, is opened as sub/NAME. A relative symlink's target is
// read from each form of the directory as well.
func nameForms(links []madeLink, dirForms func(string) []string) []madeLink {
	out := links
	for _, l := range links {
		dir, base := filepath.Dir(l.name), filepath.Base(l.name)
		for _, df := range dirForms(dir) {
			if df == dir {
				continue
			}
			c := l
			c.name = df + "/" + base
			if l.op != "" && !strings.HasPrefix(l.op, "/") {
				c.target = df + "/" + l.op
			}
			out = append(out, c)
		}
	}
	return out
}

// isDirNow reports whether p is a directory (or a link to one) now.
func isDirNow(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.IsDir()
}

// madeLinksVerdict gathers the links the line's command c may make, with
// room reserved for them, for the engine to keep once the line is decided
// (keepMadeLinks), and decides them: a link whose name or target is known
// only when it runs needs approval, since a request after it through that
// link could not be judged where it leads; links past what the engine
// keeps are refused.
func (e *Engine) madeLinksVerdict(in *reqInfo, c *shellcmd.Command) (verdict, bool) {
	links, unknown := e.linksMadeBy(in, c)
	if len(links) > maxMadeLinks {
		return tooManyLinks(c), true
	}
	known := map[string][]string{}
	forms := func(p string) []string {
		if f, ok := known[p]; ok {
			return f
		}
		f, r := in.pathForms(p)
		if r != nil {
			f = []string{p}
		}
		known[p] = f
		return f
	}
	if pairs := e.copyPairsOf(in, c); len(pairs) > 0 {
		kept := append(e.made.snapshot(), in.made...)
		links = append(links, keptCopies(append(kept, links...), pairs, forms)...)
	}
	links = nameForms(links, forms)
	in.made = append(in.made, links...)
	switch {
	case len(links) > maxMadeLinks || len(links) > 0 && !e.made.reserve(len(links)):
		return tooManyLinks(c), true
	case len(links) > 0:
		in.reserved += len(links)
	}
	if unknown {
		return verdict{value: RequireApproval, ref: "unreadable-command",
			ruleTx: "require-approval for commands the bridge cannot read through (built-in)",
			reason: fmt.Sprintf("running %q: it makes a link whose name or target is known only when it runs, and a request after it through that link could not be judged where it leads", c.Source)}, true
	}
	return verdict{}, false
}

// tooManyLinks refuses the command c, which makes links past the
// maxMadeLinks the engine keeps track of in one run.
func tooManyLinks(c *shellcmd.Command) verdict {
	return verdict{value: Deny, ref: "unreadable-command",
		ruleTx: "deny commands making more links than the bridge keeps track of (built-in)",
		reason: fmt.Sprintf("running %q: it makes links past the %d the bridge keeps track of in one run, and a request after it through them could not be judged where it leads; start a new session of the bridge", c.Source, maxMadeLinks)}
}

// keepMadeLinks keeps the links a decided request's line may make, unless
// the line was refused (and so does not run), in the room its decision
// reserved.
func (e *Engine) keepMadeLinks(in *reqInfo, d Value) {
	if in.reserved > 0 {
		e.made.keep(in.made, in.reserved, d != Deny)
		in.reserved = 0
	}
}
