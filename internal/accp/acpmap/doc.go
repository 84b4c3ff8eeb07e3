// Package acpmap maps Agent Client Protocol (ACP) JSON-RPC messages to ACCP
// frames and back, losslessly: decoding the frame of a message gives a JSON
// value equal to the message (objects compared regardless of key order,
// numbers by their exact text).
//
// Each message kind is one row of a table: the frame's intent and
// operation, the JSON fields that become params (with the TC profile's
// short keys for tool calls), and the values the kind implies (jsonrpc
// "2.0", the method, the session/update variant, a tool call's status; an
// empty result; the end_turn stop reason of a turn's end, a field ACP
// requires, as the row's default), which are left out. The JSON-RPC id
// travels as the envelope's cid and params.sessionId as its sid, written only when it changes. Fields the
// table does not name travel verbatim in param "u" (the rest of the
// update, params or result) and "x" (anything else), so unknown fields,
// _meta and future variants survive. For example
//
//	{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"tool_call","toolCallId":"call_1","title":"Read a.go","kind":"read","status":"pending"}}}
//
// becomes
//
//	@agent>req:tool{id:\'call_1|title:Read_a.go|tool:read|stat:pending}[mid:...,seq:1,ts:...,sid:s1]
//
// tool_call is req:tool, a completed tool_call_update done:tool, a failed
// one fail:error with code E4002, message chunks stream:msg, stream:think and
// stream:user, the end of a turn end:prompt, session/request_permission
// wait:permit and its answer ack:permit, fs and terminal calls req:read,
// req:write, req:term... and their results done:...; unknown methods and
// variants use generic rows (req:rpc, sync:note, sync:update, done:rpc,
// fail:rpc). Arrays of objects sharing one key set are written as tables,
// "[cols:[id,name],[a,A],[b,B]]".
//
// A RunEncoder writes runs of consecutive messages from one sender as one
// "sync:run" frame each, "@agent>sync:run{m:[stream_msg:{c:Hi},end_prompt:{cid:7}]}[...]",
// so the envelope of section 3.5 is paid once per run; see RunEncoder. With
// Options.Refs a value an earlier message of the session held is written
// "$N", a reference to it (see refs.go); decoders always resolve them.
//
// The encoder checks every frame by decoding it; a message whose frame
// would not decode exactly (a batch, a message without "jsonrpc") is
// carried whole as sync:json{raw:...}. Mapped frames nest deeper than the
// draft's recommended 5 levels, so this package parses with Limits, and
// the encoders write no frame over them: a message no frame can carry
// within them is an error (E1001).
//
// Encoder, RunEncoder and Decoder are safe for concurrent use. Numbering
// values, leaving out an unchanged sid and taking the next seq happen
// under one lock, so frames decoded in seq order mean what the encoder
// meant, whichever goroutines made them.
package acpmap
