package auditweb

import (
	"fmt"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/acp-bridge/acp-bridge/internal/audit"
)

// query is the state of a timeline or export, all of it in the URL so a
// link shows the same view.
type query struct {
	Log      int
	Run      string
	Session  string
	Decision string // allow, deny, require-approval, escalate, or "any" (any decision)
	Tool     string // case-insensitive
	Actor    string // actor id or approver, case-insensitive prefix
	Since    string // as given; sinceT parsed
	Until    string
	Text     string // free text, case-insensitive, in the raw line
	From     int    // paging: position in the filtered list

	sinceMs, untilMs int64
}

// pageSize is how many records one timeline page shows.
const pageSize = 200

// timeLayouts are the forms Since and Until accept: RFC 3339, and what an
// HTML datetime-local input sends (taken as UTC).
var timeLayouts = []string{time.RFC3339Nano, "2006-01-02T15:04:05", "2006-01-02T15:04", "2006-01-02"}

func parseTime(s string) (int64, error) {
	for _, l := range timeLayouts {
		if t, err := time.Parse(l, s); err == nil {
			return t.UnixMilli(), nil
		}
	}
	return 0, fmt.Errorf("%q is not a time (want RFC 3339, e.g. 2026-11-25T17:00:00Z, or 2026-11-25T17:00 in UTC)", audit.Printable(s))
}

// parseQuery reads the view's state from the URL, strictly: an unknown
// decision or a time that does not parse is an error, not an empty view.
func parseQuery(v url.Values, logs int) (query, error) {
	q := query{Run: v.Get("run"), Session: v.Get("session"), Decision: v.Get("decision"),
		Tool: v.Get("tool"), Actor: v.Get("actor"), Since: v.Get("since"), Until: v.Get("until"), Text: v.Get("q")}
	if s := v.Get("log"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil || n < 0 || n >= logs {
			return q, fmt.Errorf("no log %q", audit.Printable(s))
		}
		q.Log = n
	}
	if s := v.Get("from"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil || n < 0 {
			return q, fmt.Errorf("bad page offset %q", audit.Printable(s))
		}
		q.From = n
	}
	switch q.Decision {
	case "", "any", audit.DecisionAllow, audit.DecisionDeny, audit.DecisionRequireApproval, audit.DecisionEscalate:
	default:
		return q, fmt.Errorf("unknown decision %q (want allow, deny, require-approval, escalate or any)", audit.Printable(q.Decision))
	}
	var err error
	if q.Since != "" {
		if q.sinceMs, err = parseTime(q.Since); err != nil {
			return q, err
		}
	}
	if q.Until != "" {
		if q.untilMs, err = parseTime(q.Until); err != nil {
			return q, err
		}
	}
	return q, nil
}

// values is the URL form of q; from sets the page.
func (q query) values(from int) url.Values {
	v := url.Values{}
	set := func(k, s string) {
		if s != "" {
			v.Set(k, s)
		}
	}
	if q.Log != 0 {
		v.Set("log", strconv.Itoa(q.Log))
	}
	set("run", q.Run)
	set("session", q.Session)
	set("decision", q.Decision)
	set("tool", q.Tool)
	set("actor", q.Actor)
	set("since", q.Since)
	set("until", q.Until)
	set("q", q.Text)
	if from > 0 {
		v.Set("from", strconv.Itoa(from))
	}
	return v
}

// filtered reports whether any filter beyond the session is set.
func (q query) filtered() bool {
	return q.Decision != "" || q.Tool != "" || q.Actor != "" || q.Since != "" || q.Until != "" || q.Text != ""
}

// selectRecords returns the positions of the records of x that q keeps,
// in log order. Called with x.mu held.
func (x *logIndex) selectRecords(q query) ([]int32, error) {
	var scope []int32
	all := q.Session == "" && q.Run == ""
	if !all {
		if q.Session == "" {
			// A run's records, sessions or not.
			for pos := range x.recs {
				scope = append(scope, int32(pos))
			}
		} else {
			g, ok := x.groupOf[groupKey{q.Run, q.Session}]
			if !ok {
				return nil, fmt.Errorf("no session %s in run %s", audit.Quoted(q.Session), audit.Quoted(q.Run))
			}
			scope = x.groups[g].recs
		}
	}
	n := len(x.recs)
	if !all {
		n = len(scope)
	}
	tool, actor, text := strings.ToLower(q.Tool), strings.ToLower(q.Actor), strings.ToLower(q.Text)
	var out []int32
	for i := range n {
		pos := int32(i)
		if !all {
			pos = scope[i]
		}
		r := &x.recs[pos]
		if q.Session == "" && q.Run != "" && (r.flags&flagEvent == 0 || x.runOf(pos) != q.Run) {
			continue
		}
		if !x.keep(r, q, tool, actor) {
			continue
		}
		if text != "" {
			line, err := x.line(pos)
			if err != nil {
				return nil, err
			}
			if !lowerContains(line, text) {
				continue
			}
		}
		out = append(out, pos)
	}
	return out, nil
}

// keep applies the filters that the index answers. Called with x.mu held.
func (x *logIndex) keep(r *record, q query, tool, actor string) bool {
	dec := x.str(r.decision)
	switch {
	case q.Decision == "any" && dec == "":
		return false
	case q.Decision != "" && q.Decision != "any" && dec != q.Decision:
		return false
	case tool != "" && strings.ToLower(x.str(r.tool)) != tool:
		return false
	case actor != "" && !strings.HasPrefix(strings.ToLower(x.str(r.actor)), actor) && !strings.HasPrefix(strings.ToLower(x.str(r.approver)), actor):
		return false
	case q.sinceMs != 0 && r.ms < q.sinceMs:
		return false
	case q.untilMs != 0 && (r.ms == 0 || r.ms > q.untilMs):
		return false
	}
	return true
}

// runOf is the run of record pos. Called with x.mu held.
func (x *logIndex) runOf(pos int32) string { return x.str(x.recs[pos].run) }
