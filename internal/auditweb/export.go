package auditweb

import (
	"bufio"
	"encoding/csv"
	"fmt"
	"net/http"
	"strconv"
	"strings"

	"github.com/acp-bridge/acp-bridge/internal/audit"
)

// exportRecords selects the records of the request's query and calls fn
// with each, under the log's read lock.
func (s *Server) exportRecords(w http.ResponseWriter, r *http.Request, ctype, ext string, start func(*bufio.Writer), fn func(bw *bufio.Writer, x *logIndex, pos int32) error) {
	q, err := parseQuery(r.URL.Query(), len(s.logs))
	if err != nil {
		http.Error(w, "400 bad request: "+err.Error(), http.StatusBadRequest)
		return
	}
	x := s.logs[q.Log]
	x.mu.RLock()
	defer x.mu.RUnlock()
	sel, err := x.selectRecords(q)
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
	for _, pos := range sel {
		if err := fn(bw, x, pos); err != nil {
			s.logger.Warn("audit serve: export", "err", err)
			return
		}
	}
	bw.Flush()
}

// handleExportJSONL sends the filtered records as the log holds them,
// byte for byte, one per line: each still verifies on its own (hash and
// metadataHash), though a filtered set is not a whole chain.
func (s *Server) handleExportJSONL(w http.ResponseWriter, r *http.Request) {
	s.exportRecords(w, r, "application/x-ndjson", "jsonl", nil, func(bw *bufio.Writer, x *logIndex, pos int32) error {
		line, err := x.line(pos)
		if err != nil {
			return err
		}
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
	s.exportRecords(w, r, "text/csv; charset=utf-8", "csv", start, func(bw *bufio.Writer, x *logIndex, pos int32) error {
		e, err := x.entry(pos)
		if err != nil {
			return err
		}
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
