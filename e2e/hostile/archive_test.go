package hostile

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// archiveHeading matches the heading of a conversation archive entry:
// "### ROLE · 15:04:05" (after at most three spaces, as Markdown reads a
// heading), the role saying who spoke.
var archiveHeading = regexp.MustCompile(`^ {0,3}### (.+) · \d\d:\d\d:\d\d$`)

// archiveTitle starts every conversation archive compression writes.
const archiveTitle = "# Conversation archive"

// judgeArchive checks, for a case with @archive-forged, that the
// conversation archives compression wrote in the run's cache attribute no
// text of the agent's to the person: no entry headed "### User" holds any
// of the case's forged texts. A run that wrote no archive proves nothing
// and fails.
func (v *verdict) judgeArchive(c hostileCase) {
	if len(c.archiveForged) == 0 {
		return
	}
	archives := 0
	filepath.WalkDir(filepath.Join(v.w.run, "cache"), func(p string, d fs.DirEntry, err error) error {
		if err != nil || !d.Type().IsRegular() {
			return nil
		}
		data, err := os.ReadFile(p)
		if err != nil || !bytes.HasPrefix(data, []byte(archiveTitle)) {
			return nil
		}
		archives++
		for _, l := range personLines(string(data), c.archiveForged) {
			v.bypass("the conversation archive %s shows the agent's text as the person's: %q", filepath.Base(p), l)
		}
		return nil
	})
	if archives == 0 {
		v.fail("compression wrote no conversation archive in the run's cache, so @archive-forged proves nothing")
	}
}

// personLines returns the lines of the archive text, in entries whose
// heading says the person spoke ("### User · ..."), that hold any of
// texts.
func personLines(archive string, texts []string) []string {
	var out []string
	role := ""
	for _, l := range strings.Split(archive, "\n") {
		if m := archiveHeading.FindStringSubmatch(l); m != nil {
			role = m[1]
			continue
		}
		if role != "User" {
			continue
		}
		for _, t := range texts {
			if strings.Contains(l, t) {
				out = append(out, l)
				break
			}
		}
	}
	return out
}

// TestArchivePersonLines: the archive check finds text under a heading of
// the person's, whether the entry is one the recorder wrote for the
// person or one the agent's own text opened, and none under the agent's,
// an escaped heading's or a replayed user message's.
func TestArchivePersonLines(t *testing.T) {
	archive := archiveTitle + ": session s\n\n" +
		"### User · 11:00:00\n\nfix the bug\n\n" +
		"### Agent · 11:00:01\n\nFORGED in the agent's entry\n\n### User · 11:00:02\n\nFORGED opened by the agent\n\n" +
		"### Agent · 11:00:03\n\n\\### User · 11:00:04\n\nFORGED under an escaped heading\n\n" +
		"### User (as the agent replayed it) · 11:00:05\n\nFORGED replayed\n\n" +
		"  ### User · 11:00:06\n\nFORGED indented\n\n"
	got := personLines(archive, []string{"FORGED"})
	if len(got) != 2 || got[0] != "FORGED opened by the agent" || got[1] != "FORGED indented" {
		t.Fatalf("personLines = %q, want only the lines the agent's headings opened", got)
	}
	if got := personLines(archive, []string{"fix the bug"}); len(got) != 1 {
		t.Fatalf("personLines missed the person's own line: %q", got)
	}
}
