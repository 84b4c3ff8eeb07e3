package shellcmd

import (
	"slices"
	"strings"
)

// gitHandler reads the shell code git runs for the line: the commands
// some subcommands are given (rebase --exec, filter-branch's filters,
// submodule foreach, difftool --extcmd, bisect run, send-email's
// commands, the upload-pack and receive-pack a transport starts), and
// the commands and aliases "-c key=value" gives it. Each is decided as a
// command of its own, so a rule allowing the git subcommand does not
// vouch for what it runs ("git rebase -x 'cat .env' HEAD~3" reads .env).
// git runs them with sh at the top of the work tree; filter-branch's in a
// temporary tree, foreach's in each submodule and a transport's in the
// repository it names, which the line does not show.
func gitHandler(form []Word) step {
	st := step{acts: true}
	at, configs, from, fromKnown := gitGlobals(form)
	var sub Word
	var args []Word
	if at < len(form) {
		sub, args = form[at], form[at+1:]
	}
	for _, kv := range configs {
		gitConfigRuns(&st, kv, sub, args)
	}
	for _, w := range form[1:at] {
		switch {
		case w.Kind == Static && strings.HasPrefix(w.Text, "--exec-path="):
			st.notes = append(st.notes, Note{Kind: Unparsed, Text: "git " + w.Text + " runs its subcommands' programs from a directory the line names"})
		case w.Kind == Static && (w.Text == "--git-dir" || strings.HasPrefix(w.Text, "--git-dir=")):
			// As GIT_DIR does: the repository's config file holds
			// aliases, hooks and pagers git runs, in a directory the
			// agent may have made ("git --git-dir=x st" runs x/config's
			// alias st).
			st.notes = append(st.notes, Note{Kind: Unparsed, Text: "git --git-dir takes its configuration (aliases, hooks, pagers) from the repository it names, which the line does not show"})
		}
	}
	if at >= len(form) || sub.Kind != Static {
		if at < len(form) {
			st.notes = append(st.notes, Note{Kind: NotStatic, Text: "git's subcommand is not static: " + sub.String()})
		}
		st.placeRuns("", from, fromKnown)
		return st
	}
	elsewhere := ""
	switch sub.Text {
	case "rebase":
		gitOptionRuns(&st, args, []string{"exec"}, "x", "sX", "SC")
	case "difftool":
		gitOptionRuns(&st, args, []string{"extcmd"}, "x", "t", "")
	case "fetch", "pull", "ls-remote", "push", "send-pack", "fetch-pack", "archive":
		gitOptionRuns(&st, args, []string{"upload-pack", "receive-pack", "exec"}, gitTransportShort(sub.Text), "", "")
		elsewhere = "git runs a transport's command in the repository it reaches"
	case "clone":
		gitCloneRuns(&st, args)
		gitTemplateNote(&st, args, "clone")
		elsewhere = "git clone runs its commands in the repository it reaches or makes"
	case "filter-branch":
		gitFilterRuns(&st, args)
		elsewhere = "git filter-branch runs its filters in a temporary tree"
	case "submodule":
		gitForeachRuns(&st, args)
		elsewhere = "git submodule foreach runs its command in each submodule"
	case "bisect":
		if len(args) > 1 && args[0].Kind == Static && args[0].Text == "run" {
			st.others = append(st.others, args[1:])
		}
	case "send-email":
		gitSendEmailRuns(&st, args)
	case "daemon":
		gitOptionRuns(&st, args, []string{"access-hook"}, "", "", "")
		elsewhere = "git daemon runs its access hook for each request"
	case "instaweb":
		gitOptionRuns(&st, args, []string{"httpd", "browser"}, "db", "p", "")
	case "init":
		gitTemplateNote(&st, args, "init")
	case "grep":
		// -O/--open-files-in-pager runs a pager, its own or the one the
		// option names, on the files that match, whose names the line
		// does not hold: "git grep -O'sed -i s/x/y/' x" changes them.
		if o := ReadGitArgs("grep", args); !o.Computed && o.Has("open-files-in-pager") {
			st.notes = append(st.notes, Note{Kind: Unparsed, Text: "git grep " + strings.Join(gitWordTexts(args), " ") + " runs a pager on the files that match, which the line does not name"})
		}
	}
	st.placeRuns(elsewhere, from, fromKnown)
	return st
}

