package audit

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
)

// SchemaTag is the value of every line's "$schema" field (AIP-7).
const SchemaTag = "agentgovernance/v1"

// Doctype is the value of every line's "doctype" field (AIP-7).
const Doctype = "audit-event"

// Genesis is the prevHash of the first event of a chain.
const Genesis = "GENESIS"

// HashAlg is the only hash algorithm this package writes and verifies.
const HashAlg = "sha256"

// Decisions a Policy may carry (AIP-7 policyRef.decision).
const (
	DecisionAllow           = "allow"
	DecisionDeny            = "deny"
	DecisionRequireApproval = "require-approval"
	DecisionEscalate        = "escalate"
)

// Actor is who performed an action: AIP-7 actor{id, role}. ID is required;
// use stable principal ids such as "agent:claude-code", "user:ide" or
// "acp-bridge".
type Actor struct {
	ID   string `json:"id"`
	Role string `json:"role,omitempty"`
}

// Subject is what an action is about: AIP-7 subject{kind, ref, path}. Kind is
// required ("tool-call", "file", "terminal", "session", ...); Ref names the
// thing (a toolCallId, a session id) and Path locates it on disk. Ref longer
// than 256 bytes and Path longer than 1024 bytes are shortened, keeping their
// ends, to fit the AIP-7 limits.
type Subject struct {
	Kind string `json:"kind"`
	Ref  string `json:"ref,omitempty"`
	Path string `json:"path,omitempty"`
}

// Policy is the policy decision an event records: AIP-7 policy{ref,
// decision}. Decision is one of allow, deny, require-approval, escalate, or
// empty. AIP-7 wants Ref to be a slug (lowercase letters, digits and '-');
// any other Ref is written as a slug derived from it, and the original text
// is kept in metadata["policyRule"].
type Policy struct {
	Ref      string `json:"ref"`
	Decision string `json:"decision,omitempty"`
}

// Event is what a caller appends. Append fills in $schema, doctype, seq, ts,
// prevHash, hash, hashAlg and metadataHash.
//
// Input and Output may be any value encoding/json can encode (a
// json.RawMessage is used as is); they are redacted and capped before being
// written. AIP-7 wants objects there, so any other value v is written as
// {"value": v}. A nil Input or Output is left out. A tool's output given
// as a ToolOutput (as Output, or as a ToolCall's Result or Error) is kept
// as Options.Content says: by default its long strings become digest
// records.
//
// Metadata holds the AIP-44 tool-call mirror under metadata["toolCall"] (see
// ToolCall) and the ACP session id under metadata["session"] for events that
// belong to a session; the review tools (Sessions, Timeline) read both.
// Metadata is redacted like Input and Output.
type Event struct {
	Actor    Actor
	Action   string
	Subject  Subject
	Input    any
	Output   any
	Policy   *Policy
	Metadata map[string]any
}

// ToolCall is the AIP-44 tool-call mirror (metadata["toolCall"]). Callers
// may put a ToolCall or an equivalent map in Event.Metadata.
type ToolCall struct {
	// Kind is always "tool-call".
	Kind       string `json:"kind"`
	Operator   string `json:"operator,omitempty"`
	Session    string `json:"session,omitempty"`
	ToolCallID string `json:"toolCallId,omitempty"`
	Tool       string `json:"tool,omitempty"`
	Arguments  any    `json:"arguments,omitempty"`
	Result     any    `json:"result,omitempty"`
	Error      any    `json:"error,omitempty"`
	// Approval is "auto" when policy allowed the call without asking, or
	// the id of whoever approved it.
	Approval string `json:"approval,omitempty"`
}

// ErrInvalidEvent is wrapped by the errors Append returns for an event that
// cannot be written as an AIP-7 audit event (missing actor id, bad action,
// unknown decision, a value that cannot be encoded). Such an event is not
// written and does not make the log unhealthy: an ActionUnrecorded record
// saying what failed is written in its place.
var ErrInvalidEvent = errors.New("invalid audit event")

// isAction reports whether s is an action name: it matches
// ^[a-z][a-z0-9._-]*[a-z0-9]$.
func isAction(s string) bool { return isLowerName(s, "._-") }

// isSlug reports whether s is an AIP-7 slug: it matches
// ^[a-z][a-z0-9-]*[a-z0-9]$.
func isSlug(s string) bool { return isLowerName(s, "-") }

// isLowerName reports whether s is at least two bytes long, starts with a
// lowercase ASCII letter, ends with one or a digit, and has only those
// and the bytes of punct in between. It is what a regular expression
// would say, at a fraction of the cost of one per record.
func isLowerName(s, punct string) bool {
	if len(s) < 2 || s[0] < 'a' || s[0] > 'z' || !isLowerOrDigit(s[len(s)-1]) {
		return false
	}
	for i := 1; i < len(s)-1; i++ {
		if c := s[i]; !isLowerOrDigit(c) && strings.IndexByte(punct, c) < 0 {
			return false
		}
	}
	return true
}

func isLowerOrDigit(c byte) bool { return c >= 'a' && c <= 'z' || c >= '0' && c <= '9' }

