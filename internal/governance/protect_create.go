package governance

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/acp-bridge/acp-bridge/internal/shellcmd"
)

// A protected location that is not there yet (.claude/settings.json in a
// workspace without .claude, a policy's missing extends) is protected by
// its path: a write there is refused. A command that creates a directory
// above it as a link, or moves one into place, defines the location
// without writing it: after "ln -s evil .claude", .claude/settings.json is
// whatever evil/settings.json says, a file the agent may write, and Claude
// runs the hooks it names. createsProtected refuses such commands.

// createsProtected denies a form that makes a link at a name that is,
// holds or lies beneath a protected location (ln, link, symlink, cp -s or
// -l), or copies or moves into place a name holding one when what it
// copies is not there to be checked (copiesOnto) when the request is
// decided: the source is missing, or the line runs other commands, which
// may make or change it first. others says the line runs other commands.
func (e *Engine) createsProtected(in *reqInfo, list []protected, form []shellcmd.Word, cwd, source string, others bool) (verdict, bool) {
	if len(form) < 2 || form[0].Kind != shellcmd.Static {
		return verdict{}, false
	}
	name := filepath.Base(form[0].Text)
	if name == "git" {
		// "git mv" moves a tracked link as a link, as mv does.
		f, as, dir, ok := gitRemover(form, cwd)
		if !ok || as != "mv" {
			return verdict{}, false
		}
		form, name, cwd = f, as, dir
	}
	link := makesLink(form)
	if !link && !copiers[name] {
		return verdict{}, false
	}
	abs := func(w string) string { return e.operandPath(cwd, w) }
	ops, dest := operands(name, form[1:]) // the last operand, or -t's value
	if link && len(ops) == 1 && dest == "" {
		dest = "." // "ln -s ../x" makes ./x
	}
	if dest == "" {
		return verdict{}, false
	}
	into := intoDir(form, abs(dest), link)
	for _, src := range ops {
		if src == dest && len(ops) > 1 {
			continue
		}
		made := abs(dest)
		content := strings.HasSuffix(src, "/.") || name == "rsync" && strings.HasSuffix(src, "/")
		if into && !content {
			made += "/" + filepath.Base(filepath.Clean(src))
		}
		// A link copied or moved as a link is a link made at its new
		// place, where a relative target leads somewhere else: "mv
		// tmp/.claude ." of a link to "evil" makes .claude lead to
		// ./evil, a directory the agent writes.
		placesLink := !link && !content && isLink(abs(src))
		if !link && !placesLink && !others && exists(abs(src)) {
			continue // formReaches looks at what it copies (copiesOnto)
		}
		pr, f, ok := in.pathMatch(made, list, placedAt)
		if !ok {
			continue
		}
		if link {
			return verdict{value: Deny, ref: "self-protection",
				ruleTx: fmt.Sprintf("deny changes to %s (built-in self-protection)", pr.What),
				reason: fmt.Sprintf("running %q: it makes %s a link, and %s (%s) is there or beneath it: the link would decide what that file says; %s is protected from the agent whatever the policy says", strings.TrimSpace(source), made, f, pr.What, pr.What)}, true
		}
		if placesLink {
			return verdict{value: Deny, ref: "self-protection",
				ruleTx: fmt.Sprintf("deny changes to %s (built-in self-protection)", pr.What),
				reason: fmt.Sprintf("running %q: %s is a link, and it would be put at %s, where %s (%s) is or lies beneath: the link would decide what that file says; %s is protected from the agent whatever the policy says", strings.TrimSpace(source), src, made, f, pr.What, pr.What)}, true
		}
		return verdict{value: Deny, ref: "self-protection",
			ruleTx: fmt.Sprintf("deny changes to %s (built-in self-protection)", pr.What),
			reason: fmt.Sprintf("running %q: it puts %s at %s, where %s (%s) is or lies beneath, and what %s holds is not there to check (it is missing, or the line's other commands may make it): run the copy on its own; %s is protected from the agent whatever the policy says", strings.TrimSpace(source), src, made, f, pr.What, src, pr.What)}, true
	}
	return verdict{}, false
}

