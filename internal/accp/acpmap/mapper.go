package acpmap

import (
	"bytes"
	"encoding/json"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"time"

	"github.com/acp-bridge/acp-bridge/internal/accp"
)

// Direction says which way an ACP message travelled.
type Direction uint8

// The directions. Unknown makes the encoder infer the sender from the
// method.
const (
	Unknown Direction = iota
	ClientToAgent
	AgentToClient
)

// ParseDirection reads a recorded transcript's "dir" value:
// "client_to_agent" (or "c2a", "in") and "agent_to_client" (or "a2c",
// "out"); anything else is Unknown.
func ParseDirection(s string) Direction {
	switch strings.ToLower(s) {
	case "client_to_agent", "c2a", "in", "client", "ide_to_agent", "to_agent":
		return ClientToAgent
	case "agent_to_client", "a2c", "out", "agent", "agent_to_ide", "to_client":
		return AgentToClient
	}
	return Unknown
}

// Limits are the parser limits for mapped frames. JSON-RPC payloads nest far
// deeper than the draft's recommended 5 levels (an MCP server's env inside
// session/new is already 5) and carry whole files, so the mapping raises
// them; they still bound the work per frame.
var Limits = accp.Limits{MaxDepth: 64, MaxFrameBytes: 256 << 20, MaxElements: 10_000_000}

// NewRegistry returns a registry that knows the mapping's operations.
func NewRegistry() *accp.Registry {
	r := accp.NewRegistry()
	if err := r.RegisterOperation(Operations()...); err != nil {
		panic(err) // the table's operation names are constants
	}
	return r
}

// Options configure an Encoder or Decoder.
type Options struct {
	// Clock supplies timestamps when a message has none; optional, if nil
	// time.Now.
	Clock func() time.Time
	// Logger receives debug output; optional, nil discards.
	Logger *slog.Logger
	// RandomMID uses random msg ids instead of ids derived from the session
	// id and seq (which make encoding reproducible).
	RandomMID bool
	// Refs makes the encoder write a string, array or map of at least 8
	// bytes that an earlier message of the session already held as "$N", a
	// reference to it (see refs.go); decoders always resolve them.
	Refs bool
	// MaxRefBytes bounds the canonical text the refs of one frame stand
	// for, summed (all the messages of a run frame together): an Encoder
	// writes a value inline rather than as a ref that would take the
	// message over it, a RunEncoder ends a run before a message that would
	// take the run over it, and a Decoder rejects a frame whose refs do
	// (E2003 BUDGET_EXCEEDED). Both ends must use the same bound.
	// Optional: if zero, DefaultMaxRefBytes (16 MiB).
	MaxRefBytes int
	// MaxJSONBytes bounds the JSON one frame decodes to (all the messages
	// of a run frame together), counted before it is built (see
	// json_size.go): a Decoder rejects a frame over it (E2003
	// BUDGET_EXCEEDED), an Encoder refuses a message over it, and a
	// RunEncoder ends a run before a message that would take the run over
	// it. Both ends must use the same bound. Optional: if zero,
	// DefaultMaxJSONBytes (64 MiB).
	MaxJSONBytes int
}

func (o Options) maxRefBytes() int {
	if o.MaxRefBytes > 0 {
		return o.MaxRefBytes
	}
	return DefaultMaxRefBytes
}

func (o Options) maxJSONBytes() int {
	if o.MaxJSONBytes > 0 {
		return o.MaxJSONBytes
	}
	return DefaultMaxJSONBytes
}

// Encoder turns ACP JSON-RPC messages into ACCP frames, one frame per
// message, numbering them in one ACCP session. It remembers the method of
// each request so it can map the response. It is safe for concurrent use:
// each message's frame is built and sealed in one step, so the seq order of
// the frames is the order in which their values were numbered and their
// sids left out.
//
// Every frame it writes is within Limits: a message whose frame would nest
// deeper, be longer or hold more values is an error (E1001) rather than a
// frame the decoder would reject.
type Encoder struct {
	sess *accp.Session
	log  *slog.Logger

	mu      sync.Mutex // guards sid and refs, and orders sealing with them
	sid     string     // the sid last written to an envelope
	refs    *refTable  // numbered values, with Options.Refs
	maxJSON int        // Options.MaxJSONBytes

	pendMu  sync.Mutex         // guards pending
	pending map[pendKey]string // request -> method
}

