package e2e

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/acp-bridge/acp-bridge/internal/e2e/fakemodel"
)

// The agent-adapter scenarios (issue 7) for Claude Code: the bridge gives
// Claude permission rules and a PreToolUse hook that asks the bridge before
// each of Claude's own tool calls, which never reach the client.

// adapterPolicy is the policy of the adapter scenarios.
var adapterPolicy = governanceDoc("e2e-adapters", "e2e adapters", "The policy the agent-adapter scenarios run under.", "  default: allow\n  deny:\n    - Read(**/.env)\n    - Bash(touch:*)\n  ask:\n    - Bash(mkdir:*)\n")

// adapterRun starts a bridged run under adapterPolicy with an audit log.
func adapterRun(t *testing.T, s *suiteEnv, a *agentSpec, w *workspace, o runOptions) (*run, string) {
	t.Helper()
	return governedRun(t, s, a, w, adapterPolicy, o)
}

// governedRun starts a bridged run under policyText (written as the
// workspace base's GOVERNANCE.md) with an audit log, the client allowing
// what it is asked unless o says otherwise, and returns the run and its
// audit log.
func governedRun(t *testing.T, s *suiteEnv, a *agentSpec, w *workspace, policyText string, o runOptions) (*run, string) {
	t.Helper()
	policy := writeGovernance(t, w, policyText)
	auditFile := filepath.Join(w.base, "audit-"+o.name+".jsonl")
	o.bridge = true
	o.bridgeArgs = append([]string{"--policy", policy, "--audit", auditFile}, o.bridgeArgs...)
	if o.client.Permission == "" {
		o.client.Permission = "allow"
	}
	return start(t, s, a, w, o), auditFile
}

// auditRecord is the part of an audit line the scenarios check.
type auditRecord struct {
	Action  string          `json:"action"`
	Input   json.RawMessage `json:"input"`
	Subject struct {
		Kind string `json:"kind"`
		Ref  string `json:"ref"`
		Path string `json:"path"`
	} `json:"subject"`
	Policy *struct {
		Ref      string `json:"ref"`
		Decision string `json:"decision"`
	} `json:"policy"`
	Metadata struct {
		Stage    string `json:"stage"`
		Agent    string `json:"agent"`
		Reason   string `json:"reason"`
		ToolCall struct {
			Tool      string          `json:"tool"`
			Arguments json.RawMessage `json:"arguments"`
		} `json:"toolCall"`
	} `json:"metadata"`
}

// hookRecords returns the audit records of decisions made for an agent's
// hook on tool.
func hookRecords(recs []auditRecord, tool string) []auditRecord {
	var out []auditRecord
	for _, r := range recs {
		if r.Action == "tool.call" && r.Metadata.Stage == "hook" && r.Metadata.ToolCall.Tool == tool {
			out = append(out, r)
		}
	}
	return out
}

// envDenial returns the audit record that denied Claude's read of .env, from
// the hook or from the wire-level enforcement; the test fails without one.
func envDenial(t *testing.T, auditFile string, r *run) auditRecord {
	t.Helper()
	for _, rec := range readJSONL[auditRecord](t, auditFile) {
		if (rec.Action == "tool.call" || rec.Action == "policy.violation") && rec.Policy != nil &&
			rec.Policy.Decision == "deny" && strings.Contains(string(rec.Input), "/.env") {
			return rec
		}
	}
	t.Fatalf("no deny decision for the Read of .env in the audit log\n%s", r.stderrTail())
	return auditRecord{}
}

// mainRequestsText returns every main-conversation request body the model
// received, in order.
func mainRequestsText(r *run) []string {
	var out []string
	for _, req := range r.model.MainRequests() {
		out = append(out, string(req.Body))
	}
	return out
}

