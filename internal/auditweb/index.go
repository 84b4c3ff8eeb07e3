package auditweb

import (
	"context"
	"fmt"
	"os"
	"strings"
	"sync"

	"github.com/acp-bridge/acp-bridge/internal/audit"
)

// record is what the index keeps of one line of a log: where it is and
// the values the filters read, never the record itself.
type record struct {
	off   int64
	ms    int64 // ts in Unix milliseconds; 0 when it does not parse
	seq   int64
	size  int32
	file  int32
	line  int32
	group int32 // session group, -1 for none
	// Interned strings (see strTable).
	run, action, actor, tool, approver, decision int32
	flags                                        uint8
}

// Record flags.
const (
	flagEvent     = 1 << iota // the line decodes as an audit event
	flagLifecycle             // audit.Entry.IsLifecycle
	flagPrompt                // audit.Entry.IsPrompt
)

// strTable interns the short strings the index keeps (actions, actors,
// tools, decisions), so a record holds numbers, not strings.
type strTable struct {
	ids  map[string]int32
	strs []string
}

func (t *strTable) id(s string) int32 {
	if t.ids == nil {
		t.ids = map[string]int32{"": 0}
		t.strs = []string{""}
	}
	if id, ok := t.ids[s]; ok {
		return id
	}
	id := int32(len(t.strs))
	t.ids[s] = id
	t.strs = append(t.strs, s)
	return id
}

// indexedFile is one file of a log's chain as far as it was indexed.
type indexedFile struct {
	name string
	f    *os.File // open for reading, so a rename (rotation) keeps it valid
	fi   os.FileInfo
	size int64 // bytes of complete lines indexed
	// torn is the size of bytes after the last newline (a line being
	// written, or cut short by a crash).
	torn  int64
	lines int
}

// group is one session in one bridge run.
type group struct {
	run, session string
	recs         []int32
	summary      audit.SessionSummary
	cwd          string
	runInfo      audit.RunInfo
	// tally counts the session's records while the index is collecting.
	tally *audit.SessionTally
	// dirty is set when records were added since summary was computed.
	dirty bool
}

type groupKey struct{ run, session string }

// logIndex indexes one audit log (an active file and its rotations) and
// follows it as it grows and rotates. It is safe for concurrent use.
type logIndex struct {
	base string
	// refreshing serializes refresh: one indexer at a time appends.
	refreshing sync.Mutex

	mu        sync.RWMutex // guards the fields below
	files     []*indexedFile
	recs      []record
	strs      strTable
	groups    []*group
	groupOf   map[groupKey]int32
	summaries bool // groups' summaries are up to date
	// collecting is set while the first indexing pass tallies each
	// group's summary as it goes, so that the first summaries need neither
	// the records kept nor every line decoded a second time.
	collecting bool
	// loading is set until the first indexing pass is done (see load);
	// loaded is closed then.
	loading bool
	loaded  chan struct{}
	// loadTotal is the size of the log's files when the first pass began.
	loadTotal int64
	// runRecs keeps, per run, the few records audit.Runs names the run's
	// agent from (agent.info, bridge.start, the first record of an
	// operator), so a change to one session does not mean reading the
	// whole log again.
	runRecs map[string][]audit.Entry
	ver     verifyState
	resets  int // counts resets, so a verification of older lines is not published
	version uint64
	changed chan struct{} // closed and replaced on each change
}

func newLogIndex(base string) *logIndex {
	return &logIndex{base: base, groupOf: make(map[groupKey]int32), changed: make(chan struct{}), loaded: make(chan struct{})}
}

// notify tells waiters (live pages) that the log changed. Called with mu
// held for writing.
func (x *logIndex) notify() {
	x.version++
	close(x.changed)
	x.changed = make(chan struct{})
}

// watch returns the current version and a channel closed at the next
// change.
func (x *logIndex) watch() (uint64, <-chan struct{}) {
	x.mu.RLock()
	defer x.mu.RUnlock()
	return x.version, x.changed
}

// stepBytes is about how much of a log one refresh step indexes under the
// write lock, so that pages are answered, and show progress, while a long
// log is first read. Only tests change it.
var stepBytes = 4 << 20

// refresh indexes what was appended to the log since the last call,
// following rotations; when the files no longer continue what was indexed
// (a file replaced or truncated) it indexes the log again from the start.
// It reports whether anything changed. It takes the write lock for one
// step of about stepBytes at a time; calls are serialized.
func (x *logIndex) refresh() (bool, error) { return x.refreshUntil(context.Background()) }

// refreshUntil is refresh that stops between steps once ctx is done.
func (x *logIndex) refreshUntil(ctx context.Context) (bool, error) {
	x.refreshing.Lock()
	defer x.refreshing.Unlock()
	names, err := chainFiles(x.base)
	if err != nil {
		return false, err
	}
	changed := false
	for {
		more, grew, err := x.refreshStep(names)
		changed = changed || grew
		if err != nil || !more {
			return changed, err
		}
		if err := ctx.Err(); err != nil {
			return changed, err
		}
	}
}

