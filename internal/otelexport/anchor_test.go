package otelexport

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/acp-bridge/acp-bridge/internal/audit"
	"github.com/acp-bridge/acp-bridge/internal/audit/audittest"
	"github.com/acp-bridge/acp-bridge/internal/otelexport/otelcoltest"
)

// checkFiles runs CheckAnchor on files as audit verify --anchor does.
func checkFiles(t testing.TB, points []Point, logName string, files ...string) error {
	t.Helper()
	rv, err := audit.Review(audit.Inputs(files...)...)
	if err != nil {
		t.Fatal(err)
	}
	if rv.Problem != nil {
		t.Fatalf("local chain does not verify: %v", rv.Problem)
	}
	_, err = CheckAnchor(points, logName, rv.Entries, rv.Summary)
	return err
}

func pointsOf(logName string, entries []audit.Entry) []Point {
	var ps []Point
	for _, e := range entries {
		ps = append(ps, Point{Log: logName, Seq: e.Seq, Hash: e.Hash, RunID: e.RunID})
	}
	return ps
}

// TestCheckAnchor: the untouched log passes; a recomputed chain without
// its deny records, a truncated log and an anchor of another log fail.
func TestCheckAnchor(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "audit.jsonl")
	governedLog(t, path, "s1", "s2")
	entries, err := audit.ReadEntries(path)
	if err != nil {
		t.Fatal(err)
	}
	points := pointsOf(path, entries)

	noDeny := filepath.Join(dir, "nodeny.jsonl")
	audittest.Rechain(t, noDeny, entries, func(e *audit.Entry) bool { return e.Decision() != audit.DecisionDeny })
	same := filepath.Join(dir, "same.jsonl")
	data, _ := os.ReadFile(path)
	os.WriteFile(same, data, 0o600)
	truncated := filepath.Join(dir, "truncated.jsonl")
	lines := bytes.SplitAfter(data, []byte("\n"))
	os.WriteFile(truncated, bytes.Join(lines[:len(lines)-3], nil), 0o600)
	headless := filepath.Join(dir, "headless.jsonl")
	os.WriteFile(headless, bytes.Join(lines[3:], nil), 0o600)
	shortened := filepath.Join(dir, "shortened.jsonl")
	audittest.Rechain(t, shortened, entries, func(e *audit.Entry) bool { return e.Seq < entries[len(entries)-2].Seq })

	for _, tc := range []struct {
		name, file, logName string
		points              []Point
		want                string // "" passes
	}{
		{"untouched", path, path, points, ""},
		{"copy checked under the original's name", same, path, points, ""},
		{"deny records removed, chain recomputed", noDeny, path, points, "rewritten"},
		{"last records removed", truncated, path, points, "removed from its end"},
		{"last records removed, chain recomputed", shortened, path, points, "rewritten"},
		{"anchored past the end", path, path, slices.Concat(points, []Point{{Log: path, Seq: entries[len(entries)-1].Seq + 1, Hash: "x"}}), "removed from its end"},
		{"first records removed (older files not given)", headless, path, points, "before seq 3"},
		{"anchor of another log", path, "/elsewhere/audit.jsonl", points, "no checkpoint"},
		{"anchor with two hashes for a seq", path, path, slices.Concat(points, []Point{{Log: path, Seq: 0, Hash: "forged"}}), "two different hashes"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := checkFiles(t, tc.points, tc.logName, tc.file)
			switch {
			case tc.want == "" && err != nil:
				t.Fatalf("want ok, got %v", err)
			case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
				t.Fatalf("want an error with %q, got %v", tc.want, err)
			}
		})
	}
}

// TestReadAnchor reads the OTLP JSON a collector's file exporter writes
// and checkpoint lines, and refuses anything else.
func TestReadAnchor(t *testing.T) {
	otlp := `{"resourceLogs":[{"resource":{},"scopeLogs":[{"logRecords":[{"attributes":[` +
		`{"key":"acp_bridge.audit.log","value":{"stringValue":"/l"}},{"key":"acp_bridge.audit.seq","value":{"intValue":"7"}},` +
		`{"key":"acp_bridge.audit.hash","value":{"stringValue":"h7"}}]},{"attributes":[{"key":"other","value":{"stringValue":"x"}}]}]}]}]}`
	ps, err := ReadAnchor(strings.NewReader(otlp + "\n" + `{"log":"/l","seq":8,"hash":"h8"}` + "\n\n"))
	if err != nil {
		t.Fatal(err)
	}
	want := []Point{{Log: "/l", Seq: 7, Hash: "h7"}, {Log: "/l", Seq: 8, Hash: "h8"}}
	if len(ps) != 2 || ps[0] != want[0] || ps[1] != want[1] {
		t.Fatalf("got %+v, want %+v", ps, want)
	}
	for _, bad := range []string{"not json", `{"seq":1}`, `[1]`, `{"resourceLogs":[{"scopeLogs":[{"logRecords":[{"attributes":[{"key":"acp_bridge.audit.seq","value":{"intValue":"x"}}]}]}]}]}`} {
		if _, err := ReadAnchor(strings.NewReader(bad)); err == nil {
			t.Errorf("%q: read as an anchor", bad)
		}
	}
}

// FuzzReadAnchor: any input is read or refused, never a panic.
func FuzzReadAnchor(f *testing.F) {
	f.Add([]byte(`{"log":"/l","seq":8,"hash":"h8"}`))
	f.Add([]byte(`{"resourceLogs":[{"scopeLogs":[{"logRecords":[{"attributes":[]}]}]}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		ReadAnchor(bytes.NewReader(data))
	})
}

// TestAnchorFromCollector: the points a real collector received verify
// the log they came from, and fail it once its deny records were removed
// and its chain recomputed.
func TestAnchorFromCollector(t *testing.T) {
	col := otelcoltest.Start(t)
	dir := t.TempDir()
	path := filepath.Join(dir, "audit.jsonl")
	governedLog(t, path, "s1")
	x := newExporter(t, path, col.Endpoint())
	if n, err := x.Flush(t.Context()); err != nil || n == 0 {
		t.Fatalf("Flush: %d sent, %v", n, err)
	}
	if pending, err := x.Close(time.Second); err != nil || pending != 0 {
		t.Fatalf("Close: %d pending, %v", pending, err)
	}
	rs := col.WaitRecords(func(rs []otelcoltest.Received) bool {
		return len(rs) > 0 && rs[len(rs)-1].EventName == CheckpointEvent
	})
	var anchor bytes.Buffer
	for _, r := range rs {
		line, _ := json.Marshal(Point{Log: r.Attrs[AttrLog], Seq: r.Int(AttrSeq), Hash: r.Attrs[AttrHash]})
		anchor.Write(append(line, '\n'))
	}
	points, err := ReadAnchor(&anchor)
	if err != nil {
		t.Fatal(err)
	}
	abs, _ := filepath.Abs(path)
	if err := checkFiles(t, points, abs, path); err != nil {
		t.Fatalf("the exported log does not verify against what the collector received: %v", err)
	}
	entries, _ := audit.ReadEntries(path)
	tampered := filepath.Join(dir, "tampered.jsonl")
	audittest.Rechain(t, tampered, entries, func(e *audit.Entry) bool { return e.Decision() != audit.DecisionDeny })
	if err := checkFiles(t, points, abs, tampered); err == nil {
		t.Fatal("a log without its deny records, chain recomputed, verified against the anchor")
	}
}
