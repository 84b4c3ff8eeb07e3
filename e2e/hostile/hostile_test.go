package hostile

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestHostile runs every case of testdata under each of its IDE variants
// (with -short, under its first only) against the real bridge with the
// suite's policy.
func TestHostile(t *testing.T) {
	needBridge(t)
	cases := testCases(t)
	for _, c := range cases {
		variants := runIDEs(c)
		if testing.Short() {
			variants = variants[:1] // -short: each case once, under its first variant
		}
		for _, v := range variants {
			t.Run(c.name+"/"+v, func(t *testing.T) {
				t.Parallel()
				r := runCase(t, c, v, true)
				if c.rssMB > 0 {
					t.Logf("bridge peak RSS (VmHWM) %d KiB, bound %d MiB", r.res.PeakRSSKB, c.rssMB)
				}
				r.report(t)
			})
		}
	}
}

// verdict is the outcome of one run.
type verdict struct {
	bypasses []string // real effects of the attack
	failures []string // everything else that must hold (audit, harness)
	res      ideResult
	w        *world
	stderr   string
	audit    string
}

func (v *verdict) bypass(format string, args ...any) {
	v.bypasses = append(v.bypasses, "BYPASS: "+fmt.Sprintf(format, args...))
}

func (v *verdict) fail(format string, args ...any) {
	v.failures = append(v.failures, fmt.Sprintf(format, args...))
}

// report fails t with every bypass and failure of the run, and logs its
// context when t failed or HOSTILE_VERBOSE=1.
func (v *verdict) report(t *testing.T) {
	t.Helper()
	for _, f := range append(v.bypasses, v.failures...) {
		t.Error(f)
	}
	if t.Failed() || os.Getenv("HOSTILE_VERBOSE") == "1" {
		t.Log(v.context())
	}
}

// context is what a reader of a failure needs to see.
func (v *verdict) context() string {
	var b strings.Builder
	fmt.Fprintf(&b, "workspace %s\nIDE actions:\n", v.w.ws)
	for _, a := range v.res.Actions {
		fmt.Fprintf(&b, "  %s\n", a)
	}
	fmt.Fprintf(&b, "permission requests the IDE saw: %d\n", len(v.res.Asked))
	for _, a := range v.res.Asked {
		fmt.Fprintf(&b, "  %.300s\n", a)
	}
	fmt.Fprintf(&b, "updates the IDE saw: %d\n", len(v.res.Updates))
	for _, u := range v.res.Updates {
		fmt.Fprintf(&b, "  %s %s %s %.200q\n", u.Kind, u.ToolCallID, u.Status, u.Text)
	}
	fmt.Fprintf(&b, "stop reason %q, IDE errors %q, peak RSS %d KiB, %v\n", v.res.StopReason, v.res.Errors, v.res.PeakRSSKB, v.res.Elapsed)
	fmt.Fprintf(&b, "audit log:\n")
	for _, l := range strings.Split(v.audit, "\n") {
		if l != "" {
			fmt.Fprintf(&b, "  %s\n", auditSummary([]byte(l)))
		}
	}
	fmt.Fprintf(&b, "bridge stderr:\n%s", clip(v.stderr, 3000))
	return b.String()
}

// auditSummary is one audit line in brief: seq, action, decision, rule, subject.
func auditSummary(line []byte) string {
	var ev struct {
		Seq     int             `json:"seq"`
		Action  string          `json:"action"`
		Policy  json.RawMessage `json:"policy"`
		Subject json.RawMessage `json:"subject"`
	}
	if err := json.Unmarshal(line, &ev); err != nil {
		return fmt.Sprintf("unreadable (%v): %.200q", err, line)
	}
	return fmt.Sprintf("%d %s policy=%s subject=%.200s", ev.Seq, ev.Action, ev.Policy, ev.Subject)
}

func clip(s string, n int) string {
	if len(s) > n {
		return s[:n] + fmt.Sprintf("... (%d bytes)\n", len(s))
	}
	return s
}