// TestAdapterClaudeDeniedRead: Claude reads .env itself (no fs/* call
// reaches the client); the bridge's rules in Claude's settings, or its hook,
// refuse the read, and the model receives the denial, never the content. The
// audit log holds the decision with the path Claude tried to read.
func TestAdapterClaudeDeniedRead(t *testing.T) {
	s, a, w := claudeScene(t)
	r, auditFile := adapterRun(t, s, a, w, runOptions{
		name:   "claude-deny",
		files:  map[string]string{".env": envSecret + "\n"},
		script: fakemodel.Script{Steps: []fakemodel.Step{a.read(w.path(".env")), fakemodel.Text("I could not read it.")}},
		client: clientScript{Prompts: textPrompts("Show me .env.")},
	})
	sum := r.wait()
	r.noLeftovers()
	t.Logf("summary %+v", sum)
	if secretReachedModel(r) {
		t.Fatalf("the .env content reached the model")
	}
	// The decision is in the audit log: from the hook, or from the
	// wire-level enforcement, which sees Claude's tool_call update with the
	// path before Claude runs the tool.
	denied := envDenial(t, auditFile, r)
	t.Logf("audited: %s (stage %q, policy %s)", denied.Action, denied.Metadata.Stage, denied.Policy.Ref)
	reqs := mainRequestsText(r)
	if len(reqs) < 2 {
		if len(sum.StopReasons) == 1 && sum.StopReasons[0] == "cancelled" {
			t.Fatalf("the secret stayed out and the denial is audited, but the bridge's wire-level enforcement cancelled " +
				"the turn when it saw the denied Read in Claude's tool_call update, before Claude itself refused it, so the " +
				"model never received the denial: the wire layer must leave calls the agent refuses itself to the agent " +
				"(adapter.Selector.PreToolHook)")
		}
		t.Fatalf("Claude did not tell the model about the denied read (stop reasons %v)", sum.StopReasons)
	}
	// Claude's own permission rule (from the bridge's settings) or the
	// bridge's hook refused the read; the model gets that refusal.
	got := toolResultText(t, reqs[1], "toolu_fake_step0")
	if !strings.Contains(got, "denied by your permission settings") && !strings.Contains(got, "acp-bridge policy") {
		t.Errorf("the model's tool result for the read is %q, want a denial", got)
	}
}

// TestAdapterClaudeAllowedTool: a tool the policy allows runs, its output
// reaches the model, and the audit log has an allow record.
func TestAdapterClaudeAllowedTool(t *testing.T) {
	s, a, w := claudeScene(t)
	const note = "adapter-allowed-note-7319"
	r, auditFile := adapterRun(t, s, a, w, runOptions{
		name:   "claude-allow",
		files:  map[string]string{"notes.txt": note + "\n"},
		script: fakemodel.Script{Steps: []fakemodel.Step{a.read(w.path("notes.txt")), fakemodel.Text("It says the note.")}},
		client: clientScript{Prompts: textPrompts("Read notes.txt.")},
	})
	r.mustSucceed()
	r.noLeftovers()
	reqs := mainRequestsText(r)
	if len(reqs) < 2 || !strings.Contains(reqs[1], note) {
		t.Errorf("the allowed read's content did not reach the model")
	}
	recs := hookRecords(readJSONL[auditRecord](t, auditFile), "Read")
	if len(recs) == 0 || recs[0].Policy == nil || recs[0].Policy.Decision != "allow" ||
		!strings.Contains(string(recs[0].Metadata.ToolCall.Arguments), "notes.txt") {
		t.Errorf("audit hook records for Read = %+v, want an allow with the notes.txt path", recs)
	}
}

// claudeAskedMkdir has Claude run "mkdir dir", a command the policy wants
// approved, the test client answering the permission request with
// permission and the model saying reply after it; name names the run. It
// fails t unless the run succeeds, leaves no process behind and the client
// was asked, and returns the workspace and the audit file.
func claudeAskedMkdir(t *testing.T, name, dir, permission, reply string) (*workspace, string) {
	t.Helper()
	s, a, w := claudeScene(t)
	r, auditFile := adapterRun(t, s, a, w, runOptions{
		name:   name,
		script: fakemodel.Script{Steps: []fakemodel.Step{a.shell("mkdir " + dir), fakemodel.Text(reply)}},
		client: clientScript{Permission: permission, Prompts: textPrompts("Make the directory.")},
	})
	sum := r.mustSucceed()
	r.noLeftovers()
	if sum.Permissions < 1 {
		t.Fatalf("the client was not asked to approve the command")
	}
	return w, auditFile
}

// TestAdapterClaudeAskedCommand: a command the policy wants approved is put
// to the person even though Claude would run it itself: the bridge's rule (in
// Claude's settings, and the hook's "ask") makes Claude send a permission
// request, the client approves, the command runs, and the audit log records
// the decision and the approval.
func TestAdapterClaudeAskedCommand(t *testing.T) {
	w, auditFile := claudeAskedMkdir(t, "claude-ask", "asked-dir", "allow", "Made it.")
	if st, err := os.Stat(w.path("asked-dir")); err != nil || !st.IsDir() {
		t.Errorf("the approved command did not run: %v", err)
	}
	audit, err := os.ReadFile(auditFile)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(audit), `"decision":"require-approval"`) || !strings.Contains(string(audit), `"approval.recorded"`) {
		t.Errorf("the audit log lacks the require-approval decision or the recorded approval")
	}
	if recs := hookRecords(readJSONL[auditRecord](t, auditFile), "Bash"); len(recs) > 0 {
		t.Logf("hook decision: %s %s", recs[0].Policy.Decision, recs[0].Metadata.Reason)
	}
}

