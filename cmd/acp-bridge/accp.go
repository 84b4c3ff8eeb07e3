package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"text/tabwriter"

	"github.com/acp-bridge/acp-bridge/internal/accp"
	"github.com/acp-bridge/acp-bridge/internal/accp/acpmap"
	"github.com/acp-bridge/acp-bridge/internal/acpwire"
)

const accpUsage = `usage: acp-bridge accp encode [-session ID] [-random-mid] [-runs [-run-tokens N]] [-refs] < messages.jsonl > frames
       acp-bridge accp decode [-session ID] [-render] < frames > messages.jsonl
       acp-bridge accp stats [-json] FILE...

encode reads ACP JSON-RPC messages, one per line, or a recorded transcript
({"ts":..., "dir":..., "msg":...} lines) and writes one ACCP frame per line:
one frame per message, or with -runs one sync:run frame per run of
consecutive messages from one sender. A run ends when the sender changes,
before a message that would take the frame's body over -run-tokens o200k
tokens (default 200, the hard body limit of ACCP section 3.4; -1: no
token limit, the frame still stays within 256 MiB and 10M values), and at
the end of the input; a run of one message is that message's ordinary
frame. With -refs a string, array or map of 8 bytes or more that an
earlier message of the session held is written "$N", a reference to the
N-th such value (at most 16 MiB of referenced text per frame, a run's
messages together); decode resolves them. A message no frame can carry
within those limits (nesting deeper than 64 levels, say) is an error
(E1001); one that decodes to over 64 MiB of JSON is E2003.
decode reads those frames and writes the JSON-RPC messages, every message
of a run in order; a frame it rejects (over 256 MiB, refs over 16 MiB,
decoding to over 64 MiB of JSON...) becomes an ER error frame (fail:error
with its E-code) in its place.
stats measures o200k tokens per message kind as pretty JSON, compact JSON
and ACCP (and how many of the ACCP tokens the mandatory envelope takes),
whole and "structural": with verbatim file and terminal content blanked;
then the same streams as written by encode -runs, -refs and both. Each FILE
is one ACCP session.`

// runACCP implements "acp-bridge accp".
func runACCP(ctx context.Context, e *env, args []string) error {
	return runGroup(ctx, e, "accp", accpUsage+"\n", []subcommand{{"encode", accpEncode}, {"decode", accpDecode}, {"stats", accpStats}}, args)
}

// accpFlags returns a flag set for an accp subcommand.
func accpFlags(e *env, name string) *flag.FlagSet {
	return subcommandFlags(e, "accp "+name, func(w io.Writer) { fmt.Fprintln(w, accpUsage) })
}

// lines calls fn for each line of r, without its newline. A line longer
// than max bytes (max > 0) is cut to its first max+1 bytes, enough for fn
// to see it is too long, and the rest is read and dropped without being
// held; max 0 passes lines of any length.
func lines(ctx context.Context, r io.Reader, max int, fn func(n int, line []byte) error) error {
	br := bufio.NewReaderSize(r, 1<<16)
	for n := 1; ; n++ {
		if err := ctx.Err(); err != nil {
			return err
		}
		var line []byte
		var err error
		for {
			var chunk []byte
			chunk, err = br.ReadSlice('\n')
			if max <= 0 || len(line) <= max {
				keep := chunk
				if max > 0 {
					keep = chunk[:min(len(chunk), max+1-len(line))]
				}
				line = append(line, keep...)
			}
			if err != bufio.ErrBufferFull {
				break
			}
		}
		line = bytes.TrimRight(line, "\r\n")
		if len(line) > 0 {
			if ferr := fn(n, line); ferr != nil {
				return ferr
			}
		}
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return fmt.Errorf("reading line %d: %v", n, err)
		}
	}
}

// accpMaxInputLine is the longest input line accp encode and stats read:
// the bridge's own message limit plus room for a recording's ts and dir.
// Longer lines are reported and skipped without being held.
var accpMaxInputLine = acpwire.DefaultMaxLineSize + 4<<10

// tooLong is the error for an input line over accpMaxInputLine.
func tooLong(where string, n int) error {
	return fmt.Errorf("%s:%d: line longer than %d bytes", where, n, accpMaxInputLine)
}

