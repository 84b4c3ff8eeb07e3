package compress

import (
	"testing"

	"github.com/acp-bridge/acp-bridge/internal/audit"
)

// recordingAudit keeps what AuditTo appends.
type recordingAudit struct{ events []audit.Event }

func (r *recordingAudit) Append(e audit.Event) error { r.events = append(r.events, e); return nil }

func TestAuditTo(t *testing.T) {
	var r recordingAudit
	sink := AuditTo(&r)
	ev := Event{Session: "s1", Type: EventTier3, Trigger: "context at 80.0% (RED)", Level: "RED",
		TokensBefore: 160000, TokensAfter: 1200, TokensSaved: 158800, Files: []string{"/c/conversations/s1_full.md"}, IntentPreserved: "YES"}
	if err := sink(ev); err != nil {
		t.Fatal(err)
	}
	if len(r.events) != 1 {
		t.Fatalf("%d audit events", len(r.events))
	}
	a := r.events[0]
	if a.Action != "context.compress" || a.Actor.ID != "acp-bridge" || a.Subject.Kind != "session" || a.Subject.Ref != "s1" || a.Subject.Path != "/c/conversations/s1_full.md" {
		t.Errorf("audit event %+v", a)
	}
	if in := a.Input.(map[string]any); in["event"] != "TIER_3" || in["level"] != "RED" {
		t.Errorf("input %v", in)
	}
	if out := a.Output.(map[string]any); out["tokensSaved"] != 158800 || out["intentPreserved"] != "YES" {
		t.Errorf("output %v", out)
	}
	if a.Metadata["session"] != "s1" {
		t.Errorf("metadata %v", a.Metadata)
	}
}

// TestAuditToRecordsWriteRefusalAsDeny: the pipeline answers an agent's
// write that carries an offload reference itself, nearer the agent than
// governance, so its record is the only one of the attempt: it carries the
// refusal as a deny decision. Other events decide nothing.
func TestAuditToRecordsWriteRefusalAsDeny(t *testing.T) {
	tests := []struct {
		typ  string
		want *audit.Policy
	}{
		{EventWriteRefused, &audit.Policy{Ref: "offload-reference", Decision: "deny"}},
		{EventTier1, nil},
		{EventTier3, nil},
		{EventRollover, nil},
	}
	for _, tt := range tests {
		t.Run(tt.typ, func(t *testing.T) {
			var r recordingAudit
			if err := AuditTo(&r)(Event{Session: "s1", Type: tt.typ, Trigger: "fs/write_text_file /repo/GOVERNANCE.md"}); err != nil {
				t.Fatal(err)
			}
			got := r.events[0].Policy
			if (got == nil) != (tt.want == nil) || (got != nil && *got != *tt.want) {
				t.Errorf("policy = %+v, want %+v", got, tt.want)
			}
		})
	}
}
