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
