package main

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	acp "github.com/coder/acp-go-sdk"

	"github.com/acp-bridge/acp-bridge/internal/demo"
)

// TestReplayDemoTranscripts plays the recorded demo sessions (captured with
// "acp-bridge demo --record") to a real SDK client through the replay
// subcommand, strictly: the client must make the same requests in the same
// order and see the recorded turn.
func TestReplayDemoTranscripts(t *testing.T) {
	for _, c := range []struct {
		file   string
		answer demo.PermissionAnswer
	}{
		{"demo-allow.jsonl", demo.AnswerAllow},
		{"demo-reject.jsonl", demo.AnswerReject},
	} {
		t.Run(c.file, func(t *testing.T) {
			path := filepath.Join("..", "..", "testdata", "transcripts", c.file)
			entries, err := readTranscript(path)
			if err != nil {
				t.Fatal(err)
			}
			cmd := bridgeCommand(t, "replay", "--strict", path)
			var stderr strings.Builder
			cmd.Stderr = &stderr
			in, _ := cmd.StdinPipe()
			out, _ := cmd.StdoutPipe()
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			client := &demo.Client{Root: t.TempDir(), Answer: c.answer}
			client.Connect(in, out)
			ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
			defer cancel()
			if _, err := client.Start(ctx); err != nil {
				t.Fatal(err)
			}
			stop, err := client.Prompt(ctx, "Please review big.log and write your notes to notes.txt.")
			if err != nil {
				t.Fatal(err)
			}
			if stop != acp.StopReasonEndTurn {
				t.Fatalf("stop reason %q", stop)
			}
			recorded := 0
			for _, e := range entries {
				if e.Dir == "agent_to_client" && strings.Contains(string(e.Msg), `"method":"session/update"`) {
					recorded++
				}
			}
			if got := len(client.Updates()); got != recorded || recorded == 0 {
				t.Fatalf("client saw %d updates, the recording has %d", got, recorded)
			}
			in.Close()
			if err := cmd.Wait(); err != nil {
				t.Fatalf("replay exited with %v: %s", err, stderr.String())
			}
		})
	}
}

// TestReplayStrictFailsOnDeparture: a client that departs from the
// recording makes a strict replay fail with the entry it stopped at.
func TestReplayStrictFailsOnDeparture(t *testing.T) {
	path := filepath.Join("..", "..", "testdata", "transcripts", "demo-allow.jsonl")
	stdout, stderr, code := runProcess(t, bridgeCommand(t, "replay", "--strict", path), `{"jsonrpc":"2.0","id":0,"method":"session/list","params":{}}`+"\n")
	if code == 0 || !strings.Contains(stdout+stderr, "entry 1: client sent request session/list, the recording has request initialize") {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
}

// TestReadTranscriptSkipsHeldBack: replay serves what the client saw, so
// entries for messages the bridge held back are not part of it.
func TestReadTranscriptSkipsHeldBack(t *testing.T) {
	path := filepath.Join(t.TempDir(), "rec.jsonl")
	rec := `{"ts":"2026-11-21T10:00:00Z","dir":"agent_to_client","msg":{"jsonrpc":"2.0","id":7,"method":"fs/read_text_file","params":{}},"bridge":"answered"}
{"ts":"2026-11-21T10:00:00Z","dir":"client_to_agent","msg":{"jsonrpc":"2.0","id":7,"error":{"code":-32602,"message":"denied"}}}
`
	if err := os.WriteFile(path, []byte(rec), 0o644); err != nil {
		t.Fatal(err)
	}
	entries, err := readTranscript(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) != 1 || entries[0].Dir != "client_to_agent" {
		t.Fatalf("entries = %+v, want only the error response the agent received", entries)
	}
}
