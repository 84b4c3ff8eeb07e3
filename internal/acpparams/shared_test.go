package acpparams

import (
	"reflect"
	"testing"

	"github.com/acp-bridge/acp-bridge/internal/acpwire"
)

// sharedSeeds are session/update params UpdateOf must read as ReadUpdate
// does, errors included.
var sharedSeeds = []string{
	`{"sessionId":"s1","update":{"sessionUpdate":"tool_call","toolCallId":"t1","title":"x","kind":"edit","status":"pending","locations":[{"path":"/w/a"}],"content":[{"type":"diff","path":"/w/a","newText":"b"}],"rawInput":{"file_path":"/w/a"}}}`,
	`{"sessionId":"s1","update":{"sessionUpdate":"tool_call_update","toolCallId":"t1","status":"completed","content":[{"type":"content","content":{"type":"text","text":"out"}}]}}`,
	`{"sessionId":"s1","update":{"sessionUpdate":"tool_call","toolCallId":5,"title":[1],"locations":[{"path":7}]}}`,
	`{"sessionId":"s1","update":{"sessionUpdate":"tool_call","toolCallId":"t","toolCallId":"u"}}`,
	`{"sessionId":"s1","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"hi"}}}`,
	`{"sessionId":"s\u00e9\"","update":{"sessionUpdate":"agent_thought_chunk","content":{"type":"text","text":"a\"}}}\\"}}}`,
	`{"sessionId":"","update":{"sessionUpdate":"user_message_chunk","content":{"type":"text","text":""}}}`,
	`{"update":[]}`, `[]`, `{}`, `7`,
}

// message returns the session/update notification carrying params, as the
// bridge parses it, or nil if it does not parse.
func message(params string) *acpwire.Message {
	m, err := acpwire.Parse(acpwire.AgentToClient, []byte(`{"jsonrpc":"2.0","method":"session/update","params":`+params+`}`))
	if err != nil {
		return nil
	}
	return m
}

// sameRead fails t unless UpdateOf(m), asked twice, gives what
// ReadUpdate(m.Params) gives, and so does SharedUpdateOf of a copy of m,
// asked twice, giving the same Update both times.
func sameRead(t *testing.T, m *acpwire.Message) {
	t.Helper()
	want, wantErr := ReadUpdate(m.Params)
	same := func(got Update, err error) bool {
		return reflect.DeepEqual(got, want) && (err == nil) == (wantErr == nil) && (err == nil || err.Error() == wantErr.Error())
	}
	fresh := *m
	var shared *Update
	for range 2 {
		if got, err := UpdateOf(m, m.Params); !same(got, err) {
			t.Fatalf("UpdateOf = %+v, %v; ReadUpdate = %+v, %v", got, err, want, wantErr)
		}
		got, err := SharedUpdateOf(&fresh, fresh.Params)
		if !same(*got, err) {
			t.Fatalf("SharedUpdateOf = %+v, %v; ReadUpdate = %+v, %v", *got, err, want, wantErr)
		}
		if shared != nil && got != shared {
			t.Fatalf("SharedUpdateOf gave another Update the second time, not the reading kept on the message")
		}
		shared = got
	}
}

func TestUpdateOfIsReadUpdate(t *testing.T) {
	for _, params := range sharedSeeds {
		m := message(params)
		if m == nil {
			t.Fatalf("does not parse: %s", params)
		}
		sameRead(t, m)
	}
}

// TestUpdateOfChunkLine: a text chunk in the form agents write it is read
// from the parts the bridge found when it parsed it (ChunkOf), as
// ReadUpdate reads it; any other form, or other params, is not.
func TestUpdateOfChunkLine(t *testing.T) {
	for _, tt := range []struct {
		params string
		fast   bool
	}{
		{sharedSeeds[4], true},
		{sharedSeeds[5], true},
		{sharedSeeds[6], true},
		{`{"sessionId":"s1","update":{"sessionUpdate":"agent_message_chunk","content":{"text":"hi","type":"text"}}}`, false},
		{`{"sessionId":"s1","update":{"sessionUpdate":"plan","content":{"type":"text","text":"hi"}}}`, false},
		{sharedSeeds[1], false},
	} {
		m := message(tt.params)
		if m == nil {
			t.Fatalf("does not parse: %s", tt.params)
		}
		u, fast := ChunkOf(m, m.Params)
		if fast != tt.fast {
			t.Errorf("ChunkOf(%s) ok = %v, want %v", tt.params, fast, tt.fast)
		}
		if want, _ := ReadUpdate(m.Params); fast && !reflect.DeepEqual(u, want) {
			t.Errorf("ChunkOf(%s) = %+v, ReadUpdate = %+v", tt.params, u, want)
		}
		if _, ok := ChunkOf(m, append([]byte(nil), m.Params...)); ok {
			t.Errorf("ChunkOf read params other than the message's as its own: %s", tt.params)
		}
		sameRead(t, m)
	}
}

// TestUpdateOfReplacement: a message a feature replaced is read afresh,
// not as the message it replaced.
func TestUpdateOfReplacement(t *testing.T) {
	m := message(sharedSeeds[1])
	if u, err := UpdateOf(m, m.Params); err != nil || u.Status != "completed" {
		t.Fatalf("UpdateOf = %+v, %v", u, err)
	}
	r, err := m.Patch([]byte(`"failed"`), "params", "update", "status")
	if err != nil {
		t.Fatal(err)
	}
	if u, err := UpdateOf(r, r.Params); err != nil || u.Status != "failed" {
		t.Fatalf("UpdateOf(replacement) = %+v, %v; want status failed", u, err)
	}
	sameRead(t, r)
}

// TestUpdateOfOtherReading: a message read another way through Memo first
// is still read by UpdateOf as ReadUpdate reads it.
func TestUpdateOfOtherReading(t *testing.T) {
	type otherKey struct{}
	m := message(sharedSeeds[0])
	if v := m.Memo(otherKey{}, func() any { return 42 }); v != 42 {
		t.Fatalf("Memo = %v", v)
	}
	sameRead(t, m)
	if v := m.Memo(otherKey{}, func() any { return 43 }); v != 43 {
		t.Fatalf("Memo after UpdateOf = %v, want a fresh reading", v)
	}
}

// TestUpdateOfOtherParams: params other than those read for m first are
// read afresh, not answered with m's reading.
func TestUpdateOfOtherParams(t *testing.T) {
	m := message(sharedSeeds[0])
	sameRead(t, m)
	other := []byte(sharedSeeds[1])
	want, _ := ReadUpdate(other)
	if got, err := UpdateOf(m, other); err != nil || !reflect.DeepEqual(got, want) {
		t.Fatalf("UpdateOf(m, other) = %+v, %v; want %+v", got, err, want)
	}
	// The same bytes elsewhere are read there: the values point into them.
	copied := append([]byte(nil), m.Params...)
	want, _ = ReadUpdate(copied)
	if got, err := UpdateOf(m, copied); err != nil || &got.RawInput[0] != &want.RawInput[0] {
		t.Fatalf("UpdateOf(m, copy) = %+v, %v, not a reading of the copy", got, err)
	}
}

// FuzzUpdateOf: on every session/update the bridge parses, UpdateOf reads
// what ReadUpdate reads, the first time and every time after.
func FuzzUpdateOf(f *testing.F) {
	for _, s := range sharedSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, params string) {
		if m := message(params); m != nil {
			sameRead(t, m)
		}
	})
}
