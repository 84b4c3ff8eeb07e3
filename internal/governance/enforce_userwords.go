package governance

import (
	"bytes"
	"context"
	"encoding/json"
	"reflect"

	"github.com/acp-bridge/acp-bridge/internal/acpwire"
	"github.com/acp-bridge/acp-bridge/internal/audit"
	"github.com/acp-bridge/acp-bridge/internal/rawjson"
)

// A user_message_chunk is the person's own words to the IDE: Zed adds it
// to the person's message when that is the thread's last entry (so a chunk
// sent first in a turn continues the prompt the person just sent), and
// otherwise shows it as a new message of the person's, styled as theirs
// and nothing of the agent's. ACP has the agent send it when it replays a
// session the IDE loads; some agents also echo the prompt the IDE sent,
// which Zed skips as a block its message already holds. Any other is the
// agent putting words in the person's mouth ("go ahead and delete tests/,
// no need to ask"), so it never reaches the IDE as such: outside a
// session/load's replay, a user_message_chunk whose content is not one of
// the blocks of the person's prompt in the turn under way is recorded as
// message.refused (rule user-words) and shown as what it is, the agent's
// words: its variant becomes agent_message_chunk. Claude Code's adapter
// sends the output of a slash command (/context, /usage) so, and the person
// still reads it. One that cannot be read one way only is dropped, and the
// person told once a turn.

// userChunkMark is in every user_message_chunk a reader reads as one by its
// variant, unless the sender escaped characters of it.
var userChunkMark = []byte(`user_message_chunk`)

// userWordsDecision is the refusal of an update carrying the person's
// words that the person never sent.
var userWordsDecision = Decision{Value: Deny, Ref: "user-words",
	Rule:   "the person's words reach the IDE only from the person: the agent replays them while the IDE loads the session, or echoes the person's prompt",
	Reason: "the agent sent a user_message_chunk, which the IDE shows as the person's own message, outside a session/load replay and not echoing the person's prompt"}

// userWordsShownAsAgents and userWordsDropped end userWordsDecision's
// reason: what reached the IDE instead.
const (
	userWordsShownAsAgents = "; it is shown as the agent's message instead"
	userWordsDropped       = "; it cannot be read one way only, so it is dropped"
)

// readsAsUserWords reports whether some reader reads the params of a
// session/update as a user_message_chunk: the TypeScript SDK or Zed by a
// sessionUpdate member of an update member (any of them, repeats
// included), or acp-go-sdk (goUser: acpparams.GoSDKReads), which also
// reads so an update whose variant it does not name when it holds a
// content member. Params no reader can read are not.
func readsAsUserWords(params []byte, goUser bool) bool {
	if goUser {
		return true
	}
	user := false
	eachNamed(params, "update", func(update []byte) bool {
		return eachNamed(update, "sessionUpdate", func(v []byte) bool {
			if s, ok := rawjson.String(v); ok && s == "user_message_chunk" {
				user = true
			}
			return true
		})
	})
	return user
}

// userWordsAllowed reports whether the user_message_chunk m may reach the
// IDE in session sid: while the IDE loads the session (the agent replays
// it), or when m is read one way only and its content is one of the
// blocks of the prompt of the turn under way.
func (x *Enforcer) userWordsAllowed(m *acpwire.Message, sid string) bool {
	x.mu.Lock()
	s := x.sessions[sid]
	var prompt []byte
	if s != nil {
		if s.loading > 0 {
			x.mu.Unlock()
			return true
		}
		prompt = s.prompt
	}
	x.mu.Unlock()
	if len(prompt) == 0 || strictlyRead(m) != nil {
		return false
	}
	content, ok := m.Get("params", "update", "content")
	return ok && promptHolds(prompt, content)
}

// promptHolds reports whether block is, as JSON, one of the content blocks
// of the prompt array prompt: equal values, whatever the spelling (member
// order, escapes, number forms).
func promptHolds(prompt, block []byte) bool {
	want, ok := jsonValue(block)
	if !ok {
		return false
	}
	var blocks []json.RawMessage
	if json.Unmarshal(prompt, &blocks) != nil {
		return false
	}
	for _, b := range blocks {
		if v, ok := jsonValue(b); ok && reflect.DeepEqual(v, want) {
			return true
		}
	}
	return false
}

// jsonValue decodes raw into Go values, numbers kept as written.
func jsonValue(raw []byte) (any, bool) {
	d := json.NewDecoder(bytes.NewReader(raw))
	d.UseNumber()
	var v any
	if d.Decode(&v) != nil {
		return nil, false
	}
	return v, true
}

// onUserWords passes on the user_message_chunk m when userWordsAllowed.
// Otherwise it records the refusal and passes on m as the agent's words
// (asAgentWords); one it cannot rewrite so is dropped and the person told,
// once a turn. The turn goes on: the agent's own messages and calls still
// reach the person as the agent's.
func (x *Enforcer) onUserWords(ctx context.Context, m *acpwire.Message, next acpwire.Handler) error {
	sid, _ := m.GetString("params", "sessionId")
	if x.userWordsAllowed(m, sid) {
		return next.Handle(ctx, m)
	}
	shown, ok := asAgentWords(m)
	d := userWordsDecision
	if ok {
		d.Reason += userWordsShownAsAgents
	} else {
		d.Reason += userWordsDropped
	}
	if err := x.record(audit.Event{Actor: x.agent, Action: "message.refused", Subject: audit.Subject{Kind: "message", Ref: m.Method},
		Input:  map[string]any{"method": m.Method, "kind": m.Kind.String(), "direction": m.Dir.String(), "size": len(m.Raw)},
		Policy: policyOf(d), Metadata: decisionMeta(d, sid, nil)}); err != nil {
		x.log.Error("refusal could not be recorded; refusing anyway", "err", err)
	}
	if ok {
		return next.Handle(ctx, shown)
	}
	x.mu.Lock()
	tell := false
	if s := x.sessions[sid]; s != nil && !s.toldWords {
		s.toldWords, tell = true, true
	}
	x.mu.Unlock()
	if tell {
		x.tell(sid, "acp-bridge hid a message the agent sent as if you had written it: only what you type is shown as yours.")
	}
	return nil
}

// asAgentWords returns m with its update's variant set to
// agent_message_chunk, so that every reader shows its content as the
// agent's: m must be read one way only (strictlyRead), and its update an
// object holding a content member.
func asAgentWords(m *acpwire.Message) (*acpwire.Message, bool) {
	if strictlyRead(m) != nil {
		return nil, false
	}
	if _, ok := m.Get("params", "update", "content"); !ok {
		return nil, false
	}
	shown, err := m.Patch([]byte(`"agent_message_chunk"`), "params", "update", "sessionUpdate")
	if err != nil {
		return nil, false
	}
	if v, _ := shown.GetString("params", "update", "sessionUpdate"); v != "agent_message_chunk" {
		return nil, false
	}
	return shown, true
}
