package auditweb

import (
	"bufio"
	"encoding/csv"
	"fmt"
	"net/http"
	"os"
	"slices"
	"strconv"
	"strings"

	"github.com/acp-bridge/acp-bridge/internal/audit"
)

// exportRef is where one exported record's line is: enough to read it
// without the log's lock.
type exportRef struct {
	f    *os.File
	name string
	off  int64
	size int32
	line int32
}

// read reads the line ref points to.
func (ref exportRef) read(buf []byte) ([]byte, error) {
	buf = slices.Grow(buf[:0], int(ref.size))[:ref.size]
	if _, err := ref.f.ReadAt(buf, ref.off); err != nil {
		return nil, fmt.Errorf("reading %s: %v", ref.name, err)
	}
	return buf, nil
}

// exportRecords selects the records of the request's query and calls fn
// with each line. It holds the log's read lock only to note where the
// records are, so a long download neither holds back new lines nor the
// pages that wait for them; it exports the log as it was indexed when the
// request came, after the first reading of the log is done. When a line
// can no longer be read (the log was replaced meanwhile), the download is
// cut off rather than ended as if complete.
func (s *Server) exportRecords(w http.ResponseWriter, r *http.Request, ctype, ext string, start func(*bufio.Writer), fn func(bw *bufio.Writer, line []byte, ref exportRef) error) {
	q, err := parseQuery(r.URL.Query(), len(s.logs))
	if err != nil {
		http.Error(w, "400 bad request: "+err.Error(), http.StatusBadRequest)
		return
	}
	x := s.logs[q.Log]
	if err := x.waitLoaded(r.Context()); err != nil {
		http.Error(w, "503 service unavailable: the log is still being read; export it once the page no longer says so", http.StatusServiceUnavailable)
		return
	}
	// The free text is matched below, on the lines as they are read.
	text := strings.ToLower(q.Text)
	q.Text = ""
	x.mu.RLock()
	sel, err := x.selectRecords(q)
	refs := make([]exportRef, len(sel))
	for i, pos := range sel {
		rec := x.recs[pos]
		xf := x.files[rec.file]
		refs[i] = exportRef{f: xf.f, name: xf.name, off: rec.off, size: rec.size, line: rec.line}
	}
	x.mu.RUnlock()
	if err != nil {
		http.Error(w, "404 not found: "+err.Error(), http.StatusNotFound)
		return
	}
	w.Header().Set("Content-Type", ctype)
	w.Header().Set("Content-Disposition", `attachment; filename="audit-export.`+ext+`"`)
	bw := bufio.NewWriterSize(w, 64<<10)
	if start != nil {
		start(bw)
	}
	var buf []byte
	for _, ref := range refs {
		line, err := ref.read(buf)
		if err == nil && text != "" && !lowerContains(line, text) {
			continue
		}
		if err == nil {
			buf = line
			err = fn(bw, line, ref)
		}
		if err != nil {
			s.logger.Warn("audit serve: export cut off", "err", err)
			panic(http.ErrAbortHandler) // the client sees a failed download, not a short one
		}
	}
	bw.Flush()
}

// handleExportJSONL sends the filtered records as the log holds them,
// byte for byte, one per line: each still verifies on its own (hash and
// metadataHash), though a filtered set is not a whole chain.
func (s *Server) handleExportJSONL(w http.ResponseWriter, r *http.Request) {
	s.exportRecords(w, r, "application/x-ndjson", "jsonl", nil, func(bw *bufio.Writer, line []byte, _ exportRef) error {
		bw.Write(line)
		return bw.WriteByte('\n')
	})
}

// csvHeader names the CSV export's columns.
var csvHeader = []string{"seq", "ts", "file", "line", "run", "session", "action", "actor", "tool", "decision", "rule", "approval", "reason", "detail", "hash"}

// handleExportCSV sends the filtered records as CSV, one row each. Cells
// are made printable, and a cell a spreadsheet would take for a formula
// (starting with = + - @, a tab or a carriage return) is prefixed with '.
func (s *Server) handleExportCSV(w http.ResponseWriter, r *http.Request) {
	var cw *csv.Writer
	start := func(bw *bufio.Writer) {
		cw = csv.NewWriter(bw)
		cw.Write(csvHeader)
		cw.Flush()
	}
	s.exportRecords(w, r, "text/csv; charset=utf-8", "csv", start, func(bw *bufio.Writer, line []byte, ref exportRef) error {
		e, _ := audit.ParseEntry(line)
		e.File, e.Line = ref.name, int(ref.line)
		approval := ""
		if e.ToolCall != nil {
			approval = e.ToolCall.Approval
		}
		row := []string{strconv.FormatInt(e.Seq, 10), e.TS, e.File, strconv.Itoa(e.Line), e.RunID, e.Session, e.Action, e.Actor.ID,
			e.Tool(), e.Decision(), e.PolicyRule, approval, e.Reason, oneLine(target(&e)), e.Hash}
		for i, c := range row {
			row[i] = csvCell(c)
		}
		if err := cw.Write(row); err != nil {
			return fmt.Errorf("writing csv: %v", err)
		}
		cw.Flush()
		return cw.Error()
	})
}

// csvCell makes one cell safe to open in a spreadsheet.
func csvCell(s string) string {
	s = audit.Printable(s)
	if s != "" && strings.ContainsRune("=+-@\t\r", rune(s[0])) {
		return "'" + s
	}
	return s
}
