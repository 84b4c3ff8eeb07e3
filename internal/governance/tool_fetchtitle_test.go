package governance

import (
	"encoding/json"
	"strings"
	"testing"
)

// geminiFetchUpdate is a tool_call as Gemini CLI asks about a web_fetch:
// the prompt only in the title, kind fetch, empty content, no rawInput.
func geminiFetchUpdate(status, title string) string {
	return `{"sessionId":"s1","update":{"sessionUpdate":"tool_call","toolCallId":"c1","status":"` + status + `","title":` +
		string(must(json.Marshal(title))) + `,"kind":"fetch","content":[],"locations":[]}}`
}

// TestGeminiFetchTitleJudged: a web_fetch Gemini CLI asks about is judged
// on the addresses of the prompt its title shows, split into words as
// JavaScript's \s splits them (U+FEFF is a space), and on the
// raw.githubusercontent.com address Gemini's own fetch of a GitHub file page
// reaches; a title whose prompt Gemini cut needs approval; a title of
// another shape names no address.
func TestGeminiFetchTitleJudged(t *testing.T) {
	x, _ := namesEnforcer(t)
	x.engine = NewEngine(testPolicy(t, "  default: allow\n  deny:\n    - WebFetch(domain:evil.com)\n    - WebFetch(domain:raw.githubusercontent.com)\n  ask:\n    - WebFetch(domain:ask.com)\n"),
		EngineOptions{Roots: []string{t.TempDir()}, Home: t.TempDir()})
	prompt := func(p string) string { return fetchPromptTitle + p + `"` }
	cut := "Summarize " + strings.Repeat("x", 87) + "..."
	for _, tt := range []struct {
		name, title string
		want        Value
	}{
		{"an allowed address", prompt("Summarize https://good.com/a"), Allow},
		{"a denied address", prompt("Summarize https://evil.com/a"), Deny},
		{"a denied address in capitals", prompt("Summarize HTTPS://EVIL.COM/a"), Deny},
		{"an address asked about", prompt("Summarize https://ask.com/a"), RequireApproval},
		{"after a U+FEFF", prompt("Summarize https://good.com/\ufeffhttps://evil.com/a"), Deny},
		{"after a U+0085", prompt("Summarize https://good.com/\u0085https://evil.com/a"), Deny},
		{"a url argument", fetchURLTitle + "https://evil.com/a", Deny},
		{"a GitHub file page", prompt("Summarize https://github.com/o/r/blob/main/x.sh"), Deny},
		{"a GitHub file page in capitals", prompt("Summarize HTTPS://GitHub.COM/o/r/blob/main/x.sh"), Deny},
		{"a GitHub file page as a url argument", fetchURLTitle + "https://github.com/o/r/blob/main/x.sh", Deny},
		{"a GitHub page that is no file", prompt("Summarize https://github.com/o/r/tree/main/x"), Allow},
		{"a GitHub file page's address ending in a dot", prompt("Summarize https://github.com./o/r/blob/main/x"), Allow},
		{"a prompt cut by Gemini", prompt(cut), RequireApproval},
		{"no closing quote", fetchPromptTitle + "https://good.com/", RequireApproval},
		{"another title", "Fetch https://evil.com/a", Allow},
	} {
		t.Run(tt.name, func(t *testing.T) {
			d, _, _ := x.judgeCall("s1", mergedCall(t, geminiFetchUpdate("pending", tt.title)))
			if d.Value != tt.want || tt.name == "a prompt cut by Gemini" && !strings.Contains(d.Reason, "fetch prompt cut short") {
				t.Errorf("decision %s (%s), want %s", d.Value, d.Reason, tt.want)
			}
		})
	}
	if full := mergedCall(t, geminiFetchUpdate("completed", prompt("https://evil.com/"))); full.RawInput != nil {
		t.Errorf("a completed call's title was read as its input: %s", full.RawInput)
	}
}
