package acpwire

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/acp-bridge/acp-bridge/internal/rawjson"
)

// Reply implements Sender.
func (b *Bridge) Reply(req *Message, result any) error {
	raw, err := marshalRaw(result)
	if err != nil {
		return fmt.Errorf("reply to %s: %w", req.Method, err)
	}
	return b.answer(req, responseBytes(req.original().ID, "result", raw))
}

// ReplyError implements Sender.
func (b *Bridge) ReplyError(req *Message, e *Error) error {
	return b.answer(req, errorResponse(req.original().ID, e))
}

func (b *Bridge) answer(req *Message, resp []byte) error {
	b.mu.Lock()
	st := req.state
	if st == nil {
		b.mu.Unlock()
		return fmt.Errorf("acpwire: %s %s is not a request the bridge is tracking", req.Kind, req.Method)
	}
	if st.answered {
		b.mu.Unlock()
		return fmt.Errorf("acpwire: request %s %s was already answered", req.Method, req.ID)
	}
	st.answered = true
	if a := b.awaiting[req.Dir][idKey(req.ID)]; a != nil && a.req.state == st && a.timer != nil {
		a.timer.Stop()
	}
	b.mu.Unlock()
	if req.Dir == ClientToAgent && b.opts.OnAnswered != nil {
		b.opts.OnAnswered(req, resp)
	}
	return b.writers[req.Dir.Reverse()].write(resp, true)
}

// Notify implements Sender.
func (b *Bridge) Notify(dir Direction, method string, params any) error {
	raw, err := notificationBytes(method, params)
	if err != nil {
		return err
	}
	return b.writers[dir].write(raw, true)
}

// Send writes an already encoded message in direction dir, in order with
// everything else. Use it for messages the bridge composes itself.
func (b *Bridge) Send(dir Direction, raw []byte) error {
	if !rawjson.Valid(raw) {
		return errors.New("acpwire: send: not valid JSON")
	}
	return b.writers[dir].write(raw, true)
}

// pendingCall is a request the bridge sent, waiting for its response.
type pendingCall struct {
	done chan *Message // receives the response; closed if the peer goes away
	// then, if set, runs on the forwarding loop that reads the response,
	// before the peer's next message is handled; its error is kept in
	// thenErr for the caller.
	then    func(result json.RawMessage, err error) error
	thenErr error
	// dir is the direction the call was sent in: only the peer it went
	// to answers it (the other may have seen the ids of calls made to it,
	// and guess this one).
	dir Direction
}

// Call implements Sender.
func (b *Bridge) Call(ctx context.Context, dir Direction, method string, params any) (json.RawMessage, error) {
	return b.call(ctx, dir, method, params, nil)
}

// CallThen implements Sender.
func (b *Bridge) CallThen(ctx context.Context, dir Direction, method string, params any, then func(result json.RawMessage, err error) error) error {
	_, err := b.call(ctx, dir, method, params, then)
	return err
}

func (b *Bridge) call(ctx context.Context, dir Direction, method string, params any, then func(json.RawMessage, error) error) (json.RawMessage, error) {
	p, err := marshalRaw(params)
	if err != nil {
		return nil, fmt.Errorf("call %s: %w", method, err)
	}
	pc := &pendingCall{done: make(chan *Message, 1), then: then, dir: dir}
	b.mu.Lock()
	b.nextCall++
	id, _ := json.Marshal(b.callID + strconv.FormatUint(b.nextCall, 10))
	b.calls[idKey(id)] = pc
	b.mu.Unlock()
	defer func() {
		b.mu.Lock()
		delete(b.calls, idKey(id))
		b.mu.Unlock()
	}()
	req := []byte(`{"jsonrpc":"2.0","id":` + string(id) + `,"method":`)
	mb, _ := json.Marshal(method)
	req = append(req, mb...)
	if p != nil {
		req = append(req, `,"params":`...)
		req = append(req, p...)
	}
	req = append(req, '}')
	if err := b.writers[dir].write(req, true); err != nil {
		return nil, fmt.Errorf("call %s: %w", method, err)
	}
	var resp *Message
	ok := false
	select {
	case resp, ok = <-pc.done:
	case <-ctx.Done():
		b.mu.Lock()
		_, waiting := b.calls[idKey(id)]
		delete(b.calls, idKey(id))
		b.mu.Unlock()
		if waiting {
			return nil, ctx.Err()
		}
		// The response came as ctx ended, and then has run or runs now:
		// what it did is the call's outcome, not the cancellation.
		resp, ok = <-pc.done
	}
	if !ok || resp == nil {
		return nil, fmt.Errorf("call %s: peer went away", method)
	}
	result, err := callResult(method, resp)
	if then != nil {
		return result, pc.thenErr
	}
	return result, err
}

