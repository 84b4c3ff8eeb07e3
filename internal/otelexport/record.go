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
	sev := log.SeverityInfo
	if e.Decision() == audit.DecisionDeny {
		sev = log.SeverityWarn
	}
	setSeverity(&r, sev)
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
	return fileRecord(AnomalyEvent, log.SeverityError,
		"a line of the audit log is not an unaltered event of its chain: "+a.reason, logName, a.file,
		attribute.String(AttrReason, a.reason),
		attribute.String(AttrLineSHA256, a.sha256),
		attribute.Int(AttrLineBytes, a.size))
}

// AttrLineBytes is the size of an anomaly's line.
const AttrLineBytes = "acp_bridge.audit.line_bytes"

// checkpointRecord is the log record of a chain checkpoint at e, the last
// event sent.
func checkpointRecord(e *audit.Entry, logName string) log.Record {
	return fileRecord(CheckpointEvent, log.SeverityInfo, "audit chain checkpoint", logName, e.File,
		attribute.Int64(AttrSeq, e.Seq),
		attribute.String(AttrHash, e.Hash),
		attribute.String(AttrRunID, e.RunID))
}

// fileRecord is a log record the exporter makes about a file of the log
// (not one of its events), timed now: its event name, severity and body,
// the log and the file's base name, then kv.
func fileRecord(event string, sev log.Severity, body, logName, file string, kv ...attribute.KeyValue) log.Record {
	var r log.Record
	r.SetEventName(event)
	r.SetTimestamp(time.Now())
	setSeverity(&r, sev)
	r.SetBody(attribute.StringValue(body))
	r.AddAttributes(attribute.String(AttrLog, logName), attribute.String(AttrFile, filepath.Base(file)))
	r.AddAttributes(kv...)
	return r
}

// setSeverity sets r's severity and its text ("INFO", "WARN", "ERROR").
func setSeverity(r *log.Record, sev log.Severity) {
	r.SetSeverity(sev)
	r.SetSeverityText(sev.String())
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
