package acpwire

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"
)

// AgentExitError reports that the agent ended the session by exiting or
// closing its output while the client was still connected.
type AgentExitError struct {
	// Status is how the process exited, e.g. "exit status 1".
	Status string
	// StderrTail holds the agent's last lines of stderr.
	StderrTail []string
	// Failed is how many of the client's requests were pending and were
	// answered with an error.
	Failed int
}

func (e *AgentExitError) Error() string {
	msg := fmt.Sprintf("agent exited unexpectedly (%s)", e.Status)
	if e.Failed > 0 {
		msg += fmt.Sprintf("; %d pending request(s) answered with an error", e.Failed)
	}
	if len(e.StderrTail) > 0 {
		msg += "; last stderr: " + strings.Join(quotedLines(lastN(e.StderrTail, 5)), " | ")
	}
	return msg
}

// quotedLines returns the agent's stderr lines each quoted with every
// character that is not printable ASCII escaped (strconv.QuoteToASCII).
// The error the IDE shows for the agent's exit quotes them: raw, the
// agent's escapes and bidi overrides would hide or reverse the rest of the
// message, and its text could pass for the bridge's own words.
func quotedLines(lines []string) []string {
	out := make([]string, len(lines))
	for i, l := range lines {
		out[i] = strconv.QuoteToASCII(l)
	}
	return out
}

func lastN(s []string, n int) []string {
	if len(s) > n {
		return s[len(s)-n:]
	}
	return s
}

// Run bridges client and the running agent until the session ends, then
// shuts the agent down:
//   - the client closes its input: queued messages are delivered, the agent's
//     stdin is closed, the agent is stopped (see Agent.Stop) while its last
//     output is still forwarded; Run returns nil;
//   - ctx is cancelled (SIGTERM, SIGINT): the same;
//   - the agent exits or closes its output: everything it wrote is
//     forwarded, every request the client still waits on is answered with an
//     error naming the exit status and the agent's last stderr lines, and
//     Run returns an *AgentExitError.
func (b *Bridge) Run(ctx context.Context, client Endpoint, agent *Agent) error {
	s, err := b.Start(ctx, client, Endpoint{In: agent.Stdout(), Out: agent.Stdin()})
	if err != nil {
		return err
	}
	defer s.Close()
	agentExited := agent.Done()
	for {
		select {
		case e := <-s.Ended():
			if e.Side == AgentToClient {
				return b.agentGone(s, agent, e)
			}
			b.logger.Info("client closed its input; shutting the agent down", "err", e.Err)
			// Let what the client sent last reach the agent, however
			// slowly it reads, but not an agent that has stopped reading:
			// stopping it closes its input, which ends a write that waits.
			if !b.waitWhileAccepted(s.Done(ClientToAgent), ClientToAgent, stdinGrace+termGrace) {
				b.logger.Warn("agent is not reading what the client sent last; shutting it down anyway")
			}
			b.shutdown(s, agent)
			return nil
		case <-ctx.Done():
			b.logger.Info("bridge asked to stop; shutting the agent down", "cause", context.Cause(ctx))
			b.shutdown(s, agent)
			return nil
		case <-agentExited:
			agentExited = nil
			// The agent's last output may still be in the pipe; give it a
			// moment. If processes the agent left behind hold the pipe
			// open, end them and stop reading, or the exit would go unseen.
			go func() {
				if !waitTimeout(s.Done(AgentToClient), agentExitGrace) {
					b.logger.Warn("agent exited but its output is still held open; ending what it left behind")
					agent.Stop(0, termGrace)
					agent.closeStdout()
				}
			}()
		}
	}
}

// waitWhileAccepted waits for done as long as the peer that direction dir
// writes to keeps taking bytes: it gives up after idle without progress.
func (b *Bridge) waitWhileAccepted(done <-chan struct{}, dir Direction, idle time.Duration) bool {
	last := b.writers[dir].accepted()
	for !waitTimeout(done, idle) {
		now := b.writers[dir].accepted()
		if now == last {
			return false
		}
		last = now
	}
	return true
}

// shutdown stops the agent while forwarding whatever it still writes.
func (b *Bridge) shutdown(s *Session, agent *Agent) {
	agent.Stop(stdinGrace, termGrace)
	// The agent is gone, so its output ends; let the last of it through.
	waitTimeout(s.Done(AgentToClient), 2*time.Second)
}

func (b *Bridge) agentGone(s *Session, agent *Agent, e *Ended) error {
	<-s.Done(AgentToClient)
	// The agent closed its output; give it a moment to exit on its own.
	if !waitTimeout(agent.Done(), 2*time.Second) {
		b.logger.Warn("agent closed its output but is still running; stopping it")
		agent.Stop(0, termGrace)
	}
	agent.Stop(0, termGrace) // reaps anything it left behind
	ee := &AgentExitError{Status: agent.ExitStatus(), StderrTail: agent.StderrTail()}
	rpcErr := Errorf(CodeInternalError, "%s", strings.TrimSuffix(ee.Error(), "")).WithData(map[string]any{
		"exitStatus": ee.Status,
		"stderr":     quotedLines(ee.StderrTail),
	})
	ee.Failed = b.FailPending(ClientToAgent, rpcErr)
	if e.Err != nil && !errors.Is(e.Err, os.ErrClosed) {
		b.logger.Error("reading agent output failed", "err", e.Err)
	}
	b.logger.Error("agent exited", "status", ee.Status, "failedRequests", ee.Failed)
	return ee
}
