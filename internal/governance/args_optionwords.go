package governance

import (
	"strings"

	"github.com/acp-bridge/acp-bridge/internal/shellcmd"
)

// A command's words that name nothing are decided as names it may create
// (createdIfMissing), since which programs create what they are given is
// not in the line. An option is not such a name: "go test -v ./..." never
// creates a file named "-v", nor "cargo build --release" one named
// "--release", nor "bash -c 'go test ./...'" one named "-c". Nor is the
// value of an option a known table says the program never creates a file
// of (knownOptions): "-run TestX", "-timeout 30s", "--target x86_64",
// "-count=1", "-j4". What is not known stays a name the command may
// create, as every word was: an option's value attached to its word
// ("-o.env", "--output=GOVERNANCE.md", "-fscript") unless the table knows
// the option; an option word that holds a "/"; the word after an option
// whose value-taking is not known, which may be its value ("prog --out
// -x" may create "-x", "make -j 4" "4"); every word after "--". The names
// are still decided as reads, and the built-in refusals (self-protection,
// outside the roots) still apply to them as names the command may create
// (decideArgAt).

// wordReading says which of the names one word of a command gives
// (commandArgs) are none the command creates.
type wordReading struct {
	// whole: the word whole.
	whole bool
	// parts: the rests of an option word before its value (the letters of
	// "-count=1", "-vv").
	parts bool
	// value: the value attached to the option word from byte valueAt on
	// ("1" of "-count=1", "4" of "-j4"), and every rest within it.
	value   bool
	valueAt int
}

// notCreated reports whether the name the word gives from byte j on (0:
// the word whole) is none the command creates.
func (r wordReading) notCreated(j int) bool {
	switch {
	case j == 0:
		return r.whole
	case r.valueAt > 0 && j >= r.valueAt:
		return r.value
	default:
		return r.parts
	}
}

// allOf is the reading of a word none of whose names the command
// creates: an option's value it never creates, a shell's command string.
var allOf = wordReading{whole: true, parts: true, value: true}

// valueTaking says whether an option gives the word after it as its value.
type valueTaking uint8

const (
	takesNone  valueTaking = iota
	takesText              // a value the program never creates a file of
	takesMaybe             // not known: a value that may be such a file
)

// optionReadings returns how c's words read, by word: the reading of the
// innermost form that holds it (nice go test -run X is read as go reads
// it), the zero reading (a name the command may create) for the words no
// form knows.
func optionReadings(c *shellcmd.Command) map[*shellcmd.Word]wordReading {
	var out map[*shellcmd.Word]wordReading
	for _, form := range c.Forms {
		readOptionWords(form, func(i int, r wordReading) {
			switch {
			case r != wordReading{}:
				if out == nil {
					out = make(map[*shellcmd.Word]wordReading)
				}
				out[&form[i]] = r
			case out != nil:
				delete(out, &form[i])
			}
		})
	}
	return out
}