// placedAt returns the first protected location, and its form, that one
// of forms (the spellings of a path a command makes) is,
// holds or lies beneath, counting workspace configuration protected
// wherever below a root it sits (holdsConfig).
func placedAt(forms []string, list []protected) (protected, string, bool) {
	for _, f := range forms {
		lf := strings.ToLower(f)
		for _, pr := range list {
			for j, pf := range pr.lower {
				if beneath(lf, pf) || beneath(pf, lf) || holdsConfig(lf, pr, j) {
					return pr, pr.forms[j], true
				}
			}
		}
	}
	return protected{}, "", false
}

// operandPath is the absolute path a command run in cwd names by the
// word w: "~/" expanded to the home directory when one is known, and a
// relative word joined to cwd without cleaning.
func (e *Engine) operandPath(cwd, w string) string {
	if strings.HasPrefix(w, "~/") && e.home != "" {
		w = e.home + w[1:]
	}
	if !strings.HasPrefix(w, "/") {
		w = cwd + "/" + w
	}
	return w
}

// intoDir reports whether a copy, move or link command puts its sources
// into dest (a directory there now) rather than making dest itself: not
// with -T (--no-target-directory), nor, for ln, with -n
// (--no-dereference) when dest is a link to a directory.
func intoDir(form []shellcmd.Word, dest string, link bool) bool {
	noDeref := false
	link = link && filepath.Base(form[0].Text) == "ln" // cp's -n is --no-clobber
	for _, w := range form[1:] {
		t := w.Text
		if w.Kind != shellcmd.Static || t == "--" {
			break
		}
		short := strings.HasPrefix(t, "-") && !strings.HasPrefix(t, "--")
		if t == "--no-target-directory" || short && strings.ContainsRune(t, 'T') {
			return false
		}
		noDeref = noDeref || link && (t == "--no-dereference" || short && strings.ContainsRune(t, 'n'))
	}
	if noDeref {
		fi, err := os.Lstat(dest)
		return err == nil && fi.IsDir()
	}
	fi, err := os.Stat(dest)
	return err == nil && fi.IsDir()
}

// relsBelow returns the paths below directory d at which a copy into d
// would put pr's form pf (pr.forms[j]): pf's path below d and, for
// workspace configuration protected wherever below a root it sits
// (pr.lrel), the rest of lrel wherever d's last elements are its first
// ones (d a ".zed" below the root: "settings.json") and all of lrel (d
// anywhere below the root: a source holding ".zed/settings.json").
func relsBelow(d string, pr protected, j int) []string {
	var out []string
	if rel, ok := strings.CutPrefix(pr.forms[j], strings.TrimSuffix(d, "/")+"/"); ok {
		out = append(out, rel)
	}
	if pr.lrel == "" {
		return out
	}
	dElems, ok := belowRoot(strings.ToLower(strings.TrimSuffix(d, "/")), pr, j)
	if !ok {
		return out
	}
	relElems := strings.Split(pr.lrel, "/")
	for k := 0; k < len(relElems) && k <= len(dElems); k++ {
		if slices.Equal(dElems[len(dElems)-k:], relElems[:k]) {
			out = append(out, strings.Join(relElems[k:], "/"))
		}
	}
	return out
}

// holdsConfig reports whether the lower-case path lf is, holds or lies
// beneath workspace configuration pr protects wherever below a root it
// sits (pr.lrel), at any depth below the root of pr's form j.
func holdsConfig(lf string, pr protected, j int) bool {
	if pr.lrel == "" {
		return false
	}
	if nestedConfig(pr.lower[j], pr.lrel, lf) {
		return true
	}
	elems, ok := belowRoot(lf, pr, j)
	if !ok {
		return false
	}
	relElems := strings.Split(pr.lrel, "/")
	for k := 1; k <= len(relElems) && k <= len(elems); k++ {
		if slices.Equal(elems[len(elems)-k:], relElems[:k]) {
			return true
		}
	}
	return false
}

// belowRoot returns the elements of the lower-case path lf below the
// workspace root of pr's form j (pr.lower[j] is the root, "/", lrel); ok
// is false when lf is not the root or beneath it.
func belowRoot(lf string, pr protected, j int) ([]string, bool) {
	root, ok := strings.CutSuffix(pr.lower[j], "/"+pr.lrel)
	if !ok {
		return nil, false
	}
	below, ok := cutDir(root, lf)
	if !ok {
		return nil, false
	}
	if below == "" {
		return nil, true
	}
	return strings.Split(below, "/"), true
}
