package audit

import (
	"strings"
	"unicode/utf8"
)

// detail is the DETAIL column: what the event is about, then why a
// policy refused or held it.
func detail(e *Entry) string {
	return what(e) + why(e)
}

// clippedDetail is detail cut to n runes. What the event is about is the
// agent's text (a command line, a title) and is cut first, so that a long
// one never pushes the bridge's reason out of the column, leaving in view
// an "— allowed by ..." the agent wrote into its own text.
func clippedDetail(e *Entry, n int) string {
	about, reason := Printable(what(e)), Printable(why(e))
	if room := n - utf8.RuneCountInString(reason); reason != "" && utf8.RuneCountInString(about) > room {
		about = clip(about, max(room, n/4))
	}
	return clip(about+reason, n)
}

// why is " — " and the reason a policy refused or held the event, or "".
func why(e *Entry) string {
	if e.Reason != "" && e.Decision() != "" && e.Decision() != DecisionAllow {
		return " — " + oneLine(e.Reason)
	}
	return ""
}

func what(e *Entry) string {
	if e.IsPrompt() {
		return strings.TrimSpace(`"` + oneLine(text(e.Input)) + `"`)
	}
	var parts []string
	if tc := e.ToolCall; tc != nil {
		if tc.Tool != "" {
			parts = append(parts, tc.Tool)
		}
		if a := text(tc.Arguments); a != "" {
			parts = append(parts, oneLine(a))
		} else if a := text(e.Input); a != "" {
			parts = append(parts, oneLine(a))
		}
		switch {
		case len(tc.Error) > 0:
			parts = append(parts, "✗ "+oneLine(text(tc.Error)))
		case len(tc.Result) > 0:
			parts = append(parts, "→ "+oneLine(text(tc.Result)))
		}
		return strings.Join(parts, " ")
	}
	switch ref, path := e.Subject.Ref, e.Subject.Path; {
	case e.Subject.Kind == "terminal" && ref != "":
		// A terminal's ref is its command line, its path where it runs.
		parts = append(parts, oneLine(ref))
		if path != "" {
			parts = append(parts, "(in "+path+")")
		}
	case path != "":
		parts = append(parts, path)
	case ref != "" && ref != e.Session:
		parts = append(parts, e.Subject.Kind+" "+ref)
	}
	if in := text(e.Input); in != "" {
		parts = append(parts, oneLine(in))
	}
	if out := text(e.Output); out != "" {
		parts = append(parts, "→ "+oneLine(out))
	}
	return strings.Join(parts, " ")
}
