package acpmap

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sync"

	"github.com/acp-bridge/acp-bridge/internal/accp"
)

// Decoder turns frames made by an Encoder back into JSON-RPC messages,
// applying the delivery checks of ACCP section 3.7 (duplicate msg ids,
// sequence gaps, expired frames, cancelled chains) in one ACCP session.
// It is safe for concurrent use: each frame's place in the sequence and
// the numbering of its values (see Options.Refs) are settled together, so
// frames decode as they would one after another in seq order.
type Decoder struct {
	sess *accp.Session

	mu   sync.Mutex // guards sid, sidLost and refs, and orders delivery with numbering
	sid  string     // the sid last seen in an envelope
	refs refTable   // the session's numbered values (see Options.Refs)
	// sidLost is the seq of a run frame refused unread (see refuse), whose
	// messages may have changed the sid; 0 if none since the last sid.
	sidLost int64

	maxJSON int // Options.MaxJSONBytes
}

// NewDecoder returns a decoder for the ACCP session id.
func NewDecoder(id string, opt Options) *Decoder {
	d := &Decoder{sess: accp.NewSession(id, accp.Options{Registry: NewRegistry(), Limits: Limits,
		Clock: opt.Clock, Logger: opt.Logger, Checkpoints: accp.CheckpointNone, Inline: true, Budget: accp.BudgetIgnore})}
	d.refs.maxExpand = opt.maxRefBytes()
	d.maxJSON = opt.maxJSONBytes()
	return d
}

// Session returns the decoder's ACCP session.
func (d *Decoder) Session() *accp.Session { return d.sess }

// Decode returns the JSON-RPC message a frame carries, or (nil, nil) for a
// frame the delivery rules drop silently. Errors are *accp.Error values
// with their ACCP code.
func (d *Decoder) Decode(line string) ([]byte, error) {
	x, err := d.DecodeValue(line)
	if err != nil || x == nil {
		return nil, err
	}
	return MarshalJSON(x)
}

// DecodeValue is Decode returning the encoding/json form. A run frame
// (see RunEncoder) holding more than one message is an error here (E1004),
// found before the frame takes its place in the sequence, so it can still
// be decoded with DecodeValues.
func (d *Decoder) DecodeValue(line string) (any, error) {
	xs, err := d.decode(line, true)
	if err != nil || len(xs) == 0 {
		return nil, err
	}
	return xs[0], nil
}

