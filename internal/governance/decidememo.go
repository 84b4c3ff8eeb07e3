package governance

import (
	"os"

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
	paths      []*pathFacts
	lowerRoots []string
	analyses   *analyses // the engine's
	lines      []*shellcmd.Analysis
	linesRead  bool
}

// pathFacts is what the file system says about one request path, looked
// up once per decision.
type pathFacts struct {
	p       string
	forms   []string     // pathForms: as written and as resolved
	refusal *pathRefusal // pathForms: why the path cannot be judged

	lower  []string      // forms in lower case (lowerAll)
	linked []os.FileInfo // per form: the file, if it is regular with several names
	looked bool          // linked is filled in
}

// facts returns the forms of the absolute path p (pathForms, against the
// request's roots), resolved once per decision.
func (in *reqInfo) facts(p string) *pathFacts {
	if in.memo != nil {
		for _, f := range in.memo.paths {
			if f.p == p {
				return f
			}
		}
	}
	forms, r := pathForms(p, in.roots...)
	f := &pathFacts{p: p, forms: forms, refusal: r}
	if in.memo != nil {
		in.memo.paths = append(in.memo.paths, f)
	}
	return f
}

// pathForms is pathForms(p, in.roots...), resolved once per decision.
func (in *reqInfo) pathForms(p string) ([]string, *pathRefusal) {
	f := in.facts(p)
	return f.forms, f.refusal
}

// lowerForms returns the forms in lower case.
func (f *pathFacts) lowerForms() []string {
	if f.lower == nil {
		f.lower = lowerAll(f.forms)
	}
	return f.lower
}

// links returns, per form, the file it names when that is a regular file
// with more than one name (hard links), else nil; each form is looked up
// with lstat once per decision.
func (f *pathFacts) links() []os.FileInfo {
	if !f.looked {
		f.linked = make([]os.FileInfo, len(f.forms))
		for i, form := range f.forms {
			if fi, err := os.Lstat(form); err == nil && fi.Mode().IsRegular() && hasLinks(fi) {
				f.linked[i] = fi
			}
		}
		f.looked = true
	}
	return f.linked
}

// lowerRoots returns the request's roots in lower case.
func (in *reqInfo) lowerRoots() []string {
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
		in.memo.lines, in.memo.linesRead = commandLinesWith(in.req, in.memo.analyses.analyze), true
	}
	return in.memo.lines
}
