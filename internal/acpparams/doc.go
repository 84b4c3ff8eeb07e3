// Package acpparams reads the parts of ACP messages' params that the
// bridge's features judge or record: a session/update's update object (a
// tool_call, a tool_call_update, a message chunk) and a permission
// request's toolCall, and the shapes of a permission request and its
// outcome.
//
// Governance judges these members and compression records and offloads
// them, and both must read them exactly as the IDE will. So there is one
// reader, and it is strict where readers disagree: member names are
// compared case-exactly after unescaping ("p\u0061th" is "path", "Path" is
// not), and a member the reader uses that is named twice in one object
// fails the read (ErrRepeated) rather than letting the first or the last
// one win. What the wire layer already checked strictly (no duplicate
// names anywhere, valid UTF-8: acpwire.Message.CheckedStrictly) is not
// checked again; a caller that judges a message it did not get checked
// checks the whole message first, as governance does. UpdateOf keeps the
// reading on the message, so the features that read one session/update
// (compression, then governance) read its params once between them. A
// text chunk the wire parsed in the form agents write it is not read at
// all: ChunkOf builds its reading from the parts the wire found
// (acpwire.Message.ChunkLine).
//
// The reader makes one pass over the params: it descends into the members
// it reads and steps over every other value (a tool's megabytes of output,
// a deeply nested input) without decoding it. A long string the wire's
// strict check already walked (acpwire.Message.KnownStrings) it steps over
// by a lookup, without a pass over its bytes. Large values stay raw
// sub-slices of the params. Members of the wrong type do not fail the read:
// the first one is named in Bad, so a feature that judges them refuses the
// message and one that only records them carries on.
//
//	{"sessionId":"s1","update":{"sessionUpdate":"tool_call","toolCallId":"c1",
//	 "kind":"edit","content":[{"type":"diff","path":"/w/a.go","newText":"x"}]}}
//
// reads as Update{SessionID: "s1", SessionUpdate: "tool_call", ToolCall:
// ToolCall{ID: "c1", Kind: "edit", HasKind: true, Items: []ContentItem{{Type: "diff",
// Path: "/w/a.go", NewText: []byte(`"x"`)}}}}.
package acpparams