// DecodeAll returns the JSON-RPC messages a frame carries: one for an
// ordinary frame, each message of a run frame in order, none for a frame
// the delivery rules drop silently.
func (d *Decoder) DecodeAll(line string) ([][]byte, error) {
	xs, err := d.DecodeValues(line)
	if err != nil {
		return nil, err
	}
	out := make([][]byte, len(xs))
	for i, x := range xs {
		if out[i], err = MarshalJSON(x); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// DecodeValues is DecodeAll returning the encoding/json forms. A run frame
// is delivered whole: if any of its messages does not map back, the frame
// is rejected (E1004) and none of them is returned. A "$N" back-reference
// to no earlier value is E2001; refs standing for more than
// Options.MaxRefBytes of text in one frame (all of a run's messages
// together), or a frame that decodes to more than Options.MaxJSONBytes of
// JSON, are E2003.
func (d *Decoder) DecodeValues(line string) ([]any, error) {
	return d.decode(line, false)
}

func (d *Decoder) decode(line string, single bool) ([]any, error) {
	if head, body, err := Limits.ParseOutline(line, d.sess.Registry()); err == nil {
		if b, ok := frameBound(head, body); ok && b.bytes > d.maxJSON {
			if single && isRun(head) && b.messages > 1 {
				return nil, errRunFrame(b.messages)
			}
			return nil, d.refuse(head, line, b.bytes)
		}
	}
	f, err := Limits.Parse(line, d.sess.Registry())
	if err != nil {
		return nil, err
	}
	if single && isRun(f) {
		if n := runLen(f); n > 1 {
			return nil, errRunFrame(n)
		}
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	env, drop, err := d.sess.ReceiveFrame(f, line)
	if err != nil {
		return nil, err
	}
	frames, envs := []*accp.Frame{f}, []accp.Envelope{env}
	if isRun(f) {
		if frames, envs, err = runEntries(f); err != nil {
			// The encoder numbered values this decoder cannot see.
			d.refs.loseAt(env.Seq)
			if drop {
				return nil, nil
			}
			return nil, &accp.Error{Code: accp.CodeInvalidType, Offset: -1, Msg: err.Error()}
		}
	}
	// The encoder left out each sid equal to the one it wrote last, and a
	// dropped frame, or one that fails below, still wrote its sids: they
	// are in force from here on whatever becomes of the frame.
	sids := make([]string, len(envs)) // the sid in force before each message
	for i, e := range envs {
		if e.SID == "" && d.sidLost != 0 && sessionKind(frames[i]) {
			return nil, &accp.Error{Code: accp.CodeInvalidType, Offset: -1, Msg: fmt.Sprintf(
				"message %d leaves its sid out, and the run frame with seq %d, refused unread, may have changed it", i+1, d.sidLost)}
		}
		sids[i] = d.sid
		if e.SID != "" {
			d.sid, d.sidLost = e.SID, 0
		}
	}
	// A dropped frame's values are still numbered, as the encoder numbered
	// them.
	if err := d.refs.decodeFrames(frames, env.Seq); err != nil {
		return nil, err
	}
	if drop {
		return nil, nil
	}
	n := 0
	for _, g := range frames {
		n += frameJSONSize(g)
	}
	if n > d.maxJSON {
		return nil, errJSONSize(n, d.maxJSON)
	}
	out := make([]any, len(frames))
	for i, g := range frames {
		x, err := toJSON(g, envs[i], sids[i])
		if err != nil {
			return nil, &accp.Error{Code: accp.CodeInvalidType, Offset: -1, Msg: err.Error()}
		}
		out[i] = x
	}
	return out, nil
}

// refuse rejects a frame whose body the text shows to decode to n bytes
// of JSON, over Options.MaxJSONBytes, without parsing its values (see
// frameBound): head is its header and metadata. The frame still takes its
// place in the sequence; its values are not numbered, so the numbering is
// lost from here on (later "$N" refs are E2001), and a run frame's sids
// are not read, so a later message that leaves its sid out is rejected
// until an envelope names one.
func (d *Decoder) refuse(head *accp.Frame, line string, n int) error {
	d.mu.Lock()
	defer d.mu.Unlock()
	env, drop, err := d.sess.ReceiveFrame(head, line)
	if err != nil {
		return err
	}
	d.refs.loseAt(env.Seq)
	switch {
	case isRun(head):
		d.sidLost = env.Seq
	case env.SID != "":
		d.sid, d.sidLost = env.SID, 0
	}
	if drop {
		return nil
	}
	return errJSONSize(n, d.maxJSON)
}

// sessionKind reports whether f's message always carries a session id.
func sessionKind(f *accp.Frame) bool {
	k := byFrame[[2]string{f.Intent, f.Op}]
	return k != nil && k.session
}

// errRunFrame is the error for a run frame of n messages decoded as one.
func errRunFrame(n int) *accp.Error {
	return &accp.Error{Code: accp.CodeInvalidType, Offset: -1,
		Msg: fmt.Sprintf("run frame holds %d messages; decode it with DecodeValues", n)}
}

// FrameToJSON maps one parsed frame and its envelope to the JSON-RPC
// message, without delivery state; sid is the session id in force for
// frames that leave it out.
func FrameToJSON(f *accp.Frame, env accp.Envelope, sid string) (any, error) {
	return toJSON(f, env, sid)
}

// MarshalJSON writes x compactly without HTML escaping.
func MarshalJSON(x any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(x); err != nil {
		return nil, fmt.Errorf("writing JSON: %v", err)
	}
	return bytes.TrimRight(b.Bytes(), "\n"), nil
}

// KindName returns the name of the mapping row a frame belongs to (such as
// "session/update tool_call"), for statistics.
func KindName(f *accp.Frame) string {
	if k := byFrame[[2]string{f.Intent, f.Op}]; k != nil {
		return k.name
	}
	if isRun(f) {
		return "run"
	}
	return f.Intent + ":" + f.Op
}
