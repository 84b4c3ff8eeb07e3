package adapter

import (
	"path/filepath"
	"strings"

	"github.com/acp-bridge/acp-bridge/internal/governance"
)

// dotEnvForks are the Gemini CLI forks that speak ACP and, as Gemini CLI
// does, load the first .env they find from a session's directory up
// (after their own directory's .env) into their own environment,
// BASH_ENV among the variables, which their shell commands inherit: Qwen
// Code and iFlow CLI, by their command and their npm package. The bridge
// has no adapter for them, but a .env the agent wrote would run code in
// every command of their next session all the same.
var dotEnvForks = []struct{ command, pkg, name string }{
	{"qwen", "@qwen-code/qwen-code", "Qwen Code"},
	{"iflow", "@iflow-ai/iflow-cli", "iFlow CLI"},
}

// dotEnvFork returns the name of the Gemini CLI fork run for ACP that
// argv starts and that loads the workspace's .env (dotEnvForks), or "".
func dotEnvFork(argv []string) string {
	for i, a := range argv {
		for _, f := range dotEnvForks {
			if filepath.Base(a) == f.command || strings.HasPrefix(a, f.pkg) || strings.Contains(a, "/"+f.pkg+"/") {
				if hasACPFlag(argv[i+1:]) {
					return f.name
				}
			}
		}
	}
	return ""
}

// protectDotEnv protects every .env beneath the workspace roots for an
// agent that loads one into its environment, as the Gemini adapter does.
func protectDotEnv(cfg *Config, agent string) {
	cfg.protect(governance.ProtectedPath{Path: ".env", BelowRoots: true,
		What: "the .env " + agent + " loads into its environment from a session's directory or the nearest above it, whose variables, BASH_ENV among them, its shell commands inherit"})
}
