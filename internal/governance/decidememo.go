package governance

import (
	"os"
	"strings"

	"github.com/acp-bridge/acp-bridge/internal/shellcmd"
)

// A decision looks at the file system (each element of a path is looked
// up, files are checked for hard links) and parses the command line. One
// decision often needs the same answer several times: an opaque tool
// call's path is decided as claimed, as a read and as a write; a command's
// file arguments are often its locations too; the command line is read
// for the rules and again for the protected files. decisionMemo keeps
// those answers for the one decision that asked, and no longer: the file
// system can change between decisions, so nothing here outlives Decide.

// decisionMemo holds what one decision has resolved and parsed. It is
// shared by the reqInfo copies a decision makes to decide a path as a read
// or a write, which have the same roots.
type decisionMemo struct {
	paths    []*pathFacts // starts in pathsBuf
	pathsBuf [4]*pathFacts
	// facts holds the facts of the decision's first paths (most
	// decisions have one or two, a command's three or four: its
	// locations, its directory, the names in its line), so that they come
	// with the decision.
	facts      [4]pathFacts
	nfacts     int // facts in use
	lowerRoots []string
	analyses   *analyses // the engine's
	lines      []*shellcmd.Analysis
	linesRead  bool
	kept       *keptLine // the engine's facts of lines[0], if it kept them
	// scriptLines are lines with their commands' script files judged
	// (Engine.scriptLines), once scriptsRead.
	scriptLines []*shellcmd.Analysis
	scriptsRead bool
	protected   []protected // protectedFor's list, once it is known
	// protectedKept is protectedFor's list for a request that changes
	// nothing, taken without looking at the repository configuration's
	// files: never given to one that changes something.
	protectedKept []protected
	// treeEntries counts the directory entries the decision's tree walks
	// have looked at, bounded by maxDecisionTreeEntries.
	treeEntries int
}

// pathFacts is what the file system says about one request path, looked
// up once per decision.
type pathFacts struct {
	p       string
	forms   []string     // pathForms: as written and as resolved
	refusal *pathRefusal // pathForms: why the path cannot be judged
	last    lookup       // what resolving the path last saw of its last form

	lower  []string      // forms in lower case (lowerAll)
	subs   []pathSubject // forms as rules match them (newPathSubject)
	linked []os.FileInfo // per form: the file, if it is regular with several names
	looked bool          // linked is filled in

	// prot holds protectedHitOf, by whether the request mutates (a
	// decision's other inputs to it do not change within it).
	prot     [2]protectedHit
	protDone [2]bool

	// A path has at most two forms: the slices above start in these.
	formsBuf  [2]string
	lowerBuf  [2]string
	subsBuf   [2]pathSubject
	linkedBuf [2]os.FileInfo
}

// bufSlice returns b[:n] if b holds n, else a new slice.
func bufSlice[T any](b []T, n int) []T {
	if n <= len(b) {
		return b[:n]
	}
	return make([]T, n)
}

// facts returns the forms of the absolute path p (pathForms, against the
// request's roots), resolved once per decision.
func (in *reqInfo) facts(p string) *pathFacts {
	if in.memo != nil && !in.transient {
		for _, f := range in.memo.paths {
			if f.p == p {
				return f
			}
		}
	}
	f := in.newFacts()
	f.p = p
	f.forms, f.last, f.refusal = pathFormsLooked(f.formsBuf[:0], p, in.roots...)
	if f.refusal == nil {
		f.forms, f.refusal = in.links.extendDotDot(p, f.forms, in.roots, 0)
	}
	if f.refusal == nil {
		f.forms, f.refusal = in.links.extend(f.forms, in.roots)
	}
	if in.memo != nil && !in.transient {
		in.memo.paths = append(in.memo.paths, f)
	}
	return f
}

// newFacts returns cleared facts for a path, from the decision's own
// while it has some left.
func (in *reqInfo) newFacts() *pathFacts {
	if m := in.memo; m != nil && !in.transient && m.nfacts < len(m.facts) {
		m.nfacts++
		return &m.facts[m.nfacts-1]
	}
	return new(pathFacts)
}

