package e2e

import (
	"strings"
	"testing"

	"github.com/acp-bridge/acp-bridge/internal/e2e/fakemodel"
)

// fetchDenyPolicy refuses fetches from one address and allows the rest;
// fetchAskPolicy asks the person about them.
var (
	fetchDenyPolicy = governanceDoc("e2e-gemini-fetch-deny", "e2e Gemini fetch deny",
		"Fetches from 5.6.7.8 are denied.", "  default: allow\n  deny:\n    - WebFetch(domain:5.6.7.8)\n")
	fetchAskPolicy = governanceDoc("e2e-gemini-fetch-ask", "e2e Gemini fetch ask",
		"Fetches from 5.6.7.8 need approval.", "  default: allow\n  ask:\n    - WebFetch(domain:5.6.7.8)\n")
)

// TestAdapterGeminiFetchPrompt: Gemini CLI's web_fetch fetches every word
// of its prompt that holds "://" (it hands them to its web-fetch model
// request as <authorized_urls>), and its permission request shows that
// prompt only in the title, cut past 100 characters. Gemini asks about
// the fetch (the bridge's admin policy has it ask), and the bridge decides
// the addresses the title shows: an address whose fetch needs approval is
// asked about (the person refuses here), a denied one is refused in every
// mode, also in capitals (which Gemini's own pattern for the rule does not
// match) and after a U+FEFF (JavaScript's \s, where Gemini splits words),
// and a prompt cut in the title needs approval. A fetch the policy allows
// runs (the control).
func TestAdapterGeminiFetchPrompt(t *testing.T) {
	s := needSuite(t)
	a := &geminiAgent
	long := "Summarize " + strings.Repeat("this page carefully, ", 5) + "https://1.2.3.4/ HTTPS://5.6.7.8/x"
	cases := []struct {
		name, policy, prompt, mode, permission string
		fetched                                bool
	}{
		{"allowed", fetchDenyPolicy, "Summarize https://1.2.3.4/x", "", "allow", true},
		{"ask", fetchAskPolicy, "Summarize https://5.6.7.8/x", "", "reject", false},
		{"deny", fetchDenyPolicy, "Summarize https://5.6.7.8/x", "", "allow", false},
		{"deny-capitals-yolo", fetchDenyPolicy, "Summarize HTTPS://5.6.7.8/x", "yolo", "allow", false},
		{"deny-capitals-plan", fetchDenyPolicy, "Summarize HTTPS://5.6.7.8/x", "plan", "allow", false},
		{"deny-bom", fetchDenyPolicy, "Summarize https://1.2.3.4/\ufeffHTTPS://5.6.7.8/x", "", "allow", false},
		{"deny-cut", fetchDenyPolicy, long, "", "reject", false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			w := newWorkspace(t)
			r, _ := governedRun(t, s, a, w, c.policy, runOptions{
				name:  "gemini-fetch-" + c.name,
				files: map[string]string{"README.md": "hello\n"},
				script: fakemodel.Script{Steps: []fakemodel.Step{
					fakemodel.Tool("web_fetch", map[string]any{"prompt": c.prompt}), fakemodel.Text("Done."),
				}},
				client: clientScript{Permission: c.permission, Mode: c.mode, Prompts: textPrompts("Fetch it.")},
			})
			r.wait()
			want := "5.6.7.8"
			if c.fetched {
				want = "1.2.3.4"
			}
			fetched := false
			for _, q := range r.model.Requests() {
				b := string(q.Body)
				if i := strings.Index(b, "<authorized_urls>"); i >= 0 && strings.Contains(b[i:], want) {
					fetched = true
				}
			}
			switch {
			case fetched && !c.fetched:
				t.Errorf("BYPASS: Gemini fetched 5.6.7.8 (prompt %q)", c.prompt)
			case !fetched && c.fetched:
				t.Errorf("the control fetch of %s did not run: the scenario does not fetch\n%s", want, r.stderrTail())
			}
		})
	}
}
