package audit

import (
	"bytes"
	"io"
	"strings"
	"unicode/utf8"
)

// table is an aligned table whose first columns may wrap.
type table struct {
	head []string
	rows [][]string
	// wrap gives the widest the first len(wrap) columns may be; a longer
	// cell continues on the lines below. Cells must be printable.
	wrap []int
	// numeric is the first right-aligned column.
	numeric int
}

func (t *table) write(w io.Writer) error {
	widths := make([]int, len(t.head))
	cells := make([][][]string, 0, len(t.rows)+1) // row, column, line
	for _, r := range append([][]string{t.head}, t.rows...) {
		row := make([][]string, len(r))
		for i, c := range r {
			if i < len(t.wrap) {
				row[i] = wrapText(c, t.wrap[i])
			} else {
				row[i] = []string{c}
			}
			for _, l := range row[i] {
				widths[i] = max(widths[i], utf8.RuneCountInString(l))
			}
		}
		cells = append(cells, row)
	}
	var b bytes.Buffer
	for _, row := range cells {
		lines := 1
		for _, c := range row {
			lines = max(lines, len(c))
		}
		for l := range lines {
			var line strings.Builder
			for i, c := range row {
				s := ""
				if l < len(c) {
					s = c[l]
				}
				pad := strings.Repeat(" ", widths[i]-utf8.RuneCountInString(s))
				if i > 0 {
					line.WriteString("  ")
				}
				if i >= t.numeric {
					line.WriteString(pad + s)
				} else {
					line.WriteString(s + pad)
				}
			}
			b.WriteString(strings.TrimRight(line.String(), " "))
			b.WriteByte('\n')
		}
	}
	_, err := w.Write(b.Bytes())
	return err
}

// continued starts every line of a wrapped cell after its first, so that
// text from the log never starts a line of the table: a cut in the middle
// of an agent's text cannot make the rest look like a row of its own.
const continued = "↳ "

// wrapText cuts s into lines of at most n runes, breaking after spaces
// and punctuation where it can; lines after the first start with
// continued.
func wrapText(s string, n int) []string {
	if n <= 0 || utf8.RuneCountInString(s) <= n {
		return []string{s}
	}
	var out []string
	r := []rune(s)
	for len(r) > 0 {
		width := n
		if len(out) > 0 {
			width = n - utf8.RuneCountInString(continued)
		}
		if len(r) <= width {
			out = append(out, string(r))
			break
		}
		cut := width
		for i := width; i > width/2; i-- {
			if c := r[i-1]; c == ' ' || c == '/' || c == ',' || c == ')' || c == ':' || c == '-' {
				cut = i
				break
			}
		}
		out = append(out, strings.TrimRight(string(r[:cut]), " "))
		r = r[cut:]
		for len(r) > 0 && r[0] == ' ' {
			r = r[1:]
		}
	}
	for i := 1; i < len(out); i++ {
		out[i] = continued + out[i]
	}
	return out
}
