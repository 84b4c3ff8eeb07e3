package compress

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"
)

// Summary is a CTX-001 Session Summary built from observed traffic.
type Summary struct {
	// SessionID is the IDE's session id.
	SessionID string
	// Generated is when the summary was built.
	Generated time.Time
	// ContextSaved is the tokens the summary replaces minus its own.
	ContextSaved int
	// Intent is the user's first request, verbatim.
	Intent string
	// Instructions are the user's messages after the first, verbatim
	// (older ones are replaced by a pointer to the archive once they pass
	// MaxInstructionTokens).
	Instructions []string
	// Artifacts are the files created or changed; bodies are never
	// included (tier 2). The table holds the last maxArtifactRows.
	Artifacts []Artifact
	// Earlier are the paths of the files created or changed before those
	// the table holds, named on one line so that the summary still names
	// every edited path.
	Earlier []string
	// Decisions are decisions taken in the session.
	Decisions []string
	// Plan is the agent's latest plan.
	Plan []PlanEntry
	// Facts are the critical facts: error codes, failed calls, exit codes.
	Facts []string
	// NextSteps are what remains, from the plan or the last request.
	NextSteps []string
	// Archive is the full conversation archive's path.
	Archive string
	// Offloaded is the offloaded-content directory.
	Offloaded string
	// Previous is the path of the previous checkpoint's archive, if any.
	Previous string
}

// Summary size limits.
const (
	// MaxInstructionTokens bounds the verbatim user messages kept.
	MaxInstructionTokens = 20000
	maxDecisions         = 12
	maxArtifactRows      = 60
)

// BuildSummary returns the Session Summary of what r has recorded.
// archive and offloaded are the recovery references; replaced is the number
// of tokens the summary stands in for.
func BuildSummary(r *Recorder, now time.Time, archive, offloaded string, replaced int) *Summary {
	s := &Summary{
		SessionID: r.SessionID,
		Generated: now,
		Intent:    r.Intent(),
		Artifacts: r.Artifacts(),
		Plan:      r.plan,
		Facts:     r.Facts(),
		Archive:   archive,
		Offloaded: offloaded,
	}
	if len(s.Artifacts) > maxArtifactRows {
		cut := len(s.Artifacts) - maxArtifactRows
		for _, a := range s.Artifacts[:cut] {
			s.Earlier = append(s.Earlier, a.Path)
		}
		s.Artifacts = s.Artifacts[cut:]
	}
	if len(s.Facts) > maxFacts {
		s.Facts = s.Facts[len(s.Facts)-maxFacts:]
	}
	s.Decisions = r.decisions
	if len(s.Decisions) > maxDecisions {
		s.Decisions = s.Decisions[len(s.Decisions)-maxDecisions:]
	}
	s.Instructions = keepInstructions(r.UserMessages(), MaxInstructionTokens)
	if n, bytes := r.OlderUserMessages(); n > 0 {
		// Messages the recorder no longer holds (MaxUserBytes) are in the
		// archive.
		older := fmt.Sprintf("[%d earlier messages: about %d tokens, in the conversation archive]", n, estimateFromBytes(bytes))
		s.Instructions = append([]string{older}, s.Instructions...)
	}
	for _, e := range r.plan {
		if e.Status != "completed" {
			s.NextSteps = append(s.NextSteps, e.Content)
		}
	}
	if len(s.NextSteps) == 0 {
		if msgs := r.UserMessages(); len(msgs) > 0 {
			s.NextSteps = append(s.NextSteps, "Continue with the latest user request: "+oneLine(msgs[len(msgs)-1], 200))
		}
	}
	s.ContextSaved = max(replaced-CountTokens(s.Markdown()), 0)
	return s
}

// keepInstructions returns the messages after the first, verbatim while
// they fit in budget tokens (the first is the intent, always kept). When
// they do not all fit, the most recent are kept and older ones become a
// pointer to the archive.
func keepInstructions(msgs []string, budget int) []string {
	if len(msgs) <= 1 {
		return nil
	}
	rest := msgs[1:]
	budget -= CountTokens(msgs[0])
	out := make([]string, len(rest))
	keepFrom := len(rest)
	for i := len(rest) - 1; i >= 0; i-- {
		n := CountTokens(rest[i])
		if n > budget {
			break
		}
		budget -= n
		out[i] = rest[i]
		keepFrom = i
	}
	for i := 0; i < keepFrom; i++ {
		out[i] = fmt.Sprintf("[message %d: %d tokens, in the conversation archive]", i+2, CountTokens(rest[i]))
	}
	return out
}

