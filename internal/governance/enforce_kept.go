package governance

import (
	"bytes"
	"context"
	"encoding/json"

	"github.com/acp-bridge/acp-bridge/internal/acpwire"
)

// forwardKept passes m, a response, on with its result's array member
// (authMethods, sessions) set to the entries kept when changed is true;
// what names the member for the user. A response whose member cannot be
// replaced is answered with an error instead: the IDE must not get the
// entries the bridge took out.
func (x *Enforcer) forwardKept(ctx context.Context, m *acpwire.Message, next acpwire.Handler, member, what string, kept []json.RawMessage, changed bool) error {
	if !changed {
		return next.Handle(ctx, m)
	}
	arr := []byte{'['}
	for i, r := range kept {
		if i > 0 {
			arr = append(arr, ',')
		}
		arr = append(arr, bytes.TrimSpace(r)...)
	}
	out, err := m.Patch(append(arr, ']'), "result", member)
	if err != nil {
		return x.send.ReplyError(m.Request, acpwire.Errorf(acpwire.CodeInternalError, "acp-bridge: the agent's %s could not be judged: %v", what, err))
	}
	return next.Handle(ctx, out)
}
