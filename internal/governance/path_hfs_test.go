package governance

import "testing"

// TestDecideHFSIgnorableNames: HFS+ ignores some code points in a name
// altogether (zero-width joiners and non-joiners, direction marks and
// embeddings, U+206A-U+206F, the byte order mark; git's is_hfs_dotgit
// lists them), so there ".g\u200cit/config" opens .git/config and a deny
// rule's "secrets" is "se\ufeffcrets". A path holding them is also
// decided as the file system opens it, as a case-folded one is.
func TestDecideHFSIgnorableNames(t *testing.T) {
	e, root := secretsDenyingEngine(t)
	for _, tc := range []struct {
		action string
		name   string
		want   Value
	}{
		{ActionFSWrite, ".g\u200cit/config", Deny},
		{ActionFSWrite, ".git\ufeff/hooks/pre-commit", Deny},
		{ActionFSWrite, ".claude/se\u200dttings.json", Deny},
		{ActionFSWrite, ".claude\u200e/settings.json", Deny},
		{ActionFSWrite, ".claude/settings\u206a.json", Deny},
		{ActionFSRead, "se\ufeffcrets/k", Deny},
		{ActionFSRead, "\u202asecrets/k", Deny},
		{ActionFSWrite, "notes\u200c.txt", Allow},
	} {
		d := e.Decide(Request{Action: tc.action, Paths: []string{root + "/" + tc.name}, Cwd: root})
		if d.Value != tc.want {
			t.Errorf("%s %+q: %v (%s); want %v", tc.action, tc.name, d.Value, d.Reason, tc.want)
		}
	}
}
