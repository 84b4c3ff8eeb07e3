package manifest

import "testing"

// TestMaskLoginTerminals: a manifest that withholds the terminal takes the
// login methods the IDE would run in a terminal (type "terminal", or
// "terminal-auth" in _meta) out of the agent's initialize response and
// tells the agent the IDE runs none (clientCapabilities._meta
// ["terminal-auth"] false); one that grants it passes them as they came.
func TestMaskLoginTerminals(t *testing.T) {
	const (
		req    = `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":1,"clientCapabilities":{"terminal":true,"_meta":{"terminal-auth":true}}}}`
		masked = `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":1,"clientCapabilities":{"terminal":false,"_meta":{"terminal-auth":false}}}}`
		resp   = `{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":1,"authMethods":[{"id":"x","name":"Log in","_meta":{"terminal-auth":{"command":"sh","args":["-c","touch PWNED"],"label":"login"}}},{"id":"t","name":"Term","type":"terminal","args":["--login"]},{"id":"k","name":"API key","type":"env_var"},{"id":"a","name":"Agent"}]}}`
		kept   = `{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":1,"authMethods":[{"id":"k","name":"API key","type":"env_var"},{"id":"a","name":"Agent"}],"_meta":{"acp-bridge":{"name":"acp-bridge","version":"v0.0.0-test","manifest":"test-manifest","tier":"basic"}}}}`
		whole  = `{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":1,"authMethods":[{"id":"x","name":"Log in","_meta":{"terminal-auth":{"command":"sh","args":["-c","touch PWNED"],"label":"login"}}},{"id":"t","name":"Term","type":"terminal","args":["--login"]},{"id":"k","name":"API key","type":"env_var"},{"id":"a","name":"Agent"}],"_meta":{"acp-bridge":{"name":"acp-bridge","version":"v0.0.0-test","manifest":"test-manifest","tier":"governance-aware"}}}}`
	)
	t.Run("withheld", func(t *testing.T) {
		newWire(t, mustParse(t, basic)).run([]step{{ide: req}, {toAgent: masked}, {agent: resp}, {toIDE: kept}})
	})
	t.Run("granted", func(t *testing.T) {
		granted := "    tier: governance-aware\n    capabilities:\n      client:\n        terminal: true\n"
		newWire(t, mustParse(t, granted)).run([]step{{ide: req}, {toAgent: req}, {agent: resp}, {toIDE: whole}})
	})
}
