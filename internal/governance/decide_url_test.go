package governance

import (
	"strings"
	"testing"
)

// TestFetchDecidedByTheHostItReaches: a fetch is decided by every host a
// reading of its URL reaches, the WHATWG URL Standard's (node's, so
// Claude Code's WebFetch and Gemini CLI's web_fetch, and a browser's) and
// Go's. Before, Go's net/url alone read "https:evil.com" as a URL without
// a host, "https://evil.com\@good.com/" as a URL of good.com (node sends
// the backslash's "\" as "/", so the host ends there), and kept
// "evil%2ecom" and "evil。com" (an ideographic full stop) unmapped, so a
// deny of evil.com let each of them fetch from evil.com, and an allow of
// good.com vouched for it.
func TestFetchDecidedByTheHostItReaches(t *testing.T) {
	root := tempTree(t, nil, nil)
	deny := rootPolicyEngine(t, root, "  default: allow\n  deny: [WebFetch(domain:evil.com)]\n")
	allow := rootPolicyEngine(t, root, "  default: deny\n  allow: [WebFetch(domain:good.com)]\n")
	decide := func(e *Engine, u string) Value {
		return e.Decide(Request{Action: ActionToolCall, Tool: "WebFetch", Kind: "fetch", URL: u, Cwd: root, Roots: []string{root}}).Value
	}
	for _, c := range []struct {
		url         string
		deny, allow Value // under the policy denying evil.com; under the one allowing good.com alone
	}{
		{"https://evil.com/x", Deny, Deny},
		{"https://EVIL.COM./x", Deny, Deny},
		{"https://www.evil.com/x", Deny, Deny},
		{"https:evil.com", Deny, Deny},
		{"https:/evil.com", Deny, Deny},
		{`https:\\evil.com`, Deny, Deny},
		{`https://evil.com\@good.com/`, Deny, Deny},
		{"https://evil%2ecom/", Deny, Deny},
		{"https://evil\u3002com/", Deny, Deny},
		{"evil.com", Deny, Deny},
		{"//evil.com/x", Deny, Deny},
		{"https://good.com/x", Allow, Allow},
		{"https://good.com/#@evil.com", Allow, Allow},
		{"https://evil.com%2F@good.com/", Allow, Allow},
		{"https://user:pw@good.com/", Allow, Allow},
	} {
		if got := decide(deny, c.url); got != c.deny {
			t.Errorf("%q under deny evil.com = %v; want %v", c.url, got, c.deny)
		}
		if got := decide(allow, c.url); got != c.allow {
			t.Errorf("%q under allow good.com = %v; want %v", c.url, got, c.allow)
		}
	}
}

// FuzzURLHosts: any URL an agent sends is read without a panic, and gives
// at least one host to decide: a host read from it, lower-case, or u
// itself.
func FuzzURLHosts(f *testing.F) {
	for _, s := range []string{"https://evil.com/x", `https:\\evil.com`, "https://evil%2ecom/", "evil.com", "//x", "http://[::1]:80/", "\x00"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, u string) {
		hosts := urlHosts(u)
		if len(hosts) == 0 {
			t.Fatalf("urlHosts(%q) gives no host", u)
		}
		for _, h := range hosts {
			if h != strings.ToLower(h) && !(len(hosts) == 1 && h == u) { // u itself where nothing reads a host
				t.Fatalf("urlHosts(%q) = %q: not lower-case", u, hosts)
			}
		}
	})
}

// TestFetchPromptURLsDecided: Gemini CLI's web_fetch fetches each URL
// its prompt names (every word holding "://", read by node's URL); a
// fetch call without a url member is decided by those URLs, so a deny of
// evil.com refuses one that names it, in any spelling node reads as
// evil.com. Before, such a call had no URL to decide, and a policy that
// allows the rest approved it. A prompt of another kind of call (a
// subagent's task) is not an address the call fetches.
func TestFetchPromptURLsDecided(t *testing.T) {
	root := tempTree(t, nil, nil)
	e := rootPolicyEngine(t, root, "  default: allow\n  deny: [WebFetch(domain:evil.com)]\n")
	for _, c := range []struct {
		kind, input string
		want        Value
	}{
		{"fetch", `{"prompt":"Summarize https://evil.com/a"}`, Deny},
		{"fetch", `{"prompt":"Compare https://good.com/ and\thttps://evil%2ecom/x please"}`, Deny},
		{"fetch", `{"prompt":"Read https://evil.com\\@good.com/"}`, Deny},
		{"fetch", `{"prompt":"Summarize https://good.com/a, it says evil.com"}`, Allow},
		{"fetch", `{"url":"https://good.com/","prompt":"what does https://evil.com/ say of it"}`, Allow},
		{"think", `{"prompt":"look at https://evil.com/ later"}`, Allow},
	} {
		req := ToolCallRequest(ToolCall{Kind: c.kind, Title: "web_fetch", RawInput: []byte(c.input)}, root)
		req.Roots = []string{root}
		if got := e.Decide(req).Value; got != c.want {
			t.Errorf("%s %s = %v; want %v", c.kind, c.input, got, c.want)
		}
	}
}