// placeRuns says where the commands git runs for the line run: at the top
// of the work tree, after the -C directories from, unless elsewhere says
// otherwise or a -C directory is not known.
func (st *step) placeRuns(elsewhere string, from []string, fromKnown bool) {
	switch {
	case len(st.shell) == 0 && len(st.others) == 0:
	case elsewhere != "":
		st.elsewhere = elsewhere
	case !fromKnown:
		st.elsewhere = "git -C names a directory computed at run time"
	default:
		st.atTop, st.topFrom = true, from
	}
}

// GitGlobals is what git's own options, before its subcommand, say.
type GitGlobals struct {
	// At is the index of the subcommand in the form, len(form) when there
	// is none.
	At int
	// Dirs are the values of the -C options, in order.
	Dirs []Word
	// Configs are the values of the -c options; a --config-env option is
	// a Dynamic word (its value is an environment variable's).
	Configs []Word
	// Moved says --git-dir or --work-tree names the repository or work
	// tree, so the -C directories do not say where git works.
	Moved bool
	// WorkTrees are the values of the --work-tree options, in order.
	WorkTrees []Word
}

// GitOptions reads git's own options in form, a git command's words, as
// git reads them: the options that take the next word as their value
// (-C, -c, --git-dir, --work-tree, --namespace, --super-prefix,
// --config-env, --attr-source, --list-cmds) skip it, so the subcommand is
// the word git runs. Every reader of git's subcommands shares it, so none
// takes an option's value for the subcommand.
func GitOptions(form []Word) GitGlobals {
	var g GitGlobals
	i := 1
	for ; i < len(form); i++ {
		w := form[i]
		if w.Kind != Static || !strings.HasPrefix(w.Text, "-") {
			break
		}
		next := form[min(i+1, len(form)):min(i+2, len(form))] // the next word, or none
		switch t := w.Text; {
		case t == "-c":
			g.Configs = append(g.Configs, next...)
			i++
		case strings.HasPrefix(t, "-c"):
			g.Configs = append(g.Configs, Word{Kind: Static, Text: t[2:]})
		case t == "-C":
			g.Dirs = append(g.Dirs, next...)
			i++
		case t == "--git-dir" || t == "--work-tree":
			g.Moved = true
			if t == "--work-tree" {
				g.WorkTrees = append(g.WorkTrees, next...)
			}
			i++
		case strings.HasPrefix(t, "--git-dir=") || strings.HasPrefix(t, "--work-tree="):
			g.Moved = true
			if v, ok := strings.CutPrefix(t, "--work-tree="); ok {
				g.WorkTrees = append(g.WorkTrees, Word{Kind: w.Kind, Text: v})
			}
		case t == "--config-env" || strings.HasPrefix(t, "--config-env="):
			// The value is an environment variable's, which the line
			// need not show.
			g.Configs = append(g.Configs, Word{Kind: Dynamic, Text: t, Why: "a value git reads from the environment"})
			if t == "--config-env" {
				i++
			}
		case t == "--namespace" || t == "--super-prefix" || t == "--list-cmds" || t == "--attr-source":
			i++
		}
	}
	g.At = min(i, len(form))
	return g
}

// gitGlobals returns what gitHandler needs of git's options: where the
// subcommand is, the -c values, the static -C directories, and whether
// those say where git works (fromKnown is false when one is computed at
// run time or --git-dir or --work-tree moves the work tree).
func gitGlobals(form []Word) (at int, configs []Word, from []string, fromKnown bool) {
	g := GitOptions(form)
	fromKnown = !g.Moved
	for _, d := range g.Dirs {
		switch {
		case d.Kind != Static:
			fromKnown = false
		case d.Text != "":
			from = append(from, d.Text)
		}
	}
	return g.At, g.Configs, from, fromKnown
}

