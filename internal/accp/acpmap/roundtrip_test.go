package acpmap

import (
	"bufio"
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/acp-bridge/acp-bridge/internal/accp"
)

// roundTripFile encodes every message of a JSONL file, decodes the frames
// in a separate decoder, and checks decode(encode(x)) equals x as JSON.
// It returns the kinds seen.
func roundTripFile(t *testing.T, path string, opt Options) map[string]int {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	enc := NewEncoder("rt", opt)
	dec := NewDecoder("rt", Options{})
	kinds := map[string]int{}
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(nil, 512<<20)
	n := 0
	for sc.Scan() {
		n++
		if len(bytes.TrimSpace(sc.Bytes())) == 0 {
			continue
		}
		l, err := ReadLine(sc.Bytes())
		if err != nil {
			t.Errorf("%s:%d: %v", path, n, err)
			continue
		}
		want, err := accp.DecodeJSON(l.Msg)
		if err != nil {
			t.Errorf("%s:%d: %v", path, n, err)
			continue
		}
		frame, err := enc.Encode(l.Msg, l.Dir, l.TS)
		if err != nil {
			t.Errorf("%s:%d: encode: %v", path, n, err)
			continue
		}
		if strings.ContainsAny(frame, " \t\n\r") {
			t.Errorf("%s:%d: frame holds whitespace: %s", path, n, frame)
		}
		got, err := dec.DecodeValue(frame)
		if err != nil {
			t.Errorf("%s:%d: decode %s: %v", path, n, frame, err)
			continue
		}
		if !accp.JSONEqual(got, want) {
			g, _ := MarshalJSON(got)
			t.Errorf("%s:%d: round trip differs\nwant %s\ngot  %s\nframe %s", path, n, l.Msg, g, frame)
		}
		f, _ := accp.Limits{MaxDepth: 64}.Parse(frame, NewRegistry())
		kinds[KindName(f)]++
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return kinds
}

func TestRoundTripCorpus(t *testing.T) {
	roundTripFile(t, "testdata/corpus.jsonl", Options{Refs: true})
	kinds := roundTripFile(t, "testdata/corpus.jsonl", Options{})
	// Every row of the table but "other JSON" has an instance in the corpus,
	// and the rows the issue names are mapped as it asks.
	for _, k := range kinds0() {
		if kinds[k] == 0 {
			t.Errorf("corpus has no message of kind %q", k)
		}
	}
	t.Logf("kinds: %v", kinds)
}

func kinds0() []string {
	var out []string
	for _, k := range kinds {
		out = append(out, k.name)
	}
	return out
}

// TestRoundTripTranscripts checks the same on every recorded transcript in
// the repository's testdata/transcripts.
func TestRoundTripTranscripts(t *testing.T) {
	files, _ := filepath.Glob("../../../testdata/transcripts/*.jsonl")
	if len(files) == 0 {
		t.Fatal("no recorded transcripts in testdata/transcripts: the round trip has nothing to check")
	}
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) { roundTripFile(t, f, Options{}) })
		t.Run(filepath.Base(f)+"/refs", func(t *testing.T) { roundTripFile(t, f, Options{Refs: true}) })
	}
}

func TestKindsUnique(t *testing.T) {
	seen := map[[2]string]string{}
	for _, k := range kinds {
		key := [2]string{k.intent, k.op}
		if prev, ok := seen[key]; ok {
			t.Errorf("%s and %s both map to %s:%s", prev, k.name, k.intent, k.op)
		}
		seen[key] = k.name
	}
}
