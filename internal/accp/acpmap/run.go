package acpmap

import (
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/acp-bridge/acp-bridge/internal/accp"
)

// Runs: section 3.5 requires the envelope (mid, seq, ts: about 18 o200k
// tokens) on every frame, so the only conformant way to pay it less often
// is to carry several messages in one frame. A run frame holds consecutive
// messages of one sender:
//
//	run   = "@" agent ">sync:run{m:[" entry *("," entry) "]}" metadata
//	entry = intent "_" operation ":{" [param *("," param)] "}"   ; a pair
//
// Each entry is the message's own frame with its header folded into the
// pair key (req:tool becomes req_tool) and its params written as a map;
// the message's cid and sid, which would have been in its envelope, are
// map entries "cid" and "sid" (no mapping row uses those param names). The
// run's envelope has mid, seq and the ts of its first message. Everything
// is a value of the draft's grammar (a pair in an array, as in 3.2), so a
// run frame parses with the strict parser, and decoding it gives the
// messages in order, each equal to what its own frame would give. A run of
// one message is written as that message's ordinary frame.

const (
	runOp  = "run"
	runKey = "m"
)

// RunOptions configure a RunEncoder.
type RunOptions struct {
	// MaxBodyTokens bounds the o200k tokens of a run frame's body
	// (":run{...}"); a run ends before a message that would push it over.
	// Optional: if zero, accp.BodyHardTokens (200), which with the header
	// and envelope keeps a run within the 240-token hard frame limit of
	// section 3.4. Negative means no token bound: runs end when the sender
	// changes, or before the run frame would go over Limits.
	MaxBodyTokens int
}

// RunEncoder groups consecutive messages of one sender into run frames. A
// run ends when the sender changes, when the next message would take its
// body over RunOptions.MaxBodyTokens, the frame over Limits (bytes,
// values), its refs over Options.MaxRefBytes or its JSON over
// Options.MaxJSONBytes (a decoder budgets both over a whole frame), and on
// Flush. A message whose frame alone is over the token
// bound, or nests too deeply to go two levels down into a run, leaves as
// its own frame at once. It is safe for concurrent use; frames come out
// in message order, numbered as they were added.
type RunEncoder struct {
	enc     *Encoder
	maxBody int

	mu      sync.Mutex // guards the fields below, and orders e's numbering with sealing
	agent   string     // the sender of the pending run
	pending []runEntry
	bytes   int    // canonical text of the pending entries, with their commas
	elems   int    // values of the pending entries
	refs    extent // what the refs of the pending entries stand for, summed
	json    int    // the JSON the pending entries decode to, summed
}

type runEntry struct {
	f    *accp.Frame
	env  accp.Envelope
	val  accp.Value  // the entry as it appears in a run
	ext  accp.Extent // val's
	refs extent      // what the refs in val stand for (see Options.Refs)
	json int         // the JSON it decodes to, as frameJSONSize counts it
}

// Runs returns a RunEncoder that numbers its frames in e's session. Do not
// mix it with e's own Encode calls: a pending run would then leave after
// later messages.
func (e *Encoder) Runs(opt RunOptions) *RunEncoder {
	max := opt.MaxBodyTokens
	if max == 0 {
		max = accp.BodyHardTokens
	}
	return &RunEncoder{enc: e, maxBody: max}
}

// Add maps one JSON-RPC message and returns the frames it completes: none
// while the message joins the pending run, otherwise the run it ends (and
// the message's own frame when that alone is over the bound). ts is the
// time the message was seen (zero: now); a run frame carries the time of
// its first message.
func (r *RunEncoder) Add(msg []byte, dir Direction, ts time.Time) ([]string, error) {
	x, err := accp.DecodeJSON(trimEOL(msg))
	if err != nil {
		return nil, fmt.Errorf("encoding ACP message: not JSON: %v", err)
	}
	return r.AddValue(x, dir, ts)
}

// runOverhead is the text of a run frame around its entries, with room
// for the envelope at its widest: "@" agent ">sync:run{m:[" "]}" and
// "[mid:...,seq:...,ts:...]".
func runOverhead(agent string) int { return len(agent) + len("@>sync:run{m:[]}") + 80 }