// refreshStep indexes up to about stepBytes of names beyond what was
// indexed, and reports whether more is left.
func (x *logIndex) refreshStep(names []string) (more, changed bool, err error) {
	x.mu.Lock()
	defer x.mu.Unlock()
	if !x.continues(names) {
		x.reset()
	}
	budget := int64(stepBytes)
	for i, name := range names {
		if i == len(x.files) {
			f, fi, err := openRegular(name)
			if err != nil {
				return false, changed, err
			}
			x.files = append(x.files, &indexedFile{name: name, f: f, fi: fi})
			changed = true
		}
		xf := x.files[i]
		if xf.name != name {
			xf.name = name // rotated: same file, new name
			changed = true
		}
		grew, err := x.indexFile(int32(i), &budget)
		changed = changed || grew
		if err != nil {
			return false, changed, err
		}
		if budget <= 0 {
			more = true
			break
		}
	}
	if changed {
		x.summaries = false
		x.notify()
	}
	return more, changed, nil
}

// continues reports whether names (the chain on disk now) continue the
// files indexed so far: the same files, in the same order, none shorter.
func (x *logIndex) continues(names []string) bool {
	if len(names) < len(x.files) {
		return false
	}
	for i, xf := range x.files {
		fi, err := os.Lstat(names[i])
		if err != nil || !os.SameFile(fi, xf.fi) || fi.Size() < xf.size {
			return false
		}
	}
	return true
}

// reset forgets everything indexed. Called with mu held.
func (x *logIndex) reset() {
	for _, xf := range x.files {
		xf.f.Close()
	}
	x.files, x.recs, x.strs, x.groups = nil, nil, strTable{}, nil
	x.groupOf = make(map[groupKey]int32)
	x.ver = verifyState{}
	x.collecting = false
	x.runRecs = nil
	x.resets++
	x.summaries = false
	x.notify()
}

// indexFile indexes the complete lines of file i after what was indexed,
// until their bytes reach *budget, which it decreases. The lines are
// decoded ahead, on another core (readAhead).
func (x *logIndex) indexFile(i int32, budget *int64) (bool, error) {
	xf := x.files[i]
	grew := false
	for b := range readAhead(xf.f, xf.name, xf.size, xf.lines, *budget) {
		for k := range b.lines {
			pl := &b.lines[k]
			xf.lines++
			x.add(i, xf.size, pl, xf.lines)
			xf.size += pl.size
			*budget -= pl.size
			xf.torn = 0
			grew = true
		}
		if b.atEOF {
			xf.torn = b.torn
		}
		if b.end {
			return grew, b.err
		}
	}
	return grew, nil
}

// add indexes line n of file, at off.
func (x *logIndex) add(file int32, off int64, pl *parsedLine, n int) {
	r := record{off: off, size: int32(pl.size - 1), file: file, line: int32(n), group: -1, seq: -1}
	if e := &pl.entry; pl.ok {
		x.noteRun(e)
		r.flags |= flagEvent
		if e.IsLifecycle() {
			r.flags |= flagLifecycle
		}
		if e.IsPrompt() {
			r.flags |= flagPrompt
		}
		r.seq = e.Seq
		if !e.Time.IsZero() {
			r.ms = e.Time.UnixMilli()
		}
		r.run = x.strs.id(e.RunID)
		r.action = x.strs.id(e.Action)
		r.actor = x.strs.id(e.Actor.ID)
		r.tool = x.strs.id(e.Tool())
		r.decision = x.strs.id(e.Decision())
		if tc := e.ToolCall; tc != nil && tc.Approval != "" {
			r.approver = x.strs.id(tc.Approval)
		}
		if e.Session != "" {
			k := groupKey{e.RunID, e.Session}
			g, ok := x.groupOf[k]
			if !ok {
				g = int32(len(x.groups))
				x.groupOf[k] = g
				x.groups = append(x.groups, &group{run: e.RunID, session: e.Session})
			}
			r.group = g
			x.groups[g].recs = append(x.groups[g].recs, int32(len(x.recs)))
			x.groups[g].dirty = true
			if x.collecting {
				x.tally(x.groups[g], e)
			}
		}
	}
	x.recs = append(x.recs, r)
}

// line reads the line of record pos. Called with mu held.
func (x *logIndex) line(pos int32) ([]byte, error) {
	r := x.recs[pos]
	xf := x.files[r.file]
	buf := make([]byte, r.size)
	if _, err := xf.f.ReadAt(buf, r.off); err != nil {
		return nil, fmt.Errorf("reading %s: %v", xf.name, err)
	}
	return buf, nil
}

