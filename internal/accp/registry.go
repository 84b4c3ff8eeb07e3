package accp

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync"
)

// Schema is one entry of the schema registry (section 6.2): a compact code
// standing for a named field set with defaults. Abbrev maps full field names
// to the shorter keys used on the wire (the draft's profile examples write
// "tool" for tool_name, "stat" for status, "idx" for chunk_index, ...).
// Numeric lists full fields whose value must be a number (section 10.3:
// "amount MUST be serialized as decimal").
type Schema struct {
	Name     string
	Code     string
	Version  int
	Fields   []string
	Defaults map[string]Value
	Abbrev   map[string]string
	Numeric  []string
}

func (s *Schema) abbrev(full string) string {
	if a, ok := s.Abbrev[full]; ok {
		return a
	}
	return full
}

func (s *Schema) expand(key string) (string, bool) {
	for full, a := range s.Abbrev {
		if a == key {
			return full, true
		}
	}
	return key, slices.Contains(s.Fields, key)
}

// CoreIntents are the intents of section 4.1 with their meanings.
var CoreIntents = map[string]string{
	"req": "Request", "done": "Complete", "fail": "Failure", "wait": "Waiting",
	"esc": "Escalate", "comp": "Compress", "sync": "Synchronize", "qry": "Query",
	"ack": "Acknowledge", "cancel": "Cancel", "stream": "Stream", "end": "End stream",
}

// CoreOperations are the operations of section 4.3 plus those the draft's
// own examples use (lookup, state, error, registry, chat, tool,
// transaction, infer) and "frame", which carries the pieces of a frame split
// to fit the budget.
var CoreOperations = []string{
	"analyze", "plan", "execute", "review", "approve", "reject", "fetch", "transform",
	"summarize", "classify", "generate", "validate", "schedule", "notify", "merge",
	"split", "route", "cache", "purge",
	"lookup", "state", "error", "registry", "chat", "tool", "transaction", "infer",
	"frame", // a frame split into an ST sequence (section 3.4)
}

// Abbreviations is the standard key table of section 4.2, full name to
// abbreviation. who, when, why and ttl are their own full names.
var Abbreviations = map[string]string{
	"data": "d", "findings": "f", "next_action": "nx", "source": "src",
	"destination": "dst", "query": "q", "format": "fmt", "priority": "pri",
	"error": "err", "version": "v", "timestamp": "ts", "time_to_live": "ttl",
	"context": "ctx",
}

// Registry holds the intents, operations, key abbreviations and schemas a
// codec knows. It is safe for concurrent use.
type Registry struct {
	mu      sync.RWMutex // guards all fields below
	intents map[string]string
	ops     map[string]bool
	expand  map[string]string // abbreviation -> full name
	schemas map[string]*Schema
	builtin map[string]bool
	version int
}

var defaultRegistry = NewRegistry()

// NewRegistry returns a registry with the core intents and operations, the
// standard abbreviations and the built-in profiles CH, TC, TX, ST, TA, ER.
func NewRegistry() *Registry {
	r := &Registry{
		intents: maps.Clone(CoreIntents),
		ops:     map[string]bool{},
		expand:  map[string]string{},
		schemas: map[string]*Schema{},
		builtin: map[string]bool{},
		version: 1,
	}
	for _, op := range CoreOperations {
		r.ops[op] = true
	}
	for full, a := range Abbreviations {
		r.expand[a] = full
	}
	for _, s := range builtinSchemas() {
		r.schemas[s.Code] = s
		r.builtin[s.Code] = true
	}
	return r
}