// runCase runs one case under one IDE variant and judges it. With bridged
// false the IDE talks to the agent directly, no bridge between them: the
// harness self-test uses that.
func runCase(t *testing.T, c hostileCase, variant string, bridged bool) *verdict {
	t.Helper()
	w := newWorld(t, c)
	var script []byte
	for _, l := range c.lines {
		b, err := expand(l, w.placeholders())
		if err != nil {
			t.Fatal(err)
		}
		script = append(append(script, b...), '\n')
	}
	at := func(name string) string { return filepath.Join(w.run, name) }
	must(t, os.WriteFile(at("script"), script, 0o600))
	var next []byte
	for _, l := range c.next {
		b, err := expand(l, w.placeholders())
		must(t, err)
		next = append(append(next, b...), '\n')
	}
	must(t, os.WriteFile(at("next-script"), next, 0o600))
	// An answer line's placeholders are expanded, but for the id the
	// agent puts in.
	answerLine := func(line string) string {
		var out []byte
		for i, part := range strings.Split(line, answeredIDPlaceholder) {
			b, err := expand(part, w.placeholders())
			must(t, err)
			if i > 0 {
				out = append(out, answeredIDPlaceholder...)
			}
			out = append(out, b...)
		}
		return string(out)
	}
	agentName, err := expand(c.agent, w.placeholders())
	must(t, err)
	agentStderr, err := expand(c.agentStderr, w.placeholders())
	must(t, err)
	auth, err := expand(c.auth, w.placeholders())
	must(t, err)
	listed, err := expand(c.listed, w.placeholders())
	must(t, err)
	listedAnswer, err := expand(c.listedAnswer, w.placeholders())
	must(t, err)
	rolledAnswer, err := expand(c.rolledAnswer, w.placeholders())
	must(t, err)
	writeJSON(t, at("agent.json"), agentConfig{Script: at("script"), Received: at("received"), SessionID: w.sid, Name: string(agentName), Workspace: w.ws,
		AuthMethods: json.RawMessage(auth), Sessions: json.RawMessage(listed), ListAnswer: string(listedAnswer),
		EndTurn: answerLine(c.endTurn), NextScript: at("next-script"), LoadAnswer: answerLine(c.loadAnswer), Rollover: c.rollover, ModeOption: c.modeOption, OpenedMode: c.openedMode,
		RolledAnswer: json.RawMessage(rolledAnswer), Stderr: string(agentStderr), ExitInTurn: c.agentExits, Protocol: c.protocol, Caps: json.RawMessage(c.agentCaps)})
	cmdline := []string{testBin, "hostile-agent", at("agent.json")}
	if bridged {
		bridge := []string{bridgeBin, "--policy", w.policy, "--audit", w.audit}
		if c.compressOn {
			bridge = append(bridge, "--compress", "on", "--cache-dir", at("cache"))
			for _, f := range c.compress {
				b, err := expand(f, w.placeholders())
				must(t, err)
				bridge = append(bridge, string(b)) // a later --cache-dir wins
			}
		}
		cmdline = append(append(bridge, "--"), cmdline...)
	}
	timeout := ideTimeout(t)
	shown, err := expand(c.approveShown, w.placeholders())
	if err != nil {
		t.Fatal(err)
	}
	writeJSON(t, at("ide.json"), ideConfig{Variant: variant, Bridge: cmdline, Workspace: w.ws, Approve: c.approve, ApproveShown: string(shown), LoadListed: c.listed != "" || c.listedAnswer != "", Press: c.press, DecideLate: c.decideLate, LastFirst: c.lastFirst, PromptAgain: c.endTurn != "", Rollover: c.rollover, MCPServer: c.mcpServer, ModeOption: c.modeOption, AgentExits: c.agentExits, Protocol: c.protocol, Opens: c.opens, Result: at("result.json"), Stderr: at("bridge.stderr"), Timeout: timeout})

	ctx, cancel := context.WithTimeout(context.Background(), timeout+20*time.Second)
	defer cancel()
	ide := exec.CommandContext(ctx, testBin, "hostile-ide", at("ide.json"))
	ide.Dir = w.out
	ide.Env = append(os.Environ(), "PATH="+w.bin+string(os.PathListSeparator)+os.Getenv("PATH"))
	if variant == "zsh" {
		ide.Env = append(ide.Env, "HOME="+zshHome(t, w))
	}
	if out, err := ide.CombinedOutput(); err != nil {
		t.Fatalf("the IDE process failed: %v\n%s", err, out)
	}
	v := &verdict{w: w}
	data, err := os.ReadFile(at("result.json"))
	must(t, err)
	must(t, json.Unmarshal(data, &v.res))
	stderr, _ := os.ReadFile(at("bridge.stderr"))
	v.stderr = string(stderr)
	audit, _ := os.ReadFile(w.audit)
	v.audit = string(audit)
	received, _ := os.ReadFile(at("received"))
	v.judge(c, received, bridged)
	return v
}

func writeJSON(t *testing.T, path string, v any) {
	t.Helper()
	data, err := json.Marshal(v)
	must(t, err)
	must(t, os.WriteFile(path, data, 0o600))
}

