package shellcmd

// staticWords reads the words of a command form after its name that the
// line gives as they are, up to a static "--": a word computed at run time
// is passed over. Readers that take the next word as an option's value
// move on past it with take.
//
//	o := staticWords{form: form}
//	for o.next() {
//		t := o.text()
//		...
//	}
type staticWords struct {
	form []Word
	// at is the index in form of the word read last: the word next gave,
	// or the value take took. It starts at 0, the program's name.
	at int
}

// next reads on to the next static word before a "--" and reports
// whether there is one.
func (o *staticWords) next() bool {
	for o.at++; o.at < len(o.form); o.at++ {
		if w := o.form[o.at]; w.Kind == Static {
			return w.Text != "--"
		}
	}
	return false
}

// text returns the text of the word next gave.
func (o *staticWords) text() string { return o.form[o.at].Text }

// take reads the word after the one read last, static or not, as the
// value of an option, and reports whether there is one; with none it
// returns the zero Word and reads nothing.
func (o *staticWords) take() (Word, bool) {
	if o.at+1 >= len(o.form) {
		return Word{}, false
	}
	o.at++
	return o.form[o.at], true
}
