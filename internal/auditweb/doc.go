// Package auditweb is "acp-bridge audit serve": a read-only local web view
// of audit logs (see internal/audit) for the people who answer "what did
// the agent do, and who allowed it?".
//
// A Server is made from files and directories (discover.go groups them
// into logs: an active file and its rotations). Each log is indexed
// (index.go): the index holds, per record, where its line is (file,
// offset, size) and the few values the filters need, never the records
// themselves; pages decode the lines they show from disk. A poller follows
// each log as it grows or rotates and verifies its chain (verify.go), so
// every page says which records the chain vouches for.
//
// Pages (pages.go, cards.go) are rendered with html/template from the
// templates and static files embedded under assets/: the sessions page
// (one row per session per bridge run), and the timeline of a session (its
// turns, each tool call as one card) with filters whose state is in the
// URL (filter.go) and exports of the filtered records (export.go). A
// record's raw JSON is fetched by offset when its row is opened (/raw), not
// carried in the page. The first indexing pass tallies each session's
// summary as it reads (audit.SessionTally), so memory stays that of the
// index. Open
// pages follow the log through server-sent events (live.go).
//
// Security (server.go, token.go): the server listens on loopback by
// default, every request needs the per-run token as the first part of its
// path (the URL printed at start; pages link relatively, and no cookie
// holds it, as a browser would send one to every port of the address),
// responses carry a strict
// Content-Security-Policy with no inline script and no third-party
// origin, every string from a log is made printable (audit.Printable) and
// HTML-escaped, and only GET and HEAD are served: the server never writes.
package auditweb
