package acpwire

import (
	"context"
	"time"
)

// AnswerWithoutAgent speaks for an agent that could not be started: it
// reads the client's messages and answers every request with e, so that an
// IDE waiting on initialize learns why instead of waiting forever. It
// returns, with the number of requests answered, when the client's input
// ends, when ctx is done, when wait passes with no request answered, or
// once requests have been answered and the client has sent nothing more
// for a moment. The client's input is left to a reader that may still be
// waiting on it, so call it only when the bridge is about to exit.
func (b *Bridge) AnswerWithoutAgent(ctx context.Context, client Endpoint, e *Error, wait time.Duration) int {
	lines := make(chan []byte)
	go func() {
		defer close(lines)
		lr := newLineReader(client.In, b.opts.MaxLineSize)
		for {
			line, over, err := lr.next()
			if err != nil {
				return
			}
			if over != nil {
				if id, isRequest := over.identify(); isRequest && id != nil {
					line = []byte(`{"jsonrpc":"2.0","id":` + string(id) + `,"method":"?"}`)
				} else {
					continue
				}
			}
			select {
			case lines <- line:
			case <-ctx.Done():
				return
			}
		}
	}()
	w := newWriter(AgentToClient, client.Out, nil, b.logger)
	defer w.flush()
	answered := 0
	timer := time.NewTimer(wait)
	defer timer.Stop()
	for {
		select {
		case <-ctx.Done():
			return answered
		case <-timer.C:
			return answered
		case line, ok := <-lines:
			if !ok {
				return answered
			}
			m, parsed := parse(ClientToAgent, line)
			if !parsed || (m.Kind != KindRequest && m.env&envMethod == 0) || (!readableID(m.ID) && string(m.ID) != "null") {
				continue
			}
			if w.write(errorResponse(m.ID, e), true) != nil {
				return answered
			}
			answered++
			b.logger.Info("answered a request without an agent", "method", m.Method, "id", string(m.ID))
			timer.Reset(quietAfterAnswer)
		}
	}
}

// quietAfterAnswer is how long AnswerWithoutAgent waits for more requests
// once it has answered one.
const quietAfterAnswer = 200 * time.Millisecond
