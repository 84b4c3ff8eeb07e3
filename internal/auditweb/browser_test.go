package auditweb

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/acp-bridge/acp-bridge/internal/audit"
	"github.com/acp-bridge/acp-bridge/internal/audit/audittest"
)

// chromiumPath finds Debian's chromium. In CI (CI set) a missing browser
// fails the test; elsewhere the test is skipped with a message saying how
// to get it (scripts/chromium.sh).
func chromiumPath(t *testing.T) string {
	for _, name := range []string{os.Getenv("CHROMIUM"), "chromium", "chromium-browser"} {
		if name == "" {
			continue
		}
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	if os.Getenv("CI") != "" {
		t.Fatal("chromium is not installed: scripts/chromium.sh installs it (apt-get install -y chromium); the browser test must run in CI")
	}
	t.Skip("chromium is not installed, so the browser test did not run: run scripts/chromium.sh (apt-get install -y chromium) or set CHROMIUM")
	return ""
}

// The acp-bridge binary demoLog runs: ACP_BRIDGE_BIN when set
// (scripts/test.sh passes the one it built), else one go build per test
// binary (-count runs the test again with the same one) into
// demoBridgeDir, which TestMain removes.
var (
	demoBridgeOnce sync.Once
	demoBridgeBin  string
	demoBridgeDir  string
	demoBridgeErr  error
)

// demoBridge returns the acp-bridge binary demoLog runs.
func demoBridge(t *testing.T) string {
	t.Helper()
	demoBridgeOnce.Do(func() {
		if demoBridgeBin = os.Getenv("ACP_BRIDGE_BIN"); demoBridgeBin != "" {
			return
		}
		if demoBridgeDir, demoBridgeErr = os.MkdirTemp("", "auditweb-bridge"); demoBridgeErr != nil {
			return
		}
		demoBridgeBin = filepath.Join(demoBridgeDir, "acp-bridge")
		if out, err := exec.Command("go", "build", "-o", demoBridgeBin, "github.com/acp-bridge/acp-bridge/cmd/acp-bridge").CombinedOutput(); err != nil {
			demoBridgeErr = fmt.Errorf("building acp-bridge: %v\n%s", err, out)
		}
	})
	if demoBridgeErr != nil {
		t.Fatal(demoBridgeErr)
	}
	return demoBridgeBin
}

// demoLog runs the real demo (bridge with the example policy and an audit
// log, the built-in agent as a process) and returns its audit log.
func demoLog(t *testing.T) string {
	t.Helper()
	bin := demoBridge(t)
	dir := t.TempDir()
	ws := filepath.Join(dir, "ws")
	if out, err := exec.Command(bin, "demo", "--workspace", ws).CombinedOutput(); err != nil {
		t.Fatalf("acp-bridge demo: %v\n%s", err, out)
	}
	return filepath.Join(ws, ".acp-bridge", "audit.jsonl")
}

// TestBrowser drives headless Chromium through a governed demo session's
// log: the reviewer's questions answered from the pages alone.
func TestBrowser(t *testing.T) {
	logPath := demoLog(t)

	// A tampered copy of the same log, served as a second log.
	tampered := filepath.Join(t.TempDir(), "audit.jsonl")
	b, err := os.ReadFile(logPath)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), "big.log") {
		t.Fatal("demo log does not mention big.log")
	}
	if err := os.WriteFile(tampered, []byte(strings.Replace(string(b), "big.log", "BIG.log", 1)), 0o600); err != nil {
		t.Fatal(err)
	}

	start, tctx, stop := servedInBrowser(t, []string{logPath, tampered}, 90*time.Second)
	text := func(sel string) string {
		t.Helper()
		s, err := chromedp.Run(tctx, chromedp.Text(sel))
		if err != nil {
			t.Fatalf("text of %s: %v", sel, err)
		}
		return s
	}
	eval := func(js string) bool {
		t.Helper()
		v, err := chromedp.Run(tctx, chromedp.Evaluate[bool](js))
		if err != nil {
			t.Fatalf("%s: %v", js, err)
		}
		return v
	}
	shot := func(name string) {
		dir := os.Getenv("ACP_BRIDGE_SCREENSHOTS")
		if dir == "" {
			return
		}
		png, err := chromedp.Run(tctx, chromedp.FullScreenshot(100))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), png, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// Wait until the first verification is done for both logs.
	waitVerified := `document.querySelectorAll('[data-chain="verifying"]').length == 0`

	// The sessions page lists the demo session, and the token URL left
	// a cookie behind.
	if err := chromedp.Do(tctx, chromedp.Navigate(start), chromedp.WaitVisible(".session-link")); err != nil {
		t.Fatal(err)
	}
	if loc, _ := chromedp.Run(tctx, chromedp.Location()); strings.Contains(loc, "token") {
		t.Errorf("the token stays in the address bar: %s", loc)
	}
	if _, err := chromedp.Run(tctx, chromedp.Poll[bool](waitVerified)); err != nil {
		t.Fatal(err)
	}
	if err := chromedp.Do(tctx, chromedp.Reload(), chromedp.WaitVisible(".session-link")); err != nil {
		t.Fatal(err)
	}
	page := text("main")
	for _, want := range []string{"demo-session-1", "acp-bridge-demo 1.0.0", "The chain is intact", "The chain is BROKEN"} {
		if !strings.Contains(page, want) {
			t.Errorf("sessions page lacks %q:\n%s", want, page)
		}
	}
	shot("audit-serve-sessions.png")

	// The session page shows the denied read with its rule and the
	// approved write with its approver.
	if err := chromedp.Do(tctx, chromedp.Click(`section[data-log="0"] .session-link`), chromedp.WaitVisible(".card")); err != nil {
		t.Fatal(err)
	}
	page = text("main")
	for _, want := range []string{"Session demo-session-1", "deny rule deny Read(**/.env) (", "GOVERNANCE.md:10)",
		"approved by user:ide (allow_once allow)", "notes.txt", "tokens saved"} {
		if !strings.Contains(page, want) {
			t.Errorf("session page lacks %q:\n%s", want, page)
		}
	}
	shot("audit-serve-session.png")

	// A filter to denies keeps only them, and the state is in the URL.
	if err := chromedp.Do(tctx, chromedp.SetValue("#f-decision", "deny"), chromedp.Click("#f-apply")); err != nil {
		t.Fatal(err)
	}
	// Only the page the server rendered for the filter has the option
	// selected as an attribute.
	if err := chromedp.Do(tctx, chromedp.WaitReady(`option[value="deny"][selected]`), chromedp.WaitVisible(".card")); err != nil {
		t.Fatal(err)
	}
	if loc, _ := chromedp.Run(tctx, chromedp.Location()); !strings.Contains(loc, "decision=deny") {
		t.Errorf("filter not in the URL: %s", loc)
	}
	if !eval(`[...document.querySelectorAll('.card')].every(c => c.classList.contains('card-deny')) && document.querySelectorAll('.card').length == 1`) {
		t.Errorf("deny filter shows other cards: %s", text("main"))
	}

	// A record appended to the live log appears without a reload, and a
	// tool title carrying <script> and terminal escapes renders as text.
	// The record comes from a new bridge run (audit.Open starts one), so
	// it is a new session row: watch the log's page of all records.
	if err := chromedp.Do(tctx, chromedp.Click(`a[href="./"]`), chromedp.WaitVisible(`section[data-log="0"]`),
		chromedp.Click(`section[data-log="0"] h2 a`), chromedp.WaitVisible(".card")); err != nil {
		t.Fatal(err)
	}
	if !eval(`window.__marker = 1; true`) {
		t.Fatal("marker")
	}
	evil := "<script>window.__pwned=1</script><img src=x onerror=window.__pwned=2>\x1b[31mRED\x1b]0;title\x07"
	audittest.Append(t, logPath, audit.Options{}, audit.Event{Actor: audit.Actor{ID: "agent:acpb", Role: "operator"}, Action: "tool.call",
		Subject:  audit.Subject{Kind: "tool-call", Ref: "call_evil"},
		Policy:   &audit.Policy{Ref: "rules-allow-1", Decision: audit.DecisionAllow},
		Metadata: map[string]any{"session": "demo-session-1", "toolCall": audit.ToolCall{Kind: "tool-call", Session: "demo-session-1", ToolCallID: "call_evil", Tool: evil, Approval: "auto", Arguments: map[string]any{"command": "echo hi"}}},
	})
	if _, err := chromedp.Run(tctx, chromedp.Poll[bool](`document.querySelector('[data-seq="22"]') !== null`, chromedp.WithPollingTimeout(20*time.Second))); err != nil {
		upd, _ := chromedp.Run(tctx, chromedp.Evaluate[string](`document.body.getAttribute("data-updated") + " " + document.querySelectorAll("[data-seq]").length`))
		t.Fatalf("the appended record did not appear: %v (%s)", err, upd)
	}
	if !eval(`window.__marker === 1`) {
		t.Error("the page was reloaded, not updated")
	}
	if eval(`window.__pwned !== undefined`) {
		t.Error("markup from the log ran")
	}
	if !eval(`document.querySelectorAll('main script, main img').length == 0`) {
		t.Error("markup from the log became elements")
	}
	page = text("main")
	if !strings.Contains(page, "<script>window.__pwned=1</script>") || !strings.Contains(page, `\x1b[31mRED`) || strings.Contains(page, "\x1b") {
		t.Errorf("hostile title not shown as text:\n%s", page)
	}

	// Opening the hostile record's "raw JSON" fetches its line from /raw
	// and shows it as text: the same hostile title, inert.
	raw := `li[data-seq="22"] details.raw`
	if !eval(`(() => { for (let d = document.querySelector('` + raw + `').parentElement; d; d = d.parentElement) if (d.tagName == 'DETAILS') d.open = true; return true })()`) {
		t.Fatal("opening the record's sections")
	}
	if eval(`document.querySelector('` + raw + `').open`) {
		t.Fatal("the raw JSON is open before it was clicked")
	}
	if err := chromedp.Do(tctx, chromedp.Click(raw+` > summary`)); err != nil {
		t.Fatal(err)
	}
	if _, err := chromedp.Run(tctx, chromedp.Poll[bool](`!document.querySelector('`+raw+` pre a')`, chromedp.WithPollingTimeout(10*time.Second))); err != nil {
		t.Fatalf("the raw JSON was not fetched: %v", err)
	}
	if !eval(`performance.getEntriesByType('resource').some(e => /\/raw\?log=0&rec=[0-9]+$/.test(e.name))`) {
		t.Error("the raw JSON did not come from /raw")
	}
	rawText := text(raw + ` pre`)
	for _, want := range []string{`"doctype": "` + audit.Doctype + `"`, `"toolCallId": "call_evil"`,
		`<script>window.__pwned=1</script><img src=x onerror=window.__pwned=2>\u001b[31mRED`} {
		if !strings.Contains(rawText, want) {
			t.Errorf("raw JSON lacks %q:\n%s", want, rawText)
		}
	}
	if strings.Contains(rawText, "\x1b") || !eval(`document.querySelector('`+raw+` pre').children.length == 0`) {
		t.Errorf("the raw JSON is not plain text:\n%q", rawText)
	}
	if eval(`window.__pwned !== undefined`) {
		t.Error("markup from the raw JSON ran")
	}

	// The tampered copy shows where its chain breaks.
	if err := chromedp.Do(tctx, chromedp.Navigate(strings.SplitN(start, "?", 2)[0]), chromedp.WaitVisible(`section[data-log="1"]`)); err != nil {
		t.Fatal(err)
	}
	broken := text(`section[data-log="1"] .chain`)
	if !strings.Contains(broken, "BROKEN at "+tampered+" line") || !strings.Contains(broken, "can be trusted") {
		t.Errorf("tampered log: %s", broken)
	}
	if err := stop(); err != nil {
		t.Fatal(err)
	}
}