// toolResultText returns the text of the tool_result blocks for id in an
// Anthropic request body.
func toolResultText(t *testing.T, body, id string) string {
	t.Helper()
	var req struct {
		Messages []struct {
			Content json.RawMessage `json:"content"`
		} `json:"messages"`
	}
	if err := json.Unmarshal([]byte(body), &req); err != nil {
		t.Fatalf("request body: %v", err)
	}
	var b strings.Builder
	for _, m := range req.Messages {
		var blocks []struct {
			Type      string          `json:"type"`
			ToolUseID string          `json:"tool_use_id"`
			Content   json.RawMessage `json:"content"`
		}
		if json.Unmarshal(m.Content, &blocks) != nil {
			continue
		}
		for _, bl := range blocks {
			if bl.Type != "tool_result" || bl.ToolUseID != id {
				continue
			}
			var s string
			if json.Unmarshal(bl.Content, &s) == nil {
				b.WriteString(s)
				continue
			}
			var parts []struct {
				Text string `json:"text"`
			}
			json.Unmarshal(bl.Content, &parts)
			for _, p := range parts {
				b.WriteString(p.Text)
			}
		}
	}
	return b.String()
}

// bigText returns numbered lines of about n o200k tokens, ending with a
// needle line.
func bigText(n int) (string, string) {
	var b strings.Builder
	for i := 1; fakemodel.CountTokens(b.String()) < n-60; i += 40 {
		for j := i; j < i+40; j++ {
			fmt.Fprintf(&b, "record %05d: sensor=%d reading=%d.%02d status=nominal zone=%c\n", j, j%17, j*37%1000, j%100, 'A'+j%26)
		}
	}
	needle := "NEEDLE: the last line of big.txt says the vault code is 4417"
	b.WriteString(needle + "\n")
	return b.String(), needle
}

