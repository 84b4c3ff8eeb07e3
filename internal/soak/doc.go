// Package soak drives long turns of agent traffic through a built
// acp-bridge and measures what the bridge costs: peak and sampled RSS of the
// bridge process, its CPU time per message (utime+stime from /proc), and
// the wall time of the stream against a direct pipe in the same run.
//
// Three processes take part, as in an IDE session: the driver (the IDE,
// this package's Run), the bridge, and a fake agent (ServeAgent, run as its
// own process by the caller's binary). The agent answers each
// session/prompt with a turn of mixed traffic:
//
//   - agent_message_chunk of 1 to 1,024 bytes of text, and
//   - every tenth message a tool_call_update carrying 100 bytes to 20 KiB
//     of tool output (the message before it opens the call with tool_call),
//
// in one of two mixes: Prose (words and spaces) or Runs (long runs without
// spaces, like minified code and base64, the worst case for a BPE
// tokenizer). Run starts the agent directly and then behind the bridge with
// each Features set's flags, and reports a Result per run.
//
// cmd/acp-soak is the command-line front end and scripts/soak.sh the
// matrix; TestSoak runs a short version with bounds in the test suite.
package soak
