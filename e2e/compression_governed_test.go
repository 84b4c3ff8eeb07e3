package e2e

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/acp-bridge/acp-bridge/internal/e2e/fakemodel"
)

// TestCompressionUnderPolicy runs every feature of the bridge at once around
// real Claude Code: compression, a policy with its Claude adapter (the hook
// asks the bridge before each tool) and the audit log. The IDE embeds a 1 MB
// log in the prompt; compression must offload it so that only the reference
// reaches the model, and the agent must be able to read the fact it needs
// back through that reference under the policy: the model reads a range of
// the file the reference names, the hook lets the read through though the
// cache lies outside the workspace or is read-protected within it (the
// file is this session's own offload), and the lines read, with
// the needle, reach the model in the next request. The audit log, which got a
// record for the offload and one for the command, must verify. A pipeline
// that broke the stream (a lost or mangled message) fails the client's run.
func TestCompressionUnderPolicy(t *testing.T) {
	// The cache sits outside the workspace, as the default (the user cache
	// dir) does: the policy denies paths outside the workspace roots but
	// for the session's own offloads.
	t.Run("cache outside the workspace", func(t *testing.T) { testCompressionUnderPolicy(t, false) })
	// The cache sits in the workspace, as the README's tour puts it: the
	// cache is read-protected wherever it lies, but for the session's own
	// offloads.
	t.Run("cache in the workspace", func(t *testing.T) { testCompressionUnderPolicy(t, true) })
}

// testCompressionUnderPolicy is TestCompressionUnderPolicy with the cache
// in the workspace or outside it.
func testCompressionUnderPolicy(t *testing.T, cacheInWorkspace bool) {
	s, a, w := claudeScene(t)
	content := bigFile()
	cache := filepath.Join(w.base, "cache")
	if cacheInWorkspace {
		cache = w.path("cache")
	}
	policy := writeGovernance(t, w, e2ePolicy)
	audit := filepath.Join(w.base, "audit.jsonl")
	clog := filepath.Join(w.base, "c.jsonl")
	// The model reads the lines around the needle from the file the
	// reference names, with Claude's Read tool and a range, as the
	// reference suggests. (A shell command naming the cache is denied:
	// self-protection judges a command by the names it holds.)
	read := fakemodel.Tool(a.readTool, map[string]any{"file_path": "{{fill}}", "offset": 5995, "limit": 10})
	read.Tool.Fill = `\*\*File:\*\* ([^\s"\\]+)`
	r := start(t, s, a, w, runOptions{
		name:   "governed-compress",
		bridge: true,
		bridgeArgs: []string{"--compress", "on", "--cache-dir", cache, "--compress-log", clog,
			"--policy", policy, "--audit", audit},
		script: fakemodel.Script{Steps: []fakemodel.Step{read, fakemodel.Text("The deploy key is at ops/deploy/key-42.")}},
		client: clientScript{Permission: "allow", Prompts: []any{[]any{
			map[string]any{"type": "text", "text": "Where does the deploy key live? The log says."},
			map[string]any{"type": "resource", "resource": map[string]any{
				"uri": "file://" + w.path("big.log"), "mimeType": "text/plain", "text": content}},
		}}},
	})
	r.mustSucceed()
	r.noLeftovers()

	main := r.model.MainRequests()
	if len(main) < 2 {
		t.Fatalf("the model got %d main requests, want the prompt and the command's result", len(main))
	}
	first, err := main[0].ContextText()
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(first, needle) || !strings.Contains(first, "## Offloaded Content Reference") {
		t.Errorf("the prompt reached the model without its offload reference (needle in it: %v)", strings.Contains(first, needle))
	}
	if n, full := fakemodel.CountTokens(first), fakemodel.CountTokens(content); n > full/20 {
		t.Errorf("the first request carried %d tokens, over 5%% of the file's %d", n, full)
	}
	if !offloadedCopyNamed(first, content) {
		t.Errorf("no file named in the model's context holds the original bytes")
	}
	last, err := main[len(main)-1].ContextText()
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(last, needle) {
		t.Errorf("the needle did not come back through the reference: the lines read are not in the model's last request")
	}

	// The IDE saw the read complete, with the lines read: the tool call's
	// updates went through the pipeline whole.
	sawRead := false
	for _, m := range messages(readTranscript(t, r.transcript), toClient) {
		sawRead = sawRead || strings.Contains(m, `"tool_call_update"`) && strings.Contains(m, `"toolu_fake_step0"`) &&
			strings.Contains(m, `"completed"`) && strings.Contains(m, needle)
	}
	if !sawRead {
		t.Errorf("the IDE never saw the read of the offloaded file complete with the lines read")
	}

	if b, _ := os.ReadFile(clog); !strings.Contains(string(b), `"event":"TIER_1"`) {
		t.Errorf("compression log has no TIER_1 event:\n%s", b)
	}
	// The audit log names the offloaded file twice: where compression put
	// the content, and as what the agent was allowed to read.
	type record struct {
		Action   string
		Subject  struct{ Path string }
		Policy   struct{ Decision string }
		Metadata struct{ Reason string }
	}
	var offloaded, readBack bool
	for _, rec := range readJSONL[record](t, audit) {
		inCache := strings.HasPrefix(rec.Subject.Path, filepath.Join(cache, "offloaded")+"/")
		offloaded = offloaded || rec.Action == "context.compress" && inCache
		readBack = readBack || rec.Action == "tool.call" && inCache && rec.Policy.Decision == "allow" &&
			strings.Contains(rec.Metadata.Reason, "the bridge's offload of this session")
	}
	if !offloaded || !readBack {
		t.Errorf("the audit log lacks the offload (%v) or the allowed read of the offloaded file (%v)", offloaded, readBack)
	}
	if out, err := exec.Command(s.bridge, "audit", "verify", "--genesis", audit).CombinedOutput(); err != nil {
		t.Errorf("audit verify: %v\n%s", err, out)
	}
}
