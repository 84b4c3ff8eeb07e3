package acpwire

import "sync"

// The messages parse makes are reused as their read blocks are: while no
// middleware may keep messages (see UseNonRetaining), a message the
// forwarding loop wrote with its own bytes, and that is neither a request
// nor a batch, goes back for the next line once its block is released.
// Most of a stream is such messages, and making one for every line was a
// large share of the bridge's own work on a stream of small chunks: the
// allocation and the collections it brings.

// parsedMessages holds messages nobody uses any more, zeroed.
var parsedMessages = sync.Pool{New: func() any { return new(Message) }}

// newParsed returns a zero Message for parse to fill.
func newParsed() *Message { return parsedMessages.Get().(*Message) }

// poisonedMessage is what a released message becomes when its pool
// poisons (PoisonBlocksEnv): a middleware that kept it past the write, as
// it promised not to, reads a line of '#' that is no JSON-RPC message
// instead of a later line's fields now and then.
var poisonedMessage = []byte("########")

// recycle gives m back once the loop has written it and nothing keeps it:
// zeroed for the next line, or, when p poisons, made a poisoned message and
// left to the garbage collector so that whoever still holds it sees it.
func (p *blockPool) recycle(m *Message) {
	if p.poison {
		*m = Message{Dir: m.Dir, Kind: KindOther, Raw: poisonedMessage, Method: string(poisonedMessage),
			invalid: "a message kept after the bridge released it", notJSON: true}
		return
	}
	*m = Message{}
	parsedMessages.Put(m)
}