// readOptionWords calls set with the reading of every word of form, as
// its program reads it.
func readOptionWords(form []shellcmd.Word, set func(int, wordReading)) {
	for i := range form {
		set(i, wordReading{})
	}
	if form[0].Kind != shellcmd.Static || !systemProgram(form[0].Text) {
		return // a program the agent may have made, named like a known one
	}
	if operands, code, ok := shellcmd.ShellOptions(form); ok {
		for i := 1; i < operands; i++ {
			set(i, allOf)
		}
		if code {
			set(operands, allOf)
		}
		return
	}
	var table *programOptions
	afterOperands, start := false, 1
	if t := knownOptions[form[0].Name()]; t != nil && t.subs == nil {
		table = t
	} else if t != nil && len(form) > 1 && form[1].Kind == shellcmd.Static {
		if after, ok := t.subs[form[1].Text]; ok {
			table, afterOperands, start = t, after, 2
		}
	}
	takes, textOperands := takesNone, 0
	if table != nil {
		textOperands = table.textOperands
	}
	for i := start; i < len(form); i++ {
		w := form[i]
		if w.Kind == shellcmd.Static && w.Text == "--" {
			return // operands, whatever they start with
		}
		option := w.Kind == shellcmd.Static && len(w.Text) > 1 && w.Text[0] == '-'
		switch {
		case takes == takesText:
			set(i, allOf)
			takes = takesNone
			continue
		case takes == takesMaybe:
			// Its value, or an option that may take the next in turn;
			// or an operand, after which the table may not hold.
			takes = takesNone
			if option {
				takes = takesMaybe
			} else if !afterOperands {
				table = nil
			}
			continue
		case w.Kind == shellcmd.Dynamic || w.Kind == shellcmd.Glob && strings.HasPrefix(w.Text, "-"):
			takes = takesMaybe // it may be an option that takes the next
			continue
		case !option && table != nil && textOperands > 0:
			set(i, allOf) // timeout's duration
			textOperands--
			continue
		case !option:
			if !afterOperands {
				table = nil // the rest are another program's, or operands
			}
			continue
		}
		if table != nil && table.ends[optionName(w.Text)] {
			set(i, wordReading{whole: true})
			table, afterOperands = nil, true
			continue
		}
		var r wordReading
		r, takes = readOption(table, w.Text)
		set(i, r)
	}
}

// systemProgram reports whether the command word name finds a program
// where the system keeps them: a name the shell looks up in PATH, or an
// absolute path in a system directory ("/bin/sh"). "./go" or "bin/bash"
// is whatever the workspace holds, whose options no table knows.
func systemProgram(name string) bool {
	if !strings.Contains(name, "/") {
		return true
	}
	for _, dir := range []string{"/bin/", "/usr/bin/", "/usr/local/bin/", "/usr/local/go/bin/"} {
		if rest, ok := strings.CutPrefix(name, dir); ok && !strings.Contains(rest, "/") {
			return true
		}
	}
	return false
}

// optionName returns the name of a whole-name option word ("run" of
// "-run=X" or "--run").
func optionName(text string) string {
	name := strings.TrimPrefix(text[1:], "-")
	name, _, _ = strings.Cut(name, "=")
	return name
}

// readOption reads the option word text by table (nil: not known) and
// says whether it takes the next word as its value.
func readOption(table *programOptions, text string) (wordReading, valueTaking) {
	// An option word that holds a "/" is taken as a path still: a
	// program that reads it as an operand after all creates it through
	// the directory it names ("-x/../src/new.go"), where the policy's
	// rules on that directory apply.
	r := wordReading{whole: !strings.Contains(text, "/")}
	eq := strings.IndexByte(text, '=')
	if table == nil {
		if eq >= 0 {
			return r, takesNone
		}
		return r, takesMaybe
	}
	if table.wholeNames || strings.HasPrefix(text, "--") {
		name := optionName(text)
		if eq >= 0 {
			r.valueAt = eq + 1
		}
		switch {
		case strings.HasPrefix(name, "-") || name == "":
			// "---x": no option the table knows
		case table.flags[name]:
			r.parts, r.value = true, true
			return r, takesNone
		case table.texts[name]:
			r.parts, r.value = true, true
			if eq < 0 {
				return r, takesText
			}
			return r, takesNone
		}
		if eq >= 0 {
			return r, takesNone
		}
		return r, takesMaybe
	}
	// A cluster of short options; the first that takes a value takes the
	// rest of the word, or the next word.
	r.parts = true
	for k := 1; k < len(text); k++ {
		letter := text[k : k+1]
		if table.flags[letter] {
			continue
		}
		r.valueAt = k + 1
		if !table.texts[letter] {
			return r, takesMaybe
		}
		if k+1 < len(text) {
			r.value = true
			return r, takesNone
		}
		r.valueAt = 0
		return r, takesText
	}
	return r, takesNone
}
