package shellcmd

import (
	"slices"
	"strings"
)

// Programs other than git that run a command given as an option's value.
// Such a command needs approval unless a rule names the program (the
// walker notes it), and the command itself is decided too, so that
// "tar --to-command='rm -rf x' -xf a.tar" is refused by a rule refusing
// rm whatever rule allows tar.

// optionRun is how a program takes a command as an option's value.
type optionRun struct {
	// longs are long options whose value is a command, by any prefix of
	// minPrefix letters or more (getopt_long and argp take one).
	longs     []string
	minPrefix int
	// shorts are short options whose value is a command; takes are the
	// other short options that take a value (the rest of their word, or
	// the next word), which end a cluster.
	shorts, takes string
	// words are options, whole words, whose value is a command: the next
	// word, or the rest after "=" (zip's -TT).
	words []string
	// goFlags says the program reads flags as Go's flag package does:
	// one dash or two, whole names, no clusters, after its subcommand.
	goFlags bool
	// valuePrefix is what a value starts with when it is a command
	// (tar's --checkpoint-action=exec=CMD); the rest is the command.
	valuePrefix map[string]string
	// commaWords says a value of words is the command's words joined by
	// commas (gcc's -wrapper rm,x runs "rm x").
	commaWords bool
}

// optionRuns maps a program to how it takes commands in its options.
var optionRuns = map[string]optionRun{
	"tar": {longs: []string{"to-command", "use-compress-program", "checkpoint-action", "info-script", "new-volume-script",
		"rsh-command", "rmt-command"}, minPrefix: 4, shorts: "IF", takes: "fCbTXgKNVLH",
		valuePrefix: map[string]string{"checkpoint-action": "exec="}},
	"bsdtar": {longs: []string{"use-compress-program"}, minPrefix: 4, shorts: "I", takes: "fCbTXsW"},
	"sort":   {longs: []string{"compress-program"}, minPrefix: 3, takes: "kStTo"},
	"split":  {longs: []string{"filter"}, minPrefix: 3, takes: "abClnt"},
	"rsync":  {longs: []string{"rsh", "rsync-path"}, minPrefix: 3, shorts: "e", takes: "TB"},
	"zip":    {longs: []string{"unzip-command"}, minPrefix: 3, takes: "bnPtx", words: []string{"-TT"}},
	"man":    {longs: []string{"pager"}, minPrefix: 3, shorts: "P", takes: "CLMmSsEeRr"},
	"bat":    {longs: []string{"pager"}, minPrefix: 5},
	"ag":     {longs: []string{"pager"}, minPrefix: 5},
	"diff3":  {longs: []string{"diff-program"}, minPrefix: 3},
	"sdiff":  {longs: []string{"diff-program"}, minPrefix: 3},
	"ack":    {longs: []string{"pager"}, minPrefix: 5},
	"rg":     {longs: []string{"pre", "hostname-bin"}, minPrefix: 3},
	"go":     {longs: []string{"exec", "toolexec", "vettool"}, goFlags: true},
	// gcc runs each program it drives (cc1, as, collect2) under the
	// -wrapper program, its words given with commas.
	"gcc": {words: []string{"-wrapper"}, commaWords: true},
}

func init() {
	optionRuns["gtar"] = optionRuns["tar"]
	optionRuns["gsort"] = optionRuns["sort"]
	optionRuns["gsplit"] = optionRuns["split"]
	optionRuns["batcat"] = optionRuns["bat"]
	for _, cc := range []string{"cc", "c++", "g++", "cpp", "clang", "clang++", "gfortran", "gccgo"} {
		optionRuns[cc] = optionRuns["gcc"]
	}
}

// optionCommands returns the commands form's options give its program to
// run, and says when one is computed at run time. tar with -C runs its
// commands in that directory, go in each package's: elsewhere says so.
func optionCommands(form []Word) (runs []Word, notes []Note, elsewhere string) {
	name := form[0].Name()
	o, ok := optionRuns[name]
	if !ok {
		return nil, nil, ""
	}
	args := form[1:]
	if o.goFlags {
		if len(args) == 0 {
			return nil, nil, ""
		}
		args = args[1:] // the subcommand
		elsewhere = "go runs it in each package's directory"
	}
	// The options that take a value are not all known (tar --exclude -f
	// --to-command=X: --exclude takes "-f", and --to-command runs X), so a
	// value taken from the next word that starts with '-' is read as an
	// option too: read twice rather than missed.
	next := func(i int) int {
		if args[i].Kind == Static && strings.HasPrefix(args[i].Text, "-") {
			return i - 1
		}
		return i
	}
	for i := 0; i < len(args); i++ {
		w := args[i]
		if w.Kind != Static {
			if strings.HasPrefix(w.Text, "-") || strings.HasPrefix(w.Text, `"-`) || strings.HasPrefix(w.Text, "'-") {
				notes = append(notes, Note{Kind: NotStatic, Text: name + " option computed at run time may give it a command to run: " + w.String()})
			}
			continue
		}
		t := w.Text
		if t == "--" {
			break
		}
		if name == "tar" || name == "gtar" || name == "bsdtar" {
			// -C anywhere in a cluster, the old-style first word or
			// --directory (by a prefix) moves where tar runs them.
			short := !strings.HasPrefix(t, "--") && (strings.HasPrefix(t, "-") || i == 0)
			if short && strings.Contains(t, "C") || strings.HasPrefix(t, "--di") {
				elsewhere = name + " -C runs its commands in the directory it names"
			}
		}
		if opt, value, hasValue := strings.Cut(t, "="); slices.Contains(o.words, opt) {
			v := Word{Kind: Static, Text: value}
			switch {
			case hasValue:
			case i+1 < len(args):
				v = args[i+1]
				i = next(i + 1)
			default:
				continue
			}
			if o.commaWords && v.Kind == Static {
				v.Text = strings.ReplaceAll(v.Text, ",", " ")
			}
			runs = append(runs, v)
			continue
		}
		long, isLong := strings.CutPrefix(t, "--")
		if o.goFlags && !isLong {
			long, isLong = strings.CutPrefix(t, "-")
		}
		if isLong {
			lname, value, hasValue := strings.Cut(long, "=")
			full := ""
			for _, l := range o.longs {
				if lname == l || !o.goFlags && len(lname) >= o.minPrefix && strings.HasPrefix(l, lname) {
					full = l
				}
			}
			if full == "" {
				continue
			}
			v := Word{Kind: Static, Text: value}
			if !hasValue {
				if i+1 >= len(args) {
					continue
				}
				v = args[i+1]
				i = next(i + 1)
			}
			if p := o.valuePrefix[full]; p != "" {
				if v.Kind != Static {
					notes = append(notes, Note{Kind: NotStatic, Text: name + " --" + full + " is given a value computed at run time: " + v.String()})
					continue
				}
				cmd, isCmd := strings.CutPrefix(v.Text, p)
				if !isCmd {
					continue
				}
				v.Text = cmd
			}
			runs = append(runs, v)
			continue
		}
		if o.goFlags || len(t) < 2 || t[0] != '-' {
			continue
		}
		for j := 1; j < len(t); j++ {
			c := t[j]
			code := strings.IndexByte(o.shorts, c) >= 0
			if !code && strings.IndexByte(o.takes, c) < 0 {
				continue
			}
			switch {
			case j+1 < len(t):
				if code {
					runs = append(runs, Word{Kind: Static, Text: t[j+1:]})
				}
			case i+1 < len(args):
				if code {
					runs = append(runs, args[i+1])
				}
				i = next(i + 1)
			}
			break
		}
	}
	return runs, notes, elsewhere
}
