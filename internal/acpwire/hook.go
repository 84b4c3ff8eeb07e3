package acpwire

import (
	"context"
	"encoding/json"
)

// Handler decides what happens to one message. The bridge calls Handle for
// every message read from either peer, one at a time per direction and in
// arrival order, so a handler may take its time (to write an audit record,
// say) without reordering anything. A slow handler delays only the later
// messages of the same direction.
//
// What the handler does with m decides its fate:
//   - pass it on: call next.Handle(ctx, m);
//   - replace it: call next.Handle with m.Patch(...) or m.WithRaw(...);
//   - drop it: return nil without calling next;
//   - answer a request locally: call Sender.Reply or ReplyError and do not
//     call next.
//
// The handler settles m's fate before Handle returns: next.Handle called
// later, from another goroutine, is not supported.
//
// A request that ends up neither forwarded nor answered is answered by the
// bridge with an internal error, so every request gets exactly one response.
// A returned *Error (or any error) for a request that has not been answered
// becomes its error response; for other messages it is logged. Responses to
// requests the bridge itself sent (see Sender.Call) never reach handlers.
type Handler interface {
	Handle(ctx context.Context, m *Message) error
}

// HandlerFunc adapts a function to Handler.
type HandlerFunc func(ctx context.Context, m *Message) error

// Handle calls f(ctx, m).
func (f HandlerFunc) Handle(ctx context.Context, m *Message) error { return f(ctx, m) }

// Middleware wraps a handler with behaviour of its own: manifest masking,
// governance, compression. Middlewares are applied so that the first one
// given to Bridge.Use sees each message first.
type Middleware func(next Handler) Handler

// Wrap calls m(next), so a Middleware is a Wrapper.
func (m Middleware) Wrap(next Handler) Handler { return m(next) }

// Wrapper is middleware as Bridge.Use takes it: anything that wraps the
// next handler. A Middleware is one; a type that also has other work to do
// on the wire (see Preempter) implements Wrap itself.
type Wrapper interface {
	Wrap(next Handler) Handler
}

// Preempter is a Wrapper that must hear of session/cancel and
// $/cancel_request the moment they are read, before they wait their turn
// behind earlier messages of their direction (which they still do): a
// middleware holding a request stops waiting when its cancellation comes.
// Use registers a Wrapper that implements Preempter as a preempt hook.
// Preempt must not block.
type Preempter interface {
	Wrapper
	Preempt(m *Message)
}

// Sender lets middleware speak for itself on the wire. All methods are safe
// for concurrent use and may be called from inside Handle. Every message a
// Sender writes goes through the same ordered writer as forwarded messages.
type Sender interface {
	// Reply sends result (marshalled with encoding/json; a json.RawMessage
	// is sent as is) as the response to req, toward the peer that sent it.
	// If req was already forwarded, the response that comes back for it is
	// dropped, so the peer still sees exactly one response. Replying twice
	// is an error.
	Reply(req *Message, result any) error
	// ReplyError sends err as the error response to req; see Reply.
	ReplyError(req *Message, err *Error) error
	// Notify sends a notification in direction dir (ClientToAgent sends it
	// to the agent).
	Notify(dir Direction, method string, params any) error
	// Call sends a request in direction dir with an id that cannot collide
	// with the peers' ids, and waits for its response, which is consumed by
	// the bridge and never forwarded. A JSON-RPC error comes back as *Error.
	// Call must not be made from a handler of the direction the response
	// travels in (it would wait on itself); from the other direction, or
	// another goroutine, it is fine.
	Call(ctx context.Context, dir Direction, method string, params any) (json.RawMessage, error)
	// CallThen is Call with a handler for the outcome that runs where the
	// bridge handles the direction the response arrives in (its forwarding
	// loop, or its reader for a lone message), before any message the peer
	// sent after the response is handled. Use
	// it when those messages depend on what the response establishes (a
	// new session id to translate, say). then must not block; CallThen
	// returns its error.
	CallThen(ctx context.Context, dir Direction, method string, params any, then func(result json.RawMessage, err error) error) error
}