func builtinSchemas() []*Schema {
	return []*Schema{
		{Name: "chat", Code: "CH", Version: 1,
			Fields:   []string{"role", "content", "turn", "lang", "reply_to"},
			Defaults: map[string]Value{"role": String("assistant"), "lang": String("en")}},
		{Name: "tool_call", Code: "TC", Version: 1,
			Fields:   []string{"tool_name", "arguments", "result", "status", "error_code"},
			Defaults: map[string]Value{"status": String("ok")},
			Abbrev:   map[string]string{"tool_name": "tool", "arguments": "args", "result": "res", "status": "stat", "error_code": "ec"}},
		{Name: "transaction", Code: "TX", Version: 1,
			Fields:   []string{"transaction_id", "amount", "currency", "account", "reference", "status", "retryable"},
			Defaults: map[string]Value{"currency": String("USD"), "status": String("pending"), "retryable": Bool(false)},
			Abbrev:   map[string]string{"transaction_id": "txn", "amount": "amt", "currency": "ccy", "account": "acc", "reference": "ref", "status": "stat", "retryable": "retry"},
			Numeric:  []string{"amount"}},
		{Name: "stream", Code: "ST", Version: 1,
			Fields:   []string{"chunk_index", "total_chunks", "data", "is_final"},
			Defaults: map[string]Value{"is_final": Bool(false)},
			Abbrev:   map[string]string{"chunk_index": "idx", "total_chunks": "tot", "data": "d", "is_final": "done"},
			Numeric:  []string{"chunk_index", "total_chunks"}},
		{Name: "task_assignment", Code: "TA", Version: 2,
			Fields:   []string{"assignee", "task", "priority", "deadline", "deps"},
			Defaults: map[string]Value{"priority": String("medium"), "deps": Array()},
			Abbrev:   map[string]string{"assignee": "asgn", "priority": "pri", "deadline": "dead"}},
		{Name: "error", Code: "ER", Version: 1,
			Fields:  []string{"code", "message", "retryable"},
			Abbrev:  map[string]string{"message": "msg", "retryable": "retry"},
			Numeric: nil},
	}
}

// HasIntent reports whether intent is known.
func (r *Registry) HasIntent(intent string) bool {
	r.mu.RLock()
	defer r.mu.RUnlock()
	_, ok := r.intents[intent]
	return ok
}

// IntentMeaning returns the meaning of an intent ("Request" for req).
func (r *Registry) IntentMeaning(intent string) string {
	r.mu.RLock()
	defer r.mu.RUnlock()
	return r.intents[intent]
}

// HasOperation reports whether op is registered.
func (r *Registry) HasOperation(op string) bool {
	r.mu.RLock()
	defer r.mu.RUnlock()
	return r.ops[op]
}

