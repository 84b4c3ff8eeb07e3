package acpparams

import (
	"encoding/json"
	"fmt"

	acp "github.com/coder/acp-go-sdk"
)

// GoSDKProblem returns why acp-go-sdk, the ACP library of Go IDEs, cannot
// decode params of a session/update or a session/request_permission, or
// reads its tool call's content otherwise than the bridge read it (items,
// the bridge's reading of that content), or nil. Such an IDE drops the
// whole message where the TypeScript SDK and Zed read each bad member as
// absent (defaultOnError, serde_with's DefaultOnError): a tool_call_update
// whose "_meta" is 5 or whose location's "line" is "1" changes the call
// for one IDE and not for the other, so the bridge, which follows the call
// the person is shown, refuses it. And the SDK reads a content item whose
// type it does not name by its members or as a diff ("Diff", "diff\u0000",
// null: a diff): a Go IDE would show a diff of a path the bridge never
// judged as one. Other methods return nil.
func GoSDKProblem(method string, params []byte, items []ContentItem) error {
	var err error
	var content []acp.ToolCallContent
	switch method {
	case "session/update":
		var n acp.SessionNotification
		err = json.Unmarshal(params, &n)
		switch {
		case n.Update.ToolCall != nil:
			content = n.Update.ToolCall.Content
		case n.Update.ToolCallUpdate != nil:
			content = n.Update.ToolCallUpdate.Content
		}
	case "session/request_permission":
		var r acp.RequestPermissionRequest
		err = json.Unmarshal(params, &r)
		content = r.ToolCall.Content
	default:
		return nil
	}
	if err != nil {
		return fmt.Errorf("acp-go-sdk cannot decode it (%v), so a Go IDE drops it where others read it", err)
	}
	if len(content) != len(items) {
		return fmt.Errorf("acp-go-sdk reads %d content items where the bridge reads %d", len(content), len(items))
	}
	for i, c := range content {
		if kind := goContentKind(c); kind != "content" && kind != items[i].Type {
			return fmt.Errorf("acp-go-sdk reads content item %d as a %s, the bridge as type %q", i, kind, items[i].Type)
		}
	}
	return nil
}

// goContentKind names the variant acp-go-sdk read a content item as. One
// it reads as a content block where the bridge read another type shows no
// path or terminal, so only a diff or a terminal has to agree.
func goContentKind(c acp.ToolCallContent) string {
	switch {
	case c.Diff != nil:
		return "diff"
	case c.Terminal != nil:
		return "terminal"
	case c.Content != nil:
		return "content"
	}
	return ""
}

// ShapesCall reports whether t carries a member the bridge follows a call
// by (its title, kind, name, rawInput, locations, _meta, or a content item
// other than a content block: a diff, a terminal), so that an IDE dropping
// t would show another call than the bridge judges. A tool call update
// carrying only a status, text content and rawOutput (most of a stream's
// tool output) does not, and is spared GoSDKProblem's decoding.
func (t *ToolCall) ShapesCall() bool {
	if t.HasTitle || t.HasKind || t.HasName || t.RawInput != nil || t.Locations != nil || t.Meta != nil {
		return true
	}
	for _, it := range t.Items {
		if it.Type != "content" {
			return true
		}
	}
	return false
}

// GoSDKReadsToolCall reports whether acp-go-sdk decodes a session/update's
// params as a tool_call or a tool_call_update. Its SessionUpdate reads a
// sessionUpdate it does not name (null, 5, "TOOL_CALL", "notice", a
// variant newer than the SDK) by the members the update holds instead:
// sessionUpdate, toolCallId and title make a tool_call, sessionUpdate and
// toolCallId a tool_call_update. The TypeScript SDK, Zed and the bridge
// read such an update as no tool call at all, so a Go IDE would show a
// call, or retitle one, that the bridge never judged.
func GoSDKReadsToolCall(params []byte) bool {
	toolCall, _ := GoSDKReads(params)
	return toolCall
}

// GoSDKReads reports what acp-go-sdk decodes a session/update's params as:
// a tool call (GoSDKReadsToolCall), or a user_message_chunk, the person's
// own words to a Go IDE. The SDK reads a sessionUpdate it does not name
// ("notice", null, "USER_MESSAGE_CHUNK", none at all) holding a content
// member as a user_message_chunk before any other variant, so an update the
// bridge and the TypeScript SDK read as no message of the person's is one
// to a Go IDE.
func GoSDKReads(params []byte) (toolCall, userMessage bool) {
	var n acp.SessionNotification
	if json.Unmarshal(params, &n) != nil {
		return false, false
	}
	return n.Update.ToolCall != nil || n.Update.ToolCallUpdate != nil, n.Update.UserMessageChunk != nil
}
