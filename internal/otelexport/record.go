package otelexport

import (
	"path/filepath"
	"time"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/log"

	"github.com/acp-bridge/acp-bridge/internal/audit"
)

// Attribute names of an exported audit event beyond the GenAI semantic
// conventions (gen_ai.*). The chain fields let a central store verify the
// chain: an event's hash covers its whole line, which is the record body.
const (
	AttrAction   = "acp_bridge.audit.action"
	AttrActor    = "acp_bridge.audit.actor"
	AttrDecision = "acp_bridge.audit.decision"
	AttrRule     = "acp_bridge.audit.rule"
	AttrApprover = "acp_bridge.audit.approver"
	AttrSeq      = "acp_bridge.audit.seq"
	AttrHash     = "acp_bridge.audit.hash"
	AttrPrevHash = "acp_bridge.audit.prev_hash"
	AttrFile     = "acp_bridge.audit.file"
	AttrLog      = "acp_bridge.audit.log"
	AttrRunID    = "acp_bridge.audit.run_id"
)

// CheckpointEvent is the event name of a chain checkpoint: the log, the
// seq and the hash of the chain's head when it was sent (AttrLog, AttrSeq,
// AttrHash, AttrRunID, AttrFile).
const CheckpointEvent = "acp_bridge.audit.checkpoint"

// eventRecord is the log record of one audit event: event name the
// action, body the event's line as written (redacted when it was written,
// and what its hash covers), attributes after the GenAI conventions where
// they fit plus the decision and the chain fields.
func eventRecord(e *audit.Entry, logName string) log.Record {
	var r log.Record
	r.SetEventName(e.Action)
	if !e.Time.IsZero() {
		r.SetTimestamp(e.Time)
	}
	r.SetObservedTimestamp(time.Now())
	r.SetSeverity(log.SeverityInfo)
	r.SetSeverityText("INFO")
	if e.Decision() == audit.DecisionDeny {
		r.SetSeverity(log.SeverityWarn)
		r.SetSeverityText("WARN")
	}
	r.SetBody(attribute.StringValue(string(e.Raw)))
	kv := []attribute.KeyValue{
		attribute.String(AttrAction, e.Action),
		attribute.String(AttrActor, e.Actor.ID),
		attribute.Int64(AttrSeq, e.Seq),
		attribute.String(AttrHash, e.Hash),
		attribute.String(AttrPrevHash, e.PrevHash),
		attribute.String(AttrFile, filepath.Base(e.File)),
		attribute.String(AttrLog, logName),
		attribute.String(AttrRunID, e.RunID),
	}
	if e.Session != "" {
		kv = append(kv, attribute.String("gen_ai.conversation.id", e.Session))
	}
	if tc := e.ToolCall; tc != nil {
		kv = append(kv, attribute.String("gen_ai.operation.name", "execute_tool"))
		if tc.Tool != "" {
			kv = append(kv, attribute.String("gen_ai.tool.name", tc.Tool))
		}
		if tc.ToolCallID != "" {
			kv = append(kv, attribute.String("gen_ai.tool.call.id", tc.ToolCallID))
		}
		if tc.Approval != "" {
			kv = append(kv, attribute.String(AttrApprover, tc.Approval))
		}
	}
	if e.Policy != nil {
		if e.Policy.Decision != "" {
			kv = append(kv, attribute.String(AttrDecision, e.Policy.Decision))
		}
		kv = append(kv, attribute.String(AttrRule, e.PolicyRule))
	}
	r.AddAttributes(kv...)
	return r
}

// AnomalyEvent is the event name of a line of the log that was not sent
// because it is not an unaltered audit event continuing the chain
// (something other than the bridge wrote it): AttrLog, AttrFile,
// AttrReason, AttrLineSHA256.
const AnomalyEvent = "acp_bridge.audit.anomaly"

// Attributes of an anomaly.
const (
	AttrReason     = "acp_bridge.audit.reason"
	AttrLineSHA256 = "acp_bridge.audit.line_sha256"
)

// anomalyRecord is the log record of an anomaly.
func anomalyRecord(a anomaly, logName string) log.Record {
	var r log.Record
	r.SetEventName(AnomalyEvent)
	r.SetTimestamp(time.Now())
	r.SetSeverity(log.SeverityError)
	r.SetSeverityText("ERROR")
	r.SetBody(attribute.StringValue("a line of the audit log is not an unaltered event of its chain: " + a.reason))
	r.AddAttributes(
		attribute.String(AttrLog, logName),
		attribute.String(AttrFile, filepath.Base(a.file)),
		attribute.String(AttrReason, a.reason),
		attribute.String(AttrLineSHA256, a.sha256),
		attribute.Int(AttrLineBytes, a.size),
	)
	return r
}

// AttrLineBytes is the size of an anomaly's line.
const AttrLineBytes = "acp_bridge.audit.line_bytes"

// checkpointRecord is the log record of a chain checkpoint at e, the last
// event sent.
func checkpointRecord(e *audit.Entry, logName string) log.Record {
	var r log.Record
	r.SetEventName(CheckpointEvent)
	r.SetTimestamp(time.Now())
	r.SetSeverity(log.SeverityInfo)
	r.SetSeverityText("INFO")
	r.SetBody(attribute.StringValue("audit chain checkpoint"))
	r.AddAttributes(
		attribute.String(AttrLog, logName),
		attribute.String(AttrFile, filepath.Base(e.File)),
		attribute.Int64(AttrSeq, e.Seq),
		attribute.String(AttrHash, e.Hash),
		attribute.String(AttrRunID, e.RunID),
	)
	return r
}

// resourceAttrs name the host, user, agent and bridge version.
func resourceAttrs(c *Config) []attribute.KeyValue {
	var kv []attribute.KeyValue
	add := func(k, v string) {
		if v != "" {
			kv = append(kv, attribute.String(k, v))
		}
	}
	add("service.version", c.BridgeVersion)
	add("user.name", c.User)
	add("gen_ai.agent.name", c.Agent)
	return kv
}