// NewEncoder returns an encoder whose frames belong to the ACCP session id.
func NewEncoder(id string, opt Options) *Encoder {
	so := accp.Options{Registry: NewRegistry(), Limits: Limits, Clock: opt.Clock, Logger: opt.Logger,
		Inline: true, Budget: accp.BudgetIgnore, Checkpoints: accp.CheckpointNone}
	if !opt.RandomMID {
		so.NewMID = accp.DeterministicMID(id)
	}
	log := opt.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	e := &Encoder{sess: accp.NewSession(id, so), log: log, pending: map[pendKey]string{}, maxJSON: opt.maxJSONBytes()}
	if opt.Refs {
		e.refs = &refTable{maxExpand: opt.maxRefBytes()}
	}
	return e
}

// Session returns the ACCP session the encoder numbers frames in.
func (e *Encoder) Session() *accp.Session { return e.sess }

// Encode maps one JSON-RPC message (a line of the ACP stream) to a frame.
// ts is the time the message was seen (zero: now). The mapping is checked:
// when the frame would not decode to exactly msg, the message is carried
// whole in a sync:json frame instead.
func (e *Encoder) Encode(msg []byte, dir Direction, ts time.Time) (string, error) {
	x, err := accp.DecodeJSON(bytes.TrimRight(msg, "\r\n"))
	if err != nil {
		return "", fmt.Errorf("encoding ACP message: not JSON: %v", err)
	}
	return e.EncodeValue(x, dir, ts)
}

// EncodeValue is Encode for a message already decoded with
// accp.DecodeJSON.
func (e *Encoder) EncodeValue(x any, dir Direction, ts time.Time) (string, error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	f, env, _, err := e.frame(x, dir)
	if err != nil {
		return "", err
	}
	if !ts.IsZero() {
		env.TS = ts.Unix()
	}
	return e.sess.Seal(f, env)
}

// frame maps x to a frame and its envelope, numbering its values; the
// frame, once sealed, is within Limits, and decodes to n bytes of JSON as
// frameJSONSize counts them, within Options.MaxJSONBytes. The caller holds
// e.mu and seals the frame before building another.
func (e *Encoder) frame(x any, dir Direction) (f *accp.Frame, env accp.Envelope, n int, err error) {
	k := e.classify(x, dir)
	f, env, err = build(k, x)
	if err == nil {
		if k.session && env.SID != "" && env.SID == e.sid {
			env.SID = ""
		}
		f.Agent = agentFor(k, dir)
		back, derr := toJSON(f, env, e.sid)
		if derr != nil || !accp.JSONEqual(back, x) {
			e.log.Debug("acpmap: mapping not exact, carrying the message whole", "kind", k.name, "err", derr)
			err = fmt.Errorf("mapping %s is not exact", k.name)
		}
	}
	if err != nil {
		k = &kinds[len(kinds)-1]
		if f, env, err = build(k, x); err != nil {
			return nil, env, 0, fmt.Errorf("encoding ACP message: %v", err)
		}
		f.Agent = agentFor(k, dir)
	}
	// A sync:json frame carries the whole message, which nests at least as
	// deeply and holds at least as many values as its mapped frame, so it
	// is no way out of the limits.
	if err := e.sess.Check(f, env); err != nil {
		return nil, env, 0, fmt.Errorf("encoding ACP message: cannot be carried within the frame limits: %w", err)
	}
	if n = frameJSONSize(f); n > e.maxJSON {
		return nil, env, 0, fmt.Errorf("encoding ACP message: %w", errJSONSize(n, e.maxJSON))
	}
	if env.SID != "" {
		e.sid = env.SID
	}
	if e.refs != nil {
		e.refs.encodeParams(f.Params)
	}
	return f, env, n, nil
}

func agentFor(k *kind, dir Direction) string {
	switch dir {
	case ClientToAgent:
		return "client"
	case AgentToClient:
		return "agent"
	}
	if k.from != "" {
		return k.from
	}
	return "peer"
}

// pendKey names a request: JSON-RPC ids are scoped by the side that sent
// the request, so the client's id 2 and the agent's id 2 differ.
type pendKey struct {
	dir Direction
	id  string
}

func idKey(id any) string {
	b, _ := json.Marshal(id)
	return string(b)
}

