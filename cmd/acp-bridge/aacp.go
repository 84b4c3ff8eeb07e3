package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/acp-bridge/acp-bridge/internal/aacp"
)

const aacpUsage = `usage: acp-bridge aacp validate [--json] [FILE...]
       acp-bridge aacp encode [--registry FILE] [--threshold N] [--encoder-cmd PROGRAM] [-v]

validate  checks AACP packets, one per line, from the files or stdin, and prints
          every problem as file:line:col: code: message (E codes are errors,
          W codes warnings). Exit status 1 if any packet has an error.
encode    turns natural-language instructions, one per line on stdin, into
          packets on stdout through the registry's three tiers: cache, keyword
          pattern, then the --encoder-cmd program if given (none by default).
Blank lines and lines starting with '#' are skipped.
`

// runAACP implements "acp-bridge aacp".
func runAACP(ctx context.Context, e *env, args []string) error {
	return runGroup(ctx, e, "aacp", aacpUsage, []subcommand{
		{"validate", func(_ context.Context, e *env, args []string) error { return aacpValidate(e, args) }},
		{"encode", aacpEncode},
	}, args)
}

// aacpFlags returns a flag set for an aacp subcommand.
func aacpFlags(e *env, name string) *flag.FlagSet {
	return subcommandFlags(e, "aacp "+name, func(w io.Writer) { fmt.Fprint(w, aacpUsage) })
}

// jsonPacket is one line of "aacp validate --json" output.
type jsonPacket struct {
	File        string           `json:"file"`
	Line        int              `json:"line"`
	Packet      string           `json:"packet"`
	Valid       bool             `json:"valid"`
	Task        string           `json:"task,omitempty"`
	Domain      string           `json:"dom,omitempty"`
	Fields      []jsonField      `json:"fields,omitempty"`
	Diagnostics []jsonDiagnostic `json:"diagnostics"`
}

type jsonField struct {
	Key   string `json:"key"`
	Value string `json:"value"`
}

type jsonDiagnostic struct {
	Code     string `json:"code"`
	Severity string `json:"severity"`
	Field    string `json:"field,omitempty"`
	Column   int    `json:"column"`
	Message  string `json:"message"`
}

// aacpValidate implements "acp-bridge aacp validate": exit status 1 if a
// packet is rejected, 2 if a file cannot be read.
func aacpValidate(e *env, args []string) error {
	fs := aacpFlags(e, "validate")
	asJSON := fs.Bool("json", false, "print one JSON object per packet instead of diagnostics")
	if err := parseFlags(e, fs, args); err != nil {
		return err
	}
	files := fs.Args()
	if len(files) == 0 {
		files = []string{"-"}
	}
	enc := json.NewEncoder(e.stdout)
	enc.SetEscapeHTML(false)
	var packets, rejected, warnings int
	var ioErr error
	for _, name := range files {
		var r io.ReadCloser = io.NopCloser(e.stdin)
		display := "<stdin>"
		if name != "-" {
			f, err := os.Open(name)
			if err != nil {
				fmt.Fprintf(e.stderr, "acp-bridge aacp: %v\n", err)
				ioErr = err
				continue
			}
			r, display = f, name
		}
		err := aacp.ScanLines(r, func(l aacp.Line) error {
			packets++
			p, ds := aacp.Parse(l.Text)
			if p == nil {
				rejected++
			}
			for _, d := range ds {
				if d.Severity() == aacp.Warning {
					warnings++
				}
			}
			if !*asJSON {
				for _, d := range ds {
					if _, err := fmt.Fprintln(e.stdout, d.Format(display, l.Num)); err != nil {
						return err
					}
				}
				return nil
			}
			out := jsonPacket{File: display, Line: l.Num, Packet: l.Text, Valid: p != nil, Diagnostics: []jsonDiagnostic{}}
			if p != nil {
				out.Task, out.Domain = p.Task, p.Domain
				for _, f := range p.Fields {
					out.Fields = append(out.Fields, jsonField{f.Key, f.Value})
				}
			}
			for _, d := range ds {
				out.Diagnostics = append(out.Diagnostics, jsonDiagnostic{string(d.Code), d.Severity().String(), d.Field, d.Column, d.Message})
			}
			return enc.Encode(out)
		})
		r.Close()
		if err != nil {
			fmt.Fprintf(e.stderr, "acp-bridge aacp: %s: %v\n", display, err)
			ioErr = err
		}
	}
	if !*asJSON {
		fmt.Fprintf(e.stderr, "%d packets: %d rejected, %d warnings\n", packets, rejected, warnings)
	}
	switch {
	case ioErr != nil:
		return &exitError{code: 2}
	case rejected > 0:
		return &exitError{code: 1}
	}
	return nil
}

// aacpEncode implements "acp-bridge aacp encode": exit status 1 if an
// instruction could not be encoded, after encoding all the others.
func aacpEncode(ctx context.Context, e *env, args []string) error {
	fs := aacpFlags(e, "encode")
	path := fs.String("registry", "", "registry `file` (JSON, created with mode 0600); if empty, the registry lives in memory")
	threshold := fs.Float64("threshold", aacp.DefaultThreshold, "keyword score (0-1) needed for a tier-2 pattern match")
	verbose := fs.Bool("v", false, "print the tier that produced each packet on stderr")
	encoderCmd := fs.String("encoder-cmd", "", "tier-3 `program` and arguments (split at spaces, no shell): gets the instruction on stdin, prints the packet")
	if err := parseFlags(e, fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return &exitError{code: 2, err: errors.New("aacp encode: reads instructions from stdin and takes no arguments")}
	}
	if *threshold <= 0 || *threshold > 1 {
		return &exitError{code: 2, err: fmt.Errorf("aacp encode: --threshold %v is not in (0, 1]", *threshold)}
	}
	opts := aacp.RegistryOptions{Path: *path, Threshold: *threshold}
	if argv := strings.Fields(*encoderCmd); len(argv) > 0 {
		opts.Encoder = &aacp.CommandEncoder{Path: argv[0], Args: argv[1:]}
	}
	reg, err := aacp.OpenRegistry(opts)
	if err != nil {
		return &exitError{code: 2, err: err}
	}
	failed := 0
	err = aacp.ScanLines(e.stdin, func(l aacp.Line) error {
		res, err := reg.Encode(ctx, l.Text)
		if err != nil {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			failed++
			fmt.Fprintf(e.stderr, "<stdin>:%d: %v\n", l.Num, err)
			return nil
		}
		if *verbose {
			match := res.Match
			if res.Tier != aacp.TierEncoder && !strings.HasPrefix(match, "rule:") {
				match = "entry " + match[:min(12, len(match))]
			}
			if res.Tier == aacp.TierPattern {
				match += fmt.Sprintf(", score %.2f", res.Score)
			}
			fmt.Fprintf(e.stderr, "<stdin>:%d: tier %d (%s): %s\n", l.Num, res.Tier, res.Tier, match)
		}
		for _, d := range res.Warnings {
			fmt.Fprintf(e.stderr, "<stdin>:%d: packet column %s\n", l.Num, d)
		}
		_, err = fmt.Fprintln(e.stdout, res.Packet)
		return err
	})
	if err != nil {
		return fmt.Errorf("aacp encode: %w", err)
	}
	if failed > 0 {
		return &exitError{code: 1, err: fmt.Errorf("aacp encode: %d instructions not encoded", failed)}
	}
	return nil
}
