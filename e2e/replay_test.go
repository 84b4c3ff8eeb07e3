package e2e

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// TestReplayRecordings plays the agent side of each stored recording with
// "acp-bridge replay --strict" to the test client running the recording's
// prompts: the session must complete, and the client must receive the
// recorded agent messages (session ids and the bridge identity normalised as
// in TestTransparency). This keeps testdata/transcripts usable as fixtures.
func TestReplayRecordings(t *testing.T) {
	s := needSuite(t)
	files, _ := filepath.Glob(filepath.Join("..", "testdata", "transcripts", "*-basic.jsonl"))
	if len(files) == 0 {
		t.Fatal("no recordings in testdata/transcripts")
	}
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			rec := readTranscript(t, f)
			var cwd string
			var prompts []any
			for _, m := range messages(rec, toAgent) {
				var req struct {
					Method string `json:"method"`
					Params struct {
						Cwd    string          `json:"cwd"`
						Prompt json.RawMessage `json:"prompt"`
					} `json:"params"`
				}
				if json.Unmarshal([]byte(m), &req) != nil {
					continue
				}
				switch req.Method {
				case "session/new":
					cwd = req.Params.Cwd
				case "session/prompt":
					var blocks []any
					if err := json.Unmarshal(req.Params.Prompt, &blocks); err != nil {
						t.Fatal(err)
					}
					prompts = append(prompts, blocks)
				}
			}
			dir := t.TempDir()
			timeout := runTimeout(t)
			script, _ := json.Marshal(clientScript{Prompts: prompts, TimeoutMs: int(timeout.Milliseconds())})
			scriptPath := filepath.Join(dir, "script.json")
			if err := os.WriteFile(scriptPath, script, 0o644); err != nil {
				t.Fatal(err)
			}
			got := filepath.Join(dir, "transcript.jsonl")
			cmd := exec.Command(s.node, s.client, "--script", scriptPath, "--transcript", got, "--cwd", cwd, "--",
				s.bridge, "replay", "--strict", f)
			var stdout, stderr bytes.Buffer
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			done := make(chan error, 1)
			go func() { done <- cmd.Wait() }()
			select {
			case err := <-done:
				if err != nil {
					t.Fatalf("client: %v\n%s\n%s", err, stdout.String(), tail(stderr.String()))
				}
			case <-time.After(timeout + reportTime/2):
				cmd.Process.Kill()
				<-done
				t.Fatalf("replay did not finish within %v of the client's own timeout (%v)\n%s", reportTime/2, timeout, tail(stderr.String()))
			}
			if !strings.Contains(stdout.String(), `"ok":true`) {
				t.Fatalf("client summary %s", stdout.String())
			}
			want, _ := withoutIdentity(normalized(rec, toClient, nil))
			have, _ := withoutIdentity(normalized(readTranscript(t, got), toClient, nil))
			if d := cmp.Diff(want, have); d != "" {
				t.Errorf("replayed agent messages differ from the recording (-recorded +replayed):\n%s", d)
			}
		})
	}
}
