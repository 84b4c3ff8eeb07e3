package main

import (
	"bufio"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/acp-bridge/acp-bridge/internal/audit"
)

// auditUsage lists the subcommands of "acp-bridge audit".
var auditUsage = `usage: acp-bridge audit <command> [flags] FILE...

commands:
  verify FILE...     check the hash chain, seq, hashes and schema of every line (exit 1 at the first bad line;
                     --genesis also requires the chain to start at seq 0; --anchor FILE compares it with the
                     checkpoints a collector received, so truncation and a recomputed chain fail)
  repair FILE        remove a torn last line left by a crash (complete lines are never touched)
  sessions FILE...   list sessions by bridge run: agent, start, end, prompts, tool calls, approvals, denials
  show FILE...       a readable timeline (--session ID, --run ID, --tool, --decision, --since, --all, --wide, --json, --local)
  tail [-f] FILE     the last lines as a timeline; with -f, follow new lines (and rotations)
  serve FILE|DIR...  a read-only browser view on 127.0.0.1 (--listen ADDR), opened with the URL it prints
  export FILE        send the log (rotated files included) to an OTLP/HTTP collector (--otlp-endpoint URL)
                     from its cursor on; --all sends it all again

Rotated files (audit.jsonl.000001, ...) may be given in any order: they are put in chain order.
FILE "-" reads standard input (verify, sessions, show). Decisions are coloured when the output is a
terminal and NO_COLOR is not set.
`

