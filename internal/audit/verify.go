package audit

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"slices"
	"strings"
	"sync"

	"github.com/gowebpki/jcs"
	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/acp-bridge/acp-bridge/schemas"
)

// SchemaFile is the name of the audit event schema in schemas.FS.
const SchemaFile = "audit-event.schema.json"

// schema is the compiled audit event schema.
var schema = sync.OnceValues(func() (*jsonschema.Schema, error) {
	return schemas.Compile(SchemaFile, true)
})

// Problem is the first thing wrong with a set of audit log files: a file,
// a 1-based line and why. Torn is set for a last line without its newline,
// as a crash in the middle of a write leaves it; Repair removes it.
type Problem struct {
	File string
	Line int
	Torn bool
	Err  error
}

// Error returns "file:line: why", printable (see Printable): the reason
// may quote the log's content.
func (p *Problem) Error() string {
	return Printable(fmt.Sprintf("%s:%d: %v", p.File, p.Line, p.Err))
}

// Unwrap returns the reason.
func (p *Problem) Unwrap() error { return p.Err }

// Summary describes a verified chain.
type Summary struct {
	// Files are the files in chain order.
	Files []string
	// Records is the number of events.
	Records int
	// FirstSeq and LastSeq are the seq of the first and last events (-1
	// when there are none).
	FirstSeq, LastSeq int64
	// Genesis reports whether the chain starts at its first event
	// (prevHash GENESIS); when false, older files were not given.
	Genesis bool
	// Head is the hash of the last event.
	Head string
}

// Verify checks audit log files as one chain: every line is the canonical
// form of a record that validates against the schema, its hash and
// metadataHash match its content, and seq and prevHash continue the
// previous line. Files are taken in the order of their first seq (so a
// shell glob of rotated files works), files whose first line cannot be read
// last. The chain may start after GENESIS when older rotated files are not
// given; Summary.Genesis says so. The first failure is returned as a
// *Problem; a file whose first line is not an audit event fails with
// ErrNotAuditLog.
func Verify(files ...string) (*Summary, error) {
	return VerifyInputs(Inputs(files...)...)
}

// VerifyInputs is Verify for inputs that may be standard input or pipes:
// each is read once.
func VerifyInputs(inputs ...Input) (*Summary, error) {
	ordered, err := openAll(inputs)
	if err != nil {
		return nil, err
	}
	defer ordered.closeAll()
	c := &Checker{}
	sum := &Summary{FirstSeq: -1, LastSeq: -1}
	for _, o := range ordered {
		sum.Files = append(sum.Files, o.name)
	}
	for i, o := range ordered {
		if err := notAuditLog(o.name, o.first); err != nil {
			return sum, err
		}
		r, err := o.reader()
		if err != nil {
			return sum, err
		}
		if err := c.read(o.name, r, i == len(ordered)-1); err != nil {
			return sum, err
		}
	}
	sum.Records = c.records
	if c.records > 0 {
		sum.FirstSeq, sum.LastSeq = c.first, c.next-1
		sum.Genesis = c.genesis
		sum.Head = c.prev
	}
	return sum, nil
}

// read checks the lines of one file, named name in problems; last says
// whether it is the last file of the chain.
func (c *Checker) read(name string, rd io.Reader, last bool) error {
	r := bufio.NewReaderSize(rd, 64<<10)
	for n := 1; ; n++ {
		line, err := readLine(r)
		if err == errLineTooLong {
			return &Problem{File: name, Line: n, Err: err}
		}
		if err == io.EOF {
			if len(line) == 0 {
				return nil
			}
			return tornProblem(name, n, len(line), last)
		}
		if err != nil {
			return fmt.Errorf("reading %s: %v", name, err)
		}
		if _, err := c.Check(line[:len(line)-1]); err != nil {
			return &Problem{File: name, Line: n, Err: err}
		}
	}
}

// tornProblem reports a last line of size bytes without its newline.
func tornProblem(name string, line, size int, last bool) *Problem {
	why := fmt.Errorf("torn last line: %d bytes without a newline (a write was cut short; 'acp-bridge audit repair %s' removes it)", size, name)
	if !last {
		why = fmt.Errorf("torn line at the end of a file that is not the last of the chain (%d bytes without a newline)", size)
	}
	return &Problem{File: name, Line: line, Torn: true, Err: why}
}

// Checker verifies lines one at a time, carrying the chain from each line
// to the next. The zero value expects any first event (GENESIS or not).
type Checker struct {
	records int
	first   int64
	next    int64  // seq the next line must have
	prev    string // hash the next line's prevHash must match
	genesis bool
}