func requestDir(dir Direction, method string) Direction {
	if dir != Unknown {
		return dir
	}
	for i := range kinds {
		if k := &kinds[i]; !k.response && k.method == method {
			switch k.from {
			case "client":
				return ClientToAgent
			case "agent":
				return AgentToClient
			}
		}
	}
	return Unknown
}

func opposite(d Direction) Direction {
	switch d {
	case ClientToAgent:
		return AgentToClient
	case AgentToClient:
		return ClientToAgent
	}
	return Unknown
}

// classify finds the table row for x, remembering request methods and
// consuming them on responses.
func (e *Encoder) classify(x any, dir Direction) *kind {
	obj, ok := x.(map[string]any)
	if !ok {
		return &kinds[len(kinds)-1]
	}
	method, hasMethod := obj["method"].(string)
	id, hasID := obj["id"]
	if hasMethod {
		if hasID {
			e.pendMu.Lock()
			e.pending[pendKey{requestDir(dir, method), idKey(id)}] = method
			e.pendMu.Unlock()
		}
		if method == "session/update" {
			u, _ := getPath(obj, upd)
			um, _ := u.(map[string]any)
			variant, _ := um["sessionUpdate"].(string)
			status, _ := um["status"].(string)
			for i := range kinds {
				k := &kinds[i]
				if k.update == variant && (k.status == "" || k.status == status) {
					if k.update == "tool_call_update" && k.status == "" && (status == "completed" || status == "failed") {
						continue
					}
					return k
				}
			}
			return findKind(func(k *kind) bool { return k.update == "*" })
		}
		for i := range kinds {
			if k := &kinds[i]; !k.response && k.update == "" && k.method == method {
				return k
			}
		}
		if hasID {
			return findKind(func(k *kind) bool { return k.op == "rpc" && k.intent == "req" })
		}
		return findKind(func(k *kind) bool { return k.op == "note" })
	}
	if !hasID {
		return &kinds[len(kinds)-1]
	}
	e.pendMu.Lock()
	var reqMethod string
	known := false
	tries := []Direction{opposite(dir)}
	if dir == Unknown {
		tries = []Direction{Unknown, ClientToAgent, AgentToClient}
	}
	for _, d := range tries {
		key := pendKey{d, idKey(id)}
		if reqMethod, known = e.pending[key]; known {
			delete(e.pending, key)
			break
		}
	}
	e.pendMu.Unlock()
	if _, isErr := obj["error"]; isErr {
		return findKind(func(k *kind) bool { return k.method == "!" })
	}
	if known {
		for i := range kinds {
			if k := &kinds[i]; k.response && k.method == reqMethod {
				return k
			}
		}
	}
	return findKind(func(k *kind) bool { return k.response && k.method == "*" })
}

func findKind(pred func(*kind) bool) *kind {
	for i := range kinds {
		if pred(&kinds[i]) {
			return &kinds[i]
		}
	}
	return &kinds[len(kinds)-1]
}

// consts returns the JSON values row k implies.
func (k *kind) allConsts() []constMap {
	if k.method == "" && !k.response {
		return nil // other JSON
	}
	out := []constMap{cJSONRPC}
	if !k.response && k.method != "*" && k.method != "!" {
		out = append(out, constMap{p("method"), k.method})
	}
	if k.update != "" && k.update != "*" {
		out = append(out, constMap{updatePath("sessionUpdate"), k.update})
	}
	if k.status != "" {
		out = append(out, constMap{updatePath("status"), k.status})
	}
	return append(out, k.consts...)
}