func accpEncode(ctx context.Context, e *env, args []string) error {
	fs := accpFlags(e, "encode")
	session := fs.String("session", "acp", "ACCP session id (seeds the msg ids)")
	random := fs.Bool("random-mid", false, "use random msg ids instead of ids derived from the session and seq")
	runs := fs.Bool("runs", false, "write runs of consecutive messages from one sender as one sync:run frame each")
	runTokens := fs.Int("run-tokens", 0, "with -runs, the most o200k tokens of a run frame's body (0: 200, the hard limit of section 3.4; -1: no token limit)")
	refs := fs.Bool("refs", false, "write a value an earlier message of the session held as a $N reference to it")
	if err := parseFlags(e, fs, args); err != nil {
		return err
	}
	enc := acpmap.NewEncoder(*session, acpmap.Options{RandomMID: *random, Refs: *refs})
	var runEnc *acpmap.RunEncoder
	if *runs {
		runEnc = enc.Runs(acpmap.RunOptions{MaxBodyTokens: *runTokens})
	}
	w := bufio.NewWriter(e.stdout)
	defer w.Flush()
	write := func(frames ...string) error {
		for _, f := range frames {
			w.WriteString(f)
			if err := w.WriteByte('\n'); err != nil {
				return err
			}
		}
		return nil
	}
	bad := 0
	err := lines(ctx, e.stdin, accpMaxInputLine, func(n int, line []byte) error {
		if len(line) > accpMaxInputLine {
			bad++
			fmt.Fprintf(e.stderr, "%v, skipped\n", tooLong("stdin", n))
			return nil
		}
		l, err := acpmap.ReadLine(line)
		if err != nil {
			bad++
			fmt.Fprintf(e.stderr, "stdin:%d: not JSON, skipped\n", n)
			return nil
		}
		if l.Held != "" { // a message the bridge held back: no peer saw it
			return nil
		}
		var frames []string
		if runEnc != nil {
			frames, err = runEnc.Add(l.Msg, l.Dir, l.TS)
		} else {
			var frame string
			frame, err = enc.Encode(l.Msg, l.Dir, l.TS)
			frames = []string{frame}
		}
		if err != nil {
			bad++
			fmt.Fprintf(e.stderr, "stdin:%d: %v\n", n, err)
			return nil
		}
		return write(frames...)
	})
	if err != nil {
		return err
	}
	if runEnc != nil {
		frames, err := runEnc.Flush()
		if err != nil {
			return fmt.Errorf("accp encode: %v", err)
		}
		if err := write(frames...); err != nil {
			return err
		}
	}
	if bad > 0 {
		return &exitError{code: 1, err: fmt.Errorf("accp encode: %d line(s) not encoded", bad)}
	}
	return nil
}

