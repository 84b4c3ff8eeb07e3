package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/acp-bridge/acp-bridge/internal/acpwire"
	"github.com/acp-bridge/acp-bridge/internal/rawjson"
)

// transcriptEntry is one line of a --record transcript.
type transcriptEntry struct {
	TS  string          `json:"ts"`
	Dir string          `json:"dir"`
	Msg json.RawMessage `json:"msg"`
	// Bridge is set on entries for messages the bridge received but did
	// not pass on with their own bytes ("answered", "replaced", "dropped",
	// "consumed"); the peer never saw them.
	Bridge string `json:"bridge,omitempty"`
}

// readTranscript reads a JSONL transcript, reporting bad lines as file:line.
// It returns what the peers received: entries for messages the bridge held
// back are skipped.
func readTranscript(path string) ([]transcriptEntry, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var out []transcriptEntry
	r := bufio.NewReaderSize(f, 1<<20)
	for lineNo := 1; ; lineNo++ {
		line, err := r.ReadBytes('\n')
		if len(line) > 0 && len(trimSpace(line)) > 0 {
			var e transcriptEntry
			if jerr := json.Unmarshal(line, &e); jerr != nil {
				return nil, fmt.Errorf("%s:%d: %v", path, lineNo, jerr)
			}
			if e.Dir != acpwire.ClientToAgent.String() && e.Dir != acpwire.AgentToClient.String() {
				return nil, fmt.Errorf("%s:%d: dir %q is neither client_to_agent nor agent_to_client", path, lineNo, e.Dir)
			}
			if len(e.Msg) == 0 {
				return nil, fmt.Errorf("%s:%d: no msg", path, lineNo)
			}
			if e.Bridge == "" { // the peers never saw held-back messages
				out = append(out, e)
			}
		}
		if errors.Is(err, io.EOF) {
			return out, nil
		}
		if err != nil {
			return nil, fmt.Errorf("%s:%d: %v", path, lineNo, err)
		}
	}
}

func trimSpace(b []byte) []byte {
	for len(b) > 0 && (b[0] == ' ' || b[0] == '\n' || b[0] == '\r' || b[0] == '\t') {
		b = b[1:]
	}
	for len(b) > 0 && (b[len(b)-1] == ' ' || b[len(b)-1] == '\n' || b[len(b)-1] == '\r' || b[len(b)-1] == '\t') {
		b = b[:len(b)-1]
	}
	return b
}

// runReplay acts as the agent of a recorded session: it plays the
// transcript's agent_to_client messages to the real client on stdin/stdout,
// and at each client_to_agent step waits for the client's next message.
// Responses are re-addressed to the ids the live client used, matched to the
// recorded requests in order. With --strict, a client message whose method
// differs from the recording ends the replay with status 1.
func runReplay(ctx context.Context, e *env, args []string) error {
	fs := newFlags(e, "acp-bridge replay", "acp-bridge replay [--strict] TRANSCRIPT.jsonl",
		"Acts as the agent of a recorded session (a --record file) on stdin/stdout: sends the recorded\n"+
			"agent messages to the client, answering its requests in order with the live ids.")
	strict := fs.Bool("strict", false, "exit 1 when the client departs from the recording")
	if err := parseFlags(e, fs, args); err != nil {
		return err
	}
	if fs.NArg() != 1 {
		return usageError(e, "acp-bridge replay", "replay: one transcript file, please")
	}
	entries, err := readTranscript(fs.Arg(0))
	if err != nil {
		return &exitError{code: 2, err: err}
	}
	r := &replayer{in: bufio.NewReaderSize(e.stdin, 1<<20), out: e.stdout, log: e.stderr, strict: *strict, ids: map[string]json.RawMessage{}}
	if err := r.play(ctx, entries); err != nil {
		return &exitError{code: 1, err: fmt.Errorf("replay of %s: %w", fs.Arg(0), err)}
	}
	// The recording is over; stay until the client hangs up, like an agent.
	_, _ = io.Copy(io.Discard, r.in)
	return nil
}

type replayer struct {
	in     *bufio.Reader
	out    io.Writer
	log    io.Writer
	strict bool
	// ids maps a recorded client request id to the live client's id.
	ids map[string]json.RawMessage
}

func (r *replayer) play(ctx context.Context, entries []transcriptEntry) error {
	for i, ent := range entries {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		rec, err := acpwire.Parse(acpwire.ClientToAgent, ent.Msg)
		if err != nil {
			return fmt.Errorf("entry %d: %v", i+1, err)
		}
		if ent.Dir == acpwire.ClientToAgent.String() {
			if err := r.expect(i+1, rec); err != nil {
				return err
			}
			continue
		}
		msg := []byte(ent.Msg)
		if rec.Kind == acpwire.KindResponse {
			if live, ok := r.ids[string(rec.ID)]; ok {
				if msg, err = rawjson.Set(msg, live, "id"); err != nil {
					return fmt.Errorf("entry %d: %v", i+1, err)
				}
			}
		}
		if _, err := r.out.Write(append(msg, '\n')); err != nil {
			return fmt.Errorf("entry %d: writing to client: %v", i+1, err)
		}
	}
	return nil
}

// expect reads the client's next message and pairs it with the recorded one.
func (r *replayer) expect(n int, rec *acpwire.Message) error {
	for {
		line, err := r.in.ReadBytes('\n')
		if len(trimSpace(line)) == 0 && err == nil {
			continue
		}
		if err != nil && len(trimSpace(line)) == 0 {
			return fmt.Errorf("entry %d: the client hung up while the recording expected %s %s", n, rec.Kind, rec.Method)
		}
		live, perr := acpwire.Parse(acpwire.ClientToAgent, trimSpace(line))
		if perr != nil {
			return fmt.Errorf("entry %d: client sent invalid JSON: %v", n, perr)
		}
		if live.Kind != rec.Kind || live.Method != rec.Method {
			msg := fmt.Sprintf("entry %d: client sent %s %s, the recording has %s %s", n, live.Kind, live.Method, rec.Kind, rec.Method)
			if r.strict {
				return errors.New(msg)
			}
			fmt.Fprintln(r.log, "acp-bridge replay: "+msg)
		}
		if rec.Kind == acpwire.KindRequest && live.Kind == acpwire.KindRequest {
			r.ids[string(rec.ID)] = append(json.RawMessage(nil), live.ID...)
		}
		return nil
	}
}
