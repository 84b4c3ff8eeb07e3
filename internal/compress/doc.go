// Package compress is the bridge's context compression (CTX-001), working on
// what crosses the wire: a proxy cannot edit an agent's internal history, so
// it changes what enters the agent's context and, when the context is
// nearly full, the session itself.
//
// The pieces:
//
//   - Meter and Classify: per-session context fill, from the agent's own
//     usage_update when it sends one, otherwise from o200k counts of what
//     enters the agent's context through the bridge, classified GREEN,
//     YELLOW, ORANGE, RED, CRITICAL (< 25, 50, 75, 85, > 85 %).
//   - Tier 1 (Store, Reference): content over the threshold is written,
//     byte-identical, to <cache>/offloaded/{timestamp}_{tool}.md and replaced
//     by a reference (path, first 10 and last 5 lines, tokens saved, how to
//     read more with ranged reads): fs/read_text_file results without
//     line/limit, terminal/output, resources embedded in session/prompt
//     (replaced by a resource_link plus the reference), and toward the IDE,
//     tool_call content and session/load replays.
//   - Tier 2: write and edit bodies never enter anything the bridge injects;
//     artifacts are a path, a one-line summary and "content persisted to
//     disk". At ORANGE and above each large body left out is logged.
//   - Tier 3 (Recorder, BuildSummary, Verify): at RED and CRITICAL the
//     conversation the bridge has seen is archived to
//     <cache>/conversations/{session}_full.md, a Session Summary is built
//     deterministically from the traffic, verified, and kept as ACCP warm
//     state (internal/accp: sync:state deltas each turn, Checkpoint at
//     tier 3). At RED the agent's own /compact can be triggered between
//     turns; at CRITICAL (or on /bridge-compress) the next prompt goes to a
//     fresh downstream session seeded with the summary, and session ids are
//     translated both ways so the IDE keeps its id.
//   - DriftCheck: goal-drift indicators on the first turn after a
//     compression, reported to the user and in the log.
//   - EventLog: the compression events as JSONL, optionally mirrored to
//     the audit log.
//   - Quick commands (/bridge-context, /bridge-compress, /bridge-recover,
//     /bridge-intent, /bridge-log), merged into the agent's
//     available_commands_update and answered by the bridge itself.
//
// Pipeline ties them together as one acpwire middleware:
//
//	p, err := compress.New(compress.Config{CacheDir: dir}, bridge)
//	bridge.Use(p) // p is also an acpwire.Preempter
package compress
