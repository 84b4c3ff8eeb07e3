package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/acp-bridge/acp-bridge/internal/audit"
	"github.com/acp-bridge/acp-bridge/internal/otelexport"
	"github.com/acp-bridge/acp-bridge/internal/otelexport/otelcoltest"
)

// TestAnchorCollectorFileExporter: what a real collector's file exporter
// wrote to disk (the config docs/team.md shows) is the anchor audit verify
// reads as it is: the untouched log verifies against it; the log with its
// deny records dropped and its chain recomputed, and the log with its last
// events cut off, fail.
func TestAnchorCollectorFileExporter(t *testing.T) {
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
	col.WaitRecords(func(rs []otelcoltest.Received) bool {
		for _, r := range rs {
			if r.EventName == otelexport.CheckpointEvent && r.Int(otelexport.AttrSeq) == last.Seq {
				return true
			}
		}
		return false
	})
	col.Stop() // the file exporter writes what it holds
	anchor := col.LogsFile()
	data, err := os.ReadFile(anchor)
	if err != nil || !bytes.Contains(data, []byte(`"resourceLogs"`)) {
		t.Fatalf("the collector's file exporter wrote no OTLP JSON logs to %s: %v\n%.400s", anchor, err, data)
	}
	if out, err := runOtelCLI(t, "audit", "verify", "--anchor", anchor, logPath); err != nil || !strings.Contains(out, "ok: anchored:") {
		t.Fatalf("verify --anchor (the collector's file) of the untouched log: %v\n%s", err, out)
	}

	recomputed := filepath.Join(t.TempDir(), "audit.jsonl")
	rewriteWithout(t, recomputed, entries, func(e *audit.Entry) bool { return e.Decision() == audit.DecisionDeny })
	if out, err := runOtelCLI(t, "audit", "verify", "--genesis", recomputed); err != nil {
		t.Fatalf("the recomputed chain should verify on its own (that is the attack): %v\n%s", err, out)
	}
	if out, err := runOtelCLI(t, "audit", "verify", "--anchor", anchor, "--anchor-log", logPath, recomputed); err == nil || !strings.Contains(out, "FAIL anchor") {
		t.Fatalf("a log without its deny records, chain recomputed, passed verify against the collector's file: %v\n%s", err, out)
	}

	log, err := os.ReadFile(logPath)
	if err != nil {
		t.Fatal(err)
	}
	lines := bytes.SplitAfter(log, []byte("\n"))
	cut := filepath.Join(t.TempDir(), "audit.jsonl")
	if err := os.WriteFile(cut, bytes.Join(lines[:len(lines)-3], nil), 0o600); err != nil {
		t.Fatal(err)
	}
	if out, err := runOtelCLI(t, "audit", "verify", "--anchor", anchor, "--anchor-log", logPath, cut); err == nil || !strings.Contains(out, "removed from its end") {
		t.Fatalf("a truncated log passed verify against the collector's file: %v\n%s", err, out)
	}
}
