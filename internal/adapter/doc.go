// Package adapter carries the bridge's policy into coding agents that act
// without asking the client.
//
// A wire proxy sees only what an agent chooses to send over ACP: Claude Code
// reads files and runs Bash itself, Gemini CLI auto-approves what its own
// policy allows. An Adapter translates the bridge's policy into the agent's
// native mechanism, in two places:
//
//   - at spawn (Adapter.Spawn): change the agent's arguments or environment,
//     e.g. Gemini CLI gets an admin policy file with --admin-policy;
//   - on session/new, session/load, session/resume and session/fork
//     (Adapter.PatchSession): add to the params the IDE sent, never replace
//     them, e.g. Claude Code gets settings with permission rules and a
//     PreToolUse hook in _meta.claudeCode.options.extraArgs.settings.
//
// Detect picks the adapter from the agent's command line; Middleware
// recognises the agent again from the initialize response's agentInfo (for
// agents started through npx or a script) and patches the session requests.
//
// The Claude Code hook calls back into the running bridge over a private Unix
// socket (HookServer, created 0600 in a 0700 directory). The "acp-bridge hook"
// subcommand is the client (AskHook): it forwards Claude's PreToolUse payload,
// gets a Decision from the bridge's Decider and prints Claude's hook answer
// (ClaudeHookOutput). When the bridge cannot be reached the hook denies.
//
// Policy rules are given in Claude Code permission-rule syntax (Rules), the
// same compact syntax the governance policy accepts:
//
//	Rules{Deny: []string{"Read(**/.env)", "Bash(rm:*)"}, Ask: []string{"Bash(git push:*)"}}
//
// becomes, for Claude Code, settings
//
//	{"permissions":{"deny":["Read(**/.env)","Bash(rm:*)"],"ask":["Bash(git push:*)"]},
//	 "hooks":{"PreToolUse":[{"matcher":"*","hooks":[{"type":"command","command":"'/usr/local/bin/acp-bridge' hook --socket '/tmp/acp-bridge-hook-1/hook.sock'","timeout":60}]}]}}
//
// and, for Gemini CLI, TOML rules such as
//
//	[[rule]]
//	toolName = "run_shell_command"
//	commandPrefix = "rm"
//	decision = "deny"
//	priority = 900
package adapter