// judge looks for real effects and checks the record.
func (v *verdict) judge(c hostileCase, received []byte, bridged bool) {
	w := v.w
	for _, e := range v.res.Errors {
		// Ending the session on a hostile line fails closed; ending it
		// before the prompt, or crashing, does not.
		if strings.HasPrefix(e, "session/prompt: the bridge closed its output first") {
			continue
		}
		v.fail("IDE: %s", e)
	}
	if strings.Contains(v.stderr, "panic:") || strings.Contains(v.stderr, "fatal error:") {
		v.fail("the bridge crashed (see its stderr)")
	}
	if strings.Contains(v.stderr, agentOverran) {
		v.fail("a command the agent ran was ended by runTimeout (see the stderr)")
	}
	if strings.Contains(v.stderr, agentWriteFailed) {
		v.fail("a write the agent was allowed failed (see the stderr): a case finding the file unchanged would pass with nothing written")
	}
	for _, canary := range []string{w.canaryWS, w.canaryOut} {
		if bytes.Contains(received, []byte(canary)) {
			v.bypass("the agent received the secret %s", canary)
		}
	}
	for _, ch := range changes(w.before, w.snapshot()) {
		v.bypass("%s", ch)
	}
	for _, s := range v.res.Seen {
		v.bypass("the IDE handled a message for session %q, which it never opened", s)
	}
	for _, words := range v.res.ForgedWords {
		v.bypass("the IDE showed the person, as their own message, words they never sent: %.200q", words)
	}
	if c.rssMB > 0 && v.res.PeakRSSKB > c.rssMB<<10 {
		v.bypass("the bridge's peak RSS was %d KiB, over %d MiB", v.res.PeakRSSKB, c.rssMB)
	}
	if c.rssMB > 0 && v.res.PeakRSSKB <= 0 {
		v.fail("the bridge's peak RSS could not be read")
	}
	for _, want := range c.wants {
		exp, _ := expand(want, w.placeholders())
		if !bytes.Contains(received, exp) {
			v.fail("the agent never received %q (the bridge stopped forwarding, or the IDE did not act)", exp)
		}
	}
	for _, want := range c.asked {
		exp, _ := expand(want, w.placeholders())
		if !askedAbout(v.res.Asked, string(exp)) {
			v.fail("the person was never asked about %q (asked %d times)", exp, len(v.res.Asked))
		}
	}
	for _, f := range c.files {
		exp, _ := expand(f.text, w.placeholders())
		data, err := os.ReadFile(filepath.Join(w.ws, f.name))
		switch held := err == nil && bytes.Contains(data, exp); {
		case f.kept && !held:
			v.bypass("the workspace file %s no longer holds %q (%s): a change the policy refuses happened", f.name, exp, fileState(data, err))
		case f.held && !held:
			v.fail("the workspace file %s does not hold %q (%s): the action the person allowed never happened", f.name, exp, fileState(data, err))
		case !f.held && held:
			v.bypass("the workspace file %s holds %q: an action the person rejected happened", f.name, exp)
		}
	}
	if c.told && !told(v.res.Updates) {
		v.bypass("the person was never told: no message from the bridge and no tool call shown as failed")
	}
	if !bridged {
		return
	}
	v.judgeAudit(c)
	v.judgeStderr(c)
	v.judgeArchive(c)
}

// judgeStderr checks that what the agent wrote to its stderr, which the
// bridge copies to its own stderr and log file, neither acts on the
// terminal showing it nor passes for a line of the bridge's log.
func (v *verdict) judgeStderr(c hostileCase) {
	if c.agentStderr == "" {
		return
	}
	for _, r := range []rune{0x1b, 0x07, '\r', 0x85, 0x9b, 0x202e, 0x2067, 0x2028} {
		if strings.ContainsRune(v.stderr, r) {
			v.bypass("the bridge's stderr holds %U raw (a terminal control from the agent's stderr)", r)
		}
	}
	if c.agentExits {
		for _, r := range []rune{0x1b, 0x07, '\n', '\r', 0x85, 0x9b, 0x202e, 0x2067, 0x2028} {
			if strings.ContainsRune(v.res.PromptError, r) {
				v.bypass("the error the IDE shows for the agent's exit holds %U raw from the agent's stderr: %q", r, v.res.PromptError)
			}
		}
	}
	for _, l := range strings.Split(v.stderr, "\n") {
		for _, f := range c.forgedLog {
			if strings.HasPrefix(l, f) {
				v.bypass("the bridge's stderr has a line of the agent's that passes for its own: %q", l)
			}
		}
	}
}

// fileState is what a reader of a failure needs to know of a file's content.
func fileState(data []byte, err error) string {
	if err != nil {
		return err.Error()
	}
	return fmt.Sprintf("it holds %.200q", data)
}

// askedAbout reports whether one of the tool calls the person was asked
// about mentions text.
func askedAbout(asked []string, text string) bool {
	for _, a := range asked {
		if strings.Contains(a, text) {
			return true
		}
	}
	return false
}

// told reports whether the person saw something the hostile agent never
// sends: an agent_message_chunk (the scripts send none unless a case does),
// or a tool call marked failed.
func told(updates []seenUpdate) bool {
	for _, u := range updates {
		if u.Kind == "agent_message_chunk" || (strings.HasPrefix(u.Kind, "tool_call") && u.Status == "failed") {
			return true
		}
	}
	return false
}

