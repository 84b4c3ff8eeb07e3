// Package governance decides what a coding agent may do and enforces the
// decisions on the ACP wire.
//
// A policy is an AIP-7 GOVERNANCE.md (schema: governance.workspace/v1) whose
// policies registry references POLICY.md files (match + decision), plus, at
// the top level of the same frontmatter, a compact rule list in Claude
// Code's permission syntax:
//
//	rules:
//	  default: ask
//	  deny:  [Read(**/.env), Bash(git push:*), WebSearch]
//	  ask:   [Bash(git commit:*)]
//	  allow: [Read, Edit(./src/**), Bash(npm run test:*), WebFetch(domain:example.com)]
//
// LoadPolicy reads it (any problem is an error with file:line positions),
// and an Engine decides Requests with it: Decide(Request{Action:
// "fs.read", Paths: []string{"/w/.env"}}) returns Decision{Value: Deny,
// Rule: "deny Read(**/.env) (GOVERNANCE.md:12)"}. The engine knows nothing
// of the wire, so an agent's own pre-tool hook can call it too
// (ClaudeToolRequest builds the Request from Claude Code's tool name and
// input).
//
// Each subject of a request is decided on its own and the request gets the
// strictest result: every path (as written and with symlinks resolved, so
// neither ".." after a link nor a link out of the workspace escapes a rule),
// every simple command of a command line (parsed as bash and POSIX sh by
// internal/shellcmd, with substitutions, shell strings and wrappers such as
// env, sudo, timeout or xargs looked into), every variable it sets and
// every file its redirections open, the fetched domain, and the tool
// itself. Rules that restrict match without
// regard to case; allow rules match exactly as written. Paths outside the
// workspace roots are denied unless an allow rule names their directory
// ("//abs/dir/**", "~/dir/**").
//
// Enforce is the wire side: middleware for acpwire that answers permission
// requests the policy decides, refuses fs/* and terminal/create calls and
// sessions outside the workspace, stops tool calls the agent ran without
// asking, and records every decision in the audit log (a Recorder, such as
// *audit.Log) before it takes effect. NewEnforcer gives access to Preempt
// (Bridge.Use registers it, an Enforcer being an acpwire.Preempter, so a cancelled request stops waiting
// for an approval at once) and Close (records the end of open sessions).
// NewQueuedRecorder moves the encoding of the other records off the
// message path while keeping their order.
//
// The pieces:
//
//	policy.go    LoadPolicy: GOVERNANCE.md, POLICY.md, extends; Error, ErrorList
//	rule.go      the compact rule syntax: Bash(...), Read(...), WebFetch(domain:...)
//	glob.go      gitignore-style path patterns
//	path.go      absolute, cleaned and symlink-resolved forms of a path
//	command.go   command lines matched against Bash(...) rules
//	env.go       Env(...) rules and the built-in list of variables
//	redirect.go  files a redirection opens, decided as paths
//	engine.go    Engine.Decide
//	tool.go      Requests from Claude Code tool calls and ACP tool calls
//	enforce.go   Enforce, the middleware
//	queue.go     QueuedRecorder
package governance