// callResult turns a response into Call's result: the result, or the
// JSON-RPC error as *Error.
func callResult(method string, resp *Message) (json.RawMessage, error) {
	if resp.Error != nil {
		var e Error
		if err := json.Unmarshal(resp.Error, &e); err != nil {
			return nil, fmt.Errorf("call %s: malformed error: %v", method, err)
		}
		return nil, &e
	}
	return resp.Result, nil
}

// ownCallID reports whether id is one the bridge gave a request of its own
// (see call): a JSON string that starts with callID. It runs for every
// response no call consumed, so it allocates nothing.
func (b *Bridge) ownCallID(id json.RawMessage) bool {
	return len(id) > len(b.callID) && id[0] == '"' && string(id[1:1+len(b.callID)]) == b.callID
}

// ownCallKey reports whether id, however it is spelled, is one the
// bridge gives its own requests: ownCallID, or a string with escapes that
// idKey, which matches responses to calls, reads as one.
func (b *Bridge) ownCallKey(id json.RawMessage) bool {
	if b.ownCallID(id) {
		return true
	}
	if bytes.IndexByte(id, '\\') < 0 {
		return false
	}
	return strings.HasPrefix(idKey(id), `"`+b.callID)
}

func (b *Bridge) consumeCallResponse(m *Message) bool {
	b.mu.Lock()
	pc := b.calls[idKey(m.ID)]
	if pc != nil && pc.dir != m.Dir.Reverse() {
		pc = nil // an answer from the peer the call did not go to
	}
	if pc != nil {
		delete(b.calls, idKey(m.ID))
	}
	b.mu.Unlock()
	if pc == nil {
		return false
	}
	if pc.then != nil {
		// On the forwarding loop: nothing the peer sent after this
		// response is handled until then has run.
		result, err := callResult("", m)
		pc.thenErr = pc.then(result, err)
	}
	pc.done <- m
	return true
}

// FailPending answers every request still waiting for a response from the
// peer that receives direction dir with err, and fails the bridge's own
// calls to it. The bridge calls it when the agent is gone.
func (b *Bridge) FailPending(dir Direction, err *Error) int {
	b.mu.Lock()
	var reqs []*Message
	for k, a := range b.awaiting[dir] {
		if a.timer != nil {
			a.timer.Stop()
		}
		if a.req.state == nil || !a.req.state.answered {
			reqs = append(reqs, a.req)
		}
		delete(b.awaiting[dir], k)
	}
	for k, pc := range b.calls {
		close(pc.done)
		delete(b.calls, k)
	}
	b.mu.Unlock()
	n := 0
	for _, r := range reqs {
		if b.ReplyError(r, err) == nil {
			n++
		}
	}
	return n
}

func marshalRaw(v any) (json.RawMessage, error) {
	switch x := v.(type) {
	case nil:
		return nil, nil
	case json.RawMessage:
		if !rawjson.Valid(x) {
			return nil, errors.New("raw value is not valid JSON")
		}
		return x, nil
	case []byte:
		if !rawjson.Valid(x) {
			return nil, errors.New("raw value is not valid JSON")
		}
		return x, nil
	}
	return json.Marshal(v)
}

func responseBytes(id json.RawMessage, member string, value []byte) []byte {
	if len(id) == 0 {
		id = json.RawMessage("null")
	}
	if value == nil {
		value = []byte("null")
	}
	out := make([]byte, 0, len(value)+len(id)+40)
	out = append(out, `{"jsonrpc":"2.0","id":`...)
	out = append(out, id...)
	out = append(out, `,"`...)
	out = append(out, member...)
	out = append(out, `":`...)
	out = append(out, value...)
	return append(out, '}')
}

func errorResponse(id json.RawMessage, e *Error) []byte {
	eb, _ := json.Marshal(e)
	return responseBytes(id, "error", eb)
}

func notificationBytes(method string, params any) ([]byte, error) {
	p, err := marshalRaw(params)
	if err != nil {
		return nil, fmt.Errorf("notify %s: %w", method, err)
	}
	mb, _ := json.Marshal(method)
	out := append([]byte(`{"jsonrpc":"2.0","method":`), mb...)
	if p != nil {
		out = append(out, `,"params":`...)
		out = append(out, p...)
	}
	return append(out, '}'), nil
}
