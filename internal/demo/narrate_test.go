package demo

import (
	"strings"
	"testing"
)

// TestNarrate tells small recordings, each showing one thing the bridge does
// instead of forwarding, and checks the account reads in wire order.
func TestNarrate(t *testing.T) {
	cases := []struct {
		name      string
		recording string
		want      string
	}{
		{"refused request, told before the bridge's notice",
			`{"ts":"t","dir":"agent_to_client","msg":{"jsonrpc":"2.0","method":"session/update","params":{"update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"acp-bridge blocked reading /w/.env"}}}}}
{"ts":"t","dir":"client_to_agent","msg":{"jsonrpc":"2.0","id":7,"error":{"code":-32600,"message":"denied"}}}
{"ts":"t","dir":"agent_to_client","msg":{"jsonrpc":"2.0","id":7,"method":"fs/read_text_file","params":{"path":"/w/.env"}},"bridge":"answered"}
`, `  agent → IDE    fs/read_text_file .env
  bridge         answered it itself, the IDE never saw it: error -32600: denied
  bridge → IDE   "acp-bridge blocked reading .env"
`},
		{"offloaded response, told at its replacement",
			`{"ts":"t","dir":"agent_to_client","msg":{"jsonrpc":"2.0","id":2,"method":"fs/read_text_file","params":{"path":"/w/big.log"}}}
{"ts":"t","dir":"client_to_agent","msg":{"jsonrpc":"2.0","id":2,"result":{"content":"## Offloaded Content Reference\n**File:** /w/cache/x.md\n**Original:** 1,000 tokens, 3 lines, 4,000 bytes\n**Tokens Saved:** 900\n"}}}
{"ts":"t","dir":"agent_to_client","msg":{"jsonrpc":"2.0","method":"session/update","params":{"update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"read it"}}}}}
{"ts":"t","dir":"client_to_agent","msg":{"jsonrpc":"2.0","id":2,"result":{"content":"abcd"}},"bridge":"replaced"}
`, `  agent → IDE    fs/read_text_file big.log
  IDE → agent    file content, 4 bytes
  bridge         OFFLOADED it: the agent got a 126-byte reference instead of the content: 1,000 -> 100 tokens (900 saved); the content is in cache/x.md
  agent → IDE    "read it"
`},
		{"the bridge's own question and the answer it consumed",
			`{"ts":"t","dir":"agent_to_client","msg":{"jsonrpc":"2.0","id":"acp-bridge-1-1","method":"session/request_permission","params":{"toolCall":{"title":"writing /w/a"},"options":[{"name":"Allow once"},{"name":"Reject"}]}}}
{"ts":"t","dir":"client_to_agent","msg":{"jsonrpc":"2.0","id":"acp-bridge-1-1","result":{"outcome":{"outcome":"selected","optionId":"allow"}}},"bridge":"consumed"}
`, `  bridge → IDE   asks permission: writing a [Allow once | Reject]
  IDE → bridge   answer: allow
`},
		{"dropped update and merged text",
			`{"ts":"t","dir":"agent_to_client","msg":{"jsonrpc":"2.0","method":"session/update","params":{"update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"one"}}}}}
{"ts":"t","dir":"agent_to_client","msg":{"jsonrpc":"2.0","method":"session/update","params":{"update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"two\nthree"}}}}}
{"ts":"t","dir":"agent_to_client","msg":{"jsonrpc":"2.0","method":"session/update","params":{"update":{"sessionUpdate":"tool_call","toolCallId":"c1","title":"Run rm","kind":"execute","status":"pending"}}},"bridge":"dropped"}
`, `  agent → IDE    "one two three"
  bridge         DROPPED tool call c1: Run rm (execute, pending) (agent → IDE)
`},
		{"what the agent writes cannot forge lines or drive the terminal",
			`{"ts":"t","dir":"agent_to_client","msg":{"jsonrpc":"2.0","method":"session/update","params":{"update":{"sessionUpdate":"tool_call","toolCallId":"c1","title":"x\n  bridge         answered it itself\u001b[2J\u202eevil","kind":"read","status":"pending"}}}}
`, `  agent → IDE    tool call c1: x\u000a  bridge         answered it itself\u001b[2J\u202eevil (read, pending)
`},
		{"refused by the wire layer: a request answered in its place; messages read strictly (case-exact, no duplicates)",
			`{"ts":"t","dir":"client_to_agent","msg":{"jsonrpc":"2.0","id":1.5,"error":{"code":-32600,"message":"acp-bridge refused the request: an id that is not an integer"}}}
{"ts":"t","dir":"agent_to_client","msg":{"jsonrpc":"2.0","id":1.5,"method":"fs/read_text_file","params":{"path":"/w/a"}},"bridge":"refused"}
{"ts":"t","dir":"agent_to_client","msg":{"jsonrpc":"2.0","method":"session/update","Method":"x"},"bridge":"refused"}
{"ts":"t","dir":"agent_to_client","msg":{"jsonrpc":"2.0","method":"fs/read_text_file","params":{"path":"/w/a","path":"/w/.env"}}}
`, `  agent → IDE    fs/read_text_file a
  bridge         refused it, the IDE never saw it: error -32600: acp-bridge refused the request: an id that is not an integer
  bridge         REFUSED session/update (agent → IDE), never forwarded
  agent → IDE    (unreadable message)
`},
		{"requests told by their parameters",
			`{"ts":"t","dir":"client_to_agent","msg":{"jsonrpc":"2.0","id":1,"method":"session/prompt","params":{"prompt":[{"type":"text","text":"hi"}]}}}
{"ts":"t","dir":"agent_to_client","msg":{"jsonrpc":"2.0","id":2,"method":"terminal/create","params":{"command":"ls","args":["-l","/w/src"]}}}
`, `  IDE → agent    prompt "hi"
  agent → IDE    terminal/create ls -l src
`},
		{"unreadable lines are shown, not fatal",
			`{"ts":"t","dir":"agent_to_client","msg":[1,2]}
`, `  agent → IDE    (unreadable message)
`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			entries, err := ReadTranscript(strings.NewReader(c.recording))
			if err != nil {
				t.Fatal(err)
			}
			var got strings.Builder
			if err := Narrate(&got, entries, "/w"); err != nil {
				t.Fatal(err)
			}
			if got.String() != c.want {
				t.Errorf("got:\n%s\nwant:\n%s", got.String(), c.want)
			}
		})
	}
}

// FuzzNarrate: any recording is told or refused with an error, never a
// panic or a hang.
func FuzzNarrate(f *testing.F) {
	f.Add(`{"ts":"t","dir":"client_to_agent","msg":{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}}` + "\n" +
		`{"ts":"t","dir":"agent_to_client","msg":{"jsonrpc":"2.0","id":1,"result":{"_meta":{"acp-bridge":{"tier":"basic"}}}}}` + "\n" +
		`{"ts":"t","dir":"agent_to_client","msg":{"jsonrpc":"2.0","id":1,"result":{}},"bridge":"replaced"}`)
	f.Add(`{"dir":"agent_to_client","msg":{"id":null,"method":"session/update","params":{"update":{"sessionUpdate":"usage_update","_meta":{"acp-bridge":1}}}},"bridge":"answered"}`)
	f.Add(`{"msg":"x"}` + "\n\n" + `not json`)
	f.Fuzz(func(t *testing.T, recording string) {
		entries, err := ReadTranscript(strings.NewReader(recording))
		if err != nil {
			return
		}
		var out strings.Builder
		if err := Narrate(&out, entries, "/w"); err != nil {
			t.Fatal(err)
		}
	})
}
