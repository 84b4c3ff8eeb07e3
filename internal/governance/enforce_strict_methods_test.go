package governance

import (
	"slices"
	"testing"

	"github.com/acp-bridge/acp-bridge/internal/acpwire"
)

// TestJudgedMethodsReadStrictly holds every agent message the Enforcer
// judges to the wire layer's strict reading by default. decodeStrict reads
// names case-exactly and refuses duplicates, but not two names equal under
// case folding ("url" and "URL"): a Go client decoding with encoding/json
// acts on the last of them, so a judged method the wire does not read
// strictly lets the agent show the bridge one value and the IDE another.
func TestJudgedMethodsReadStrictly(t *testing.T) {
	strict := acpwire.DefaultStrictMethods()
	for _, method := range []string{
		"session/request_permission",
		"fs/read_text_file", "fs/write_text_file",
		"terminal/create", "terminal/output", "terminal/wait_for_exit", "terminal/kill", "terminal/release",
		"elicitation/create",
		"session/update",
	} {
		if !slices.Contains(strict, method) {
			t.Errorf("the Enforcer judges %s, which acpwire.DefaultStrictMethods does not list", method)
		}
	}
}