// check reports why ev cannot be written, or nil.
func (ev *Event) check() error {
	switch {
	case ev.Actor.ID == "":
		return fmt.Errorf("%w: actor id is empty", ErrInvalidEvent)
	case len(ev.Actor.ID) > 256:
		return fmt.Errorf("%w: actor id longer than 256 bytes", ErrInvalidEvent)
	case len(ev.Actor.Role) > 64:
		return fmt.Errorf("%w: actor role longer than 64 bytes", ErrInvalidEvent)
	case len(ev.Action) > 128 || !isAction(ev.Action):
		return fmt.Errorf("%w: action %q is not a dot-separated lowercase name like tool.call", ErrInvalidEvent, ev.Action)
	case ev.Subject.Kind == "":
		return fmt.Errorf("%w: subject kind is empty", ErrInvalidEvent)
	case len(ev.Subject.Kind) > 32:
		return fmt.Errorf("%w: subject kind longer than 32 bytes", ErrInvalidEvent)
	}
	if p := ev.Policy; p != nil {
		switch p.Decision {
		case "", DecisionAllow, DecisionDeny, DecisionRequireApproval, DecisionEscalate:
		default:
			return fmt.Errorf("%w: policy decision %q is not allow, deny, require-approval or escalate", ErrInvalidEvent, p.Decision)
		}
		if p.Ref == "" {
			return fmt.Errorf("%w: policy ref is empty", ErrInvalidEvent)
		}
	}
	return nil
}

// policySlug turns a policy reference such as "rules.deny[0]: Bash(rm:*)"
// into an AIP-7 slug ("rules-deny-0-bash-rm"), or returns ref unchanged
// when it already is one.
func policySlug(ref string) string {
	if len(ref) <= 64 && isSlug(ref) {
		return ref
	}
	var b strings.Builder
	dash := false
	for _, r := range strings.ToLower(ref) {
		if (r >= 'a' && r <= 'z') || (r >= '0' && r <= '9') {
			if b.Len() == 0 && r <= '9' {
				b.WriteString("p-")
			}
			b.WriteRune(r)
			dash = false
		} else if !dash && b.Len() > 0 {
			b.WriteByte('-')
			dash = true
		}
	}
	s := strings.TrimRight(b.String(), "-")
	if len(s) > 55 {
		// Keep distinct long refs distinct.
		s = strings.TrimRight(s[:46], "-") + "-" + hashHex([]byte(ref))[:8]
	}
	if len(s) < 2 {
		s = "policy-" + hashHex([]byte(ref))[:8]
	}
	return s
}

// shorten cuts s to at most max bytes, keeping its start and end around an
// ellipsis, on UTF-8 boundaries.
func shorten(s string, max int) string {
	if len(s) <= max {
		return s
	}
	const dots = "…"
	keep := max - len(dots)
	head := validPrefix(s, keep/2)
	tail := validSuffix(s, keep-len(head))
	return head + dots + tail
}

func validPrefix(s string, n int) string {
	if n >= len(s) {
		return s
	}
	for n > 0 && !isRuneStart(s[n]) {
		n--
	}
	return s[:n]
}

func validSuffix(s string, n int) string {
	if n >= len(s) {
		return s
	}
	i := len(s) - n
	for i < len(s) && !isRuneStart(s[i]) {
		i++
	}
	return s[i:]
}

func isRuneStart(b byte) bool { return b&0xC0 != 0x80 }

// toTree turns a caller's value into a fresh decoded-JSON tree
// (map[string]any, []any, string, json.Number, bool, nil) that redaction
// may modify. The common shapes are converted directly; anything else goes
// through encoding/json.
func toTree(v any) (any, error) {
	switch v := v.(type) {
	case nil:
		return nil, nil
	case string, bool, json.Number, *sharedTree:
		return v, nil
	case int:
		return json.Number(strconv.Itoa(v)), nil
	case int64:
		return json.Number(strconv.FormatInt(v, 10)), nil
	case float64:
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return nil, fmt.Errorf("unsupported number %v", v)
		}
		return json.Number(strconv.FormatFloat(v, 'g', -1, 64)), nil
	case json.RawMessage:
		if len(v) == 0 {
			return nil, nil
		}
		return decodeTree(v)
	case ToolOutput:
		// Output and the mirror's result or error are read as the Log's
		// Content says (Log.toolOutputs); anywhere else, as JSON.
		if len(v) == 0 {
			return nil, nil
		}
		return decodeTree(v)
	case map[string]any:
		out := make(map[string]any, len(v))
		for k, e := range v {
			t, err := toTree(e)
			if err != nil {
				return nil, err
			}
			out[k] = t
		}
		return out, nil
	case []any:
		out := make([]any, len(v))
		for i, e := range v {
			t, err := toTree(e)
			if err != nil {
				return nil, err
			}
			out[i] = t
		}
		return out, nil
	case map[string]string:
		out := make(map[string]any, len(v))
		for k, e := range v {
			out[k] = e
		}
		return out, nil
	case []string:
		out := make([]any, len(v))
		for i, e := range v {
			out[i] = e
		}
		return out, nil
	case *ReadOutput:
		// Taken only where shareResult puts it in place.
		return nil, errors.New("a tool output read already, outside output and the tool call's result or error")
	case ToolCall:
		return v.tree()
	case *ToolCall:
		if v == nil {
			return nil, nil
		}
		return v.tree()
	}
	data, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	return decodeTree(data)
}

// tree is toTree for a ToolCall, without a round trip through JSON.
func (tc *ToolCall) tree() (any, error) {
	m := make(map[string]any, 9)
	m["kind"] = tc.Kind
	for _, f := range [...]struct {
		k, v string
	}{{"operator", tc.Operator}, {"session", tc.Session}, {"toolCallId", tc.ToolCallID}, {"tool", tc.Tool}, {"approval", tc.Approval}} {
		if f.v != "" {
			m[f.k] = f.v
		}
	}
	for _, f := range [...]struct {
		k string
		v any
	}{{"arguments", tc.Arguments}, {"result", tc.Result}, {"error", tc.Error}} {
		if f.v == nil {
			continue
		}
		t, err := toTree(f.v)
		if err != nil {
			return nil, err
		}
		if t != nil {
			m[f.k] = t
		}
	}
	return m, nil
}
