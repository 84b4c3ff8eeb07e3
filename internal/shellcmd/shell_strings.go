package shellcmd

import "strings"

// Some programs run a string they are given through /bin/sh -c, each in
// its own way of naming it: moreutils' pee runs every argument, mispipe
// both of its two, socat the command of an EXEC:, SYSTEM: or SHELL:
// address (any case, either of a dual address's halves, up to the
// address's first option), ncat and the traditional nc the string of
// -c/--sh-exec and the command of -e/--exec. Each such string is read as
// a command line of its own, decided as the line's commands are.

// shellRunOf is a shell string given as one word, read as sh.
func shellRunOf(wd Word) shellRun {
	return shellRun{word: wd, langs: dialectsOf("sh")}
}

// peeOptions are pee's own options; every other word is a command.
var peeOptions = setOfWords("--ignore-sigpipe --no-ignore-sigpipe --ignore-write-errors --no-ignore-write-errors")

// peeHandler decides each of pee's arguments as a command line: pee runs
// each through sh with its input.
func peeHandler(form []Word) step {
	st := step{}
	for _, wd := range form[1:] {
		if wd.Kind == Static && peeOptions[wd.Text] {
			continue
		}
		st.shell = append(st.shell, shellRunOf(wd))
	}
	return st
}

// mispipeHandler decides both of mispipe's arguments as command lines:
// it runs the first piped into the second, each through sh.
func mispipeHandler(form []Word) step {
	st := step{}
	for _, wd := range form[1:] {
		st.shell = append(st.shell, shellRunOf(wd))
	}
	return st
}

// socatRunners are the address types whose parameter is a command socat
// runs (EXEC by execvp, SYSTEM and SHELL through a shell).
var socatRunners = []string{"exec:", "system:", "shell:"}

// socatHandler decides the command of each EXEC:, SYSTEM: or SHELL:
// address of socat as a command line. The command ends at the address's
// first option (","); one that quotes or escapes (socat reads "", ” and
// \ there) or that is computed at run time needs approval as well.
func socatHandler(form []Word) step {
	st := step{}
	for _, wd := range form[1:] {
		if wd.Kind != Static {
			if lower := strings.ToLower(strings.TrimLeft(wd.Text, `"'`)); strings.HasPrefix(lower, "$") || hasAnyPrefix(lower, socatRunners) {
				st.notes = append(st.notes, Note{Kind: NotStatic, Text: "socat's address " + wd.String() + " may run a command not known before the line runs"})
			}
			continue
		}
		if strings.HasPrefix(wd.Text, "-") {
			continue
		}
		for _, addr := range strings.Split(wd.Text, "!!") {
			lower := strings.ToLower(addr)
			if !hasAnyPrefix(lower, socatRunners) {
				continue
			}
			_, cmd, _ := strings.Cut(addr, ":")
			if strings.ContainsAny(cmd, "\\\"'[{(") {
				st.notes = append(st.notes, Note{Kind: RunsCode, Text: "socat's address " + addr + " quotes or escapes the command it runs, which the bridge does not read"})
			}
			if i := strings.IndexByte(cmd, ','); i >= 0 {
				cmd = cmd[:i]
			}
			st.shell = append(st.shell, shellRunOf(Word{Kind: Static, Text: cmd}))
			if bare := strings.Trim(cmd, `"'`); bare != cmd {
				// EXEC:"cat .env": the words inside the quotes too.
				st.shell = append(st.shell, shellRunOf(Word{Kind: Static, Text: bare}))
			}
		}
	}
	return st
}

// hasAnyPrefix reports whether s starts with one of prefixes.
func hasAnyPrefix(s string, prefixes []string) bool {
	for _, p := range prefixes {
		if strings.HasPrefix(s, p) {
			return true
		}
	}
	return false
}

// ncatValueLetters are the short options of ncat and the traditional nc
// that take a value (after them, the cluster's rest is that value).
const ncatValueLetters = "gGimpdoxswqbIOPTVXM"

// ncatHandler decides the command ncat (and nc, netcat) runs for a
// connection as a command line: -c and --sh-exec give a string for sh,
// -e and --exec a program and its words; each as a word of its own or
// attached (-c'cmd', --sh-exec=cmd, a cluster -lc cmd), long names
// abbreviated as getopt takes them. --lua-exec runs a Lua script the
// bridge does not read, which needs approval.
func ncatHandler(form []Word) step {
	st := step{}
	value := func(i int, attached string, has bool) {
		switch {
		case has:
			st.shell = append(st.shell, shellRunOf(Word{Kind: form[i].Kind, Text: attached, Why: form[i].Why}))
		case i+1 < len(form):
			st.shell = append(st.shell, shellRunOf(form[i+1]))
		default:
			st.notes = append(st.notes, Note{Kind: Unparsed, Text: form[0].Text + " " + form[i].Text + " without the command it runs"})
		}
	}
	for i := 1; i < len(form); i++ {
		t := form[i].Text
		if form[i].Kind != Static {
			if strings.HasPrefix(t, "-") {
				st.notes = append(st.notes, Note{Kind: NotStatic, Text: form[0].Text + " option is not static: " + form[i].String()})
			}
			continue
		}
		switch {
		case t == "--":
			return st
		case strings.HasPrefix(t, "--"):
			name, v, eq := strings.Cut(t[2:], "=")
			switch {
			case len(name) >= 2 && strings.HasPrefix("sh-exec", name), len(name) >= 2 && strings.HasPrefix("exec", name):
				value(i, v, eq)
			case len(name) >= 2 && strings.HasPrefix("lua-exec", name):
				st.notes = append(st.notes, Note{Kind: RunsCode, Text: form[0].Text + " --lua-exec runs a Lua script the bridge does not read"})
			}
		case strings.HasPrefix(t, "-") && len(t) > 1:
			for j := 1; j < len(t); j++ {
				if t[j] == 'c' || t[j] == 'e' {
					value(i, t[j+1:], j+1 < len(t))
					break
				}
				if strings.IndexByte(ncatValueLetters, t[j]) >= 0 {
					break
				}
			}
		}
	}
	return st
}
