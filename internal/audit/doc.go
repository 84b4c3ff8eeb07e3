// Package audit writes and checks the bridge's tamper-evident audit log: an
// append-only JSONL file in which each line is an AIP-7 audit event
// (agentgovernance/v1, doctype audit-event) chained to the previous one by
// hash, with the AIP-44 tool-call mirror under metadata.toolCall.
//
// # Writing
//
// Open a Log, Append events, Close it. The log fills in $schema, doctype,
// seq (0, 1, 2, ... across rotated files), ts (RFC 3339, UTC,
// milliseconds), prevHash ("GENESIS" for seq 0), runId (the same for
// every event one Log writes, so a review can tell bridge runs apart),
// hash, hashAlg ("sha256") and metadataHash:
//
//	l, err := audit.Open("audit.jsonl", audit.Options{MaxBytes: 64 << 20})
//	...
//	err = l.AppendSync(audit.Event{                   // durable before it returns
//		Actor:   audit.Actor{ID: "acp-bridge", Role: "system"},
//		Action:  "fs.read",
//		Subject: audit.Subject{Kind: "file", Path: "/work/.env"},
//		Policy:  &audit.Policy{Ref: "deny-dotenv", Decision: audit.DecisionDeny},
//		Metadata: map[string]any{"session": sessionID},
//	})
//
// Append buffers the line and returns; buffered lines are written in order
// at least every FlushInterval (200 ms), when 256 KiB are pending, and at
// Close. AppendSync writes and fsyncs before it returns: use it for a
// decision, so that its record is on disk before the decision takes
// effect. Concurrent AppendSyncs share one fsync (group commit). A write
// failure makes Healthy return the error; records stay in memory (up to
// 64 MiB) and every later append, flush or Healthy call retries, reopening
// the file, so the log recovers by itself when the disk does. After a
// failed fsync the kernel may have dropped lines that were already
// written; the chain then has a gap, which Verify reports.
//
// # The line format
//
// Each line is the RFC 8785 (JCS) canonical form of the whole record,
// members in canonical order, followed by "\n":
//
//	{"$schema":"agentgovernance/v1","action":"fs.read","actor":{...},"doctype":"audit-event",
//	 "hash":"…","hashAlg":"sha256","metadata":{...},"metadataHash":"…","policy":{...},
//	 "prevHash":"…","runId":"20261121T195950Z-1a2b3c4d","seq":7,"subject":{...},
//	 "ts":"2026-11-21T20:00:00.123Z"}
//
// hash is the lowercase hex SHA-256 of the canonical form of the record
// without hash, hashAlg and metadata, exactly as AIP-7 defines it, so any
// AIP-7 verifier can recompute it. AIP-7 leaves metadata out of the hash;
// to make metadata (which holds the tool-call mirror: arguments, results,
// approver) tamper-evident too, the log adds metadataHash, the SHA-256 of
// the canonical form of metadata, inside the hashed part. It and runId are
// the two members beyond AIP-7's auditEvent shape. Because the line itself is
// canonical, Verify also rejects any line that is not byte-for-byte the
// canonical form of its content, so even changes JSON would consider
// equivalent (spacing, escapes, member order, duplicates) are detected.
//
// AIP-7 wants input and output to be objects: any other value v is written
// as {"value": v}. It wants policy.ref to be a slug: any other reference
// (a rule such as "Bash(npm run test:*)") is written as a slug derived from
// it, with the original in metadata.policyRule. Subject ref and path are
// shortened to the AIP-7 limits (256 and 1024 bytes) keeping both ends.
// Numbers are written as RFC 8785 requires (IEEE 754 doubles), so integers
// beyond 2^53 lose precision.
//
// schemas/audit-event.schema.json (JSON Schema draft 2020-12, embedded as
// schemas.FS) describes every line; Verify validates each line against it.
//
// # Redaction and caps
//
// Every string of a record is redacted before anything is written (see
// redact.go and redact_assign.go for the rules): actor, subject (an
// agent's command line often lands in subject.ref), the policy reference
// (its slug is made from the redacted text), input, output and metadata.
// In input, output and metadata, members whose key names a secret (password,
// *_TOKEN, apiKey, Authorization, ...) and the value of {"name":
// "GITHUB_TOKEN", "value": ...} pairs become {"$redacted": true, "reason":
// "secret-key:<key>"}; secrets recognised by their shape inside strings
// (AWS, GCP and Azure keys, GitHub ghp_/gho_/github_pat_, GitLab glpat-,
// Slack xox*, sk-/sk-ant- keys, PEM private keys, JWTs, Authorization
// values, bearer tokens, npm and Stripe keys, Slack webhooks, curl -u
// credentials, credentials in URLs) and values assigned to a name that
// names a secret (PGPASSWORD=..., DB_PASS: ..., --password ...,
// aws_secret_access_key ...) are replaced in place by "[REDACTED:<reason>]", keeping the rest of
// the text readable; a string that is nothing but a secret becomes the
// marker object. A secret with no recognisable shape and no telling key (a
// bare password in free text) cannot be found. Strings over 8 KiB become
// {"$truncated": true, "bytes", "sha256" (of the full original), "head"
// (at most its first 1 KiB, redacted, ending at a word's end)}; a whole
// input, output or metadata over 64 KiB becomes {"$truncated": true,
// "bytes", "sha256"}. A tool's output
// (ToolOutput) keeps, by default (ContentDigest), each string longer than
// PreviewBytes as {"$digest": true, "bytes", "sha256" (of its JSON text as
// received), "preview", "redactions"} (see content.go and digest.go).
// Caller keys spelled like the markers ("$redacted", "$truncated",
// "$digest") are written with an extra "$" so that caller data cannot pass
// for a marker.
//
// # Files, crashes and rotation
//
// Files are created with mode 0600. With Options.MaxBytes set, the active
// file is renamed to <path>.000001 (then .000002, ...) before it would grow
// past MaxBytes, after being flushed and fsynced, and a new <path>
// continues the chain: its first event's prevHash is the hash of the last
// event of the previous file. Verify takes files in any order and chains
// them by their first seq, so "acp-bridge audit verify audit.jsonl*" works.
//
// A crash (even SIGKILL) can leave at most one torn last line, without its
// newline. Verify reports it as a Problem with Torn set; Repair removes it
// (or, when only the newline is missing from an otherwise valid event,
// adds the newline) and never touches complete lines. Open repairs a torn
// line itself and records that as an "audit.repair" event carrying the
// size and SHA-256 of the bytes removed.
//
// # Tampering with the live file
//
// The agent runs as the same user as the bridge and can unlink, rename,
// replace, truncate or append to the live file. The Log compares the file
// it has open with the one at its path (device, inode and the size it
// wrote) before each write, after each group-commit fsync, on each
// Healthy call and on each flush tick. On a difference, Healthy and
// AppendSync fail with ErrTampered (so governance, which refuses while the
// log is down, refuses), whatever is at the path is moved aside as
// <path>.tampered-<time>, and a new file continues the chain with an
// "audit.tamper" event saying what was found; once that is fsynced the
// log is healthy again. See watch.go for the limits.
//
// # Reviewing
//
// Review (or ReadEntries), Runs, Sessions, Filter, WriteTimeline,
// Timeline, WriteSessions and Follow back the "acp-bridge audit"
// subcommands. Review reads each Input once (standard input works) and
// verifies while it reads; an input whose first line is not an audit
// event fails with ErrNotAuditLog. Events are grouped by run (runId) and
// session; a run's agent is named from its agent.info event when there is
// one. Sessions counts each decision once however many records it left
// (see decisions.go). Every string from the log goes through Printable
// before a person sees it (see printable.go). They attribute an event to
// a session by
// metadata.session, else metadata.toolCall.session, else subject.ref when
// subject.kind is "session"; they count as prompts the actions ending in
// ".prompt" (session.prompt), name as approver the mirror's approval when
// it is not "auto", show the rule as metadata.policyRule, else
// metadata.rule, else policy.ref, and give metadata.reason for decisions
// other than allow.
package audit
