package adapter

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestLimitLargeReadsReadsOnlyTheFileDecided: the bridge reads the file a
// limited Read names itself, to count it and to keep the copy the model is
// told it may read from the cache. A link swapped in between the decision
// and that read (big.txt made a link to a file the policy refuses) must
// not put the refused file's text in the copy or its size in the note:
// the opened file is decided again where it is.
func TestLimitLargeReadsReadsOnlyTheFileDecided(t *testing.T) {
	big := bigFile(t, 20000)
	dir := filepath.Dir(big)
	secret := filepath.Join(dir, "secret.txt")
	text := strings.Repeat("SECRET-CANARY the refused file's text\n", 2000)
	if err := os.WriteFile(secret, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, swap := range []bool{false, true} {
		t.Run(fmt.Sprintf("swapped %v", swap), func(t *testing.T) {
			if err := os.Remove(filepath.Join(dir, "link.txt")); err != nil && !os.IsNotExist(err) {
				t.Fatal(err)
			}
			if err := os.Link(big, filepath.Join(dir, "link.txt")); err != nil {
				t.Fatal(err)
			}
			name := filepath.Join(dir, "link.txt")
			// The policy: the refused file is denied by its name, as a rule
			// resolving links decides it; the inner decider swaps the name
			// for a link to it once it has decided, as a racing process would.
			inner := DeciderFunc(func(_ context.Context, c ToolCall) (Decision, error) {
				var in struct {
					FilePath string `json:"file_path"`
				}
				json.Unmarshal(c.Input, &in)
				real, err := filepath.EvalSymlinks(in.FilePath)
				if err != nil {
					real = in.FilePath
				}
				if real == secret {
					return Decision{Verdict: Deny}, nil
				}
				if swap && in.FilePath == name {
					if err := os.Remove(name); err != nil {
						t.Fatal(err)
					}
					if err := os.Symlink(secret, name); err != nil {
						t.Fatal(err)
					}
				}
				return Decision{Verdict: Allow}, nil
			})
			var copied string
			d := LimitLargeReads(inner, ReadLimit{Threshold: 15000, Offload: func(_, _, content string) (string, error) {
				copied = content
				return filepath.Join(t.TempDir(), "copy.txt"), nil
			}})
			got, err := d.DecideTool(context.Background(), ToolCall{Agent: Claude, Tool: "Read", Input: json.RawMessage(fmt.Sprintf(`{"file_path":%q}`, name))})
			if err != nil {
				t.Fatal(err)
			}
			if strings.Contains(copied, "SECRET-CANARY") {
				t.Fatalf("the bridge copied the refused file into the cache (note %q)", got.Context)
			}
			if limited := len(got.UpdatedInput) > 0; limited == swap {
				t.Errorf("limited = %v (note %q); want %v", limited, got.Context, !swap)
			}
		})
	}
}
