package auditweb

import (
	"bytes"
	"cmp"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/acp-bridge/acp-bridge/internal/audit"
)

// A session's timeline is shown as turns: the prompt, then one card per
// tool call (every record about the call folded into it), then cards for
// other decisions and for compression; lifecycle records are folded away
// under the turn. Every string in these views has been made printable
// (audit.Printable); html/template escapes it.

// turnView is one prompt turn.
type turnView struct {
	Prompt *recView
	Cards  []*cardView
	Folded []recView
}

// cardView is one tool call, or one other event worth a card.
type cardView struct {
	Kind   string // "tool", "compress", "event"
	Title  string
	Target string
	// target is Target as recorded, before it was made printable.
	target    string
	Input     []string
	Decisions []decisionView
	// Class is the strongest decision, for the card's colour: deny, ask,
	// allow or none.
	Class    string
	Approval string
	Outcome  string
	Diff     []diffLine
	Saved    string
	Records  []recView
	// Unverified is set when any of its records is past a chain break or
	// not verified yet.
	Unverified bool
}

// decisionView is one decision with its rule.
type decisionView struct {
	Decision, Class, Rule, Reason string
}

// recView is one record as a row.
type recView struct {
	Seq      int64
	Time     string
	Action   string
	Actor    string
	Decision string
	Class    string
	Detail   string
	Where    string
	// RawURL fetches the record's line (see handleRaw).
	RawURL     string
	Unverified bool
}

// diffLine is one line of a diff: Op is "+", "-" or " ".
type diffLine struct{ Op, Text string }

// shownEntry is an entry with whether the chain vouches for it.
type shownEntry struct {
	audit.Entry
	trusted bool
	// log and pos locate the record in the server's index.
	log int
	pos int32
}

// buildTurns groups entries (in log order) into turns and cards.
func buildTurns(entries []shownEntry) []*turnView {
	var turns []*turnView
	var cur *turnView
	var byKey map[string]*cardView
	newTurn := func() {
		cur = &turnView{}
		turns = append(turns, cur)
		byKey = make(map[string]*cardView)
	}
	for i := range entries {
		e := &entries[i]
		rv := newRecView(e)
		if e.IsPrompt() {
			newTurn()
			rv.Detail = audit.Printable(jsonText(e.Input))
			cur.Prompt = &rv
			continue
		}
		if cur == nil {
			newTurn()
		}
		if e.IsLifecycle() {
			cur.Folded = append(cur.Folded, rv)
			continue
		}
		keys := cardKeys(&e.Entry)
		t := target(&e.Entry)
		var c *cardView
		for _, k := range keys {
			c = byKey[k]
			if c != nil && strings.HasPrefix(k, "call\x00") && t != "" && c.target != "" && c.target != t {
				// The agent chooses tool call ids: a record about
				// another path or command under the id is another call.
				c = nil
				continue
			}
			if c != nil {
				break
			}
		}
		if c == nil {
			c = &cardView{Kind: "event", Title: audit.Printable(e.Action), Class: "none"}
			cur.Cards = append(cur.Cards, c)
		}
		for _, k := range keys {
			if byKey[k] == nil || strings.HasPrefix(k, "call\x00") {
				byKey[k] = c // an id given again names its latest call
			}
		}
		c.add(e, rv)
	}
	return turns
}

// cardKeys lists what joins records into one card: the tool call id, and
// the path or command the record is about.
func cardKeys(e *audit.Entry) []string {
	var keys []string
	if tc := e.ToolCall; tc != nil && tc.ToolCallID != "" {
		keys = append(keys, "call\x00"+tc.ToolCallID)
	}
	if e.Subject.Kind == "tool-call" && e.Subject.Ref != "" {
		keys = append(keys, "call\x00"+e.Subject.Ref)
	}
	if e.Action == "context.compress" {
		return keys
	}
	if t := target(e); t != "" {
		keys = append(keys, "target\x00"+e.Decision()+"\x00"+t)
	}
	return keys
}

