package main

import (
	"os"
	"path/filepath"

	"github.com/acp-bridge/acp-bridge/internal/governance"
)

// ownProgram is the bridge's own program as a protected file: the IDE
// starts it by the path or name the person configured as the agent
// command, so an agent that replaced it (a "go install" of a main package
// of its own named acp-bridge, which writes GOBIN/acp-bridge where the
// README installs the bridge) would have its program started in the
// bridge's place next time, with no policy at all. It is protected
// whatever the agent, not only where the Claude Code hook runs it. ok is
// false when the running program's path is not known.
func ownProgram() (governance.ProtectedPath, bool) {
	exe, err := os.Executable()
	if err != nil {
		return governance.ProtectedPath{}, false
	}
	if resolved, err := filepath.EvalSymlinks(exe); err == nil {
		exe = resolved
	}
	return governance.ProtectedPath{Path: exe, What: "the bridge's program, which the IDE starts as the agent command"}, true
}