// entry reads and decodes record pos. Called with mu held.
func (x *logIndex) entry(pos int32) (audit.Entry, error) {
	raw, err := x.line(pos)
	if err != nil {
		return audit.Entry{}, err
	}
	e, _ := audit.ParseEntry(raw)
	e.Raw = raw
	r := x.recs[pos]
	e.File, e.Line = x.files[r.file].name, int(r.line)
	return e, nil
}

// noteRun keeps e in runRecs when audit.Runs would learn the run's agent
// or command from it. Called with mu held.
func (x *logIndex) noteRun(e *audit.Entry) {
	if x.runRecs == nil {
		x.runRecs = make(map[string][]audit.Entry)
	}
	recs := x.runRecs[e.RunID]
	keep := e.Action == audit.AgentInfoAction || e.Action == "bridge.start"
	if !keep && e.Actor.Role == "operator" {
		keep = true
		for i := range recs {
			if recs[i].Actor.Role == "operator" && recs[i].Action != audit.AgentInfoAction && recs[i].Action != "bridge.start" {
				keep = false // only the first can name the agent
				break
			}
		}
	}
	if keep {
		x.runRecs[e.RunID] = append(recs, slimEntry(*e))
	}
}

// ensureSummaries brings the session summaries up to date: audit.Sessions
// (each decision counted once) over the records of every session that
// changed, and audit.Runs for the agents. At start the first indexing
// pass has collected what they need; later only the sessions that gained
// records are read again.
func (x *logIndex) ensureSummaries() error {
	x.mu.RLock()
	done := x.summaries
	x.mu.RUnlock()
	if done {
		return nil
	}
	x.mu.Lock()
	defer x.mu.Unlock()
	if x.summaries {
		return nil
	}
	runs := make(map[string]audit.RunInfo)
	for id, recs := range x.runRecs {
		if r := audit.Runs(recs); len(r) > 0 {
			runs[id] = r[0]
		}
	}
	if x.collecting {
		// While the first pass runs, its tallies give the summaries so
		// far; once it is done they give the summaries and go.
		for _, g := range x.groups {
			if g.tally != nil {
				g.summary = g.tally.Summary()
			}
			g.dirty = false
			if !x.loading {
				g.tally = nil
			}
		}
		x.collecting = x.loading
	}
	for _, g := range x.groups {
		if !g.dirty {
			continue
		}
		slim := make([]audit.Entry, 0, len(g.recs))
		for _, pos := range g.recs {
			e, err := x.entry(pos)
			if err != nil {
				return err
			}
			slim = append(slim, slimEntry(e))
		}
		x.summarize(slim)
		g.dirty = false
	}
	for _, g := range x.groups {
		g.runInfo = runs[g.run]
		g.summary.Agent = g.runInfo.Agent
	}
	x.summaries = true
	return nil
}

// tally adds e to g's tally and notes g's cwd, as summarize does. Called
// with mu held.
func (x *logIndex) tally(g *group, e *audit.Entry) {
	if g.tally == nil {
		g.tally = audit.NewSessionTally(g.run, g.session)
	}
	g.tally.Add(e)
	if g.cwd == "" && (e.Action == "session.new" || e.Action == "session.start" || e.Action == "session.load") {
		g.cwd = e.Subject.Path
	}
}

// summarize sets the summary and cwd of the sessions of slim. Called with
// mu held.
func (x *logIndex) summarize(slim []audit.Entry) {
	for _, s := range audit.Sessions(slim) {
		if g, ok := x.groupOf[groupKey{s.Run, s.ID}]; ok {
			x.groups[g].summary = s
		}
	}
	for i := range slim {
		e := &slim[i]
		if e.Session == "" || (e.Action != "session.new" && e.Action != "session.start" && e.Action != "session.load") {
			continue
		}
		if g, ok := x.groupOf[groupKey{e.RunID, e.Session}]; ok && x.groups[g].cwd == "" {
			x.groups[g].cwd = e.Subject.Path
		}
	}
}

// slimEntry keeps of e what audit.Sessions and audit.Runs read.
func slimEntry(e audit.Entry) audit.Entry {
	e.Raw, e.Output, e.Metadata, e.Reason, e.PolicyRule = nil, nil, nil, "", ""
	e.Schema, e.Doctype, e.TS, e.PrevHash, e.HashAlg, e.MetadataHash, e.File = "", "", "", "", "", "", ""
	if e.Decision() == "" && e.Action != audit.AgentInfoAction && e.Action != "bridge.start" {
		e.Input = nil
	}
	if tc := e.ToolCall; tc != nil {
		e.ToolCall = &audit.ToolCallRecord{ToolCallID: tc.ToolCallID, Approval: tc.Approval, Arguments: tc.Arguments, Tool: tc.Tool}
	}
	return e
}

// str returns interned string id. Called with mu held.
func (x *logIndex) str(id int32) string { return x.strs.strs[id] }

// lowerContains reports whether line contains q, ASCII case folded; q is
// lower case.
func lowerContains(line []byte, q string) bool {
	return strings.Contains(strings.ToLower(string(line)), q)
}
