package governance

import (
	"os"
	"path/filepath"
	"testing"
)

// offloadSet is an OffloadReader over fixed session -> paths.
type offloadSet map[string]map[string]bool

func (s offloadSet) Offloaded(session, path string) bool { return s[session][path] }

// offloadCase is a request an offload test decides, and the verdict it
// wants.
type offloadCase struct {
	name string
	req  Request
	want Value
	ref  string // the deciding rule's ref, "" for any
}

// decideOffloadCase has e decide c.req, in root and session s1 unless it
// names others, and fails unless the decision is c.want, by c.ref if set.
// It returns the request as decided and the decision.
func decideOffloadCase(t *testing.T, e *Engine, root string, c offloadCase) (Request, Decision) {
	t.Helper()
	req := c.req
	if req.Cwd == "" {
		req.Cwd = root
	}
	if req.Session == "" {
		req.Session = "s1"
	}
	d := e.Decide(req)
	if d.Value != c.want || c.ref != "" && d.Ref != c.ref {
		t.Errorf("Decide = %v by %s (%s); want %v by %q", d.Value, d.Ref, d.Reason, c.want, c.ref)
	}
	return req, d
}

// TestOwnOffloadRead: with an OffloadReader the agent reads the files the
// bridge offloaded for its own session, though the cache lies outside the
// workspace roots; every other access to the cache is decided as without
// one: another session's offload, a path that climbs with ".." into it, a
// symlink outside the workspace, a write, a command line naming it.
func TestOwnOffloadRead(t *testing.T) {
	tmp := tempTree(t, []string{"ws", "cache", "cache/offloaded", "elsewhere"},
		[]string{"cache/offloaded/mine.md", "cache/offloaded/theirs.md", "cache/offloaded/secret.md"})
	root, cache := filepath.Join(tmp, "ws"), filepath.Join(tmp, "cache")
	mine, theirs := filepath.Join(cache, "offloaded", "mine.md"), filepath.Join(cache, "offloaded", "theirs.md")
	secret := filepath.Join(cache, "offloaded", "secret.md")
	for link, target := range map[string]string{"ws/link.md": mine, "ws/theirs-link.md": theirs, "elsewhere/link.md": mine, "ws/dir": filepath.Join(cache, "offloaded")} {
		if err := os.Symlink(target, filepath.Join(tmp, link)); err != nil {
			t.Fatal(err)
		}
	}
	set := offloadSet{"s1": {mine: true}, "s2": {theirs: true, secret: true}}
	p := testPolicy(t, "  default: allow\n  deny: [Read(//"+secret[1:]+")]\n")
	tests := []offloadCase{
		{"own offload, fs read", Request{Action: ActionFSRead, Paths: []string{mine}}, Allow, "session-offload"},
		{"own offload, Read tool", Request{Action: ActionToolCall, Tool: "Read", Kind: "read", Paths: []string{mine}}, Allow, "session-offload"},
		{"own offload, search", Request{Action: ActionToolCall, Kind: "search", Paths: []string{mine}}, Allow, "session-offload"},
		{"own offload, no session", Request{Action: ActionFSRead, Paths: []string{mine}, Session: "-"}, Deny, "workspace-roots"},
		{"another session's offload", Request{Action: ActionFSRead, Paths: []string{theirs}}, Deny, "workspace-roots"},
		{"another session's, denied by name", Request{Action: ActionFSRead, Paths: []string{secret}, Session: "s2"}, Deny, ""},
		{"dot-dot into another session's", Request{Action: ActionFSRead, Paths: []string{mine + "/../theirs.md"}}, Deny, ""},
		{"workspace link to own offload", Request{Action: ActionFSRead, Paths: []string{root + "/link.md"}}, Allow, ""},
		{"workspace link to another's", Request{Action: ActionFSRead, Paths: []string{root + "/theirs-link.md"}}, Deny, "workspace-roots"},
		{"workspace dir link, dot-dot", Request{Action: ActionFSRead, Paths: []string{root + "/dir/../offloaded/theirs.md"}}, Deny, ""},
		{"outside link to own offload", Request{Action: ActionFSRead, Paths: []string{tmp + "/elsewhere/link.md"}}, Deny, "workspace-roots"},
		{"the cache directory", Request{Action: ActionToolCall, Tool: "LS", Kind: "search", Paths: []string{cache + "/offloaded"}}, Deny, "workspace-roots"},
		{"write own offload", Request{Action: ActionFSWrite, Paths: []string{mine}}, Deny, ""},
		{"edit own offload", Request{Action: ActionToolCall, Tool: "Edit", Kind: "edit", Paths: []string{mine}}, Deny, ""},
		{"opaque tool naming own offload", Request{Action: ActionToolCall, Kind: "other", Paths: []string{mine}}, Deny, ""},
		{"shell line naming own offload", Request{Action: ActionTerminalCreate, Command: "cat " + mine, Cwd: root}, Deny, ""},
		{"execute call naming own offload", Request{Action: ActionToolCall, Kind: "execute", Tool: "Bash", Command: "cat " + mine, Paths: []string{mine}}, Deny, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			without := NewEngine(p, EngineOptions{Roots: []string{root}, Protected: []ProtectedPath{{Path: cache, What: "the compression cache"}}})
			with := NewEngine(p, EngineOptions{Roots: []string{root}, Protected: []ProtectedPath{{Path: cache, What: "the compression cache"}}})
			with.SetOffloadReader(set)
			req, d := decideOffloadCase(t, with, root, tt)
			if tt.want != Allow {
				// Not the session's own read: decided exactly as without
				// the allowance.
				if b := without.Decide(req); b.Value != d.Value || b.Ref != d.Ref || b.Reason != d.Reason {
					t.Errorf("with the allowance %v %s (%s); without %v %s (%s)", d.Value, d.Ref, d.Reason, b.Value, b.Ref, b.Reason)
				}
			}
			if d.Ref == "session-offload" && d.Reason != "reading "+mine+": the bridge's offload of this session" {
				t.Errorf("reason %q does not name the offload", d.Reason)
			}
		})
	}
}
