package acpparams

import (
	"context"
	"reflect"
	"strings"
	"testing"

	"github.com/acp-bridge/acp-bridge/internal/acpwire"
	"github.com/acp-bridge/acp-bridge/internal/acpwire/acpwiretest"
	"github.com/acp-bridge/acp-bridge/internal/rawjson"
	"github.com/acp-bridge/acp-bridge/internal/rawjson/rawjsontest"
)

// FuzzReadUpdateKnown: reading valid params as SharedUpdateOf reads them
// (stepping over the literals a record of them holds, the session id
// through the shared SessionIDs) reads exactly what ReadUpdate reads,
// errors included.
func FuzzReadUpdateKnown(f *testing.F) {
	for _, s := range sharedSeeds {
		f.Add(s)
	}
	f.Add(`{"sessionId":"s1","update":{"sessionUpdate":"tool_call_update","toolCallId":"t1","content":[{"type":"content","content":{"type":"text","text":"` + strings.Repeat(`a\"b\n`, 80) + `"}},"x",{"type":"diff","path":"/w/a","oldText":"o","newText":"n"}],"rawOutput":"r"}}`)
	f.Fuzz(func(t *testing.T, params string) {
		b := []byte(params)
		if !rawjson.Valid(b) {
			return // the bridge reads only what it parsed
		}
		known, err := rawjsontest.Record(b, 2)
		if err != nil {
			t.Fatalf("walking valid %q: %v", params, err)
		}
		var want, got Update
		wantErr := readUpdateInto(b, &want)
		rd := reader{b: b, known: known, ids: &sharedIDs}
		gotErr := rd.update(&got)
		if !reflect.DeepEqual(got, want) || (gotErr == nil) != (wantErr == nil) || gotErr != nil && gotErr.Error() != wantErr.Error() {
			t.Fatalf("%s:\nwith the record %+v, %v\nreading it all %+v, %v", params, got, gotErr, want, wantErr)
		}
	})
}

// TestUpdateOfKnownOnTheWire: on a tool_call_update the bridge checked
// strictly, whose output the check recorded, UpdateOf reads what
// ReadUpdate reads.
func TestUpdateOfKnownOnTheWire(t *testing.T) {
	out := strings.Repeat(`the build failed on line 12.\n\"x\"\\`, 30)
	line := `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"tool_call_update","toolCallId":"c1","status":"completed","content":[{"type":"content","content":{"type":"text","text":"` + out + `"}}],"rawOutput":{"stdout":"` + out + `"}}}}`
	seen := make(chan *acpwire.Message, 1)
	b := acpwire.New(acpwire.Options{})
	b.Use(acpwire.Middleware(func(next acpwire.Handler) acpwire.Handler {
		return acpwire.HandlerFunc(func(ctx context.Context, m *acpwire.Message) error {
			seen <- m // Use keeps the bytes: the message may be read later
			return next.Handle(ctx, m)
		})
	}))
	h := acpwiretest.Start(t, b)
	h.FromAgent(line)
	h.ClientGets()
	m := <-seen
	if k := m.KnownStrings(); k.Len() == 0 {
		t.Fatal("the message carried no record of its output: the record was not read")
	}
	sameRead(t, m)
}
