package shellcmd

import "strings"

// historyExpansion reports the first history expansion an interactive bash
// would make in line, if any: bash reads a line typed into a terminal
// (as an IDE may run an agent's command) through its history library
// before it parses it, replacing "!" events ("!!", "!-2", "!echo:1-3",
// "!#:0", "!$") with words of earlier lines or of the line itself, and a
// line starting with "^old^new" with the previous line so changed. The
// words that run are then not the ones the line shows.
//
// It follows what bash does not expand: a "!" in single quotes or after a
// backslash, one followed by a blank, "=", or the double quote closing
// the string it is in, and bash's own exceptions ("$!", "${!name}", "[!"
// in a bracket expression). It errs towards finding one: each line of a
// multi-line string is read afresh, as the terminal sends it, and $'...'
// does not hide a "!".
func historyExpansion(line string) (string, bool) {
	for _, l := range strings.Split(line, "\n") {
		if strings.HasPrefix(l, "^") {
			return l, true
		}
		if e, ok := historyEvent(l); ok {
			return e, true
		}
	}
	return "", false
}

// historyEvent returns the first "!" event of one line of input.
func historyEvent(l string) (string, bool) {
	// ansi: in $'...', where a backslash escapes a quote and a "!" is
	// still looked at.
	single, double, ansi := false, false, false
	for i := 0; i < len(l); i++ {
		c := l[i]
		switch {
		case single:
			single = c != '\''
		case c == '\\':
			i++ // escapes the next byte, in double quotes and $'...' too
		case ansi && c == '\'':
			ansi = false
		case c == '\'' && !double && i > 0 && l[i-1] == '$':
			ansi = true
		case c == '\'' && !double && !ansi:
			single = true
		case c == '"' && !ansi:
			double = !double
		case c == '!':
			if i+1 == len(l) {
				return "", false
			}
			switch next := l[i+1]; {
			case next == ' ' || next == '\t' || next == '\r' || next == '=':
				continue
			case next == '"' && double:
				continue
			case i > 0 && l[i-1] == '$':
				continue // $!
			case i > 1 && l[i-1] == '{' && l[i-2] == '$' && strings.Contains(l[i+1:], "}"):
				continue // ${!name}
			case i > 0 && l[i-1] == '[' && strings.Contains(l[i+1:], "]"):
				continue // [!a-z]
			}
			end := i + 1
			for end < len(l) && !strings.ContainsRune(" \t\r;&|<>()\"'", rune(l[end])) {
				end++
			}
			return l[i:max(end, i+2)], true
		}
	}
	return "", false
}

// historyHandler: history -s stores its arguments, joined, as a line of
// the history, which fc -s, fc -e and an interactive !! then run: "set -o
// history; history -s 'rm x'; fc -s" runs rm x. The line is code the
// command line gives, decided as its commands.
func historyHandler(form []Word) step {
	for i := 1; i < len(form); i++ {
		t := form[i].Text
		if form[i].Kind != Static || t == "--" || !strings.HasPrefix(t, "-") {
			return step{}
		}
		if strings.ContainsRune(t[1:], 's') {
			if i+1 < len(form) && form[i+1].Text == "--" {
				i++
			}
			if i+1 < len(form) {
				return step{shell: []shellRun{{word: joined(form, i+1), langs: dialectsOf("bash")}}}
			}
			return step{}
		}
	}
	return step{}
}
