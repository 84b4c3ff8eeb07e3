package compress

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestArchiveAndSpoolNamesPerSession: the agent chooses session ids, so no
// two of them may share a conversation archive or spool. Archives were
// named by the id's safe name alone, and spools by it and FNV-32a of the id:
// ids that differ only in characters a file name cannot hold, or past the
// name's first 60 characters, shared an archive (one session's checkpoint
// replaced the other's, and its summary pointed at the other's
// conversation), and two such ids the agent found with colliding FNV-32a
// shared a spool as well.
func TestArchiveAndSpoolNamesPerSession(t *testing.T) {
	const long = "session-0123456789-0123456789-0123456789-0123456789-012345678"
	tests := []struct{ name, a, b string }{
		{"unsafe characters", "a/b", "a_b"},
		{"two unsafe spellings", "a:b", "a b"},
		{"past 60 characters", long + "-1", long + "-2"},
		{"empty and the placeholder", "", "content"},
		{"FNV-32a collision past 60 characters", long + "-793696", long + "-1624540"},
		{"a hashed name spelled out as an id", "a/b", strings.TrimSuffix(archiveName("a/b"), "_full.md")},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			st := NewStore(t.TempDir(), nil)
			if archiveName(tt.a) == archiveName(tt.b) {
				t.Errorf("sessions %q and %q share the archive %s", tt.a, tt.b, archiveName(tt.a))
			}
			if st.spoolBase(tt.a) == st.spoolBase(tt.b) {
				t.Errorf("sessions %q and %q share the spool %s", tt.a, tt.b, st.spoolBase(tt.a))
			}
			pa, err := st.WriteArchive(tt.a, "conversation A")
			if err != nil {
				t.Fatal(err)
			}
			if _, err := st.WriteArchive(tt.b, "conversation B"); err != nil {
				t.Fatal(err)
			}
			if b, _ := os.ReadFile(pa); string(b) != "conversation A" {
				t.Errorf("session %q's archive %s holds %q after %q's checkpoint", tt.a, filepath.Base(pa), b, tt.b)
			}
		})
	}
	if got := archiveName("s1"); got != "s1_full.md" {
		t.Errorf("archive of s1 = %s, want s1_full.md", got)
	}
}

// TestNamesHoldNoAgentText: the cache's file names are recorded in the
// audit log, whose redaction must see the agent's text as written. A
// session id that is not its own safe name leaves no part of itself in its
// archive's or spool's name, and a tool call's offload toward the IDE is
// named after its kind, not its title, so "API_KEY=secret" never reaches
// the log as "API_KEY_secret".
func TestNamesHoldNoAgentText(t *testing.T) {
	const secret = "S3cretHunter2value"
	st := NewStore(t.TempDir(), nil)
	for _, id := range []string{"API_KEY=" + secret, "mysql --password=" + secret} {
		if n := archiveName(id); strings.Contains(n, secret) {
			t.Errorf("archive of session %q is %s", id, n)
		}
		if n := st.spoolBase(id); strings.Contains(n, secret) {
			t.Errorf("spool of session %q is %s", id, n)
		}
	}
	h := sessionHarness(t, Config{ContextSize: 1 << 30, OffloadTokens: 100})
	h.prompt(3, "s1", "think")
	h.agent(update("s1", map[string]any{"sessionUpdate": "tool_call", "toolCallId": "c1", "kind": "think", "status": "completed",
		"title": "API_KEY=" + secret, "content": []any{map[string]any{"type": "content", "content": textBlock(strings.Repeat("a line of thought\n", 500))}}}))
	h.untilIDE(func(m []byte) bool { return str(m, "params", "update", "status") == "completed" })
	files, err := filepath.Glob(filepath.Join(h.p.Store().OffloadedDir(), "*.md"))
	if err != nil || len(files) != 1 {
		t.Fatalf("offloaded files %v (%v), want one", files, err)
	}
	if n := filepath.Base(files[0]); strings.Contains(n, secret) || !strings.HasSuffix(n, "_tool_call_think.md") {
		t.Errorf("offload of a think call titled API_KEY=... is %s, want ..._tool_call_think.md", n)
	}
}
