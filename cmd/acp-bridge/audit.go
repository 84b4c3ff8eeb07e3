package main

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/acp-bridge/acp-bridge/internal/audit"
)

// auditUsage lists the subcommands of "acp-bridge audit".
var auditUsage = `usage: acp-bridge audit <command> [flags] FILE...

commands:
  verify FILE...     check the hash chain, seq, hashes and schema of every line (exit 1 at the first bad line;
                     --genesis also requires the chain to start at seq 0)
  repair FILE        remove a torn last line left by a crash (complete lines are never touched)
  sessions FILE...   list sessions: start, end, prompts, tool calls, approvals, denials
  show FILE...       a readable timeline (--session ID, --tool, --decision, --since, --json, --local)
  tail [-f] FILE     the last lines as a timeline; with -f, follow new lines (and rotations)

Rotated files (audit.jsonl.000001, ...) may be given in any order: they are put in chain order.
`

// runAudit dispatches "acp-bridge audit <command>".
func runAudit(ctx context.Context, e *env, args []string) error {
	if len(args) == 0 {
		return usageError(e, "acp-bridge audit", "audit: which command? verify, repair, sessions, show or tail")
	}
	if isHelp(args[0]) {
		fmt.Fprint(e.stdout, auditUsage)
		return nil
	}
	cmds := map[string]func(context.Context, *env, []string) error{
		"verify":   auditVerify,
		"repair":   auditRepair,
		"sessions": auditSessions,
		"show":     auditShow,
		"tail":     auditTail,
	}
	run, ok := cmds[args[0]]
	if !ok {
		return usageError(e, "acp-bridge audit", fmt.Sprintf("audit: unknown command %q (want verify, repair, sessions, show or tail)", args[0]))
	}
	return run(ctx, e, args[1:])
}

// parseInterleaved parses flags that may come before or after the file
// arguments, returning the files.
func parseInterleaved(e *env, fs *flag.FlagSet, args []string) ([]string, error) {
	var files []string
	for {
		if err := parseFlags(e, fs, args); err != nil {
			return nil, err
		}
		if fs.NArg() == 0 {
			return files, nil
		}
		files = append(files, fs.Arg(0))
		args = fs.Args()[1:]
	}
}

func newAuditFlags(e *env, name, usage string) *flag.FlagSet {
	var fs *flag.FlagSet
	fs = subcommandFlags(e, "audit "+name, func(w io.Writer) {
		fmt.Fprintf(w, "usage: acp-bridge audit %s %s\n", name, usage)
		fs.PrintDefaults()
	})
	return fs
}

func auditVerify(_ context.Context, e *env, args []string) error {
	fs := newAuditFlags(e, "verify", "[--genesis] FILE...")
	genesis := fs.Bool("genesis", false, "fail unless the chain starts at GENESIS (seq 0): no older file is missing")
	files, err := parseInterleaved(e, fs, args)
	if err != nil {
		return err
	}
	if len(files) == 0 {
		return usageError(e, commandLine(fs), "audit verify: no file given")
	}
	sum, err := audit.Verify(files...)
	if err != nil {
		var p *audit.Problem
		if errors.As(err, &p) {
			fmt.Fprintf(e.stdout, "FAIL %s\n", p)
			return &exitError{code: 1}
		}
		return &exitError{code: 1, err: fmt.Errorf("audit verify: %v", err)}
	}
	if sum.Records == 0 {
		fmt.Fprintf(e.stdout, "ok: no events in %s\n", auditPlural(len(sum.Files), "file"))
		return nil
	}
	fmt.Fprintf(e.stdout, "ok: %s in %s, seq %d..%d, head %s\n", auditPlural(sum.Records, "event"), auditPlural(len(sum.Files), "file"), sum.FirstSeq, sum.LastSeq, sum.Head)
	if !sum.Genesis {
		if *genesis {
			fmt.Fprintf(e.stdout, "FAIL %s:1: the chain starts at seq %d, not at GENESIS\n", sum.Files[0], sum.FirstSeq)
			return &exitError{code: 1}
		}
		fmt.Fprintf(e.stdout, "note: the chain starts at seq %d, not at GENESIS: the files with earlier events were not given\n", sum.FirstSeq)
	}
	return nil
}

