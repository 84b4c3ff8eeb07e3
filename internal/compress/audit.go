package compress

import "github.com/acp-bridge/acp-bridge/internal/audit"

// AuditLog is the part of audit.Log that AuditTo uses.
type AuditLog interface {
	Append(audit.Event) error
}

// AuditTo returns a Config.Audit that records each compression event in l
// as a context.compress audit record. A WRITE_REFUSED record carries the
// refusal as a decision (deny, ref "offload-reference"): the pipeline
// answers such a write itself, nearer the agent than governance, so no
// other record of the attempt is made; its trigger names the path.
func AuditTo(l AuditLog) func(Event) error {
	return func(e Event) error {
		path := ""
		if len(e.Files) > 0 {
			path = e.Files[0]
		}
		var pol *audit.Policy
		if e.Type == EventWriteRefused {
			pol = &audit.Policy{Ref: "offload-reference", Decision: "deny"}
		}
		return l.Append(audit.Event{
			Policy:  pol,
			Actor:   audit.Actor{ID: "acp-bridge", Role: "compression"},
			Action:  "context.compress",
			Subject: audit.Subject{Kind: "session", Ref: e.Session, Path: path},
			Input:   map[string]any{"event": e.Type, "trigger": e.Trigger, "level": e.Level},
			Output: map[string]any{"tokensBefore": e.TokensBefore, "tokensAfter": e.TokensAfter, "tokensSaved": e.TokensSaved,
				"filesCreated": e.Files, "intentPreserved": e.IntentPreserved, "detail": e.Detail},
			Metadata: map[string]any{"session": e.Session},
		})
	}
}