func accpDecode(ctx context.Context, e *env, args []string) error {
	fs := accpFlags(e, "decode")
	session := fs.String("session", "acp", "ACCP session id")
	render := fs.Bool("render", false, "print each frame as readable text (the debug rendering) instead of JSON")
	if err := parseFlags(e, fs, args); err != nil {
		return err
	}
	dec := acpmap.NewDecoder(*session, acpmap.Options{})
	errSess := accp.NewSession(*session+"-errors", accp.Options{Budget: accp.BudgetIgnore, Checkpoints: accp.CheckpointNone})
	w := bufio.NewWriter(e.stdout)
	defer w.Flush()
	bad := 0
	// A frame over the parser's limit is rejected (E1001) from its first
	// bytes; the rest of it is not held.
	err := lines(ctx, e.stdin, acpmap.Limits.MaxFrameBytes, func(n int, line []byte) error {
		if *render {
			f, err := acpmap.Limits.Parse(string(line), acpmap.NewRegistry())
			if err != nil {
				bad++
				fmt.Fprintf(w, "line %d: %v\n\n", n, err)
				return nil
			}
			fmt.Fprintf(w, "line %d: %s\n", n, accp.Render(f, acpmap.NewRegistry()))
			return nil
		}
		msgs, err := dec.DecodeAll(string(line))
		if err != nil {
			bad++
			ef := accp.ErrorFrame("decoder", err)
			env := accp.Envelope{}
			// The envelope only: the body may be what the decoder refused to parse.
			if f, _, perr := acpmap.Limits.ParseOutline(string(line), acpmap.NewRegistry()); perr == nil {
				if mid, ok := f.MetaValue("mid"); ok {
					env.AID = mid
				}
			}
			text, serr := errSess.Seal(ef, env)
			if serr != nil {
				return fmt.Errorf("line %d: rendering error frame: %v", n, serr)
			}
			fmt.Fprintf(e.stderr, "stdin:%d: %v\n", n, err)
			w.WriteString(text)
			return w.WriteByte('\n')
		}
		for _, m := range msgs { // none when dropped silently (expired or cancelled)
			w.Write(m)
			if err := w.WriteByte('\n'); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return err
	}
	if bad > 0 {
		return &exitError{code: 1, err: fmt.Errorf("accp decode: %d frame(s) rejected", bad)}
	}
	return nil
}

type statsRow struct {
	Kind     string  `json:"kind"`
	Messages int     `json:"messages"`
	Frames   int     `json:"frames"`
	Pretty   int     `json:"pretty_json"`
	Compact  int     `json:"compact_json"`
	ACCP     int     `json:"accp"`
	Envelope int     `json:"accp_envelope"`
	Ratio    float64 `json:"accp_over_compact"`
	// Larger counts frames with more tokens than their messages as compact
	// JSON.
	Larger int `json:"frames_larger_than_json"`
}

func row(name string, t acpmap.Tokens) statsRow {
	return statsRow{name, t.Messages, t.Messages, t.Pretty, t.Compact, t.ACCP, t.Envelope, t.Ratio(), t.Larger}
}

func runRow(name string, t acpmap.RunTokens) statsRow {
	return statsRow{name, t.Messages, t.Frames, t.Pretty, t.Compact, t.ACCP, t.Envelope, t.Ratio(), t.Larger}
}

func accpStats(ctx context.Context, e *env, args []string) error {
	fs := accpFlags(e, "stats")
	asJSON := fs.Bool("json", false, "write the tables as JSON")
	if err := parseFlags(e, fs, args); err != nil {
		return err
	}
	if fs.NArg() == 0 {
		return usageError(e, "acp-bridge accp stats", "accp stats: no files")
	}
	st := acpmap.NewStats()
	for _, path := range fs.Args() {
		f, err := os.Open(path)
		if err != nil {
			return fmt.Errorf("accp stats: %v", err)
		}
		err = lines(ctx, f, accpMaxInputLine, func(n int, line []byte) error {
			if len(line) > accpMaxInputLine {
				return tooLong(path, n)
			}
			l, err := acpmap.ReadLine(line)
			if err != nil {
				return fmt.Errorf("%s:%d: not JSON", path, n)
			}
			if l.Held != "" { // a message the bridge held back: no peer saw it
				return nil
			}
			if err := st.Add(l); err != nil {
				return fmt.Errorf("%s:%d: %v", path, n, err)
			}
			return nil
		})
		f.Close()
		if err == nil {
			err = st.EndStream()
		}
		if err != nil {
			return fmt.Errorf("accp stats: %v", err)
		}
	}
	var rows []statsRow
	for _, k := range st.KindNames() {
		rows = append(rows, row(k, *st.Kinds[k]))
	}
	total := row("TOTAL", st.Total)
	structural := row("STRUCTURAL (no file/terminal content)", st.Structural)
	var forms []statsRow
	for i, f := range acpmap.Forms {
		forms = append(forms, runRow(f.String()+"  TOTAL", st.Forms[i]))
	}
	for i, f := range acpmap.Forms {
		forms = append(forms, runRow(f.String()+"  STRUCTURAL", st.StructuralForms[i]))
	}
	if *asJSON {
		enc := json.NewEncoder(e.stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(map[string]any{"kinds": rows, "total": total, "structural": structural, "forms": forms})
	}
	tw := tabwriter.NewWriter(e.stdout, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "one frame per message\tmsgs\tpretty JSON\tcompact JSON\tACCP\t(envelope)\tACCP/compact\tlarger than JSON\t")
	for _, r := range append(rows, total, structural) {
		fmt.Fprintf(tw, "%s\t%d\t%d\t%d\t%d\t%d\t%.2f\t%d\t\n", r.Kind, r.Messages, r.Pretty, r.Compact, r.ACCP, r.Envelope, r.Ratio, r.Larger)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	fmt.Fprintln(e.stdout)
	tw = tabwriter.NewWriter(e.stdout, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "accp encode flags\tmsgs\tframes\tcompact JSON\tACCP\t(envelope)\tACCP/compact\tframes larger than JSON\t")
	for _, r := range forms {
		fmt.Fprintf(tw, "%s\t%d\t%d\t%d\t%d\t%d\t%.2f\t%d\t\n", r.Kind, r.Messages, r.Frames, r.Compact, r.ACCP, r.Envelope, r.Ratio, r.Larger)
	}
	return tw.Flush()
}
