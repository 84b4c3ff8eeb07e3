package governance

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sort"

	"github.com/acp-bridge/acp-bridge/internal/acpwire"
	"github.com/acp-bridge/acp-bridge/internal/audit"
)

// An agent's initialize response lists the ways to log in to it
// (authMethods), and some of them are commands the IDE runs in a terminal
// of its own when the person presses the method's button: a method of type
// "terminal" runs the agent's command line again with the method's args and
// env, and a method whose _meta holds "terminal-auth" runs the command,
// args and env written there (Zed reads it in methods of every type). The
// button shows the method's name or label, not the command. Such a
// terminal has no session and no cwd the bridge could judge it in (the
// IDE picks the directory), as a terminal/create without a cwd, which is
// denied; so a method the IDE would run in a terminal is taken out of the
// list unless the policy allows it, and the removal is recorded. Other
// methods (the agent logs in itself on "authenticate", or the IDE asks the
// person for a key) pass as they came.

// authMethod is what the bridge reads of one entry of authMethods, with
// case-exact names.
type authMethod struct {
	ID   string          `json:"id"`
	Type *string         `json:"type"`
	Args json.RawMessage `json:"args"`
	Env  json.RawMessage `json:"env"`
	Meta json.RawMessage `json:"_meta"`
}

// terminalAuth is the "terminal-auth" member of a method's _meta, read as
// Zed reads it (meta_terminal_auth_task: label and command required, args
// and env optional).
type terminalAuth struct {
	Label   string            `json:"label"`
	Command string            `json:"command"`
	Args    []string          `json:"args"`
	Env     map[string]string `json:"env"`
}

// onInitialized judges the auth methods of the agent's initialize
// response before the IDE sees them.
func (x *Enforcer) onInitialized(ctx context.Context, m *acpwire.Message, next acpwire.Handler) error {
	list, ok := m.Get("result", "authMethods")
	if !ok || m.Error != nil {
		return next.Handle(ctx, m)
	}
	var entries []json.RawMessage
	if err := strictlyRead(m); err != nil || unmarshalStrict(list, &entries) != nil {
		// The wire layer refuses such a response before it gets here;
		// should one arrive, the IDE gets no method rather than a
		// method read one way here and another there.
		x.log.Warn("the agent's login methods cannot be read one way only; the IDE gets none")
		return x.forwardKept(ctx, m, next, "authMethods", "login methods", nil, true)
	}
	kept := make([]json.RawMessage, 0, len(entries))
	for i, raw := range entries {
		req, what, err := terminalAuthRequest(raw)
		if err == nil && req == nil {
			kept = append(kept, raw)
			continue
		}
		d := Decision{Value: Deny, Ref: "strict-json", Rule: "judged messages are read as the IDE reads them",
			Reason: fmt.Sprintf("auth method %d cannot be read one way only: %v", i, err)}
		input := map[string]any{"authMethod": json.RawMessage(bytes.Clone(raw))}
		if err == nil {
			d = x.decide(*req)
			if d.Value == Allow {
				kept = append(kept, raw)
			}
		}
		ev := audit.Event{Actor: x.agent, Action: "auth.method", Subject: audit.Subject{Kind: "auth-method", Ref: what},
			Input: input, Policy: policyOf(d), Metadata: decisionMeta(d, "", map[string]any{"removed": d.Value != Allow})}
		if err := x.record(ev); err != nil && d.Value == Allow {
			kept = kept[:len(kept)-1] // kept only when the record says so
		}
		if d.Value != Allow {
			x.log.Warn("an auth method the IDE would run in a terminal was removed from the agent's initialize response",
				"method", what, "reason", d.Reason)
		}
	}
	return x.forwardKept(ctx, m, next, "authMethods", "login methods", kept, len(kept) != len(entries))
}

// terminalAuthRequest returns the terminal request an auth method makes
// the IDE run, with a name for it, or nil for a method the IDE does not
// run in a terminal. An error means the method cannot be read the way
// the IDE reads it.
func terminalAuthRequest(raw json.RawMessage) (*Request, string, error) {
	var am authMethod
	if err := unmarshalStrict(raw, &am); err != nil {
		return nil, "", err
	}
	what := am.ID
	var meta map[string]json.RawMessage
	if len(am.Meta) > 0 && !bytes.Equal(bytes.TrimSpace(am.Meta), []byte("null")) {
		if err := unmarshalStrict(am.Meta, &meta); err != nil {
			return nil, what, fmt.Errorf("_meta: %v", err)
		}
	}
	var argv []string
	var env map[string]string
	switch ta, hasMeta := meta["terminal-auth"]; {
	case hasMeta:
		var t terminalAuth
		if err := unmarshalStrict(ta, &t); err != nil {
			return nil, what, fmt.Errorf("_meta terminal-auth: %v", err)
		}
		if t.Command == "" {
			return nil, what, errors.New("_meta terminal-auth names no command")
		}
		argv, env = append([]string{t.Command}, t.Args...), t.Env
	case am.Type != nil && *am.Type == "terminal":
		// The IDE runs the agent's own command line with these added.
		if len(am.Args) > 0 {
			if err := unmarshalStrict(am.Args, &argv); err != nil {
				return nil, what, fmt.Errorf("args: %v", err)
			}
		}
		if len(am.Env) > 0 {
			if err := unmarshalStrict(am.Env, &env); err != nil {
				return nil, what, fmt.Errorf("env: %v", err)
			}
		}
	default:
		return nil, what, nil
	}
	req := &Request{Action: ActionTerminalCreate, Argv: argv, Command: shellJoin(argv), NoCwd: true}
	names := make([]string, 0, len(env))
	for n := range env {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		req.Env = append(req.Env, EnvVar{Name: n, Value: env[n]})
	}
	return req, what, nil
}