// pathForms is pathForms(p, in.roots...), resolved once per decision.
func (in *reqInfo) pathForms(p string) ([]string, *pathRefusal) {
	f := in.facts(p)
	return f.forms, f.refusal
}

// pathMatch returns what match (holds, placedAt) finds for the forms of
// path p: the protected location of list and the form of it that p
// reaches. ok is false when p is refused, so it has no forms to match.
func (in *reqInfo) pathMatch(p string, list []protected, match func(forms []string, list []protected) (protected, string, bool)) (protected, string, bool) {
	forms, r := in.pathForms(p)
	if r != nil {
		return protected{}, "", false
	}
	return match(forms, list)
}

// lowerForms returns the forms in lower case.
func (f *pathFacts) lowerForms() []string {
	if f.lower == nil {
		f.lower = bufSlice(f.lowerBuf[:], len(f.forms))
		for i, s := range f.forms {
			f.lower[i] = strings.ToLower(s)
		}
	}
	return f.lower
}

// protection returns hit(mutates), the protected location the path
// reaches, computed once per decision for each value of mutates.
func (f *pathFacts) protection(mutates bool, hit func(mutates bool) protectedHit) protectedHit {
	i := 0
	if mutates {
		i = 1
	}
	if !f.protDone[i] {
		f.prot[i], f.protDone[i] = hit(mutates), true
	}
	return f.prot[i]
}

// subjects returns newPathSubject of each form, lowered once with the
// forms (lowerForms: strings.ToLower of an ASCII path is asciiLower's).
func (f *pathFacts) subjects() []pathSubject {
	if f.subs == nil {
		f.subs = bufSlice(f.subsBuf[:], len(f.forms))
		for i, form := range f.forms {
			s := pathSubject{path: form, ascii: isASCII(form)}
			if s.ascii {
				s.lower = f.lowerForms()[i]
			}
			f.subs[i] = s
		}
	}
	return f.subs
}

// links returns, per form, the file it names when that is a regular file
// with more than one name (hard links), else nil; each form is looked up
// with lstat once per decision, the last (where the path leads) by the
// resolution's own last lstat when that was of it.
func (f *pathFacts) links() []os.FileInfo {
	if !f.looked {
		f.linked = bufSlice(f.linkedBuf[:], len(f.forms))
		for i, form := range f.forms {
			fi, err := f.last.fi, error(nil)
			if i < len(f.forms)-1 || !f.last.known() {
				fi, err = os.Lstat(form)
			}
			if err == nil && fi != nil && fi.Mode().IsRegular() && hasLinks(fi) {
				f.linked[i] = fi
			}
		}
		f.looked = true
	}
	return f.linked
}

// lowerRoots returns the request's roots in lower case.
func (in *reqInfo) lowerRoots() []string {
	if in.rootsEnt != nil {
		return in.rootsEnt.lower
	}
	if in.memo == nil {
		return lowerAll(in.roots)
	}
	if in.memo.lowerRoots == nil {
		in.memo.lowerRoots = lowerAll(in.roots)
	}
	return in.memo.lowerRoots
}

// commandLines returns commandLines(in.req), parsed once per decision.
func (in *reqInfo) commandLines() []*shellcmd.Analysis {
	if in.memo == nil {
		return commandLines(in.req)
	}
	if !in.memo.linesRead {
		m := in.memo
		m.lines = commandLinesWith(in.req, func(line string, opts shellcmd.Options) *shellcmd.Analysis {
			a, k := m.analyses.analyzeKept(line, opts)
			m.kept = k
			return a
		})
		m.linesRead = true
	}
	return in.memo.lines
}

// keptLine returns what the engine kept of the request's command line
// (its first analysis, commandLines), nil when it kept nothing.
func (in *reqInfo) keptLine() *keptLine {
	if in.memo == nil {
		return nil
	}
	in.commandLines()
	return in.memo.kept
}
