package acpparams

import (
	"encoding/json"
	"fmt"

	acp "github.com/coder/acp-go-sdk"
)

// GoSDKProblem returns why acp-go-sdk, the ACP library of Go IDEs, cannot
// decode params of a session/update or a session/request_permission, or
// nil. Such an IDE drops the whole message where the TypeScript SDK and
// Zed read each bad member as absent (defaultOnError, serde_with's
// DefaultOnError): a tool_call_update whose "_meta" is 5 or whose
// location's "line" is "1" changes the call for one IDE and not for the
// other, so the bridge, which follows the call the person is shown,
// refuses it. Other methods return nil.
func GoSDKProblem(method string, params []byte) error {
	var err error
	switch method {
	case "session/update":
		var n acp.SessionNotification
		err = json.Unmarshal(params, &n)
	case "session/request_permission":
		var r acp.RequestPermissionRequest
		err = json.Unmarshal(params, &r)
	}
	if err != nil {
		return fmt.Errorf("acp-go-sdk cannot decode it (%v), so a Go IDE drops it where others read it", err)
	}
	return nil
}
