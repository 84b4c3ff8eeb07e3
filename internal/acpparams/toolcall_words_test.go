package acpparams

import "testing"

// TestToolCallWordsAsIDEsRead holds a tool call's kind and status to the
// reading of the TypeScript SDK (defaultOnError) and Zed (serde_with's
// DefaultOnError): a value ACP does not define is no value, so an update
// carrying it leaves the call's kind as it was. Read as a kind of its own,
// "EXECUTE" had the bridge judge an execute call as no command while the
// IDE showed the person an execute call's title as its command line.
func TestToolCallWordsAsIDEsRead(t *testing.T) {
	tests := []struct {
		name, obj    string
		kind, status string
		hasKind      bool
		bad          bool
	}{
		{"defined kind and status", `{"toolCallId":"c","kind":"execute","status":"pending"}`, "execute", "pending", true, false},
		{"escaped defined kind", `{"toolCallId":"c","kind":"\u0065xecute","status":"in_progress"}`, "execute", "in_progress", true, false},
		{"upper-case kind", `{"toolCallId":"c","kind":"EXECUTE"}`, "", "", false, false},
		{"kind with a space", `{"toolCallId":"c","kind":"execute "}`, "", "", false, false},
		{"a status as kind", `{"toolCallId":"c","kind":"pending"}`, "", "", false, false},
		{"a kind as status", `{"toolCallId":"c","status":"execute"}`, "", "", false, false},
		{"capitalised status", `{"toolCallId":"c","status":"Completed"}`, "", "", false, false},
		{"null kind", `{"toolCallId":"c","kind":null}`, "", "", false, false},
		{"empty kind", `{"toolCallId":"c","kind":""}`, "", "", false, false},
		{"number kind is unreadable", `{"toolCallId":"c","kind":5}`, "", "", false, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tc, err := ReadToolCall([]byte(tt.obj))
			if err != nil {
				t.Fatalf("ReadToolCall(%s): %v", tt.obj, err)
			}
			if tc.Kind != tt.kind || tc.HasKind != tt.hasKind || tc.Status != tt.status || (tc.Bad != "") != tt.bad {
				t.Errorf("ReadToolCall(%s) = kind %q (has %v), status %q, bad %q; want kind %q (has %v), status %q, bad %v",
					tt.obj, tc.Kind, tc.HasKind, tc.Status, tc.Bad, tt.kind, tt.hasKind, tt.status, tt.bad)
			}
		})
	}
}
