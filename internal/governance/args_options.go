package governance

import (
	"strings"

	"github.com/acp-bridge/acp-bridge/internal/shellcmd"
)

// optionWords reads the words of a command form after its name as getopt
// reads them for a program that takes its options before, between and
// after its operands: a static "--" ends the options and makes every word
// after it an operand; a computed word, "-" and any word not starting
// with "-" are operands; every other word is an option, which may take
// its value from the next word (value). The readers of what cp, mv,
// install, ln, rsync, the compressors, split, patch and git apply write
// walk their forms with it, so that they all tell options from operands
// the same way:
//
//	o := optionWords{form: form}
//	for o.next() {
//		// o.opt is an option; o.value(v, attached) its value
//	}
//	// o.ops are the operands
type optionWords struct {
	form []shellcmd.Word
	// at is the index in form of the word read last: the option next
	// gave, or the value it took. It starts at the word before the first
	// to read: 0, the program's name, or the index of a subcommand.
	at int
	// opt is the option next gave.
	opt shellcmd.Word
	// ops are the operands read so far, in the order of the form.
	ops []shellcmd.Word
}

// next reads on to the next option, adding the operands before it to
// o.ops, and reports whether there is one.
func (o *optionWords) next() bool {
	for o.at++; o.at < len(o.form); o.at++ {
		w := o.form[o.at]
		if w.Kind == shellcmd.Static && w.Text == "--" {
			o.ops = append(o.ops, o.form[o.at+1:]...)
			o.at = len(o.form)
			return false
		}
		if w.Kind == shellcmd.Dynamic || len(w.Text) < 2 || w.Text[0] != '-' {
			o.ops = append(o.ops, w)
			continue
		}
		o.opt = w
		return true
	}
	return false
}

// longOption reports whether t is a long option word (--name or
// --name=value) and splits it into the name and the value = attaches.
func longOption(t string) (name, value string, attached, ok bool) {
	long, ok := strings.CutPrefix(t, "--")
	if !ok {
		return "", "", false, false
	}
	name, value, attached = strings.Cut(long, "=")
	return name, value, attached, true
}

// value returns the value of the option next gave: v when it is attached
// to the option's word (--name=v, or the rest of a short option's
// cluster), of the option's kind; else the next word, which is read then
// and is no operand; nil when there is none.
func (o *optionWords) value(v string, attached bool) *shellcmd.Word {
	if attached {
		return &shellcmd.Word{Kind: o.opt.Kind, Text: v}
	}
	if o.at+1 < len(o.form) {
		o.at++
		return &o.form[o.at]
	}
	return nil
}

// shortCluster reads the short option cluster next gave ("-rlt DIR",
// "-tDIR") as getopt reads it: each letter before the first that takes a
// value (one of shortValue) is passed to flag, if flag is not nil; that
// letter takes the rest of the cluster as its value, or else the next
// word. It returns the letter that took a value and the value, or 0 and
// nil when none did.
func (o *optionWords) shortCluster(shortValue string, flag func(c byte)) (byte, *shellcmd.Word) {
	t := o.opt.Text
	for j := 1; j < len(t); j++ {
		c := t[j]
		if strings.IndexByte(shortValue, c) >= 0 {
			return c, o.value(t[j+1:], j+1 < len(t))
		}
		if flag != nil {
			flag(c)
		}
	}
	return 0, nil
}
