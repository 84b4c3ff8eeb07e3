package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/acp-bridge/acp-bridge/internal/audit"
	"github.com/acp-bridge/acp-bridge/internal/otelexport"
	"github.com/acp-bridge/acp-bridge/internal/otelexport/otelcoltest"
)

// runCLI runs acp-bridge with args and returns its stdout and error.
func runOtelCLI(t *testing.T, args ...string) (string, error) {
	t.Helper()
	var out, errOut lockedBuffer
	err := run(context.Background(), &env{stdin: strings.NewReader(""), stdout: &out, stderr: &errOut}, args)
	return out.String() + errOut.String(), err
}

// TestOTLPDemoSession: the demo's governed session, run through the bridge
// with --otlp-endpoint, reaches a real collector record for record (the
// denied .env read included), with a checkpoint of the chain's head; what
// the collector received anchors audit verify, which then fails the same
// log with its deny records removed and its chain recomputed.
func TestOTLPDemoSession(t *testing.T) {
	col := otelcoltest.Start(t)
	t.Setenv("ACP_BRIDGE_TEST_MAIN", "1")
	ws := filepath.Join(t.TempDir(), "ws")
	if out, err := runOtelCLI(t, "demo", "--workspace", ws, "--otlp-endpoint", col.Endpoint()); err != nil {
		t.Fatalf("demo: %v\n%s", err, out)
	}
	logPath := filepath.Join(ws, ".acp-bridge", "audit.jsonl")
	entries, err := audit.ReadEntries(logPath)
	if err != nil {
		t.Fatal(err)
	}
	last := entries[len(entries)-1]
	// The bridge flushed at exit; the collector prints a moment later.
	rs := col.WaitRecords(func(rs []otelcoltest.Received) bool {
		for _, r := range rs {
			if r.EventName == otelexport.CheckpointEvent && r.Int(otelexport.AttrSeq) == last.Seq {
				return true
			}
		}
		return false
	})
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
	if out, err := runOtelCLI(t, "audit", "verify", "--anchor", anchorFile, logPath); err != nil || !strings.Contains(out, "ok: anchored:") {
		t.Fatalf("verify --anchor of the untouched log: %v\n%s", err, out)
	}

	// The attack: deny records dropped, chain recomputed from GENESIS.
	data, err := os.ReadFile(logPath)
	if err != nil {
		t.Fatal(err)
	}
	tampered := filepath.Join(t.TempDir(), "audit.jsonl")
	rewriteWithout(t, tampered, entries, func(e *audit.Entry) bool { return e.Decision() == audit.DecisionDeny })
	if out, err := runOtelCLI(t, "audit", "verify", "--genesis", tampered); err != nil {
		t.Fatalf("the recomputed chain should verify on its own (that is the attack): %v\n%s", err, out)
	}
	out, err := runOtelCLI(t, "audit", "verify", "--anchor", anchorFile, "--anchor-log", logPath, tampered)
	if err == nil || !strings.Contains(out, "FAIL anchor") {
		t.Fatalf("a log without its deny records, chain recomputed, passed verify --anchor: %v\n%s", err, out)
	}
	// Truncation: the last lines cut off, the rest untouched.
	lines := bytes.SplitAfter(data, []byte("\n"))
	cut := filepath.Join(t.TempDir(), "audit.jsonl")
	os.WriteFile(cut, bytes.Join(lines[:len(lines)-3], nil), 0o600)
	out, err = runOtelCLI(t, "audit", "verify", "--anchor", anchorFile, "--anchor-log", logPath, cut)
	if err == nil || !strings.Contains(out, "removed from its end") {
		t.Fatalf("a truncated log passed verify --anchor: %v\n%s", err, out)
	}
	// Emptied.
	empty := filepath.Join(t.TempDir(), "audit.jsonl")
	os.WriteFile(empty, nil, 0o600)
	out, err = runOtelCLI(t, "audit", "verify", "--anchor", anchorFile, "--anchor-log", logPath, empty)
	if err == nil || !strings.Contains(out, "FAIL") {
		t.Fatalf("an emptied log passed verify --anchor: %v\n%s", err, out)
	}
}

// rewriteWithout writes a fresh, valid chain of entries without those drop
// accepts, as an agent that outlived the bridge could.
func rewriteWithout(t *testing.T, path string, entries []audit.Entry, drop func(*audit.Entry) bool) {
	t.Helper()
	l, err := audit.Open(path, audit.Options{RunID: entries[0].RunID})
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if drop(&e) {
			continue
		}
		var meta map[string]any
		json.Unmarshal(e.Metadata, &meta)
		delete(meta, "policyRule")
		ev := audit.Event{Actor: e.Actor, Action: e.Action, Subject: e.Subject, Policy: e.Policy, Metadata: meta}
		if e.Input != nil {
			ev.Input = e.Input
		}
		if e.Output != nil {
			ev.Output = e.Output
		}
		if err := l.AppendSync(ev); err != nil {
			t.Fatal(err)
		}
	}
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
}

// TestAuditExport: audit export sends a log from its cursor on (rotated
// files first), nothing the second time, everything again with --all; it
// refuses to run without a collector.
func TestAuditExport(t *testing.T) {
	t.Setenv("OTEL_EXPORTER_OTLP_ENDPOINT", "")
	col := otelcoltest.Start(t)
	path := filepath.Join(t.TempDir(), "audit.jsonl")
	l, err := audit.Open(path, audit.Options{MaxBytes: 1024})
	if err != nil {
		t.Fatal(err)
	}
	for i := range 20 {
		ev := audit.Event{Actor: audit.Actor{ID: "user:ide"}, Action: "session.prompt", Subject: audit.Subject{Kind: "session", Ref: "s"},
			Input: map[string]any{"n": i}}
		if err := l.AppendSync(ev); err != nil {
			t.Fatal(err)
		}
	}
	l.Close()
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
		out, err := runOtelCLI(t, append(append([]string{"audit", "export", "--otlp-endpoint", col.Endpoint()}, step.args...), path)...)
		if err != nil || !strings.Contains(out, step.out) {
			t.Fatalf("audit export %v: %v\n%s", step.args, err, out)
		}
		if got := count(step.want); got != step.want {
			t.Fatalf("after audit export %v the collector has %d records, want %d", step.args, got, step.want)
		}
	}
	if out, err := runOtelCLI(t, "audit", "export", path); err == nil || !strings.Contains(out, "no collector") {
		t.Fatalf("audit export without a collector: %v\n%s", err, out)
	}
}

// TestOTLPEndpointFromEnv: OTEL_EXPORTER_OTLP_ENDPOINT alone turns the
// export on, as --otlp-endpoint does.
func TestOTLPEndpointFromEnv(t *testing.T) {
	col := otelcoltest.Start(t)
	t.Setenv("ACP_BRIDGE_TEST_MAIN", "1")
	t.Setenv("OTEL_EXPORTER_OTLP_ENDPOINT", col.Endpoint())
	t.Setenv("OTEL_SERVICE_NAME", "team-bridge")
	ws := filepath.Join(t.TempDir(), "ws")
	if out, err := runOtelCLI(t, "demo", "--workspace", ws); err != nil {
		t.Fatalf("demo: %v\n%s", err, out)
	}
	entries, err := audit.ReadEntries(filepath.Join(ws, ".acp-bridge", "audit.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	last := entries[len(entries)-1].Seq
	rs := col.WaitRecords(func(rs []otelcoltest.Received) bool {
		for _, r := range rs {
			if r.EventName != otelexport.CheckpointEvent && r.Int(otelexport.AttrSeq) == last {
				return true
			}
		}
		return false
	})
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
