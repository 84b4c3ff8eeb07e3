package audit

import (
	"bufio"
	"bytes"
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
)

// Input is one audit log file to read. Name names it in messages; R, when
// set, is read instead of opening Name (standard input, a pipe). Each
// Input is read once, so a pipe or /dev/stdin works like a file.
type Input struct {
	Name string
	R    io.Reader
}

// Inputs returns an Input for each named file.
func Inputs(names ...string) []Input {
	out := make([]Input, len(names))
	for i, n := range names {
		out[i] = Input{Name: n}
	}
	return out
}

// ErrNotAuditLog is wrapped by the errors of Verify, VerifyInputs and
// Review for an input whose first line is not an audit event: something
// other than an audit log was given.
var ErrNotAuditLog = errors.New("not an audit log")

// MaxLineBytes is the longest line the readers accept. The Log never
// writes one near it (input, output and metadata are capped at 64 KiB
// each by default); a longer line is not an audit event, and reading it
// whole could exhaust memory (acp-bridge audit verify /dev/zero).
const MaxLineBytes = 16 << 20

// errLineTooLong is returned by readLine for a line over MaxLineBytes.
var errLineTooLong = fmt.Errorf("a line longer than %d bytes: not an audit event", MaxLineBytes)

// readLine reads up to and including the next newline, like ReadBytes,
// but fails with errLineTooLong past MaxLineBytes.
func readLine(br *bufio.Reader) ([]byte, error) {
	var line []byte
	for {
		chunk, err := br.ReadSlice('\n')
		if len(line)+len(chunk) > MaxLineBytes {
			return nil, errLineTooLong
		}
		line = append(line, chunk...)
		if err != bufio.ErrBufferFull {
			return line, err
		}
	}
}

// opened is an Input being read: its first line already read, the rest
// still in r.
type opened struct {
	name  string
	first []byte // the first line with its newline (without, if it is the only, torn line)
	r     *bufio.Reader
	close func() error
	seq   int64 // seq of the first line; max when it has none
}

// open reads the first line of in. A named regular file is closed again
// and reopened by reader, so that many rotated files need not be open at
// once; anything else (a pipe, a terminal, R) is kept open, since it can
// be read only once.
func (in Input) open() (*opened, error) {
	o := &opened{name: in.Name, seq: 1<<63 - 1, close: func() error { return nil }}
	var r io.Reader = in.R
	if r == nil {
		f, err := os.Open(in.Name)
		if err != nil {
			return nil, fmt.Errorf("opening %s: %v", in.Name, err)
		}
		r, o.close = f, f.Close
	}
	o.r = bufio.NewReaderSize(r, 64<<10)
	first, err := readLine(o.r)
	if err == errLineTooLong {
		o.close()
		return nil, &Problem{File: in.Name, Line: 1, Err: fmt.Errorf("%w: the first line is not an audit event (%v)", ErrNotAuditLog, err)}
	}
	if err != nil && err != io.EOF {
		o.close()
		return nil, fmt.Errorf("reading %s: %v", in.Name, err)
	}
	o.first = first
	var rec struct {
		Seq *int64 `json:"seq"`
	}
	if json.Unmarshal(first, &rec) == nil && rec.Seq != nil {
		o.seq = *rec.Seq
	}
	if f, ok := r.(*os.File); ok && in.R == nil {
		if fi, err := f.Stat(); err == nil && fi.Mode().IsRegular() {
			f.Close()
			o.r, o.close = nil, func() error { return nil }
		}
	}
	return o, nil
}

// reader returns the whole input from its first line on.
func (o *opened) reader() (io.Reader, error) {
	if o.r != nil {
		return io.MultiReader(bytes.NewReader(o.first), o.r), nil
	}
	f, err := os.Open(o.name)
	if err != nil {
		return nil, fmt.Errorf("opening %s: %v", o.name, err)
	}
	o.close = f.Close
	return f, nil
}

// openAll opens inputs and orders them by the seq of their first line
// (inputs whose first line has none last), so rotated files can be given
// in any order. The caller closes them (closeAll).
func openAll(inputs []Input) (openedInputs, error) {
	out := make(openedInputs, 0, len(inputs))
	for _, in := range inputs {
		o, err := in.open()
		if err != nil {
			out.closeAll()
			return nil, err
		}
		out = append(out, o)
	}
	slices.SortStableFunc(out, func(a, b *opened) int { return cmp.Compare(a.seq, b.seq) })
	return out, nil
}

// openedInputs are inputs opened together, in chain order.
type openedInputs []*opened

// closeAll closes each input.
func (ins openedInputs) closeAll() {
	for _, o := range ins {
		o.close()
	}
}

// notAuditLog checks the first line of an input: a file that is not empty
// and does not start with an audit event is not an audit log at all, and
// is reported as such rather than as a broken chain.
func notAuditLog(name string, first []byte) error {
	line := bytes.TrimSuffix(first, []byte("\n"))
	if len(first) == 0 {
		return nil
	}
	var rec struct {
		Doctype string `json:"doctype"`
	}
	err := json.Unmarshal(line, &rec)
	switch {
	case err != nil:
		return &Problem{File: name, Line: 1, Err: fmt.Errorf("%w: the first line is not an audit event (not JSON: %v)", ErrNotAuditLog, err)}
	case rec.Doctype != Doctype:
		return &Problem{File: name, Line: 1, Err: fmt.Errorf("%w: the first line is not an audit event (no doctype %q)", ErrNotAuditLog, Doctype)}
	}
	return nil
}
