package shellcmd

import "strings"

// npm exec (npm x) runs the command line --call gives through its script
// shell, sh unless configured: "npm exec -c 'rm x'" runs rm x, -c being
// npm's short form of --call, alone ("-c", "-c=V") or in a cluster of
// one-letter flags ("-yc"). The command line is analysed as sh code of its
// own, so a rule allowing npm does not vouch for a command a rule refuses;
// like --call, -c is noted as code no rule vouches for. After "--" the
// words are the command's, not npm's.

// npmHandler is the handler of npm.
func npmHandler(form []Word) step {
	st := step{acts: true}
	o := staticWords{form: form}
	for o.next() {
		t := o.text()
		var val Word
		switch {
		case t == "--call" || t == "-c":
			v, ok := o.take()
			if !ok {
				continue
			}
			val = v
		case strings.HasPrefix(t, "--call=") || strings.HasPrefix(t, "-c="):
			_, v, _ := strings.Cut(t, "=")
			val = Word{Kind: Static, Text: v}
		case npmShortCluster(t):
			st.notes = append(st.notes, Note{Kind: Unparsed, Text: "npm " + t + " holds -c (--call), code no rule vouches for"})
			val, _ = o.take() // the zero Word when the line ends here
		default:
			continue
		}
		st.shell = append(st.shell, shellRun{word: val, langs: dialectsOf("sh")})
		if !strings.HasPrefix(t, "--") {
			st.notes = append(st.notes, Note{Kind: Unparsed, Text: "npm -c (--call) names code it runs, which no rule vouches for"})
		}
	}
	npmExecRuns(form, &st)
	return st
}

// npmExec reads the words after npm exec (npm x, npx's twin) as a tool
// runner's: the package's command and its words, after npm exec's own
// options, are a command of their own, decided as npx's and pnpm dlx's.
var npmExec = runner{subs: [][]string{{"exec"}}, values: []string{"--package", "-p", "--call", "-c", "--workspace", "-w"},
	flags: []string{"-y", "--yes", "--no", "-ws", "--workspaces", "--include-workspace-root"}}

// npmExecRuns adds to st the command npm exec (x, exe, or any spelling
// npmCommand reads) runs in form, after npm's own options, each reading
// of an option it does not know (optionReadings): "npm exec -- npm
// config set ..." runs npm config set, which every check then sees.
func npmExecRuns(form []Word, st *step) {
	for _, reading := range optionReadings(form[1:], programOptions["npm"]) {
		sub, rest, ok := subcommand(reading, npmValued...)
		if !ok || npmCommand(sub) != "exec" {
			continue
		}
		run := npmExec.handle(append([]Word{form[0], {Kind: Static, Text: "exec"}}, rest...))
		st.notes = append(st.notes, run.notes...)
		if st.next == nil {
			st.next = run.next
		} else if run.next != nil {
			st.others = append(st.others, run.next)
		}
		st.others = append(st.others, run.others...)
	}
}

// npmShortCluster reports whether t is a cluster of one-letter flags
// holding c ("-yc"), which npm reads as --call among them.
func npmShortCluster(t string) bool {
	if len(t) < 3 || t[0] != '-' || t[1] == '-' || !strings.Contains(t, "c") {
		return false
	}
	for _, r := range t[1:] {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z') {
			return false
		}
	}
	return true
}

// NpmSettingsOnly reports whether the words after npm or pnpm (args) name a
// command that reads or writes its settings only (config, set, get, login,
// adduser, logout, and their aliases and prefixes): it runs no script of
// the project's, through the .npmrc's script-shell or otherwise.
func NpmSettingsOnly(args []Word) bool {
	sub, _, ok := subcommand(args, npmValued...)
	if !ok {
		return false
	}
	switch npmCommand(sub) {
	case "config", "set", "get", "login", "adduser", "logout":
		return true
	}
	return false
}
