package governance

import (
	"encoding/json"
	"errors"
	"fmt"

	"github.com/acp-bridge/acp-bridge/internal/audit"
)

func (x *Enforcer) append(ev audit.Event) {
	if x.rec == nil {
		return
	}
	if err := x.rec.Append(ev); err != nil {
		x.log.Warn("audit append failed", "action", ev.Action, "err", err)
	}
}

// record writes a decision synchronously. It returns an error only when
// the record could not be written and the bridge fails closed: the
// decision must then not take effect.
func (x *Enforcer) record(ev audit.Event) error {
	if x.rec == nil {
		return nil
	}
	err := x.rec.AppendSync(ev)
	if err == nil {
		return nil
	}
	x.log.Error("audit record of a decision failed", "action", ev.Action, "err", err)
	if x.opts.FailOpen || errors.Is(err, audit.ErrInvalidEvent) {
		return nil
	}
	return err
}

// seqRecorder is a Recorder that says under which seq a record was
// written (audit.Log, QueuedRecorder), so a later record can name it.
type seqRecorder interface {
	AppendSyncSeq(ev audit.Event) (int64, error)
}

// appendSyncSeq writes ev with r.AppendSync and returns its seq, or -1
// when r does not tell it.
func appendSyncSeq(r Recorder, ev audit.Event) (int64, error) {
	if sr, ok := r.(seqRecorder); ok {
		return sr.AppendSyncSeq(ev)
	}
	return -1, r.AppendSync(ev)
}

// recordSeq is record that also returns the seq ev was written under
// (-1 when the recorder does not tell it, or ev was not written).
func (x *Enforcer) recordSeq(ev audit.Event) (int64, error) {
	if x.rec == nil {
		return -1, nil
	}
	seq, err := appendSyncSeq(x.rec, ev)
	if err == nil {
		return seq, nil
	}
	x.log.Error("audit record of a decision failed", "action", ev.Action, "err", err)
	if x.opts.FailOpen || errors.Is(err, audit.ErrInvalidEvent) {
		return -1, nil
	}
	return -1, err
}

// auditDown reports whether decisions must be refused because the log is
// unhealthy and the bridge fails closed.
func (x *Enforcer) auditDown() error {
	if x.rec == nil || x.opts.FailOpen {
		return nil
	}
	if err := x.rec.Healthy(); err != nil {
		return err
	}
	return nil
}

func policyOf(d Decision) *audit.Policy {
	return &audit.Policy{Ref: d.Ref, Decision: string(d.Value)}
}

func decisionMeta(d Decision, session string, extra map[string]any) map[string]any {
	md := map[string]any{"rule": d.Rule, "reason": d.Reason}
	if session != "" {
		md["session"] = session
	}
	if len(d.Advisories) > 0 {
		md["advisories"] = d.Advisories
	}
	for k, v := range extra {
		md[k] = v
	}
	return md
}

// auditDenied is the decision when the audit log cannot be written.
func auditDenied(err error) Decision {
	return Decision{Value: Deny, Ref: "audit-unavailable", Rule: "deny while the audit log cannot be written (--audit-fail closed)",
		Reason: fmt.Sprintf("the audit log cannot be written: %v", err)}
}

// outputReader is a Recorder that reads a tool's output while the
// message holding it is still there (audit.Log.ReadValidToolOutput), so
// that a record need not keep a copy of it.
type outputReader interface {
	ReadValidToolOutput(raw []byte) any
}

// toolOutput marks a tool call's content or rawOutput as a tool's output,
// which the log stores as its --audit-content says; nil when absent. raw
// is a member of a message read strictly (strictlyRead), so it is valid
// JSON and the recorder does not check its strings again
// (audit.Log.ReadValidToolOutput). It is the recorder's reading of raw
// where the recorder reads outputs (audit.ReadOutput), else a copy of raw
// (audit.ToolOutput): either way nothing of raw, which is a slice of the
// block the message was read into.
func (x *Enforcer) toolOutput(raw json.RawMessage) any {
	if len(raw) == 0 {
		return nil
	}
	if r, ok := x.rec.(outputReader); ok {
		return r.ReadValidToolOutput(raw)
	}
	return audit.ToolOutput(append(json.RawMessage(nil), raw...))
}
