package e2e

import (
	"os"
	"strings"
	"testing"

	"github.com/acp-bridge/acp-bridge/internal/e2e/fakemodel"
	"github.com/google/go-cmp/cmp"
)

// TestPermission drives a file write that both agents ask permission for,
// through the bridge, and answers allow, reject, or cancels the turn while
// the permission request is pending.
func TestPermission(t *testing.T) {
	s := needSuite(t)
	const (
		content = "written by the agent\n"
		old     = "old content\n"
	)
	for _, a := range agents {
		for _, mode := range []string{"allow", "reject", "cancel"} {
			t.Run(a.name+"/"+mode, func(t *testing.T) {
				w := newWorkspace(t)
				target := w.path("out.txt")
				files := map[string]string{}
				if a.writeNeedsExisting {
					files["out.txt"] = old
				}
				r := start(t, s, a, w, runOptions{
					files:  files,
					name:   "bridge",
					bridge: true,
					script: fakemodel.Script{Steps: []fakemodel.Step{
						a.write(target, content),
						fakemodel.Text("Done writing."),
					}},
					client: clientScript{Permission: mode, Prompts: textPrompts("Write out.txt.")},
				})
				sum := r.wait()
				r.noLeftovers()
				t.Logf("summary: %+v, model requests: %d main", sum, len(r.model.MainRequests()))
				if sum.Permissions < 1 {
					t.Errorf("the agent asked no permission for a write")
				}
				got, err := os.ReadFile(target)
				written := err == nil && string(got) != old
				msgs := readTranscript(t, r.transcript)
				toC := strings.Join(messages(msgs, toClient), "\n")
				switch mode {
				case "allow":
					if !sum.OK {
						t.Fatalf("client failed: %v\n%s", errString(sum), r.stderrTail())
					}
					if !written || string(got) != content {
						t.Errorf("out.txt = %q, %v; want %q", got, err, content)
					}
					if d := cmp.Diff([]string{"end_turn"}, sum.StopReasons); d != "" {
						t.Errorf("stop reasons (-want +got):\n%s", d)
					}
					if !strings.Contains(toC, "Done writing.") {
						t.Errorf("the turn did not continue after the write was allowed")
					}
					if via := strings.Contains(toC, `"fs/write_text_file"`); via != a.writesThroughClient {
						t.Errorf("wrote through the client's fs/write_text_file: %v, want %v", via, a.writesThroughClient)
					}
				case "reject":
					if !sum.OK {
						t.Fatalf("client failed: %v\n%s", errString(sum), r.stderrTail())
					}
					if written {
						t.Errorf("out.txt was written although the client rejected it: %q", got)
					}
				case "cancel":
					if written {
						t.Errorf("out.txt was written although the client cancelled: %q", got)
					}
					if d := cmp.Diff([]string{"cancelled"}, sum.StopReasons); d != "" {
						t.Errorf("stop reasons (-want +got):\n%s\n%s", d, r.stderrTail())
					}
					if !strings.Contains(strings.Join(messages(msgs, toAgent), "\n"), `"session/cancel"`) {
						t.Errorf("the client sent no session/cancel")
					}
				}
			})
		}
	}
}

func errString(s clientSummary) string {
	if s.Error == nil {
		return "(no error)"
	}
	return *s.Error
}