// gitCloneRuns adds to st what clone runs: the command of -u and
// --upload-pack, and the configuration of -c and --config, which clone
// writes into the new repository's configuration and uses at once. Both
// are read in one pass, as git's option parser reads them (gitOptions).
func gitCloneRuns(st *step, args []Word) {
	gitOptions(st, args, []string{"upload-pack", "config"}, "uc", "obj", "", func(i int, opt, value string, given bool) int {
		if opt != "config" && opt != "c" {
			return st.valueRun(args, i, value, given)
		}
		kv := Word{Kind: Static, Text: value}
		if !given {
			if i+1 >= len(args) {
				return i
			}
			i++
			kv = args[i]
		}
		gitConfigRuns(st, kv, Word{}, nil)
		return i
	})
}

// gitTransportShort is the short option that names the upload-pack a
// transport subcommand runs: clone and ls-remote take -u.
func gitTransportShort(sub string) string {
	if sub == "ls-remote" {
		return "u"
	}
	return ""
}

// gitOptionRuns adds to st the shell code given to a subcommand's options
// (longs and shorts run their value), read as gitOptions reads them.
func gitOptionRuns(st *step, args []Word, longs []string, shorts, takes, attached string) {
	gitOptions(st, args, longs, shorts, takes, attached, func(i int, _, value string, given bool) int {
		return st.valueRun(args, i, value, given)
	})
}

// gitOptions reads a subcommand's options as git's option parser reads
// them: a long option by any prefix of its name ("--exe" is --exec), its
// value after "=" or in the next word; a short option alone or in a
// cluster ("-ix cmd", "-xcmd"). For each of longs and shorts it calls
// found with the word's index, the option (the long name or the short
// letter), and its value when the word holds it (given); found returns
// the index of the last word it took. takes are short options whose value
// is the next word when the cluster ends with them; attached are short
// options whose value is the rest of their word. A word computed at run
// time may be any of them, so it makes the command unreadable.
//
// The long options that take a value are not all known (git clone
// --origin -c -u X: --origin takes "-c", and -u runs X), so a next word
// that starts with '-' is read as an option too, even where it is taken
// as a value: read twice rather than missed.
func gitOptions(st *step, args []Word, longs []string, shorts, takes, attached string, found func(i int, opt, value string, given bool) int) {
	next := func(i, took int) int {
		if took > i && args[took].Kind == Static && strings.HasPrefix(args[took].Text, "-") {
			return took - 1 // a value that may be an option
		}
		return took
	}
	st.eachOption(args, "an option that makes git run a command", func(i int, t string) int {
		if name, ok := strings.CutPrefix(t, "--"); ok {
			name, value, hasValue := strings.Cut(name, "=")
			if long, ok := longNamed(name, longs); ok {
				i = next(i, found(i, long, value, hasValue))
			}
			return i
		}
		if len(t) < 2 || t[0] != '-' {
			return i
		}
		for j := 1; j < len(t); j++ {
			c := t[j]
			switch {
			case strings.IndexByte(shorts, c) >= 0:
				return next(i, found(i, t[j:j+1], t[j+1:], j+1 < len(t)))
			case strings.IndexByte(takes, c) >= 0:
				if j+1 == len(t) && i+1 < len(args) {
					i = next(i, i+1)
				}
				return i
			case strings.IndexByte(attached, c) >= 0:
				return i
			}
		}
		return i
	})
}

// longNamed returns the first of longs that name, two letters or more,
// begins (git's option parser takes any unambiguous prefix of a long
// option; an ambiguous one fails, so taking it costs nothing).
func longNamed(name string, longs []string) (string, bool) {
	if len(name) < 2 {
		return "", false
	}
	for _, n := range longs {
		if strings.HasPrefix(n, name) {
			return n, true
		}
	}
	return "", false
}

// eachOption calls f with the index and text of each static word of args
// before a "--", and goes on after the last word f says it took; a word
// computed at run time may be what (an option that runs a command), and is
// noted so.
func (st *step) eachOption(args []Word, what string, f func(i int, t string) int) {
	for i := 0; i < len(args); i++ {
		w := args[i]
		if w.Kind != Static {
			st.notes = append(st.notes, Note{Kind: NotStatic, Text: "a word computed at run time may be " + what + ": " + w.String()})
			continue
		}
		if w.Text == "--" {
			return
		}
		i = f(i, w.Text)
	}
}

