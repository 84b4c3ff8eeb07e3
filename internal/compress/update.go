package compress

import "github.com/acp-bridge/acp-bridge/internal/rawjson"

// updateFields are the members of a session/update's update object the
// pipeline reads, found in one pass.
type updateFields struct {
	kind                                 string // sessionUpdate
	content, toolCallID, title, toolKind []byte
	status, locations                    []byte
}

func parseUpdate(update []byte) updateFields {
	var f updateFields
	eachMember(update, func(k, v []byte) bool {
		switch string(k) {
		case "sessionUpdate":
			f.kind = updateKind(v)
		case "content":
			f.content = v
		case "toolCallId":
			f.toolCallID = v
		case "title":
			f.title = v
		case "kind":
			f.toolKind = v
		case "status":
			f.status = v
		case "locations":
			f.locations = v
		}
		return true
	})
	return f
}

// updateKind decodes the sessionUpdate discriminator, without allocating
// for the common ones.
func updateKind(v []byte) string {
	switch string(v) {
	case `"agent_message_chunk"`:
		return "agent_message_chunk"
	case `"agent_thought_chunk"`:
		return "agent_thought_chunk"
	case `"tool_call_update"`:
		return "tool_call_update"
	case `"tool_call"`:
		return "tool_call"
	case `"plan"`:
		return "plan"
	case `"usage_update"`:
		return "usage_update"
	}
	s, _ := rawjson.String(v)
	return s
}

// contentFields are the members of a tool call content item.
type contentFields struct {
	typ                    string
	text                   []byte // content.text, a JSON string literal
	path, oldText, newText []byte
}

// parseContents parses each item of a tool call's content array, once for
// every reader of the update.
func parseContents(content []byte) []contentFields {
	var items []contentFields
	eachElement(content, func(e []byte) bool {
		items = append(items, parseContent(e))
		return true
	})
	return items
}

func parseContent(item []byte) contentFields {
	var c contentFields
	eachMember(item, func(k, v []byte) bool {
		switch string(k) {
		case "type":
			switch string(v) {
			case `"content"`:
				c.typ = "content"
			case `"diff"`:
				c.typ = "diff"
			default:
				c.typ, _ = rawjson.String(v)
			}
		case "content":
			c.text, _ = member(v, "text")
		case "path":
			c.path = v
		case "oldText":
			c.oldText = v
		case "newText":
			c.newText = v
		}
		return true
	})
	return c
}