// target is the path or command e is about.
func target(e *audit.Entry) string {
	// Arguments that are not all strings still name what they can.
	a, _ := e.Targets()
	if e.Subject.Kind == "terminal" && e.Subject.Ref != "" {
		return e.Subject.Ref
	}
	return cmp.Or(a.Command, a.FilePath, a.Path, a.AbsPath, e.Subject.Path)
}

// add folds record e into the card.
func (c *cardView) add(e *shownEntry, rv recView) {
	c.Records = append(c.Records, rv)
	c.Unverified = c.Unverified || !e.trusted
	if t := target(&e.Entry); t != "" && c.Target == "" {
		c.Target, c.target = audit.Printable(t), t
	}
	if tc := e.ToolCall; tc != nil {
		c.Kind = "tool"
		if tc.Tool != "" {
			c.Title = audit.Printable(tc.Tool)
		}
		if len(tc.Arguments) > 0 {
			c.Input = jsonLines(tc.Arguments, 200)
		}
		switch {
		case tc.Approval == "auto":
			if c.Approval == "" {
				c.Approval = "allowed by the policy: no person was asked"
			}
		case tc.Approval != "" && e.Refused == "":
			c.Approval = "approved by " + audit.Printable(tc.Approval)
		}
		switch {
		case len(tc.Error) > 0:
			c.Outcome = "failed: " + audit.Printable(clip(jsonText(tc.Error), 400))
		case len(tc.Result) > 0:
			c.Outcome = "completed: " + audit.Printable(clip(resultText(tc.Result), 400))
			if d := diffFrom(tc.Result); d != nil {
				c.Diff = d
			}
		}
	} else if c.Kind == "event" && len(e.Input) > 0 && e.Action != "context.compress" {
		c.Input = jsonLines(e.Input, 200)
	}
	if c.Diff == nil {
		if tc := e.ToolCall; tc != nil && len(tc.Arguments) > 0 && (e.Decision() == "" || e.Decision() != audit.DecisionDeny) {
			c.Diff = diffFromArgs(tc.Arguments)
		}
	}
	var meta struct {
		Status string `json:"status"`
	}
	if len(e.Metadata) > 0 {
		json.Unmarshal(e.Metadata, &meta)
	}
	switch {
	case e.Approved && c.Approval == "":
		c.Approval = "approved by " + audit.Printable(e.Actor.ID)
	case e.Refused == audit.RefusedByPerson:
		c.Approval = "refused by a person: " + audit.Printable(e.Actor.ID)
	case e.Refused == audit.RefusedByBridge:
		c.Approval = "refused by the bridge: the person's answer did not stand for this call, or they could not be asked"
	}
	if meta.Status != "" && c.Outcome == "" {
		c.Outcome = audit.Printable(meta.Status)
	}
	if d := e.Decision(); d != "" {
		dv := decisionView{Decision: audit.Printable(d), Class: decisionClass(d), Rule: audit.Printable(e.PolicyRule), Reason: audit.Printable(e.Reason)}
		if !containsDecision(c.Decisions, dv) {
			c.Decisions = append(c.Decisions, dv)
		}
		if rank(dv.Class) > rank(c.Class) {
			c.Class = dv.Class
		}
		if d == audit.DecisionDeny && c.Outcome == "" {
			c.Outcome = "blocked by the bridge"
		}
	}
	if e.Action == "context.compress" {
		c.Kind = "compress"
		c.Saved = compressText(e.Output)
	}
}

func containsDecision(ds []decisionView, d decisionView) bool {
	for _, x := range ds {
		if x.Decision == d.Decision && x.Rule == d.Rule && x.Reason == d.Reason {
			return true
		}
	}
	return false
}