// personID is the actor the bridge records a person's answer in the IDE as.
const personID = "user:ide"

// answerRecorded reports whether one of the audit lines records the
// person's answer: an approval.recorded event by personID that says
// approved (or not) and mentions text. The answer to an agent's permission
// request says it in its metadata, the answer the bridge asked for before
// a client call in its output.
func answerRecorded(lines [][]byte, approved bool, text []byte) bool {
	for _, l := range lines {
		var ev struct {
			Actor struct {
				ID string `json:"id"`
			} `json:"actor"`
			Action   string `json:"action"`
			Metadata struct {
				Approved *bool `json:"approved"`
			} `json:"metadata"`
			Output struct {
				Approved *bool `json:"approved"`
			} `json:"output"`
		}
		if json.Unmarshal(l, &ev) != nil || ev.Action != "approval.recorded" || ev.Actor.ID != personID {
			continue
		}
		said := cmp.Or(ev.Metadata.Approved, ev.Output.Approved)
		if said != nil && *said == approved && bytes.Contains(l, text) {
			return true
		}
	}
	return false
}

// judgeAudit checks that the log verifies, holds the refusal, keeps secrets
// out and cannot be made to show forged rows.
func (v *verdict) judgeAudit(c hostileCase) {
	w := v.w
	if err := auditVerifier.verify(w.audit); err != nil {
		v.fail("the audit log does not verify (auditverify, as acp-bridge audit verify --genesis): %v", err)
	}
	lines := bytes.Split([]byte(v.audit), []byte("\n"))
	if !c.noRefuse && !c.control {
		found := false
		for _, l := range lines {
			found = found || refusal(l)
		}
		if !found {
			v.fail("no audit record of the refused attempt (no deny, require-approval or escalate decision, no violation)")
		}
	}
	for _, want := range c.audits {
		exp, _ := expand(want, w.placeholders())
		if !bytes.Contains([]byte(v.audit), exp) {
			v.fail("no audit record contains %q", exp)
		}
	}
	for _, lie := range c.noAudits {
		exp, _ := expand(lie, w.placeholders())
		if bytes.Contains([]byte(v.audit), exp) {
			v.bypass("the audit log records %q, which did not happen", exp)
		}
	}
	for _, a := range c.answers {
		exp, _ := expand(a.text, w.placeholders())
		if !answerRecorded(lines, a.approved, exp) {
			v.fail("no approval.recorded record by %s with approved %v mentions %q", personID, a.approved, exp)
		}
	}
	for _, s := range c.secrets {
		exp, _ := expand(s, w.placeholders())
		if bytes.Contains([]byte(v.audit), exp) {
			v.bypass("the audit log holds the secret %q", exp)
		}
	}
	if len(c.forged) == 0 {
		return
	}
	for _, args := range [][]string{{"show"}, {"tail", "-n", "1000"}, {"sessions"}} {
		out, err := bridgeOutput(append(append([]string{"audit"}, args...), w.audit)...)
		if err != nil {
			v.fail("acp-bridge audit %s: %v\n%s", args[0], err, clip(out, 2000))
		}
		// Raw, these let text from the agent restyle the terminal, move
		// the cursor, overwrite a row or reorder what a person reads.
		for _, r := range []rune{0x1b, '\r', 0x85, 0x9b, 0x202e, 0x2067} {
			if strings.ContainsRune(out, r) {
				v.bypass("acp-bridge audit %s printed %U raw (a terminal control from the agent)", args[0], r)
			}
		}
		for _, l := range strings.Split(out, "\n") {
			// In show and tail, a cell's continuation ("↳ ...") is
			// read as that column's own words, wherever on the line it
			// is; the sessions table quotes every cell that wraps, so
			// its continuations are visibly inside a quotation.
			cont := args[0] != "sessions"
			for _, f := range c.forged {
				if strings.HasPrefix(strings.TrimSpace(l), f) || cont && strings.Contains(l, "↳ "+f) {
					v.bypass("acp-bridge audit %s printed a forged row: %q", args[0], l)
				}
			}
		}
	}
}

// zshHome returns the HOME the zsh variant's terminals run with (the
// world's, holding an empty .zshrc, so zsh -i reads no person's startup
// files and starts no new-user wizard). A missing zsh fails the run: the
// variant is never skipped.
func zshHome(t *testing.T, w *world) string {
	t.Helper()
	if _, err := exec.LookPath("zsh"); err != nil {
		t.Fatalf("the zsh variant runs terminals with zsh -i -c, and zsh is missing (scripts/zsh.sh installs it): %v", err)
	}
	return w.home()
}