// TestAdapterClaudeLargeRead: Claude's own full Read of a 20,000-token file
// (Claude itself refuses files over 25,000 tokens) reaches the model at no
// more than 10% of the file's tokens, and the model is told where the file
// is and how to read the rest.
func TestAdapterClaudeLargeRead(t *testing.T) {
	s, a, w := claudeScene(t)
	text, needle := bigText(20000)
	fileTokens := fakemodel.CountTokens(text)
	compressArgs := []string{"--compress", "on", "--offload-tokens", "15000",
		"--cache-dir", filepath.Join(w.base, "cache"), "--compress-log", filepath.Join(w.base, "compress.jsonl")}
	r, auditFile := adapterRun(t, s, a, w, runOptions{
		name:       "claude-large-read",
		bridgeArgs: compressArgs,
		files:      map[string]string{"big.txt": text},
		script:     fakemodel.Script{Steps: []fakemodel.Step{a.read(w.path("big.txt")), fakemodel.Text("Read the start.")}},
		client:     clientScript{Prompts: textPrompts("Read big.txt.")},
	})
	r.mustSucceed()
	r.noLeftovers()
	reqs := mainRequestsText(r)
	if len(reqs) < 2 {
		t.Fatalf("Claude did not come back to the model after the read (%d main requests)", len(reqs))
	}
	result := toolResultText(t, reqs[1], "toolu_fake_step0")
	got := fakemodel.CountTokens(result)
	t.Logf("big.txt: %d o200k tokens; the model received %d tokens of it (%.1f%%)", fileTokens, got, 100*float64(got)/float64(fileTokens))
	if got == 0 {
		t.Fatalf("no tool result for the read in the model's request:\n%.3000s", reqs[1])
	}
	if got*10 > fileTokens {
		t.Errorf("the read reached the model at %d tokens, more than 10%% of the file's %d", got, fileTokens)
	}
	if strings.Contains(reqs[1], needle) {
		t.Errorf("the end of the file reached the model: the read was not limited")
	}
	if !strings.Contains(reqs[1], w.path("big.txt")) || !strings.Contains(reqs[1], "offset") {
		t.Errorf("the model was not told where the file is and how to read more")
	}
	recs := hookRecords(readJSONL[auditRecord](t, auditFile), "Read")
	if len(recs) == 0 {
		t.Errorf("no audit record of the limited read")
	}
	// The compression log has the TIER_1 event, and its offloaded copy is
	// the file byte for byte.
	logText, err := os.ReadFile(filepath.Join(w.base, "compress.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	var ev struct {
		Type  string   `json:"event"`
		Files []string `json:"filesCreated"`
	}
	for _, l := range strings.Split(strings.TrimSpace(string(logText)), "\n") {
		if strings.Contains(l, "Claude Read of") && json.Unmarshal([]byte(l), &ev) == nil {
			break
		}
	}
	if ev.Type != "TIER_1" || len(ev.Files) != 1 {
		t.Fatalf("no TIER_1 event for the limited read in the compression log:\n%s", logText)
	}
	if copied, err := os.ReadFile(ev.Files[0]); err != nil || string(copied) != text {
		t.Errorf("the offloaded copy %s is not the file byte for byte (%v)", ev.Files[0], err)
	}
}

// TestAdapterClaudeBridgeUnreachable: when the hook cannot reach the bridge
// (its socket is gone) it denies, and Claude does not run the tool.
func TestAdapterClaudeBridgeUnreachable(t *testing.T) {
	s, a, w := claudeScene(t)
	const note = "unreachable-note-5521"
	steps := []fakemodel.Step{a.read(w.path("notes.txt")), fakemodel.Text("Could not read it.")}
	// Hold the read back so the test can take the socket away first.
	steps[0].Delay = fakemodel.Duration(4 * time.Second)
	r, _ := adapterRun(t, s, a, w, runOptions{
		name:   "claude-unreachable",
		files:  map[string]string{"notes.txt": note + "\n"},
		script: fakemodel.Script{Steps: steps},
		client: clientScript{Prompts: textPrompts("Read notes.txt.")},
	})
	sockRe := regexp.MustCompile(`hook --socket '([^']+)'`)
	var sock string
	r.waitFor("the session/new the bridge sends Claude", func() bool {
		b, _ := os.ReadFile(r.record)
		if m := sockRe.FindSubmatch(bytes.ReplaceAll(b, []byte(`\u0027`), []byte("'"))); m != nil {
			sock = string(m[1])
			return true
		}
		return false
	})
	if err := os.Remove(sock); err != nil {
		t.Fatalf("removing the hook socket %s: %v", sock, err)
	}
	sum := r.wait()
	r.noLeftovers()
	t.Logf("summary %+v", sum)
	reqs := mainRequestsText(r)
	for i, body := range reqs {
		if strings.Contains(body, note) {
			t.Fatalf("main request %d carries the file: the tool ran although the bridge was unreachable", i+1)
		}
	}
	if len(reqs) < 2 || !strings.Contains(reqs[1], "fail closed") {
		t.Errorf("the model was not told the hook denied the call")
	}
}

// TestAdapterClaudeKeepsIDEMeta: the IDE's own _meta on session/new reaches
// Claude byte for byte, with the bridge's settings merged into the Claude
// options, and the IDE's own Claude settings kept.
func TestAdapterClaudeKeepsIDEMeta(t *testing.T) {
	s, a, w := claudeScene(t)
	ideMeta := map[string]any{
		"zed":         map[string]any{"threadId": "thread-42", "flags": []any{"a", 1.5, nil}},
		"traceparent": "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01",
		"claudeCode": map[string]any{"options": map[string]any{
			"extraArgs": map[string]any{"settings": `{"permissions":{"deny":["Bash(curl:*)"]},"env":{"IDE_SETTING":"kept"}}`},
		}},
	}
	r, _ := adapterRun(t, s, a, w, runOptions{
		name:   "claude-meta",
		script: fakemodel.Script{Steps: []fakemodel.Step{fakemodel.Text("Hello.")}},
		client: clientScript{Prompts: textPrompts("Hi."), SessionMeta: ideMeta},
	})
	r.mustSucceed()
	r.noLeftovers()
	sent := findRequest(t, messages(readTranscript(t, r.transcript), toAgent), "session/new")
	forwarded := findRequest(t, messages(readTranscript(t, r.record), toAgent), "session/new")
	for _, key := range []string{"zed", "traceparent"} {
		want := rawAt(t, sent, "params", "_meta", key)
		if got := rawAt(t, forwarded, "params", "_meta", key); !bytes.Equal(got, want) {
			t.Errorf("_meta.%s: the IDE sent %s, Claude got %s", key, want, got)
		}
	}
	var settingsStr string
	if err := json.Unmarshal(rawAt(t, forwarded, "params", "_meta", "claudeCode", "options", "extraArgs", "settings"), &settingsStr); err != nil {
		t.Fatal(err)
	}
	var settings struct {
		Permissions struct{ Deny []string } `json:"permissions"`
		Env         map[string]string       `json:"env"`
		Hooks       map[string][]any        `json:"hooks"`
	}
	if err := json.Unmarshal([]byte(settingsStr), &settings); err != nil {
		t.Fatalf("merged settings %q: %v", settingsStr, err)
	}
	deny := strings.Join(settings.Permissions.Deny, ",")
	if !strings.Contains(deny, "Bash(curl:*)") || !strings.Contains(deny, "Read(**/.env)") || settings.Env["IDE_SETTING"] != "kept" || len(settings.Hooks["PreToolUse"]) == 0 {
		t.Errorf("merged settings lost the IDE's or the bridge's part: %s", settingsStr)
	}
}

func findRequest(t *testing.T, msgs []string, method string) []byte {
	t.Helper()
	for _, m := range msgs {
		var env struct {
			Method string `json:"method"`
		}
		if json.Unmarshal([]byte(m), &env) == nil && env.Method == method {
			return []byte(m)
		}
	}
	t.Fatalf("no %s request", method)
	return nil
}

// rawAt returns the raw JSON at path, compacted by nothing: the bytes as they
// are in the message.
func rawAt(t *testing.T, msg []byte, path ...string) []byte {
	t.Helper()
	cur := msg
	for _, k := range path {
		var obj map[string]json.RawMessage
		if err := json.Unmarshal(cur, &obj); err != nil {
			t.Fatalf("%v in %s: %v", path, msg, err)
		}
		v, ok := obj[k]
		if !ok {
			t.Fatalf("%v missing in %s", path, msg)
		}
		cur = v
	}
	return cur
}

// hookOnlyPolicy denies reading one file through an AIP-7 POLICY.md entry,
// which has no Claude Code form: only the bridge's hook can refuse it inside
// Claude.
const hookOnlyPolicy = `---
schema: governance.workspace/v1
name: e2e-hook-only
title: e2e hook only
description: A rule only the hook carries into Claude.
version: 1.0.0
policies:
  - id: no-vault
    ref: ./policies/no-vault/POLICY.md
    appliesTo: tool.call
    severity: error
rules:
  default: allow
---
`

const vaultPolicy = `---
schema: agentgovernance/v1
doctype: policy
slug: no-vault
version: 1.0.0
match:
  action: tool.call
  subject: path:**/vault.txt
decision: deny
---

The vault is off limits.
`

// TestAdapterClaudeHookDeny: a rule Claude's settings cannot carry (an AIP-7
// POLICY.md entry) is enforced inside Claude by the hook: the bridge denies
// the Read, the model receives the bridge's reason, never the content, and
// the audit log has the hook's decision with Claude's tool name and input.
func TestAdapterClaudeHookDeny(t *testing.T) {
	s, a, w := claudeScene(t)
	dir := filepath.Join(w.base, "policies", "no-vault")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "POLICY.md"), []byte(vaultPolicy), 0o644); err != nil {
		t.Fatal(err)
	}
	const secret = "vault-code-90210"
	r, auditFile := governedRun(t, s, a, w, hookOnlyPolicy, runOptions{
		name:   "claude-hook-deny",
		files:  map[string]string{"vault.txt": secret + "\n"},
		script: fakemodel.Script{Steps: []fakemodel.Step{a.read(w.path("vault.txt")), fakemodel.Text("It is off limits.")}},
		client: clientScript{Permission: "allow", Prompts: textPrompts("Read vault.txt.")},
	})
	sum := r.wait()
	r.noLeftovers()
	reqs := mainRequestsText(r)
	for i, b := range reqs {
		if strings.Contains(b, secret) {
			t.Fatalf("main request %d carries the vault", i+1)
		}
	}
	recs := hookRecords(readJSONL[auditRecord](t, auditFile), "Read")
	if len(recs) == 0 {
		if len(sum.StopReasons) == 1 && sum.StopReasons[0] == "cancelled" {
			t.Fatalf("the vault stayed out, but the bridge's wire-level enforcement cancelled the turn when it saw the " +
				"denied Read in Claude's tool_call update, before Claude ran its hook: the wire layer must leave calls " +
				"covered by the agent's hook to the hook (bridgeSetup.PreToolHook)")
		}
		t.Fatalf("no hook decision for the Read in the audit log (stop reasons %v)\n%s", sum.StopReasons, r.stderrTail())
	}
	if recs[0].Policy == nil || recs[0].Policy.Decision != "deny" || !strings.Contains(string(recs[0].Input), "vault.txt") {
		t.Errorf("hook record = %+v, want a deny of Read with the vault path", recs[0])
	}
	if len(reqs) < 2 || !strings.Contains(toolResultText(t, reqs[1], "toolu_fake_step0"), "acp-bridge policy") {
		t.Errorf("the model did not receive the bridge's denial")
	}
}