// gitFilters are filter-branch's options whose value it evaluates as
// shell code.
var gitFilters = []string{"env-filter", "tree-filter", "index-filter", "parent-filter", "msg-filter",
	"commit-filter", "tag-name-filter", "setup"}

// gitFilterRuns adds filter-branch's filters to st. filter-branch is a
// shell script that reads "--opt value" and "--opt=value", no prefixes.
func gitFilterRuns(st *step, args []Word) {
	st.eachOption(args, "a filter git filter-branch runs", func(i int, t string) int {
		name, value, hasValue := strings.Cut(strings.TrimPrefix(t, "--"), "=")
		if strings.HasPrefix(t, "--") && slices.Contains(gitFilters, name) {
			i = st.valueRun(args, i, value, hasValue)
		}
		return i
	})
}

// gitForeachRuns adds the command of "git submodule [options] foreach
// [--recursive] [-q] command..." to st: one word is a shell string; more
// are run as they are, and read as one shell string too.
func gitForeachRuns(st *step, args []Word) {
	i := 0
	for ; i < len(args) && args[i].Kind == Static && strings.HasPrefix(args[i].Text, "-"); i++ {
	}
	if i >= len(args) || args[i].Kind != Static || args[i].Text != "foreach" {
		return
	}
	for i++; i < len(args) && args[i].Kind == Static && strings.HasPrefix(args[i].Text, "-"); i++ {
		if args[i].Text == "--" {
			i++
			break
		}
	}
	if i >= len(args) {
		return
	}
	st.shell = append(st.shell, shellRun{word: joined(args, i), langs: dialectsOf("sh")})
	if len(args)-i > 1 {
		st.others = append(st.others, args[i:])
	}
}

// gitSendEmailCommands are send-email's options whose value is a command
// (--smtp-server is one when it names a program by its path). Its other
// options named by a prefix of these are exactly named.
var (
	gitSendEmailCommands = []string{"sendmail-cmd", "to-cmd", "cc-cmd", "header-cmd", "smtp-server"}
	gitSendEmailOthers   = []string{"to", "cc", "smtp-server-port", "smtp-server-option"}
)

// gitSendEmailRuns adds send-email's commands to st. It reads options as
// Perl's Getopt::Long does: one dash or two, the value after "=" or in
// the next word, any unambiguous prefix of the name.
func gitSendEmailRuns(st *step, args []Word) {
	st.eachOption(args, "an option that makes git send-email run a command", func(i int, t string) int {
		name, value, hasValue := strings.Cut(strings.TrimLeft(t, "-"), "=")
		if _, ok := longNamed(name, gitSendEmailCommands); ok && strings.HasPrefix(t, "-") && !slices.Contains(gitSendEmailOthers, name) {
			i = st.valueRun(args, i, value, hasValue)
		}
		return i
	})
}

// valueRun adds to st, as shell code, the value of the option at args[i]:
// value when the option's word gave it (after "=", or attached), else the
// next word. It returns the index of the last word the option took.
func (st *step) valueRun(args []Word, i int, value string, given bool) int {
	switch {
	case given:
		st.shell = append(st.shell, shellRun{word: Word{Kind: Static, Text: value}, langs: dialectsOf("sh")})
	case i+1 < len(args):
		i++
		st.shell = append(st.shell, shellRun{word: args[i], langs: dialectsOf("sh")})
	}
	return i
}

// gitTemplateNote notes git init's or clone's --template (or a prefix of
// it): git copies the hooks of the directory it names into the repository
// and runs them later.
func gitTemplateNote(st *step, args []Word, sub string) {
	for _, a := range args {
		if a.Kind != Static || a.Text == "--" {
			return
		}
		// git takes a prefix: "--t" is --template to git init.
		if name, _, _ := strings.Cut(a.Text, "="); len(name) >= len("--t") && strings.HasPrefix("--template", name) {
			st.notes = append(st.notes, Note{Kind: Unparsed, Text: "git " + sub + " " + a.Text + " copies hooks from a directory the line names, which git runs later"})
			return
		}
	}
}

// gitWordTexts returns the texts of words.
func gitWordTexts(words []Word) []string {
	out := make([]string, 0, len(words))
	for _, w := range words {
		out = append(out, w.Text)
	}
	return out
}