func auditPlural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return fmt.Sprintf("%d %ss", n, what)
}

func auditRepair(_ context.Context, e *env, args []string) error {
	fs := newAuditFlags(e, "repair", "FILE")
	files, err := parseInterleaved(e, fs, args)
	if err != nil {
		return err
	}
	if len(files) != 1 {
		return usageError(e, commandLine(fs), "audit repair: give exactly one file (the active log; rotated files are never torn)")
	}
	res, err := audit.Repair(files[0])
	if err != nil {
		return &exitError{code: 1, err: err}
	}
	switch {
	case !res.Torn:
		fmt.Fprintf(e.stdout, "%s: no torn line, nothing to do\n", files[0])
	case res.Completed:
		fmt.Fprintf(e.stdout, "%s: the last event was complete but for its newline; added it\n", files[0])
	default:
		fmt.Fprintf(e.stdout, "%s: removed a torn last line (%d bytes, sha256 %s)\n", files[0], len(res.Removed), auditSHA256(res.Removed))
	}
	return nil
}

// reviewFlags are the filters shared by sessions, show and tail.
type reviewFlags struct {
	session, tool, decision, since string
	json, local                    bool
	width                          int
}

func (r *reviewFlags) register(fs *flag.FlagSet, withSession bool) {
	if withSession {
		fs.StringVar(&r.session, "session", "", "only events of session `ID`")
	}
	fs.StringVar(&r.tool, "tool", "", "only events of tool `NAME` (case-insensitive)")
	fs.StringVar(&r.decision, "decision", "", "only events with `DECISION` (allow, deny, require-approval, escalate)")
	fs.StringVar(&r.since, "since", "", "only events at or after `TIME` (RFC 3339, 2006-01-02, or a duration ago such as 2h)")
	fs.BoolVar(&r.json, "json", false, "print the matching lines as they are in the log (JSONL), for scripts")
	fs.BoolVar(&r.local, "local", false, "show times in the local time zone instead of UTC")
	fs.IntVar(&r.width, "width", 64, "longest DETAIL column, in characters")
}

func (r *reviewFlags) filter(now time.Time) (audit.Filter, error) {
	f := audit.Filter{Session: r.session, Tool: r.tool, Decision: r.decision}
	switch r.decision {
	case "", audit.DecisionAllow, audit.DecisionDeny, audit.DecisionRequireApproval, audit.DecisionEscalate:
	default:
		return f, fmt.Errorf("--decision %q: want allow, deny, require-approval or escalate", r.decision)
	}
	if r.since != "" {
		t, err := parseSince(r.since, now)
		if err != nil {
			return f, err
		}
		f.Since = t
	}
	return f, nil
}

func (r *reviewFlags) location() *time.Location {
	if r.local {
		return time.Local
	}
	return time.UTC
}

// parseSince reads an RFC 3339 time, a date, or a duration before now.
func parseSince(s string, now time.Time) (time.Time, error) {
	if t, err := time.Parse(time.RFC3339, s); err == nil {
		return t, nil
	}
	if t, err := time.ParseInLocation("2006-01-02", s, time.Local); err == nil {
		return t, nil
	}
	if d, err := time.ParseDuration(s); err == nil && d >= 0 {
		return now.Add(-d), nil
	}
	return time.Time{}, fmt.Errorf("--since %q: want an RFC 3339 time, a date (2006-01-02) or a duration such as 2h", s)
}

// readChecked reads the entries of files, warning on stderr when they do
// not verify: a reviewer must know when the log was altered.
func readChecked(e *env, files []string) ([]audit.Entry, error) {
	if _, err := audit.Verify(files...); err != nil {
		fmt.Fprintf(e.stderr, "WARNING: the log does not verify: %v\nWARNING: showing the lines as they are; do not trust them.\n", err)
	}
	return audit.ReadEntries(files...)
}