// AddValue is Add for a message already decoded with accp.DecodeJSON.
func (r *RunEncoder) AddValue(x any, dir Direction, ts time.Time) ([]string, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	// The message is numbered now and sealed in the order it was added.
	r.enc.mu.Lock()
	f, env, size, err := r.enc.frame(x, dir)
	var refs extent
	if err == nil && r.enc.refs != nil {
		refs = r.enc.refs.messageRefs()
	}
	r.enc.mu.Unlock()
	if err != nil {
		return nil, err
	}
	if !ts.IsZero() {
		env.TS = ts.Unix() // zero: Seal stamps the frame when it leaves
	}
	e := runEntry{f: f, env: env, val: entryValue(f, env), refs: refs, json: size}
	e.ext = accp.MeasureValue(e.val)
	var out []string
	if len(r.pending) > 0 && (r.agent != f.Agent || !r.fits(e)) {
		if out, err = r.flushLocked(out); err != nil {
			return out, err
		}
	}
	// In a run the entry's values sit two levels down (m:[ and the
	// entry's map); frame() made sure it fits on its own.
	alone := 1+e.ext.Depth > Limits.MaxDepth
	if !alone && r.maxBody >= 0 {
		// Text no longer than the bound is within it; a message's own
		// frame (whose body is shorter than its entry) is measured before
		// the run it would join.
		switch {
		case len(":run{m:[]}")+r.bytes+1+e.ext.Bytes <= r.maxBody:
		case e.ext.Bytes > r.maxBody && bodyOver(e.f.String(), r.maxBody):
			alone = true
		case len(r.pending) > 0 && bodyOver(runFrame(r.agent, append(r.pending[:len(r.pending):len(r.pending)], e)).String(), r.maxBody):
			if out, err = r.flushLocked(out); err != nil {
				return out, err
			}
		}
	}
	if alone {
		if out, err = r.flushLocked(out); err != nil {
			return out, err
		}
	}
	if len(r.pending) > 0 {
		r.bytes++ // the comma
	}
	r.pending = append(r.pending, e)
	r.agent = f.Agent
	r.bytes += e.ext.Bytes
	r.elems += e.ext.Elements
	r.refs.add(e.refs)
	r.json += e.json
	if alone {
		return r.flushLocked(out)
	}
	return out, nil
}

// fits reports whether e can join the pending run within Limits, the refs
// budget and Options.MaxJSONBytes, the last two of which a decoder applies
// to the whole run frame.
func (r *RunEncoder) fits(e runEntry) bool {
	return runOverhead(r.agent)+r.bytes+1+e.ext.Bytes <= Limits.MaxFrameBytes &&
		1+r.elems+e.ext.Elements+7 <= Limits.MaxElements &&
		(r.enc.refs == nil || r.enc.refs.withinBudget(r.refs, e.refs)) &&
		r.json+e.json <= r.enc.maxJSON
}

// Flush returns the pending run as a frame (none if nothing is pending).
// Call it at the end of the input, or whenever the frames must leave.
func (r *RunEncoder) Flush() ([]string, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.flushLocked(nil)
}

func (r *RunEncoder) flushLocked(out []string) ([]string, error) {
	pending := r.pending
	r.pending, r.bytes, r.elems, r.refs, r.json = r.pending[:0], 0, 0, extent{}, 0
	switch len(pending) {
	case 0:
		return out, nil
	case 1:
		line, err := r.enc.sess.Seal(pending[0].f, pending[0].env)
		if err != nil {
			return out, err
		}
		return append(out, line), nil
	}
	f := runFrame(r.agent, pending)
	env := accp.Envelope{TS: pending[0].env.TS}
	if err := r.enc.sess.Check(f, env); err != nil {
		return out, fmt.Errorf("run frame of %d messages over the limits: %w", len(pending), err)
	}
	line, err := r.enc.sess.Seal(f, env)
	if err != nil {
		return out, err
	}
	return append(out, line), nil
}