// build maps x by row k: consts removed, fields moved to params, the id and
// session id to the envelope, the remainder to param "x".
func build(k *kind, x any) (*accp.Frame, accp.Envelope, error) {
	var env accp.Envelope
	f := &accp.Frame{Intent: k.intent, Op: k.op}
	f.Params = append(f.Params, k.params...)
	if k.op == "json" {
		v, err := toValue(x)
		if err != nil {
			return nil, env, err
		}
		f.Params = append(f.Params, accp.Field{Key: "raw", Val: v})
		return f, env, nil
	}
	obj := deepCopy(x).(map[string]any)
	for _, c := range k.allConsts() {
		if v, ok := getPath(obj, c.path); ok && v == any(c.value) {
			delPath(obj, c.path)
		}
	}
	for _, c := range k.defaults {
		if v, ok := getPath(obj, c.path); ok && v == any(c.value) {
			delPath(obj, c.path)
		}
	}
	if id, ok := obj["id"]; ok && id != nil {
		if v, err := toValue(id); err == nil && (v.Kind == accp.KindInt || v.Kind == accp.KindString) {
			env.CID = v
			delete(obj, "id")
		}
	}
	if sid, ok := getPath(obj, p("params", "sessionId")); ok {
		if s, isStr := sid.(string); isStr && s != "" {
			env.SID = s
			delPath(obj, p("params", "sessionId"))
		}
	}
	for _, fm := range k.fields {
		jv, ok := getPath(obj, fm.path)
		if !ok {
			continue
		}
		v, err := compact(fm.codec, jv)
		if err != nil {
			return nil, env, err
		}
		delPath(obj, fm.path)
		f.Params = append(f.Params, accp.Field{Key: fm.key, Val: v})
	}
	if rest, ok := getPath(obj, k.rest); ok && len(k.rest) > 0 {
		if rm, isMap := rest.(map[string]any); isMap && len(rm) > 0 {
			v, err := toValue(rm)
			if err != nil {
				return nil, env, err
			}
			delPath(obj, k.rest)
			f.Params = append(f.Params, accp.Field{Key: "u", Val: v})
		}
	}
	if r, ok := obj["result"].(map[string]any); ok && len(r) == 0 && impliesResult(k) {
		delete(obj, "result") // an empty result is implied
	}
	if len(obj) > 0 {
		v, err := toValue(obj)
		if err != nil {
			return nil, env, err
		}
		f.Params = append(f.Params, accp.Field{Key: "x", Val: v})
	}
	return f, env, nil
}

// impliesResult reports whether a frame of row k without a result stands
// for a response whose result is {} (as fs/write_text_file's is).
func impliesResult(k *kind) bool { return k.response && k.method != "!" }

// toJSON is the inverse of build. sid is the session id in force: the
// last one an envelope carried, used when a session kind's envelope has
// none.
func toJSON(f *accp.Frame, env accp.Envelope, sid string) (any, error) {
	k := byFrame[[2]string{f.Intent, f.Op}]
	if k == nil {
		return nil, fmt.Errorf("no ACP mapping for %s:%s", f.Intent, f.Op)
	}
	if k.op == "json" {
		raw, ok := f.Param("raw")
		if !ok {
			return nil, fmt.Errorf("sync:json frame without raw")
		}
		return fromValue(raw), nil
	}
	obj := map[string]any{}
	if xv, ok := f.Param("x"); ok {
		m, isMap := fromValue(xv).(map[string]any)
		if !isMap {
			return nil, fmt.Errorf("param x is not a map")
		}
		obj = m
	}
	if uv, ok := f.Param("u"); ok {
		m, isMap := fromValue(uv).(map[string]any)
		if !isMap || len(k.rest) == 0 {
			return nil, fmt.Errorf("param u is not a map or not expected")
		}
		if err := setPath(obj, k.rest, m); err != nil {
			return nil, err
		}
	}
	for _, fm := range k.fields {
		v, ok := f.Param(fm.key)
		if !ok {
			continue
		}
		if err := setPath(obj, fm.path, expand(fm.codec, v)); err != nil {
			return nil, err
		}
	}
	for _, c := range k.allConsts() {
		if err := setPath(obj, c.path, c.value); err != nil {
			return nil, err
		}
	}
	for _, c := range k.defaults {
		if _, ok := getPath(obj, c.path); !ok {
			if err := setPath(obj, c.path, c.value); err != nil {
				return nil, err
			}
		}
	}
	if _, ok := obj["result"]; !ok && impliesResult(k) {
		obj["result"] = map[string]any{}
	}
	for _, fp := range k.params {
		if v, ok := f.Param(fp.Key); !ok || !v.Equal(fp.Val) {
			return nil, fmt.Errorf("%s:%s frame lacks %s:%s", f.Intent, f.Op, fp.Key, accp.AppendValue(nil, fp.Val))
		}
	}
	if env.CID.Kind != accp.KindNull {
		obj["id"] = env.CID.ToJSON()
	}
	if env.SID == "" && k.session {
		env.SID = sid
	}
	if env.SID != "" {
		if err := setPath(obj, p("params", "sessionId"), env.SID); err != nil {
			return nil, err
		}
	}
	return obj, nil
}