// Check verifies one line (without its newline) and returns its record.
func (c *Checker) Check(line []byte) (*Record, error) {
	rec, err := checkLine(line)
	if err != nil {
		return nil, err
	}
	if c.records == 0 {
		c.first = rec.Seq
		c.genesis = rec.PrevHash == Genesis
	} else {
		if rec.Seq != c.next {
			return nil, fmt.Errorf("seq %d, want %d (events missing, reordered or inserted)", rec.Seq, c.next)
		}
		if rec.PrevHash != c.prev {
			return nil, fmt.Errorf("prevHash %s does not match the hash of the previous event (%s): the chain is broken", rec.PrevHash, c.prev)
		}
	}
	c.records++
	c.next = rec.Seq + 1
	c.prev = rec.Hash
	return rec, nil
}

// checkLine verifies everything about one line that does not depend on
// the lines before it.
func checkLine(line []byte) (*Record, error) {
	var m map[string]json.RawMessage
	if err := json.Unmarshal(line, &m); err != nil {
		return nil, fmt.Errorf("not a JSON object: %v", err)
	}
	if m == nil {
		return nil, errors.New("not a JSON object")
	}
	// The line must be exactly the canonical form of its members: this
	// makes any change of any byte visible, including ones JSON would
	// consider equivalent (whitespace, escapes, key order). Rebuilding it
	// from the decoded members also catches duplicate members.
	canon, err := jcs.Transform(line)
	if err != nil {
		return nil, fmt.Errorf("canonicalizing: %v", err)
	}
	if !bytes.Equal(canon, line) || !bytes.Equal(joinMembers(m, nil), line) {
		return nil, errors.New("line is not in RFC 8785 canonical form (it was edited after it was written)")
	}
	if err := validate(line); err != nil {
		return nil, err
	}
	var rec Record
	if err := json.Unmarshal(line, &rec); err != nil {
		return nil, fmt.Errorf("decoding: %v", err)
	}
	hash := rec.Hash
	// Members of a canonical line are canonical, and leaving members out
	// of a canonical object leaves the canonical form of the rest.
	hashed := joinMembers(m, map[string]bool{"hash": true, "hashAlg": true, "metadata": true})
	if got := hashHex(hashed); got != hash {
		return nil, fmt.Errorf("hash %s does not match the content (sha256 %s): the event was altered", hash, got)
	}
	if rec.Metadata != nil {
		// The line is canonical, so metadata already is.
		if got := hashHex(rec.Metadata); got != rec.MetadataHash {
			return nil, fmt.Errorf("metadataHash %s does not match the metadata (sha256 %s): metadata was altered", rec.MetadataHash, got)
		}
	}
	return &rec, nil
}

// joinMembers writes the object of the members of m, except those in skip,
// in RFC 8785 member order, each value as it is.
func joinMembers(m map[string]json.RawMessage, skip map[string]bool) []byte {
	keys := make([]string, 0, len(m))
	size := 2
	for k, v := range m {
		if !skip[k] {
			keys = append(keys, k)
			size += len(k) + len(v) + 4
		}
	}
	slices.SortFunc(keys, compareUTF16)
	out, _ := appendObject(make([]byte, 0, size), keys, func(dst []byte, k string) ([]byte, error) {
		return append(dst, m[k]...), nil // never fails
	})
	return out
}

// validate checks line against the audit event schema.
func validate(line []byte) error {
	s, err := schema()
	if err != nil {
		return err
	}
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(line))
	if err != nil {
		return fmt.Errorf("not JSON: %v", err)
	}
	if err := s.Validate(inst); err != nil {
		var ve *jsonschema.ValidationError
		if errors.As(err, &ve) {
			return fmt.Errorf("schema %s: %s", SchemaFile, leafErrors(ve))
		}
		return fmt.Errorf("schema %s: %v", SchemaFile, err)
	}
	return nil
}

// leafErrors joins the innermost causes of a validation error, which name
// the offending value, rather than the whole tree.
func leafErrors(ve *jsonschema.ValidationError) string {
	var leaves []string
	var walk func(e *jsonschema.ValidationError)
	walk = func(e *jsonschema.ValidationError) {
		if len(e.Causes) == 0 {
			leaves = append(leaves, e.Error())
			return
		}
		for _, c := range e.Causes {
			walk(c)
		}
	}
	walk(ve)
	if len(leaves) > 3 {
		leaves = append(leaves[:3], fmt.Sprintf("and %d more", len(leaves)-3))
	}
	return strings.Join(leaves, "; ")
}

// RepairResult says what Repair did.
type RepairResult struct {
	// Torn reports whether the file ended with a line without newline.
	Torn bool
	// Removed holds the bytes of that line.
	Removed []byte
	// Completed is set when the torn line was a whole, valid event that
	// continues the chain and only its newline was missing: Repair then
	// added the newline instead of removing the event.
	Completed bool
}