// bodyOver reports whether the body of the frame text line (no metadata)
// is over max o200k tokens. A token is 1 to accp.MaxTokenBytes() bytes,
// so only a body whose length leaves that open is tokenized: the tokens
// starting in the body cover all of it but what a token starting in the
// header takes, under one token's length.
func bodyOver(line string, max int) bool {
	_, body, _ := strings.Cut(line, ":")
	switch {
	case len(body) <= max:
		return false
	case len(body) > (max+2)*accp.MaxTokenBytes():
		return true
	}
	return accp.MeasureFrame(line).Body > max
}

func runFrame(agent string, entries []runEntry) *accp.Frame {
	items := make([]accp.Value, len(entries))
	for i, e := range entries {
		items[i] = e.val
	}
	return &accp.Frame{Agent: agent, Intent: "sync", Op: runOp, Params: []accp.Field{{Key: runKey, Val: accp.Array(items...)}}}
}

// entryValue is the pair a message's frame becomes inside a run.
func entryValue(f *accp.Frame, env accp.Envelope) accp.Value {
	fields := make([]accp.Field, 0, len(f.Params)+2)
	fields = append(fields, f.Params...)
	if env.CID.Kind != accp.KindNull {
		fields = append(fields, accp.Field{Key: "cid", Val: env.CID})
	}
	if env.SID != "" {
		fields = append(fields, accp.Field{Key: "sid", Val: accp.String(env.SID)})
	}
	return accp.Value{Kind: accp.KindPair, Fields: []accp.Field{{Key: f.Intent + "_" + f.Op, Val: accp.Map(fields...)}}}
}

// isRun reports whether f is a run frame.
func isRun(f *accp.Frame) bool { return f.Intent == "sync" && f.Op == runOp }

// runLen returns the number of entries of a run frame, or -1 when it is
// not shaped as one.
func runLen(f *accp.Frame) int {
	if len(f.Params) != 1 || f.Params[0].Key != runKey || f.Params[0].Val.Kind != accp.KindArray {
		return -1
	}
	return len(f.Params[0].Val.List)
}

// runEntries returns the frames and envelopes of a run frame's messages.
func runEntries(f *accp.Frame) ([]*accp.Frame, []accp.Envelope, error) {
	if len(f.Params) != 1 || f.Params[0].Key != runKey || f.Params[0].Val.Kind != accp.KindArray {
		return nil, nil, fmt.Errorf("a run frame holds exactly one param %s, an array", runKey)
	}
	list := f.Params[0].Val.List
	if len(list) == 0 {
		return nil, nil, fmt.Errorf("empty run")
	}
	frames := make([]*accp.Frame, len(list))
	envs := make([]accp.Envelope, len(list))
	for i, item := range list {
		if item.Kind != accp.KindPair || item.Fields[0].Val.Kind != accp.KindMap {
			return nil, nil, fmt.Errorf("run entry %d is not intent_op:{...}", i+1)
		}
		intent, op, ok := strings.Cut(item.Fields[0].Key, "_")
		if !ok || byFrame[[2]string{intent, op}] == nil {
			return nil, nil, fmt.Errorf("run entry %d: no ACP mapping for %q", i+1, item.Fields[0].Key)
		}
		g := &accp.Frame{Agent: f.Agent, Intent: intent, Op: op}
		for _, fd := range item.Fields[0].Val.Fields {
			switch fd.Key {
			case "cid":
				if fd.Val.Kind != accp.KindInt && fd.Val.Kind != accp.KindString {
					return nil, nil, fmt.Errorf("run entry %d: cid must be an integer or a string, got %s", i+1, fd.Val.Kind)
				}
				envs[i].CID = fd.Val
			case "sid":
				if fd.Val.Kind != accp.KindString {
					return nil, nil, fmt.Errorf("run entry %d: sid must be a string, got %s", i+1, fd.Val.Kind)
				}
				envs[i].SID = fd.Val.Str
			default:
				g.Params = append(g.Params, fd)
			}
		}
		frames[i] = g
	}
	return frames, envs, nil
}

func trimEOL(b []byte) []byte {
	for len(b) > 0 && (b[len(b)-1] == '\n' || b[len(b)-1] == '\r') {
		b = b[:len(b)-1]
	}
	return b
}
