package shellcmd

import "strings"

// bash's compgen and complete take shell code in their options: the word
// list -W gives is split and each word expanded as the shell expands a
// word (so "compgen -W '$(rm x)' w" runs rm x when the line runs), -C
// names a command line run in a subshell, and -F a function called. The
// word list and the command line are analysed as bash code of their own,
// so their commands meet the rules whatever rule allows compgen; -C and
// -F are noted as running code, as before.

// completionValued are the options of compgen and complete that take a
// value (bash's optstring "abcdefgjko:prsuvA:G:W:C:F:X:P:S:"), attached
// or in the next word.
const completionValued = "oAGWCFXPS"

// completionHandler is the handler of compgen and complete.
func completionHandler(form []Word) step {
	var st step
	bash := dialectsOf("bash")
	o := staticWords{form: form}
	for o.next() {
		t := o.text()
		if !strings.HasPrefix(t, "-") || t == "-" {
			continue
		}
		for j := 1; j < len(t); j++ {
			letter := t[j]
			if strings.IndexByte(completionValued, letter) < 0 {
				continue
			}
			val := Word{Kind: Static, Text: t[j+1:]}
			if val.Text == "" {
				next, ok := o.take()
				if !ok {
					break
				}
				val = next
			}
			switch letter {
			case 'W':
				// ":" runs nothing; the expansions in its words run.
				st.shell = append(st.shell, shellRun{word: Word{Kind: val.Kind, Text: ": " + val.Text, Why: val.Why}, langs: bash})
			case 'C':
				st.shell = append(st.shell, shellRun{word: val, langs: bash})
				st.notes = append(st.notes, Note{Kind: RunsCode, Text: form[0].Text + " -C runs the command line it is given"})
			case 'F':
				st.notes = append(st.notes, Note{Kind: RunsCode, Text: form[0].Text + " -F calls the function it names"})
			}
			break // the rest of the word was the value
		}
	}
	return st
}
