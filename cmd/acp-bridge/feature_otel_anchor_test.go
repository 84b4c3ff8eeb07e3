package main

import (
	"bytes"
	"os"
	"testing"

	"github.com/acp-bridge/acp-bridge/internal/otelexport/otelcoltest"
)

// TestAnchorCollectorFileExporter: what a real collector's file exporter
// wrote to disk (the config docs/team.md shows) is the anchor audit verify
// reads as it is: the untouched log verifies against it; the log with its
// deny records dropped and its chain recomputed, the log with its last
// events cut off and the emptied log fail.
func TestAnchorCollectorFileExporter(t *testing.T) {
	col := otelcoltest.Start(t)
	logPath, entries, _ := runOtelDemo(t, col, true, "--otlp-endpoint", col.Endpoint())
	col.Stop() // the file exporter writes what it holds
	anchor := col.LogsFile()
	data, err := os.ReadFile(anchor)
	if err != nil || !bytes.Contains(data, []byte(`"resourceLogs"`)) {
		t.Fatalf("the collector's file exporter wrote no OTLP JSON logs to %s: %v\n%.400s", anchor, err, data)
	}
	checkAnchorCatches(t, anchor, logPath, entries)
}
