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
	return st
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
