// Package e2e is acp-bridge's end-to-end suite: real third-party ACP agents
// (Claude Code through claude-agent-acp, Gemini CLI in --acp mode) driven by a
// real ACP client (client/client.mjs on the TypeScript SDK), directly and
// through the acp-bridge binary, with no network: the agents talk to the
// scripted fake model server of internal/e2e/fakemodel on 127.0.0.1.
//
// The suite runs only when ACP_BRIDGE_E2E=1 (scripts/e2e.sh sets it, installs
// the pinned npm peers with install.sh and builds the bridge); a plain
// "go test ./..." skips every test here at once. When node is missing the
// suite fails, unless E2E_SKIP_NO_NODE=1 is set outside CI.
//
// Environment:
//
//	ACP_BRIDGE_E2E=1       run the suite
//	ACP_BRIDGE_BIN=PATH    the bridge binary to test (default: built from ../cmd/acp-bridge)
//	E2E_SKIP_NO_NODE=1     skip instead of failing when node is missing (refused when CI=true)
//	E2E_KEEP=1             keep each run's directory (HOME, workspace, logs) and print where
//
// Flags: -update rewrites ../testdata/transcripts/*.jsonl from this run.
package e2e
