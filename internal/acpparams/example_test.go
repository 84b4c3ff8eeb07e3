package acpparams_test

import (
	"errors"
	"fmt"

	"github.com/acp-bridge/acp-bridge/internal/acpparams"
)

func ExampleReadUpdate() {
	params := []byte(`{"sessionId":"s1","update":{"sessionUpdate":"tool_call","toolCallId":"c1","kind":"edit",` +
		`"content":[{"type":"diff","path":"/w/a.go","newText":"x"},{"type":"terminal","terminalId":"t1"}]}}`)
	u, err := acpparams.ReadUpdate(params)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(u.SessionID, u.SessionUpdate, u.ID, u.Kind, u.DiffPaths(), u.TerminalIDs(), u.Bad == "")

	// A judged member named twice is not guessed at.
	_, err = acpparams.ReadUpdate([]byte(`{"update":{"sessionUpdate":"tool_call","content":[{"type":"diff","path":"/w/a","path":"/etc/passwd"}]}}`))
	fmt.Println(errors.Is(err, acpparams.ErrRepeated))

	// A member of the wrong type makes the call unjudgeable.
	u, _ = acpparams.ReadUpdate([]byte(`{"update":{"sessionUpdate":"tool_call","toolCallId":"c2","content":[{"type":"terminal","terminalId":7}]}}`))
	fmt.Println(u.Bad)
	// Output:
	// s1 tool_call c1 edit [/w/a.go] [t1] true
	// true
	// a terminal's terminalId is not a string
}

func ExampleSelected() {
	fmt.Printf("%s\n%s\n", acpparams.Selected("allow"), acpparams.Cancelled())
	// Output:
	// {"outcome":{"outcome":"selected","optionId":"allow"}}
	// {"outcome":{"outcome":"cancelled"}}
}
