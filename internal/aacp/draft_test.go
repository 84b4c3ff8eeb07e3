package aacp

import (
	"os"
	"reflect"
	"regexp"
	"strings"
	"testing"
)

// draftPath is the AACP draft in the shared seeds next to the repository.
const draftPath = "../../../shared/seeds/draft-mackay-aacp.txt"

// draftPackets extracts the example packets of the draft: an indented line
// that starts with "TASK|DOM|", joined with the following indented lines while
// a line ends in "|" (the draft wraps long packets at a pipe).
func draftPackets(text string) []string {
	start := regexp.MustCompile(`^   [A-Z]+\|[A-Z]+\|`)
	var out []string
	lines := strings.Split(text, "\n")
	for i := 0; i < len(lines); i++ {
		if !start.MatchString(lines[i]) {
			continue
		}
		pkt := strings.TrimSpace(lines[i])
		for strings.HasSuffix(pkt, "|") && i+1 < len(lines) {
			i++
			pkt += strings.TrimSpace(lines[i])
		}
		out = append(out, pkt)
	}
	return out
}

// TestDraftExamples parses every example packet of the draft: each must be
// valid with no diagnostic at all, and re-encode to the same bytes. The
// draft's packets are kept in testdata so the test runs without the seeds;
// when the draft is at hand, the copy is checked against it.
func TestDraftExamples(t *testing.T) {
	copyText, err := os.ReadFile("testdata/valid/draft-examples.aacp")
	if err != nil {
		t.Fatal(err)
	}
	var packets []string
	for _, l := range strings.Split(string(copyText), "\n") {
		if l != "" && l[0] != '#' {
			packets = append(packets, l)
		}
	}
	if draft, err := os.ReadFile(draftPath); err == nil {
		fromDraft := draftPackets(string(draft))
		// The section 1 example repeats the first example of section 4.4.
		if len(fromDraft) != 7 || fromDraft[0] != fromDraft[1] {
			t.Fatalf("extracted %d packets from the draft, want 7 with the first two equal: %q", len(fromDraft), fromDraft)
		}
		if !reflect.DeepEqual(fromDraft[1:], packets) {
			t.Errorf("testdata copy differs from the draft:\n draft %q\n  copy %q", fromDraft[1:], packets)
		}
	} else {
		t.Logf("draft not found (%v): checking the testdata copy only", err)
	}
	if len(packets) != 6 {
		t.Fatalf("got %d packets in the testdata copy, want the draft's 6", len(packets))
	}
	for _, s := range packets {
		p, ds := Parse(s)
		if len(ds) != 0 {
			t.Errorf("Parse(%q): %v", s, ds)
			continue
		}
		if got := p.String(); got != s {
			t.Errorf("re-encoded draft packet differs:\n got %s\nwant %s", got, s)
		}
	}
}
