package accp

import (
	"bufio"
	"os"
	"strings"
	"testing"
)

type draftExample struct {
	section string
	line    int
	frame   string
}

// readDraftExamples reads testdata/draft_examples.txt, joining the draft's
// indented continuation lines onto the frame they continue.
func readDraftExamples(t testing.TB) []draftExample {
	t.Helper()
	f, err := os.Open("testdata/draft_examples.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []draftExample
	section := ""
	sc := bufio.NewScanner(f)
	n := 0
	for sc.Scan() {
		n++
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "## "):
			section = strings.Fields(line)[1]
		case line == "" || strings.HasPrefix(line, "#"):
		case strings.HasPrefix(line, "  "):
			out[len(out)-1].frame += strings.TrimSpace(line)
		default:
			out = append(out, draftExample{section, n, line})
		}
	}
	return out
}

func TestDraftExamplesParse(t *testing.T) {
	examples := readDraftExamples(t)
	if len(examples) != 21 {
		t.Fatalf("read %d examples, want 21", len(examples))
	}
	for _, ex := range examples {
		f, err := ParseFrame(ex.frame)
		if err != nil {
			t.Errorf("section %s (line %d): %v\n%s", ex.section, ex.line, err, ex.frame)
			continue
		}
		// The canonical rendering parses to the same frame.
		canon := f.String()
		g, err := ParseFrame(canon)
		if err != nil {
			t.Errorf("section %s: canonical form %s does not parse: %v", ex.section, canon, err)
			continue
		}
		if canon != g.String() {
			t.Errorf("section %s: canonical form not stable:\n%s\n%s", ex.section, canon, g.String())
		}
	}
}
