package governance

import (
	"context"
	"fmt"

	"github.com/acp-bridge/acp-bridge/internal/acpparams"
	"github.com/acp-bridge/acp-bridge/internal/acpwire"
)

// passNoToolCall passes on a session/update the bridge reads as no tool
// call (every one but a text chunk the wire has read strictly), unless
// acp-go-sdk reads it as one: an update whose sessionUpdate is null, a
// name the SDK does not know or absent, holding a toolCallId and a title
// (or a content array no message chunk has), is a tool call to a Go IDE
// and nothing the bridge follows, so a Go IDE would show a permission
// request's call as such an update left it while the bridge judges the
// call as it was. It is refused. One some reader reads as the person's
// words (readsAsUserWords) is judged as such (onUserWords).
func (x *Enforcer) passNoToolCall(ctx context.Context, m *acpwire.Message, next acpwire.Handler) error {
	toolCall, goUser := acpparams.GoSDKReads(m.Params)
	if toolCall {
		return x.refuseUnreadable(m, fmt.Errorf("%w: acp-go-sdk reads it as a tool call by the members it holds, where the bridge and other IDEs read no tool call variant", errUnreadable))
	}
	if readsAsUserWords(m.Params, goUser) {
		return x.onUserWords(ctx, m, next)
	}
	return next.Handle(ctx, m)
}
