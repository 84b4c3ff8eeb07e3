package compress

import (
	"path/filepath"
	"regexp"
	"strings"
)

// Goal-drift indicators (CTX-001 "Goal Drift Detection") the pipeline checks
// on the first turn after a compression.
const (
	DriftClarification = "asked for clarification immediately after compression"
	DriftNoDeliverable = "declared the task complete without any deliverable"
	DriftUnrelated     = "worked on files unrelated to the session intent"
)

var (
	clarifyRe  = regexp.MustCompile(`(?i)\b(could you (please )?(clarify|confirm|provide|tell me|share|specify)|can you (clarify|provide|tell me|share|confirm|specify)|what (would you like|do you want|should i)|which (file|one|option|part)|please (clarify|specify|provide)|i need more (context|information|details)|not sure what you)`)
	completeRe = regexp.MustCompile(`(?i)\b(task (is )?(now )?(complete|completed|done|finished)|all done|i('ve| have) (completed|finished)|everything is (done|complete)|the work is (done|complete))\b`)
)

// TurnObservation is what the bridge saw in one agent turn.
type TurnObservation struct {
	// AgentText is the agent's message text in the turn.
	AgentText string
	// ToolCalls is the number of tool calls started in the turn.
	ToolCalls int
	// Touched are the file paths the turn read or edited.
	Touched []string
	// Edits is the number of files the turn created or changed.
	Edits int
}

// DriftCheck returns the drift indicators the turn shows, given the session
// intent, the user's messages, the artifacts so far and the session's
// working directory. It is deliberately conservative: each indicator needs
// positive evidence (a question with no tool use; a completion claim with no
// artifact at all; touched files none of which relate to anything the user
// said or the session produced).
func DriftCheck(t TurnObservation, userText string, artifacts []Artifact, cwd string) []string {
	var out []string
	if t.ToolCalls == 0 && strings.Contains(t.AgentText, "?") && clarifyRe.MatchString(t.AgentText) {
		out = append(out, DriftClarification)
	}
	if t.Edits == 0 && len(artifacts) == 0 && completeRe.MatchString(t.AgentText) {
		out = append(out, DriftNoDeliverable)
	}
	if len(t.Touched) > 0 {
		related := false
		for _, p := range t.Touched {
			if relatedPath(p, userText, artifacts, cwd) {
				related = true
				break
			}
		}
		if !related {
			out = append(out, DriftUnrelated)
		}
	}
	return out
}

// relatedPath reports whether path relates to the session: it is an
// artifact or shares an artifact's directory, or its base name or one of
// its directories (relative to cwd, two characters or more) appears in
// what the user wrote.
func relatedPath(path, userText string, artifacts []Artifact, cwd string) bool {
	for _, a := range artifacts {
		if a.Path == path || filepath.Dir(a.Path) == filepath.Dir(path) {
			return true
		}
	}
	lower := strings.ToLower(userText)
	rel := path
	if cwd != "" {
		if r, err := filepath.Rel(cwd, path); err == nil && !strings.HasPrefix(r, "..") {
			rel = r
		}
	}
	for _, part := range strings.Split(filepath.ToSlash(rel), "/") {
		if len(part) >= 2 && strings.Contains(lower, strings.ToLower(part)) {
			return true
		}
	}
	return false
}
