package acpmap_test

import (
	"fmt"
	"time"

	"github.com/acp-bridge/acp-bridge/internal/accp/acpmap"
)

func Example() {
	clock := func() time.Time { return time.Unix(1714000000, 0) }
	enc := acpmap.NewEncoder("demo", acpmap.Options{Clock: clock})
	dec := acpmap.NewDecoder("demo", acpmap.Options{Clock: clock})
	msg := `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"tool_call_update","toolCallId":"call_1","status":"failed","rawOutput":{"exitCode":2}}}}`
	frame, _ := enc.Encode([]byte(msg), acpmap.AgentToClient, time.Time{})
	fmt.Println(frame)
	back, _ := dec.Decode(frame)
	fmt.Println(string(back))
	// Output:
	// @agent>fail:error{code:E4002|id:\'call_1|res:{exitCode:2}}[mid:333666876362,seq:1,ts:1714000000,sid:s1]
	// {"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"rawOutput":{"exitCode":2},"sessionUpdate":"tool_call_update","status":"failed","toolCallId":"call_1"}}}
}

func ExampleEncoder_Runs() {
	clock := func() time.Time { return time.Unix(1714000000, 0) }
	enc := acpmap.NewEncoder("demo", acpmap.Options{Clock: clock, Refs: true})
	runs := enc.Runs(acpmap.RunOptions{})
	var frames []string
	for _, m := range []struct {
		dir acpmap.Direction
		msg string
	}{
		{acpmap.ClientToAgent, `{"jsonrpc":"2.0","id":7,"method":"session/prompt","params":{"sessionId":"s1","prompt":[{"type":"text","text":"Read main.go"}]}}`},
		{acpmap.AgentToClient, `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"tool_call","toolCallId":"call_1","title":"Read main.go","kind":"read","status":"pending"}}}`},
		{acpmap.AgentToClient, `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"tool_call_update","toolCallId":"call_1","status":"completed"}}}`},
		{acpmap.AgentToClient, `{"jsonrpc":"2.0","id":7,"result":{"stopReason":"end_turn"}}`},
	} {
		out, _ := runs.Add([]byte(m.msg), m.dir, time.Time{})
		frames = append(frames, out...)
	}
	out, _ := runs.Flush()
	frames = append(frames, out...)
	dec := acpmap.NewDecoder("demo", acpmap.Options{})
	for _, f := range frames {
		fmt.Println(f)
		msgs, _ := dec.DecodeAll(f)
		fmt.Println(len(msgs), "messages")
	}
	// Output:
	// @client>req:prompt{p:[Read_main.go]}[mid:333666876362,seq:1,ts:1714000000,cid:7,sid:s1]
	// 1 messages
	// @agent>sync:run{m:[req_tool:{id:\'call_1,stat:pending,title:$0,tool:read},done_tool:{id:$2},end_prompt:{cid:7}]}[mid:373598073375,seq:2,ts:1714000000]
	// 3 messages
}
