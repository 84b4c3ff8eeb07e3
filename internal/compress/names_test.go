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
