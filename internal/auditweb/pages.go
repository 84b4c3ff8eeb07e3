package auditweb

import (
	"bytes"
	"embed"
	"fmt"
	"html/template"
	"io"
	"io/fs"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/acp-bridge/acp-bridge/internal/audit"
)

//go:embed assets
var assets embed.FS

// pages holds the parsed templates.
type pages struct {
	sessions, timeline *template.Template
}

func loadPages() (*pages, error) {
	parse := func(name string) (*template.Template, error) {
		t, err := template.ParseFS(assets, "assets/templates/layout.html", "assets/templates/"+name)
		if err != nil {
			return nil, fmt.Errorf("audit serve: templates: %v", err)
		}
		return t, nil
	}
	var p pages
	var err error
	if p.sessions, err = parse("sessions.html"); err != nil {
		return nil, err
	}
	if p.timeline, err = parse("timeline.html"); err != nil {
		return nil, err
	}
	return &p, nil
}

// staticHandler serves the embedded style sheet and script.
func staticHandler() http.Handler {
	sub, err := fs.Sub(assets, "assets/static")
	if err != nil {
		panic(err) // the embedded tree is fixed at build time
	}
	return http.FileServerFS(sub)
}

// render executes t into a buffer first, so a failure is a clean 500.
func (s *Server) render(w http.ResponseWriter, t *template.Template, data any) {
	var b bytes.Buffer
	if err := t.ExecuteTemplate(&b, "layout", data); err != nil {
		s.logger.Error("audit serve: rendering", "err", err)
		http.Error(w, "500 internal error: rendering the page failed", http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Write(b.Bytes())
}

// sessionRow is one session in one bridge run on the sessions page.
type sessionRow struct {
	URL                               string
	ID, Run, Agent, AgentNote, Cwd    string
	Start, End                        string
	Events, Prompts, ToolCalls        int
	Allowed, Asked, Denied, Approvals int
	Refusals                          int
	ChainState, ChainText             string
}

// logView is one log on the sessions page.
type logView struct {
	Index    int
	Name     string
	Records  int
	Chain    chainStatus
	Sessions []sessionRow
	AllURL   string
}

type sessionsData struct {
	Title string
	Logs  []logView
	// Events is the live-update URL of the page (all logs).
	Events string
}

func fmtTime(t time.Time) string {
	if t.IsZero() {
		return "-"
	}
	return t.UTC().Format("2006-01-02 15:04:05Z")
}

// shownID is how a session id is shown: as it is when it is a plain
// token, else quoted in ASCII (audit.Quoted), so that two ids that differ
// by a look-alike letter, a combining mark or a character that prints as
// nothing do not read as one; nothing for no session.
func shownID(id string) string {
	if id == "" {
		return ""
	}
	return audit.Quoted(id)
}

// row describes group g. Called with x.mu held and summaries computed.
func (x *logIndex) row(li int, g *group) sessionRow {
	s := g.summary
	r := sessionRow{ID: shownID(g.session), Run: audit.Printable(g.run), Agent: audit.Printable(s.Agent),
		Cwd: audit.Printable(g.cwd), Start: fmtTime(s.Start), End: fmtTime(s.End), Events: s.Events,
		Prompts: s.Prompts, ToolCalls: s.ToolCalls, Approvals: s.Approvals, Refusals: s.Refusals,
		Allowed: s.Decisions[audit.DecisionAllow], Asked: s.Decisions[audit.DecisionRequireApproval] + s.Decisions[audit.DecisionEscalate],
		Denied: s.Decisions[audit.DecisionDeny]}
	if g.runInfo.Reported {
		r.AgentNote = "as the agent reported itself (agentInfo)"
	}
	q := query{Log: li, Run: g.run, Session: g.session}
	r.URL = "timeline?" + q.values(0).Encode()
	// The chain status of the files the session lives in.
	st := x.status()
	files := make(map[int32]bool)
	for _, pos := range g.recs {
		files[x.recs[pos].file] = true
	}
	r.ChainState = "ok"
	for f := range files {
		fs := st.Files[f]
		if rank(stateRank(fs.State)) > rank(stateRank(r.ChainState)) {
			r.ChainState, r.ChainText = fs.State, fs.Name+": "+fs.Text
		}
	}
	if r.ChainState == "ok" {
		r.ChainText = "every record of this session verified"
		for _, pos := range g.recs {
			if !x.trusted(int(pos)) {
				r.ChainState, r.ChainText = "verifying", "not all records verified yet"
				break
			}
		}
	}
	return r
}

// stateRank maps a chain state to a decision class, to reuse rank.
func stateRank(state string) string {
	switch state {
	case "broken", "unverified":
		return "deny"
	case "verifying":
		return "ask"
	}
	return "allow"
}

func (s *Server) handleSessions(w http.ResponseWriter, r *http.Request) {
	data := sessionsData{Title: "Audit sessions"}
	var version uint64
	for li, x := range s.logs {
		if err := x.ensureSummaries(); err != nil {
			s.fail(w, err)
			return
		}
		x.mu.RLock()
		version += x.version
		lv := logView{Index: li, Name: audit.Printable(x.base), Records: len(x.recs), Chain: x.status(),
			AllURL: "timeline?" + query{Log: li}.values(0).Encode()}
		for _, g := range x.groups {
			lv.Sessions = append(lv.Sessions, x.row(li, g))
		}
		x.mu.RUnlock()
		data.Logs = append(data.Logs, lv)
	}
	data.Events = "events?" + url.Values{"since": {fmt.Sprint(version)}}.Encode()
	s.render(w, s.pages.sessions, data)
}

func (s *Server) fail(w http.ResponseWriter, err error) {
	s.logger.Error("audit serve", "err", err)
	http.Error(w, "500 internal error: "+audit.Printable(err.Error()), http.StatusInternalServerError)
}

// timelineData is the timeline page.
type timelineData struct {
	Title     string
	LogName   string
	Session   *sessionRow
	Chain     chainStatus
	Q         query
	Decisions []string
	Turns     []*turnView
	Total     int
	From, To  int
	Prev      string
	Next      string
	JSONL     string
	CSV       string
	Events    string
	Clear     string
	Err       string
}

func (s *Server) handleTimeline(w http.ResponseWriter, r *http.Request) {
	q, err := parseQuery(r.URL.Query(), len(s.logs))
	data := timelineData{Title: "Audit timeline", Q: q,
		Decisions: []string{"any", audit.DecisionAllow, audit.DecisionRequireApproval, audit.DecisionEscalate, audit.DecisionDeny}}
	if err != nil {
		w.WriteHeader(http.StatusBadRequest)
		data.Err = err.Error()
		s.render(w, s.pages.timeline, data)
		return
	}
	x := s.logs[q.Log]
	if err := x.ensureSummaries(); err != nil {
		s.fail(w, err)
		return
	}
	x.mu.RLock()
	defer x.mu.RUnlock()
	data.LogName = audit.Printable(x.base)
	data.Chain = x.status()
	data.Events = "events?" + url.Values{"log": {fmt.Sprint(q.Log)}, "since": {fmt.Sprint(x.version)}}.Encode()
	data.Clear = "timeline?" + query{Log: q.Log, Run: q.Run, Session: q.Session}.values(0).Encode()
	if q.Session != "" {
		if g, ok := x.groupOf[groupKey{q.Run, q.Session}]; ok {
			row := x.row(q.Log, x.groups[g])
			data.Session = &row
			data.Title = "Session " + row.ID
		}
	}
	sel, err := x.selectRecords(q)
	if err != nil {
		w.WriteHeader(http.StatusNotFound)
		data.Err = err.Error()
		s.render(w, s.pages.timeline, data)
		return
	}
	data.Total = len(sel)
	data.From = min(q.From, len(sel))
	data.To = min(data.From+pageSize, len(sel))
	if data.From > 0 {
		data.Prev = "timeline?" + q.values(max(0, data.From-pageSize)).Encode()
	}
	if data.To < len(sel) {
		data.Next = "timeline?" + q.values(data.To).Encode()
	}
	data.JSONL = "export.jsonl?" + q.values(0).Encode()
	data.CSV = "export.csv?" + q.values(0).Encode()
	shown := make([]shownEntry, 0, data.To-data.From)
	for _, pos := range sel[data.From:data.To] {
		e, err := x.entry(pos)
		if err != nil {
			s.fail(w, err)
			return
		}
		shown = append(shown, shownEntry{Entry: e, trusted: x.trusted(int(pos)), log: q.Log, pos: pos})
	}
	data.Turns = buildTurns(shown)
	s.render(w, s.pages.timeline, data)
}

// handleRaw answers /raw?log=N&rec=I with record I of log N, indented, as
// printable plain text: the raw JSON a timeline row shows on demand, so
// pages do not carry it.
func (s *Server) handleRaw(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	n, err := strconv.Atoi(q.Get("log"))
	if err != nil || n < 0 || n >= len(s.logs) {
		http.Error(w, "404 no such log", http.StatusNotFound)
		return
	}
	x := s.logs[n]
	pos, err := strconv.ParseInt(q.Get("rec"), 10, 32)
	x.mu.RLock()
	if err != nil || pos < 0 || pos >= int64(len(x.recs)) {
		x.mu.RUnlock()
		http.Error(w, "404 no such record", http.StatusNotFound)
		return
	}
	line, err := x.line(int32(pos))
	x.mu.RUnlock()
	if err != nil {
		s.fail(w, err)
		return
	}
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	io.WriteString(w, strings.Join(jsonLines(line, 2000), "\n")+"\n")
}
