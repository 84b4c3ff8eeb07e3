package governance

import "testing"

// TestProtectBelowRoots: a name given to Protect with BelowRoots (the
// .env Gemini CLI loads from a session's directory up) is refused to
// changes beneath every workspace root and at any depth, by a tool, the
// file system and a command, even after requests were decided and the
// protected list kept; it stays readable, and names that only start like
// it stay the agent's.
func TestProtectBelowRoots(t *testing.T) {
	e, root, _ := protectedWorkspace(t)
	before := Request{Action: ActionFSWrite, Paths: []string{root + "/.env"}, Cwd: root}
	if d := e.Decide(before); d.Value != Allow {
		t.Fatalf("before Protect, writing .env: %v (%s); want allow", d.Value, d.Reason)
	}
	e.Protect(ProtectedPath{Path: ".env", BelowRoots: true, What: "Gemini's environment file"})
	for _, tc := range []struct {
		name string
		req  Request
		want Value
	}{
		{"write at the root", Request{Action: ActionFSWrite, Paths: []string{root + "/.env"}}, Deny},
		{"write in a subdirectory", Request{Action: ActionFSWrite, Paths: []string{root + "/src/.env"}}, Deny},
		{"an edit tool", Request{Action: ActionToolCall, Tool: "Write", Kind: "edit", Paths: []string{root + "/.env"}}, Deny},
		{"a command appending", Request{Action: ActionTerminalCreate, Command: "echo BASH_ENV=./x.sh >> .env"}, Deny},
		{"a command in a subdirectory", Request{Action: ActionTerminalCreate, Command: "cd src && cp ../a .env"}, Deny},
		{"a read", Request{Action: ActionFSRead, Paths: []string{root + "/.env"}}, Allow},
		{"an example file", Request{Action: ActionFSWrite, Paths: []string{root + "/.env.example"}}, Allow},
		{"a command writing the example", Request{Action: ActionTerminalCreate, Command: "echo X=1 > .env.example"}, Allow},
	} {
		tc.req.Cwd = root
		d := e.Decide(tc.req)
		if d.Value != tc.want {
			t.Errorf("%s: %v (%s); want %v", tc.name, d.Value, d.Reason, tc.want)
		}
		if tc.want == Deny && d.Ref != "self-protection" {
			t.Errorf("%s: ref %q, want self-protection", tc.name, d.Ref)
		}
	}
	rules := e.ImplicitRules()
	want := "deny Edit(**/.env) (built-in: Gemini's environment file)"
	found := false
	for _, r := range rules {
		found = found || r == want
	}
	if !found {
		t.Errorf("ImplicitRules lacks %q", want)
	}
}
