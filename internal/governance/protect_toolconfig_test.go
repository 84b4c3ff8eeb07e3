package governance

import (
	"testing"
)

// TestProtectsToolConfig checks that the files the person's own tools run
// commands from without the person running the project (toolConfig) are
// protected at any depth, while the programs beside them, and files of
// like names that run nothing, stay the agent's.
func TestProtectsToolConfig(t *testing.T) {
	e, root, _ := protectedWorkspace(t)
	checkProtected(t, e, root, protectedCases(t, "tool_config.txt", map[string]string{"$ROOT": root}))
}
