package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/acp-bridge/acp-bridge/internal/audit"
	"github.com/acp-bridge/acp-bridge/internal/audit/audittest"
	"github.com/acp-bridge/acp-bridge/internal/otelexport"
	"github.com/acp-bridge/acp-bridge/internal/otelexport/otelcoltest"
)

// runOtelDemo runs the demo (see demoSession) with args, which name a
// collector, and waits until the collector has received the record of the
// audit log's last event: its checkpoint, or with checkpoint false the
// event itself. It returns the log, its entries and what the collector
// received.
func runOtelDemo(t *testing.T, col *otelcoltest.Collector, checkpoint bool, args ...string) (logPath string, entries []audit.Entry, rs []otelcoltest.Received) {
	t.Helper()
	ws, _ := demoSession(t, args...)
	logPath = filepath.Join(ws, ".acp-bridge", "audit.jsonl")
	entries, err := audit.ReadEntries(logPath)
	if err != nil {
		t.Fatal(err)
	}
	last := entries[len(entries)-1].Seq
	// The bridge flushed at exit; the collector prints a moment later.
	rs = col.WaitRecords(func(rs []otelcoltest.Received) bool {
		for _, r := range rs {
			if (r.EventName == otelexport.CheckpointEvent) == checkpoint && r.Int(otelexport.AttrSeq) == last {
				return true
			}
		}
		return false
	})
	return logPath, entries, rs
}

// checkAnchorCatches checks audit verify against anchor: the untouched log
// at logPath verifies; the log with its deny records dropped and its chain
// recomputed (which verifies on its own: that is the attack), the log with
// its last events cut off and the emptied log fail.
func checkAnchorCatches(t *testing.T, anchor, logPath string, entries []audit.Entry) {
	t.Helper()
	if out, code := runOutput(t, "audit", "verify", "--anchor", anchor, logPath); code != 0 || !strings.Contains(out, "ok: anchored:") {
		t.Fatalf("verify --anchor %s of the untouched log exited %d\n%s", anchor, code, out)
	}
	recomputed := filepath.Join(t.TempDir(), "audit.jsonl")
	audittest.Rechain(t, recomputed, entries, func(e *audit.Entry) bool { return e.Decision() != audit.DecisionDeny })
	if out, code := runOutput(t, "audit", "verify", "--genesis", recomputed); code != 0 {
		t.Fatalf("the recomputed chain should verify on its own (that is the attack): exit %d\n%s", code, out)
	}
	data, err := os.ReadFile(logPath)
	if err != nil {
		t.Fatal(err)
	}
	lines := bytes.SplitAfter(data, []byte("\n"))
	cut := filepath.Join(t.TempDir(), "audit.jsonl")
	empty := filepath.Join(t.TempDir(), "audit.jsonl")
	if os.WriteFile(cut, bytes.Join(lines[:len(lines)-3], nil), 0o600) != nil || os.WriteFile(empty, nil, 0o600) != nil {
		t.Fatal("writing the tampered logs failed")
	}
	for _, c := range []struct{ log, want, what string }{
		{recomputed, "FAIL anchor", "a log without its deny records, chain recomputed,"},
		{cut, "removed from its end", "a truncated log"},
		{empty, "FAIL", "an emptied log"},
	} {
		if out, code := runOutput(t, "audit", "verify", "--anchor", anchor, "--anchor-log", logPath, c.log); code == 0 || !strings.Contains(out, c.want) {
			t.Fatalf("%s passed verify --anchor %s (exit %d):\n%s", c.what, anchor, code, out)
		}
	}
}

// runOutput runs acp-bridge with args (see runCmd) and returns all it
// printed, stdout then stderr, and its exit status.
func runOutput(t *testing.T, args ...string) (string, int) {
	t.Helper()
	stdout, stderr, code := runCmd(t, "", args...)
	return stdout + stderr, code
}

