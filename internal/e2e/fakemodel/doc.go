// Package fakemodel is a scripted stand-in for the model APIs that real coding
// agents call, so that the end-to-end suite can drive Claude Code and Gemini CLI
// offline and deterministically.
//
// A [Server] listens on 127.0.0.1 on a free port and speaks enough of two APIs:
//
//   - the Anthropic Messages API: POST /v1/messages (streaming SSE with
//     message_start, content_block_start/delta/stop, message_delta and
//     message_stop, or one JSON body when "stream" is false),
//     POST /v1/messages/count_tokens, and HEAD or GET / (Claude Code probes the
//     base URL before it starts);
//   - the Gemini API: POST /v1beta/models/{model}:streamGenerateContent?alt=sse,
//     :generateContent and :countTokens.
//
// The main conversation follows a [Script]: each model turn of that
// conversation consumes the next [Step], which answers with text or with one
// tool call named with the agent's own tool names (Claude "Read", "Bash",
// "Write"; Gemini "read_file", "run_shell_command", "write_file"). A step after
// a tool call is served when the agent comes back with the tool's result, which
// is simply the next main request. Agents also send side requests (Claude's
// title generation, quota probes and topic checks on a small model, Gemini's
// next-speaker check): a request is part of the main conversation only when it
// offers the model tools; side requests get a short harmless text and consume
// no step.
//
// Every request body is kept (see [Server.Requests]) and optionally appended to
// a JSONL file, so a test can count with [CountTokens] the o200k tokens of the
// context that actually reached the model.
//
// Example script, as JSON (the form cmd/fakemodel reads):
//
//	{"steps": [
//	  {"text": "Hello from the fake model."},
//	  {"tool": {"name": "Read", "input": {"file_path": "/work/ws/notes.txt"}}},
//	  {"text": "The file says hello."}
//	]}
package fakemodel
