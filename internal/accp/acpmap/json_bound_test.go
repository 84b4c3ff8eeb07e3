package acpmap

import (
	"os"
	"strings"
	"testing"

	"github.com/acp-bridge/acp-bridge/internal/accp"
)

// checkBound checks that frameBound reads line as the parser does and
// never counts more than frameJSONSize: a frame the bound refuses is one
// the decoder would refuse once parsed. It reports whether it compared
// them (frameBound read the frame).
func checkBound(t *testing.T, line string) bool {
	t.Helper()
	head, body, err := Limits.ParseOutline(line, NewRegistry())
	f, perr := Limits.Parse(line, NewRegistry())
	if perr == nil && err != nil {
		t.Fatalf("ParseOutline rejects what Parse accepts: %v\n%s", err, line)
	}
	if err != nil || perr != nil {
		return false
	}
	if head.Agent != f.Agent || head.Intent != f.Intent || head.Op != f.Op || len(head.Params) != 0 ||
		string(accp.AppendFrame(nil, &accp.Frame{Meta: head.Meta})) != string(accp.AppendFrame(nil, &accp.Frame{Meta: f.Meta})) {
		t.Fatalf("ParseOutline header or metadata differ from Parse's: %+v\n%s", head, line)
	}
	b, ok := frameBound(head, body)
	if !ok {
		return false
	}
	frames := []*accp.Frame{f}
	if isRun(f) {
		if frames, _, err = runEntries(f); err != nil {
			return false
		}
	}
	n := 0
	for _, g := range frames {
		n += frameJSONSize(g)
	}
	if b.bytes > n || b.messages != len(frames) {
		t.Errorf("bound %d bytes, %d messages; frameJSONSize %d bytes, %d messages\n%s", b.bytes, b.messages, n, len(frames), line)
	}
	return true
}

// frameBoundSeeds are frame bodies that are, may be or are not tables.
var frameBoundSeeds = []string{
	"{p:[cols:[a,b],[1,2],[3,4]]}",
	"{p:[cols:[aa_b,\\'x],[1,2]]}",
	"{p:[cols:[a,1],[1,2]]}",
	"{p:[cols:[a,b],[1,2],[3]]}",
	"{p:[cols:[a,b],[1,2],$1]}",
	"{p:[cols:$1,[1,2]]}",
	"{p:[cols:[a],[[cols:[b],[1],[2]]]]}",
	"{p:[cols:[],[],[]]}",
	"{p:[cols:[a]]}",
	"{p:[x:1,[1]]}",
	"{p:{\\u0041b:~,c:@ag:op,d:$7,e:\\#1e5,f:true}}",
}

func TestFrameBound(t *testing.T) {
	for _, body := range frameBoundSeeds {
		if !checkBound(t, noteFrame(body, 1)) {
			t.Errorf("not bounded: %s", body)
		}
	}
}

// TestFrameBoundCorpus checks the bound on every frame the encoders write
// for the corpus: single frames and runs, with and without refs.
func TestFrameBoundCorpus(t *testing.T) {
	lines := readLines(t, "testdata/corpus.jsonl")
	for _, refs := range []bool{false, true} {
		var frames []string
		enc := NewEncoder("b", Options{Refs: refs})
		for _, l := range lines {
			fr, err := enc.Encode(l.Msg, l.Dir, l.TS)
			if err != nil {
				t.Fatal(err)
			}
			frames = append(frames, fr)
		}
		frames = append(frames, encodeRuns(t, lines, Options{Refs: refs}, RunOptions{MaxBodyTokens: -1})...)
		read := 0
		for _, fr := range frames {
			if checkBound(t, fr) {
				read++
			}
		}
		if len(frames) < len(lines) || read != len(frames) {
			t.Errorf("the bound read %d of %d frames", read, len(frames))
		}
	}
}

// FuzzFrameBound checks the bound against frameJSONSize on any frame the
// parser accepts.
func FuzzFrameBound(f *testing.F) {
	for _, body := range frameBoundSeeds {
		f.Add(noteFrame(body, 1))
	}
	data, err := os.ReadFile("testdata/corpus.accp")
	if err != nil {
		f.Fatal(err)
	}
	for line := range strings.Lines(string(data)) {
		f.Add(strings.TrimSuffix(line, "\n"))
	}
	f.Fuzz(func(t *testing.T, line string) { checkBound(t, line) })
}