// TestOTLPDemoSession: the demo's governed session, run through the bridge
// with --otlp-endpoint, reaches a real collector record for record (the
// denied .env read included), with a checkpoint of the chain's head; what
// the collector received anchors audit verify, which then fails the same
// log with its deny records removed and its chain recomputed.
func TestOTLPDemoSession(t *testing.T) {
	col := otelcoltest.Start(t)
	logPath, entries, rs := runOtelDemo(t, col, true, "--otlp-endpoint", col.Endpoint())
	last := entries[len(entries)-1]
	got := map[int64]otelcoltest.Received{}
	checkpointed := false
	for _, r := range rs {
		if r.EventName == otelexport.CheckpointEvent {
			checkpointed = checkpointed || r.Int(otelexport.AttrSeq) == last.Seq
			continue
		}
		if _, dup := got[r.Int(otelexport.AttrSeq)]; dup {
			t.Errorf("seq %d arrived twice", r.Int(otelexport.AttrSeq))
		}
		got[r.Int(otelexport.AttrSeq)] = r
	}
	if !checkpointed {
		t.Errorf("no checkpoint of the head (seq %d) arrived", last.Seq)
	}
	denied := false
	for _, e := range entries {
		r, ok := got[e.Seq]
		if !ok {
			t.Errorf("seq %d (%s) did not arrive", e.Seq, e.Action)
			continue
		}
		if r.Attrs[otelexport.AttrHash] != e.Hash || r.EventName != e.Action {
			t.Errorf("seq %d arrived as %s %s, want %s %s", e.Seq, r.EventName, r.Attrs[otelexport.AttrHash], e.Action, e.Hash)
		}
		if e.Decision() == audit.DecisionDeny {
			denied = true
			if r.Attrs[otelexport.AttrDecision] != "deny" || r.Attrs[otelexport.AttrRule] == "" {
				t.Errorf("deny seq %d arrived without its decision and rule: %v", e.Seq, r.Attrs)
			}
		}
	}
	if !denied {
		t.Error("the demo session has no deny record")
	}

	// The anchor: what the collector received, as checkpoint lines.
	var anchor bytes.Buffer
	for _, r := range rs {
		line, _ := json.Marshal(otelexport.Point{Log: r.Attrs[otelexport.AttrLog], Seq: r.Int(otelexport.AttrSeq), Hash: r.Attrs[otelexport.AttrHash]})
		anchor.Write(append(line, '\n'))
	}
	anchorFile := filepath.Join(t.TempDir(), "anchor.jsonl")
	if err := os.WriteFile(anchorFile, anchor.Bytes(), 0o600); err != nil {
		t.Fatal(err)
	}
	checkAnchorCatches(t, anchorFile, logPath, entries)
}

// TestAuditExport: audit export sends a log from its cursor on (rotated
// files first), nothing the second time, everything again with --all; it
// refuses to run without a collector.
func TestAuditExport(t *testing.T) {
	t.Setenv("OTEL_EXPORTER_OTLP_ENDPOINT", "")
	col := otelcoltest.Start(t)
	path := filepath.Join(t.TempDir(), "audit.jsonl")
	var evs []audit.Event
	for i := range 20 {
		evs = append(evs, audit.Event{Actor: audit.Actor{ID: "user:ide"}, Action: "session.prompt", Subject: audit.Subject{Kind: "session", Ref: "s"},
			Input: map[string]any{"n": i}})
	}
	audittest.Append(t, path, audit.Options{MaxBytes: 1024}, evs...)
	if m, _ := filepath.Glob(path + ".0*"); len(m) == 0 {
		t.Fatal("the log did not rotate")
	}
	count := func(want int) int {
		n := 0
		// The collector prints what it received a moment after
		// acknowledging it: wait for at least want.
		rs := col.WaitRecords(func(rs []otelcoltest.Received) bool {
			k := 0
			for _, r := range rs {
				if r.EventName == "session.prompt" {
					k++
				}
			}
			return k >= want
		})
		for _, r := range rs {
			if r.EventName == "session.prompt" {
				n++
			}
		}
		return n
	}
	for _, step := range []struct {
		args []string
		out  string
		want int
	}{
		{nil, "sent 20 events", 20},
		{nil, "sent 0 events", 20},
		{[]string{"--all"}, "sent 20 events", 40},
	} {
		out, code := runOutput(t, append(append([]string{"audit", "export", "--otlp-endpoint", col.Endpoint()}, step.args...), path)...)
		if code != 0 || !strings.Contains(out, step.out) {
			t.Fatalf("audit export %v exited %d\n%s", step.args, code, out)
		}
		if got := count(step.want); got != step.want {
			t.Fatalf("after audit export %v the collector has %d records, want %d", step.args, got, step.want)
		}
	}
	if out, code := runOutput(t, "audit", "export", path); code == 0 || !strings.Contains(out, "no collector") {
		t.Fatalf("audit export without a collector exited %d\n%s", code, out)
	}
}

// TestOTLPEndpointFromEnv: OTEL_EXPORTER_OTLP_ENDPOINT alone turns the
// export on, as --otlp-endpoint does.
func TestOTLPEndpointFromEnv(t *testing.T) {
	col := otelcoltest.Start(t)
	t.Setenv("OTEL_EXPORTER_OTLP_ENDPOINT", col.Endpoint())
	t.Setenv("OTEL_SERVICE_NAME", "team-bridge")
	_, entries, rs := runOtelDemo(t, col, false)
	n := 0
	// Delivery is at least once: a batch whose acknowledgement came late
	// is sent again, so records are counted once per (run id, seq).
	seen := map[string]bool{}
	for _, r := range rs {
		if r.EventName != otelexport.CheckpointEvent {
			seen[r.Attrs[otelexport.AttrRunID]+"/"+r.Attrs[otelexport.AttrSeq]] = true
			if r.Resource["service.name"] != "team-bridge" {
				t.Errorf("service.name %q, want OTEL_SERVICE_NAME's", r.Resource["service.name"])
			}
		}
	}
	for _, e := range entries {
		if !seen[e.RunID+"/"+strconv.FormatInt(e.Seq, 10)] {
			t.Errorf("record seq %d of run %s never arrived", e.Seq, e.RunID)
		}
		n++
	}
	if len(seen) != n {
		t.Fatalf("%d distinct records arrived, the log has %d", len(seen), n)
	}
}