// Repair fixes the only damage a crash can do to an audit log: a last line
// cut short. It removes the bytes after the last newline (or, when they
// are a complete valid event continuing the chain, adds the missing
// newline) and fsyncs the file. Complete lines are never touched, whether
// valid or not: Verify reports those.
func Repair(path string) (RepairResult, error) {
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if errors.Is(err, fs.ErrNotExist) {
		// A crash between rotating the active file away and creating its
		// successor leaves no active file: the chain is whole in the
		// rotated files, and there is nothing to repair.
		if rot, rerr := rotatedFiles(path); rerr == nil && len(rot) > 0 {
			return RepairResult{}, nil
		}
	}
	if err != nil {
		return RepairResult{}, fmt.Errorf("repairing audit log: %w", err)
	}
	defer f.Close()
	prev, tail, tailOff, err := scanTail(f)
	if err != nil {
		return RepairResult{}, fmt.Errorf("repairing %s: %v", path, err)
	}
	if len(tail) == 0 {
		return RepairResult{}, nil
	}
	// Repair cuts bytes: never from a file that is not an audit log. Every
	// line the Log writes starts the same way, so even a first line torn
	// by a crash starts with a prefix of it.
	const lineStart = `{"$schema":"` + SchemaTag + `",`
	head := make([]byte, len(lineStart))
	n, _ := f.ReadAt(head, 0)
	if !bytes.Equal(head[:n], []byte(lineStart)[:n]) {
		return RepairResult{}, fmt.Errorf("repairing %s: %w: the first line is not an audit event; nothing was changed", path, ErrNotAuditLog)
	}
	res := RepairResult{Torn: true, Removed: tail}
	if continues(prev, tail) {
		res.Completed = true
		if _, err := f.WriteAt([]byte{'\n'}, tailOff+int64(len(tail))); err != nil {
			return res, fmt.Errorf("repairing %s: %v", path, err)
		}
	} else if err := f.Truncate(tailOff); err != nil {
		return res, fmt.Errorf("repairing %s: %v", path, err)
	}
	if err := f.Sync(); err != nil {
		return res, fmt.Errorf("repairing %s: %v", path, err)
	}
	return res, nil
}

// continues reports whether tail is a valid event that follows prev (or
// starts a chain when prev is nil).
func continues(prev, tail []byte) bool {
	var c Checker
	if prev != nil {
		if _, err := c.Check(prev); err != nil {
			return false
		}
	}
	_, err := c.Check(tail)
	return err == nil
}

// scanTail finds, reading backwards from the end of f, the bytes after the
// last newline (tail, at offset tailOff) and the complete line before them
// (prev, without newline; nil when there is none).
func scanTail(f *os.File) (prev, tail []byte, tailOff int64, err error) {
	fi, err := f.Stat()
	if err != nil {
		return nil, nil, 0, err
	}
	size := fi.Size()
	off := size
	var buf []byte // the bytes of f from off to size
	for {
		lastNL := bytes.LastIndexByte(buf, '\n')
		if lastNL >= 0 {
			if prevNL := bytes.LastIndexByte(buf[:lastNL], '\n'); prevNL >= 0 || off == 0 {
				return buf[prevNL+1 : lastNL], buf[lastNL+1:], off + int64(lastNL) + 1, nil
			}
		} else if off == 0 {
			return nil, buf, 0, nil
		}
		n := min(int64(64<<10), off)
		off -= n
		chunk := make([]byte, n, int64(len(buf))+n)
		if _, err := f.ReadAt(chunk, off); err != nil {
			return nil, nil, 0, err
		}
		buf = append(chunk, buf...)
	}
}

// lastRecord reads the last complete line of path (nil for an empty file).
func lastRecord(path string) (*Record, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("opening audit log: %w", err)
	}
	defer f.Close()
	prev, tail, _, err := scanTail(f)
	if err != nil {
		return nil, fmt.Errorf("reading %s: %v", path, err)
	}
	line := prev
	if len(tail) > 0 {
		// Open repairs first, so this only happens when the file
		// changed in between; the tail is not a record.
		return nil, fmt.Errorf("%s ends with a torn line", path)
	}
	if line == nil {
		return nil, nil
	}
	var rec Record
	if err := json.Unmarshal(line, &rec); err != nil || rec.Doctype != Doctype || rec.Hash == "" {
		return nil, fmt.Errorf("%s: the last line is not an audit event, so the chain cannot be continued (move the file aside or repair it)", path)
	}
	return &rec, nil
}