// decisionClass maps a decision to one of four fixed CSS classes: the
// class comes from the decision value, never from other text in the log.
func decisionClass(d string) string {
	switch d {
	case audit.DecisionDeny:
		return "deny"
	case audit.DecisionRequireApproval, audit.DecisionEscalate:
		return "ask"
	case audit.DecisionAllow:
		return "allow"
	}
	return "none"
}

func rank(class string) int {
	switch class {
	case "deny":
		return 3
	case "ask":
		return 2
	case "allow":
		return 1
	}
	return 0
}

// newRecView makes the row of one record.
func newRecView(e *shownEntry) recView {
	rv := recView{Seq: e.Seq, Action: audit.Printable(e.Action), Actor: audit.Printable(e.Actor.ID),
		Decision: audit.Printable(e.Decision()), Class: decisionClass(e.Decision()),
		Where: fmt.Sprintf("%s:%d", audit.Printable(e.File), e.Line), Unverified: !e.trusted}
	rv.Time = audit.Printable(e.TS)
	if !e.Time.IsZero() {
		rv.Time = e.Time.UTC().Format("2006-01-02 15:04:05.000Z")
	}
	rv.RawURL = fmt.Sprintf("raw?log=%d&rec=%d", e.log, e.pos)
	rv.Detail = audit.Printable(clip(oneLine(cmp.Or(target(&e.Entry), jsonText(e.Input))), 300))
	if e.Reason != "" {
		rv.Detail += " — " + audit.Printable(clip(e.Reason, 300))
	}
	return rv
}

// jsonLines indents a JSON value and makes each line printable, keeping
// at most max lines.
func jsonLines(raw []byte, max int) []string {
	var b bytes.Buffer
	if json.Indent(&b, raw, "", "  ") != nil {
		b.Reset()
		b.Write(raw)
	}
	lines := strings.Split(b.String(), "\n")
	if len(lines) > max {
		lines = append(lines[:max], fmt.Sprintf("… %d more lines", len(lines)-max))
	}
	for i, l := range lines {
		lines[i] = audit.Printable(l)
	}
	return lines
}

// jsonText is a JSON value as the terminal views show it (audit.Text).
func jsonText(raw []byte) string { return audit.Text(raw) }

// resultText summarizes a tool call's result.
func resultText(raw []byte) string {
	var items []struct {
		Type    string `json:"type"`
		Path    string `json:"path"`
		Content struct {
			Text string `json:"text"`
		} `json:"content"`
	}
	if json.Unmarshal(raw, &items) == nil && len(items) > 0 {
		var parts []string
		for _, it := range items {
			switch {
			case it.Type == "diff":
				parts = append(parts, "diff of "+it.Path)
			case it.Content.Text != "":
				parts = append(parts, oneLine(it.Content.Text))
			default:
				parts = append(parts, it.Type)
			}
		}
		return strings.Join(parts, "; ")
	}
	return oneLine(jsonText(raw))
}

func oneLine(s string) string { return audit.OneLine(s) }

func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && n < len(s) && s[n]&0xC0 == 0x80 {
		n--
	}
	return s[:n] + "…"
}

// compressText says what a context.compress event saved.
func compressText(out []byte) string {
	var o struct {
		TokensBefore *int64   `json:"tokensBefore"`
		TokensAfter  *int64   `json:"tokensAfter"`
		TokensSaved  *int64   `json:"tokensSaved"`
		FilesCreated []string `json:"filesCreated"`
	}
	if json.Unmarshal(out, &o) != nil || o.TokensSaved == nil {
		return ""
	}
	s := fmt.Sprintf("%d tokens saved", *o.TokensSaved)
	if o.TokensBefore != nil && o.TokensAfter != nil {
		s += fmt.Sprintf(" (%d → %d)", *o.TokensBefore, *o.TokensAfter)
	}
	if len(o.FilesCreated) > 0 {
		s += "; offloaded to " + audit.Printable(strings.Join(o.FilesCreated, ", "))
	}
	return s
}