// RegisterIntent adds a custom intent (for example the ping/pong heartbeat
// intents of section 11.2).
func (r *Registry) RegisterIntent(code, meaning string) error {
	if !allOf(code, isAlpha) {
		return fmt.Errorf("registering intent %q: an intent is letters only", code)
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.intents[code] = meaning
	r.version++
	return nil
}

// RegisterOperation adds custom operations (section 4.3's extension
// mechanism).
func (r *Registry) RegisterOperation(ops ...string) error {
	for _, op := range ops {
		if !allOf(op, isOpChar) {
			return fmt.Errorf("registering operation %q: letters, digits and _ only", op)
		}
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, op := range ops {
		if !r.ops[op] {
			r.ops[op] = true
			r.version++
		}
	}
	return nil
}

// RegisterSchema registers a custom schema under name (section 7.1). Its
// code must not be taken by a different schema; registering the same code
// again replaces a custom schema (a new version), never a built-in one.
func (r *Registry) RegisterSchema(name string, s Schema) error {
	if name != "" {
		s.Name = name
	}
	if !allOf(s.Code, func(c byte) bool { return isAlpha(c) || isDigit(c) }) {
		return fmt.Errorf("registering schema %q: code %q must be letters and digits", s.Name, s.Code)
	}
	for _, f := range s.Fields {
		if !allOf(f, isKeyChar) {
			return fmt.Errorf("registering schema %q: field %q is not a valid key", s.Name, f)
		}
	}
	for full, a := range s.Abbrev {
		if !allOf(a, isKeyChar) || !slices.Contains(s.Fields, full) {
			return fmt.Errorf("registering schema %q: abbreviation %s->%s must name a field and be a valid key", s.Name, full, a)
		}
	}
	for k, v := range s.Defaults {
		if !slices.Contains(s.Fields, k) {
			return fmt.Errorf("registering schema %q: default for unknown field %q", s.Name, k)
		}
		if err := v.validate(); err != nil {
			return fmt.Errorf("registering schema %q: default for %q: %v", s.Name, k, err)
		}
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.builtin[s.Code] {
		return fmt.Errorf("registering schema %q: code %s is a built-in profile", s.Name, s.Code)
	}
	if old, ok := r.schemas[s.Code]; ok && old.Name != s.Name {
		return fmt.Errorf("registering schema %q: code %s is taken by %q", s.Name, s.Code, old.Name)
	}
	if s.Version == 0 {
		s.Version = 1
	}
	cp := s
	cp.Fields = slices.Clone(s.Fields)
	cp.Defaults = maps.Clone(s.Defaults)
	cp.Abbrev = maps.Clone(s.Abbrev)
	r.schemas[s.Code] = &cp
	r.version++
	return nil
}

// Schema returns the schema with the given code.
func (r *Registry) Schema(code string) (*Schema, bool) {
	r.mu.RLock()
	defer r.mu.RUnlock()
	s, ok := r.schemas[code]
	return s, ok
}

// Version returns the registry version, which grows with every change.
func (r *Registry) Version() int {
	r.mu.RLock()
	defer r.mu.RUnlock()
	return r.version
}

// abbrevKey returns the wire key for a full key outside any schema.
func (r *Registry) abbrevKey(full string) string {
	if a, ok := Abbreviations[full]; ok {
		return a
	}
	return full
}

// expandKey returns the full key for a wire key outside any schema.
func (r *Registry) expandKey(key string) string {
	if full, ok := r.expand[key]; ok {
		return full
	}
	return key
}

// Hash returns a short hex digest of everything a peer must share to decode
// this registry's frames: intents, operations and schemas (section 6.4).
func (r *Registry) Hash() string {
	r.mu.RLock()
	defer r.mu.RUnlock()
	h := sha256.New()
	for _, k := range slices.Sorted(maps.Keys(r.intents)) {
		fmt.Fprintf(h, "i:%s\n", k)
	}
	for _, k := range slices.Sorted(maps.Keys(r.ops)) {
		fmt.Fprintf(h, "o:%s\n", k)
	}
	for _, k := range slices.Sorted(maps.Keys(r.schemas)) {
		h.Write(AppendValue([]byte("s:"+k+":"), schemaValue(r.schemas[k])))
		h.Write([]byte{'\n'})
	}
	return hex.EncodeToString(h.Sum(nil))[:12]
}

func schemaValue(s *Schema) Value {
	fields := make([]Value, len(s.Fields))
	for i, f := range s.Fields {
		fields[i] = String(f)
	}
	var defs, abbr, num []Field
	for _, k := range slices.Sorted(maps.Keys(s.Defaults)) {
		defs = append(defs, Field{k, s.Defaults[k]})
	}
	for _, k := range slices.Sorted(maps.Keys(s.Abbrev)) {
		abbr = append(abbr, Field{k, String(s.Abbrev[k])})
	}
	for _, n := range s.Numeric {
		num = append(num, Field{n, Bool(true)})
	}
	return Map(
		Field{"n", String(s.Name)},
		Field{"v", Int(int64(s.Version))},
		Field{"f", Array(fields...)},
		Field{"def", Map(defs...)},
		Field{"ab", Map(abbr...)},
		Field{"num", Map(num...)},
	)
}

func schemaFromValue(code string, v Value) (Schema, error) {
	s := Schema{Code: code, Defaults: map[string]Value{}, Abbrev: map[string]string{}}
	if n, ok := v.Get("n"); ok && n.Kind == KindString {
		s.Name = n.Str
	} else {
		return s, errorf(CodeInvalidType, -1, "schema %s has no name", code)
	}
	if n, ok := v.Get("v"); ok && n.Kind == KindInt {
		fmt.Sscan(n.Str, &s.Version)
	}
	if f, ok := v.Get("f"); ok {
		for _, e := range f.List {
			s.Fields = append(s.Fields, e.Str)
		}
	}
	if d, ok := v.Get("def"); ok {
		for _, f := range d.Fields {
			s.Defaults[f.Key] = f.Val
		}
	}
	if a, ok := v.Get("ab"); ok {
		for _, f := range a.Fields {
			s.Abbrev[f.Key] = f.Val.Str
		}
	}
	if a, ok := v.Get("num"); ok {
		for _, f := range a.Fields {
			s.Numeric = append(s.Numeric, f.Key)
		}
	}
	return s, nil
}

// SyncFrame returns the negotiation frame of section 6.4,
// "@agent>sync:registry{v:N|hash:H}".
func (r *Registry) SyncFrame(agent string) *Frame {
	return &Frame{Agent: agent, Intent: "sync", Op: "registry", Params: []Field{
		{"v", Int(int64(r.Version()))}, {"hash", String(r.Hash())},
	}}
}

// HandleSync processes a peer's sync:registry frame. When the hashes match
// it returns nil. When the peer's frame carries a delta (custom schemas and
// operations) it registers them, caching them for the session, and returns
// nil. Otherwise it returns the delta frame to send back once: every custom
// schema and operation of r.
func (r *Registry) HandleSync(agent string, f *Frame) (*Frame, error) {
	if f.Intent != "sync" || f.Op != "registry" {
		return nil, errorf(CodeInvalidIntent, -1, "want a sync:registry frame, got %s:%s", f.Intent, f.Op)
	}
	if sv, ok := f.Param("schemas"); ok {
		for _, e := range sv.Fields {
			s, err := schemaFromValue(e.Key, e.Val)
			if err != nil {
				return nil, err
			}
			if old, ok := r.Schema(e.Key); ok && r.isBuiltin(e.Key) && old.Name == s.Name {
				continue
			}
			if err := r.RegisterSchema("", s); err != nil {
				return nil, errorf(CodeUnknownSchema, -1, "%v", err)
			}
		}
		if ov, ok := f.Param("ops"); ok {
			for _, o := range ov.List {
				if err := r.RegisterOperation(o.Str); err != nil {
					return nil, errorf(CodeInvalidType, -1, "%v", err)
				}
			}
		}
		return nil, nil
	}
	h, _ := f.Param("hash")
	if h.Str == r.Hash() {
		return nil, nil
	}
	return r.deltaFrame(agent), nil
}

func (r *Registry) isBuiltin(code string) bool {
	r.mu.RLock()
	defer r.mu.RUnlock()
	return r.builtin[code]
}

func (r *Registry) deltaFrame(agent string) *Frame {
	f := r.SyncFrame(agent)
	r.mu.RLock()
	var schemas []Field
	for _, k := range slices.Sorted(maps.Keys(r.schemas)) {
		if !r.builtin[k] {
			schemas = append(schemas, Field{k, schemaValue(r.schemas[k])})
		}
	}
	var ops []Value
	for _, k := range slices.Sorted(maps.Keys(r.ops)) {
		if !slices.Contains(CoreOperations, k) {
			ops = append(ops, String(k))
		}
	}
	r.mu.RUnlock()
	f.Params = append(f.Params, Field{"schemas", Map(schemas...)}, Field{"ops", Array(ops...)})
	return f
}

// describe returns a one-line description of a schema for the debug
// renderer.
func (s *Schema) describe() string {
	return fmt.Sprintf("%s (%s v%d: %s)", s.Code, s.Name, s.Version, strings.Join(s.Fields, ", "))
}