// Markdown renders the summary in CTX-001's Session Summary format, with
// the user's instructions verbatim after the intent.
func (s *Summary) Markdown() string {
	var b strings.Builder
	b.WriteString("## Session Summary\n")
	// The agent chose the session id (its session/new answer): one line.
	fmt.Fprintf(&b, "**Session ID:** %s\n", oneLine(s.SessionID, 200))
	fmt.Fprintf(&b, "**Generated:** %s\n", s.Generated.UTC().Format("2006-01-02 15:04:05 UTC"))
	fmt.Fprintf(&b, "**Context Saved:** %s tokens\n\n", groupDigits(s.ContextSaved))

	b.WriteString("### Session Intent\n")
	b.WriteString(quoteBlock(s.Intent))
	b.WriteString("\n")

	if len(s.Instructions) > 0 {
		b.WriteString("### User Instructions (verbatim, in order)\n")
		for i, m := range s.Instructions {
			fmt.Fprintf(&b, "%d.\n%s", i+2, quoteBlock(m))
		}
		b.WriteString("\n")
	}

	b.WriteString("### Artifacts Created\n")
	if len(s.Artifacts) == 0 {
		b.WriteString("None yet.\n\n")
	} else {
		b.WriteString("| Artifact | Path | Status |\n|----------|------|--------|\n")
		for _, a := range s.Artifacts {
			name := a.Summary
			if name == "" {
				name = a.Action
			}
			note := ""
			if a.Bytes > 0 {
				note = "; content persisted to disk"
			}
			fmt.Fprintf(&b, "| %s (%s%s) | %s | %s |\n", tableCell(name), a.Action, note, shownPath(a.Path), a.Status)
		}
		if len(s.Earlier) > 0 {
			fmt.Fprintf(&b, "\nEarlier files (%d, first touched first): %s\n", len(s.Earlier), strings.Join(shownPaths(s.Earlier), ", "))
		}
		b.WriteString("\n")
	}

	b.WriteString("### Key Decisions\n")
	writeNumbered(&b, s.Decisions, "None recorded.")

	b.WriteString("### Current Progress\n")
	var phase, done, remaining []string
	for _, e := range s.Plan {
		switch e.Status {
		case "in_progress":
			phase = append(phase, e.Content)
		case "completed":
			done = append(done, e.Content)
		default:
			remaining = append(remaining, e.Content)
		}
	}
	fmt.Fprintf(&b, "- **Phase:** %s\n", joinOr(phase, "not reported by the agent"))
	fmt.Fprintf(&b, "- **Completed:** %s\n", joinOr(done, "none reported"))
	fmt.Fprintf(&b, "- **Remaining:** %s\n\n", joinOr(remaining, "none reported"))

	b.WriteString("### Critical Facts\n")
	if len(s.Facts) == 0 {
		b.WriteString("- None recorded.\n")
	}
	for _, f := range s.Facts {
		fmt.Fprintf(&b, "- %s\n", f)
	}
	b.WriteString("\n### Next Steps\n")
	writeNumbered(&b, s.NextSteps, "Ask the user how to continue.")

	b.WriteString("### Recovery References\n")
	fmt.Fprintf(&b, "- **Full conversation:** %s\n", s.Archive)
	fmt.Fprintf(&b, "- **Offloaded content:** %s\n", s.Offloaded)
	if s.Previous != "" {
		fmt.Fprintf(&b, "- **Previous checkpoint:** %s\n", s.Previous)
	}
	return b.String()
}

func quoteBlock(s string) string {
	if s == "" {
		return "> (none)\n"
	}
	return "> " + strings.ReplaceAll(strings.TrimRight(s, "\n"), "\n", "\n> ") + "\n"
}

func tableCell(s string) string {
	return strings.ReplaceAll(oneLine(s, 100), "|", `\|`)
}

func writeNumbered(b *strings.Builder, items []string, none string) {
	if len(items) == 0 {
		fmt.Fprintf(b, "1. %s\n\n", none)
		return
	}
	for i, it := range items {
		fmt.Fprintf(b, "%d. %s\n", i+1, oneLine(it, 300))
	}
	b.WriteString("\n")
}

func joinOr(items []string, none string) string {
	if len(items) == 0 {
		return none
	}
	for i := range items {
		items[i] = oneLine(items[i], 160)
	}
	return strings.Join(items, "; ")
}

// Verification errors returned by Verify.
var (
	ErrSummaryEmpty         = errors.New("summary is empty")
	ErrSummaryTooLarge      = errors.New("summary is not smaller than what it replaces")
	ErrSummaryMissingIntent = errors.New("summary does not carry the session intent")
	ErrSummaryMissingPath   = errors.New("summary does not name every edited path")
)

// Verify checks a rendered summary before it is used: it must not be empty,
// must be smaller (in tokens) than the replaced tokens it stands in for,
// must carry the intent verbatim and must name every edited path. The error
// wraps one of the ErrSummary values.
func Verify(markdown string, replaced int, intent string, paths []string) error {
	if strings.TrimSpace(markdown) == "" {
		return ErrSummaryEmpty
	}
	if n := CountTokens(markdown); n >= replaced {
		return fmt.Errorf("%w (%d tokens against %d)", ErrSummaryTooLarge, n, replaced)
	}
	if strings.TrimSpace(intent) != "" && !containsQuoted(markdown, intent) {
		return ErrSummaryMissingIntent
	}
	for _, p := range paths {
		if !strings.Contains(markdown, shownPath(p)) {
			return fmt.Errorf("%w: %s", ErrSummaryMissingPath, shownPath(p))
		}
	}
	return nil
}

// shownPath returns path as the summary names it: as it is where it is
// plain text of one line, else as a Go string literal (line breaks and
// other control characters, spaces but ' ', invalid UTF-8, '"', '`' and
// '\\' escaped), with '|' escaped for the table either way. A name the
// agent chose then cannot end its table row or start a section of the
// text the bridge sends as its own, and it is named whole, never cut, so
// Verify finds every edited path.
func shownPath(path string) string {
	for _, r := range path {
		if r == '"' || r == '`' || r == '\\' || r == utf8.RuneError || (r != ' ' && !unicode.IsPrint(r)) {
			return strings.ReplaceAll(strconv.Quote(path), "|", `\|`)
		}
	}
	return strings.ReplaceAll(path, "|", `\|`)
}

// containsQuoted reports whether text appears in md either as is or as a
// Markdown quote block (every line prefixed with "> ").
func containsQuoted(md, text string) bool {
	text = strings.TrimRight(text, "\n")
	return strings.Contains(md, text) || strings.Contains(md, strings.ReplaceAll(text, "\n", "\n> "))
}

// shownPaths returns each of paths as shownPath does.
func shownPaths(paths []string) []string {
	out := make([]string, len(paths))
	for i, p := range paths {
		out[i] = shownPath(p)
	}
	return out
}