// runAudit dispatches "acp-bridge audit <command>".
func runAudit(ctx context.Context, e *env, args []string) error {
	return runGroup(ctx, e, "audit", auditUsage, []subcommand{
		{"verify", auditVerify}, {"repair", auditRepair}, {"sessions", auditSessions}, {"show", auditShow},
		{"tail", auditTail}, {"serve", auditServe}, {"export", auditExport},
	}, args)
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

// parseFiles parses args as parseInterleaved does and refuses a command
// line that names no file, with problem as the usage error.
func parseFiles(e *env, fs *flag.FlagSet, args []string, problem string) ([]string, error) {
	files, err := parseInterleaved(e, fs, args)
	if err == nil && len(files) == 0 {
		err = usageError(e, commandLine(fs), problem)
	}
	return files, err
}

// newAuditFlags returns a flag set for "acp-bridge audit NAME", whose
// usage is "acp-bridge audit NAME ARGS" and its flags.
func newAuditFlags(e *env, name, args string) *flag.FlagSet {
	return newFlags(e, "audit "+name, "acp-bridge audit "+name+" "+args, "")
}

func auditVerify(_ context.Context, e *env, args []string) error {
	fs := newAuditFlags(e, "verify", "[--genesis] FILE...")
	genesis := fs.Bool("genesis", false, "fail unless the chain starts at GENESIS (seq 0): no older file is missing")
	anchor := fs.String("anchor", "", "compare with the checkpoints in `FILE` (JSONL a collector received)")
	anchorLog := fs.String("anchor-log", "", "the log's name in the anchor (default: the absolute path of the active file given)")
	files, err := parseFiles(e, fs, args, "audit verify: no file given")
	if err != nil {
		return err
	}
	inputs, err := auditInputs(e, files)
	if err != nil {
		return err
	}
	sum, err := audit.VerifyInputs(inputs...)
	if err != nil {
		var p *audit.Problem
		if errors.As(err, &p) {
			fmt.Fprintf(e.stdout, "FAIL %s\n", p)
			return &exitError{code: 1}
		}
		return &exitError{code: 1, err: audit.PrintableError(fmt.Errorf("audit verify: %v", err))}
	}
	if sum.Records == 0 {
		fmt.Fprintf(e.stdout, "ok: no events in %s\n", auditPlural(len(sum.Files), "file"))
		if *anchor != "" {
			return verifyAnchor(e, *anchor, *anchorLog, sum)
		}
		return nil
	}
	fmt.Fprintf(e.stdout, "ok: %s in %s, seq %d..%d, head %s\n", auditPlural(sum.Records, "event"), auditPlural(len(sum.Files), "file"), sum.FirstSeq, sum.LastSeq, sum.Head)
	if !sum.Genesis {
		if *genesis {
			fmt.Fprintf(e.stdout, "FAIL %s:1: the chain starts at seq %d, not at GENESIS\n", audit.Printable(sum.Files[0]), sum.FirstSeq)
			return &exitError{code: 1}
		}
		fmt.Fprintf(e.stdout, "note: the chain starts at seq %d, not at GENESIS: the files with earlier events were not given\n", sum.FirstSeq)
	}
	if *anchor != "" {
		return verifyAnchor(e, *anchor, *anchorLog, sum)
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

// auditInputs turns file arguments into inputs: "-" is standard input,
// which can be read only once.
func auditInputs(e *env, files []string) ([]audit.Input, error) {
	inputs := make([]audit.Input, len(files))
	stdin := false
	for i, f := range files {
		inputs[i] = audit.Input{Name: f}
		if f == "-" {
			if stdin {
				return nil, &exitError{code: 2, err: errors.New("audit: standard input (-) given twice")}
			}
			stdin = true
			inputs[i] = audit.Input{Name: "stdin", R: e.stdin}
		}
	}
	return inputs, nil
}

// reviewFlags are the filters shared by sessions, show and tail.
type reviewFlags struct {
	session, run, tool, decision, since string
	json, local, all, wide              bool
	width                               int
}

func (r *reviewFlags) register(fs *flag.FlagSet, withSession bool) {
	if withSession {
		fs.StringVar(&r.session, "session", "", "only events of session `ID`")
	}
	fs.StringVar(&r.run, "run", "", "only events of bridge run `ID` (the runId the views print)")
	fs.StringVar(&r.tool, "tool", "", "only events of tool `NAME` (case-insensitive)")
	fs.StringVar(&r.decision, "decision", "", "only events with `DECISION` (allow, deny, require-approval, escalate)")
	fs.StringVar(&r.since, "since", "", "only events at or after `TIME` (RFC 3339, 2006-01-02, or a duration ago such as 2h)")
	fs.BoolVar(&r.json, "json", false, "print the matching lines as they are in the log (JSONL), for scripts; on a terminal, with the characters it would act on as JSON escapes")
	fs.BoolVar(&r.local, "local", false, "show times in the local time zone instead of UTC")
	fs.IntVar(&r.width, "width", 64, "longest DETAIL column, in characters")
	fs.BoolVar(&r.all, "all", false, "also show lifecycle records (operator.lifecycle, session.start/end, bridge.start/stop, agent.info)")
	fs.BoolVar(&r.wide, "wide", false, "print POLICY and BY whole on one line and DETAIL uncut, instead of wrapping and cutting")
}

// timeline returns the timeline options the flags ask for, in colour when
// w is a terminal and NO_COLOR is not set.
func (r *reviewFlags) timeline(w io.Writer) audit.TimelineOptions {
	return audit.TimelineOptions{Location: r.location(), Width: r.width, Wide: r.wide, All: r.all, Color: colorTerminal(w)}
}

// colorTerminal reports whether w is a terminal that may get colours
// (https://no-color.org: any non-empty NO_COLOR turns them off).
func colorTerminal(w io.Writer) bool {
	return os.Getenv("NO_COLOR") == "" && os.Getenv("TERM") != "dumb" && isTerminal(w)
}

// isTerminal reports whether w is a terminal (a character device).
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}

// jsonLines writes lines of JSON, each followed by a newline: into a pipe
// or a file as they are (the log's lines byte for byte, so they still
// verify), onto a terminal with the characters a terminal would act on
// written as JSON escapes (audit.PrintableJSON), since the strings in
// them are the agent's and JSON leaves C1 controls, bidirectional
// overrides and zero-width characters as they are.
type jsonLines struct {
	w    io.Writer
	tty  bool
	line []byte
}

func newJSONLines(w io.Writer) *jsonLines { return &jsonLines{w: w, tty: isTerminal(w)} }

// write writes one line (without its newline).
func (j *jsonLines) write(line []byte) error {
	if j.tty {
		line = audit.PrintableJSON(line)
	}
	j.line = append(append(j.line[:0], line...), '\n')
	_, err := j.w.Write(j.line)
	return err
}

func (r *reviewFlags) filter(now time.Time) (audit.Filter, error) {
	f := audit.Filter{Run: r.run, Session: r.session, Tool: r.tool, Decision: r.decision}
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

// readChecked reads the entries of files once, warning on stderr when
// they do not verify: a reviewer must know when the log was altered. An
// input that is not an audit log at all is an error.
func readChecked(e *env, files []string) ([]audit.Entry, error) {
	inputs, err := auditInputs(e, files)
	if err != nil {
		return nil, err
	}
	rv, err := audit.Review(inputs...)
	if err != nil {
		return nil, &exitError{code: 1, err: audit.PrintableError(err)}
	}
	if rv.Problem != nil {
		fmt.Fprintf(e.stderr, "WARNING: the log does not verify: %v\nWARNING: showing the lines as they are; do not trust them.\n", audit.PrintableError(rv.Problem))
		markUnvouched(rv)
	}
	return rv.Entries, nil
}

// markUnvouched sets Unchained on every entry from where rv's chain stops
// verifying on, so that the views say so among the rows (standard error,
// where the warning goes, is gone once a pager draws the rows).
func markUnvouched(rv *audit.Reviewed) {
	var p *audit.Problem
	if !errors.As(rv.Problem, &p) {
		p = &audit.Problem{Line: 1, Err: rv.Problem}
	}
	order := make(map[string]int)
	for i, f := range rv.Summary.Files {
		order[f] = i
	}
	why := fmt.Sprintf("the log does not verify (%v): the row above and the rows after it are shown as found, not as the log vouches for them", p)
	broken := false
	for i := range rv.Entries {
		en := &rv.Entries[i]
		if !broken {
			fi, ok := order[en.File]
			pf, pok := order[p.File]
			broken = !pok || ok && (fi > pf || fi == pf && en.Line >= p.Line)
		}
		if broken {
			en.Unchained = why
		}
	}
}

// readReview parses a review subcommand's flags and files and reads the
// files' entries, warning if they do not verify.
func readReview(e *env, name, usage string, withSession bool, args []string) (rf reviewFlags, f audit.Filter, entries []audit.Entry, err error) {
	fs := newAuditFlags(e, name, usage)
	rf.register(fs, withSession)
	files, err := parseFiles(e, fs, args, "audit "+name+": no file given")
	if err != nil {
		return rf, f, nil, err
	}
	if f, err = rf.filter(time.Now()); err != nil {
		return rf, f, nil, &exitError{code: 2, err: err}
	}
	if entries, err = readChecked(e, files); err != nil {
		return rf, f, nil, err
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
		// Not the log's lines: the characters a terminal acts on are
		// escaped wherever this goes.
		for _, s := range sessions {
			b, err := json.Marshal(s)
			if err != nil {
				return err
			}
			if _, err := fmt.Fprintf(e.stdout, "%s\n", audit.PrintableJSON(b)); err != nil {
				return err
			}
		}
		return nil
	}
	if len(sessions) == 0 {
		fmt.Fprintln(e.stdout, "no sessions")
		return nil
	}
	if err := audit.WriteSessions(e.stdout, sessions, rf.location()); err != nil {
		return err
	}
	for _, en := range entries {
		if en.Unchained != "" {
			// Under the table, where a pager still shows it.
			_, err := fmt.Fprintf(e.stdout, "✗ NOT VERIFIED: the counts include records the log does not vouch for (see standard error)\n")
			return err
		}
	}
	return nil
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
	opts := rf.timeline(e.stdout)
	opts.Sessions, opts.Runs = audit.Sessions(all), audit.Runs(all)
	return audit.WriteTimeline(e.stdout, entries, opts)
}

func writeRaw(w io.Writer, entries []audit.Entry) error {
	out := newJSONLines(w)
	for _, en := range entries {
		if err := out.write(en.Raw); err != nil {
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
	if len(files) != 1 || files[0] == "-" {
		return usageError(e, commandLine(fs), "audit tail: give exactly one file (the active log; standard input cannot be followed)")
	}
	f, err := rf.filter(time.Now())
	if err != nil {
		return &exitError{code: 2, err: err}
	}
	from, err := tailFrom(files[0], *n)
	if err != nil {
		return &exitError{code: 1, err: audit.PrintableError(err)}
	}
	tl := audit.NewTimeline(e.stdout, rf.timeline(e.stdout))
	raw := newJSONLines(e.stdout)
	if !rf.json {
		tl.Header()
	}
	var werr error
	print := func(en audit.Entry) {
		// Every record is read from the start, so that the rows name the
		// agent from the run's agentInfo; only the last n are shown.
		// A line that does not continue the chain is shown whatever seq
		// it claims.
		if werr != nil || en.Seq < from && en.Unchained == "" || !f.Match(&en) {
			tl.Learn(&en)
			return
		}
		if rf.json {
			werr = raw.write(en.Raw)
		} else {
			werr = tl.Row(&en)
		}
	}
	if !*follow {
		done, cancel := context.WithCancel(ctx)
		cancel()
		err = audit.Follow(done, files[0], 0, print)
	} else {
		err = audit.Follow(ctx, files[0], 0, print)
	}
	if err != nil {
		return &exitError{code: 1, err: audit.PrintableError(err)}
	}
	if werr != nil && !strings.Contains(werr.Error(), "broken pipe") {
		return werr
	}
	return nil
}

// tailFrom returns the seq of the first of the last n events of path (one
// past the last event when n is 0; -1 for an empty file).
func tailFrom(path string, n int) (int64, error) {
	if n <= 0 {
		last, err := tailFrom(path, 1)
		if err != nil || last < 0 {
			return 0, err
		}
		return last + 1, nil
	}
	off, err := audit.TailOffset(path, n)
	if err != nil {
		return 0, err
	}
	f, err := os.Open(path)
	if err != nil {
		return 0, err
	}
	defer f.Close()
	if _, err := f.Seek(off, io.SeekStart); err != nil {
		return 0, err
	}
	line, _ := bufio.NewReader(f).ReadBytes('\n')
	var rec struct {
		Seq *int64 `json:"seq"`
	}
	if json.Unmarshal(line, &rec) == nil && rec.Seq != nil {
		return *rec.Seq, nil
	}
	if len(line) == 0 {
		return -1, nil // an empty file: show whatever comes
	}
	return 0, nil // not an event: show everything
}

func auditSHA256(b []byte) string {
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}