// readReview parses a review subcommand's flags and files and reads the
// files' entries, warning if they do not verify.
func readReview(e *env, name, usage string, withSession bool, args []string) (rf reviewFlags, f audit.Filter, entries []audit.Entry, err error) {
	fs := newAuditFlags(e, name, usage)
	rf.register(fs, withSession)
	files, err := parseInterleaved(e, fs, args)
	if err != nil {
		return rf, f, nil, err
	}
	if len(files) == 0 {
		return rf, f, nil, usageError(e, commandLine(fs), fmt.Sprintf("audit %s: no file given", name))
	}
	if f, err = rf.filter(time.Now()); err != nil {
		return rf, f, nil, &exitError{code: 2, err: err}
	}
	if entries, err = readChecked(e, files); err != nil {
		return rf, f, nil, &exitError{code: 1, err: err}
	}
	return rf, f, entries, nil
}

func auditSessions(_ context.Context, e *env, args []string) error {
	rf, f, entries, err := readReview(e, "sessions", "[flags] FILE...", false, args)
	if err != nil {
		return err
	}
	sessions := audit.Sessions(matching(entries, f))
	if rf.json {
		enc := json.NewEncoder(e.stdout)
		for _, s := range sessions {
			if err := enc.Encode(s); err != nil {
				return err
			}
		}
		return nil
	}
	if len(sessions) == 0 {
		fmt.Fprintln(e.stdout, "no sessions")
		return nil
	}
	return audit.WriteSessions(e.stdout, sessions, rf.location())
}

func matching(entries []audit.Entry, f audit.Filter) []audit.Entry {
	var out []audit.Entry
	for i := range entries {
		if f.Match(&entries[i]) {
			out = append(out, entries[i])
		}
	}
	return out
}

func auditShow(_ context.Context, e *env, args []string) error {
	rf, f, entries, err := readReview(e, "show", "[--session ID] [flags] FILE...", true, args)
	if err != nil {
		return err
	}
	all := entries
	entries = matching(entries, f)
	if rf.json {
		return writeRaw(e.stdout, entries)
	}
	if len(entries) == 0 {
		fmt.Fprintln(e.stdout, "no matching events")
		return nil
	}
	return audit.WriteTimeline(e.stdout, entries, audit.TimelineOptions{Location: rf.location(), Width: rf.width, Sessions: audit.Sessions(all)})
}

func writeRaw(w io.Writer, entries []audit.Entry) error {
	for _, en := range entries {
		if _, err := fmt.Fprintf(w, "%s\n", en.Raw); err != nil {
			return err
		}
	}
	return nil
}

func auditTail(ctx context.Context, e *env, args []string) error {
	fs := newAuditFlags(e, "tail", "[-f] [-n N] [flags] FILE")
	var rf reviewFlags
	rf.register(fs, true)
	follow := fs.Bool("f", false, "keep printing new events as they are appended, until interrupted")
	n := fs.Int("n", 10, "start with the last `N` lines")
	files, err := parseInterleaved(e, fs, args)
	if err != nil {
		return err
	}
	if len(files) != 1 {
		return usageError(e, commandLine(fs), "audit tail: give exactly one file (the active log)")
	}
	f, err := rf.filter(time.Now())
	if err != nil {
		return &exitError{code: 2, err: err}
	}
	off, err := audit.TailOffset(files[0], *n)
	if err != nil {
		return &exitError{code: 1, err: err}
	}
	opts := audit.TimelineOptions{Location: rf.location(), Width: rf.width}
	if !rf.json {
		audit.WriteTimelineHeader(e.stdout)
	}
	var werr error
	print := func(en audit.Entry) {
		if werr != nil || !f.Match(&en) {
			return
		}
		if rf.json {
			_, werr = fmt.Fprintf(e.stdout, "%s\n", en.Raw)
		} else {
			werr = audit.WriteTimelineRow(e.stdout, &en, opts)
		}
	}
	if !*follow {
		done, cancel := context.WithCancel(ctx)
		cancel()
		err = audit.Follow(done, files[0], off, print)
	} else {
		err = audit.Follow(ctx, files[0], off, print)
	}
	if err != nil {
		return &exitError{code: 1, err: err}
	}
	if werr != nil && !strings.Contains(werr.Error(), "broken pipe") {
		return werr
	}
	return nil
}

func auditSHA256(b []byte) string {
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}
