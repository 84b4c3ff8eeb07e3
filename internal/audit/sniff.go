package audit

import (
	"bytes"
	"errors"
	"io"
)

// SniffLog reports why what r reads is not an audit log: nil when its
// first line is an audit event, or it is empty; ErrNotAuditLog, or the
// error reading it, otherwise. It reads at most the first 4 KiB.
func SniffLog(r io.Reader) error {
	head := make([]byte, 4096)
	n, err := io.ReadFull(r, head)
	if err != nil && !errors.Is(err, io.ErrUnexpectedEOF) && !errors.Is(err, io.EOF) {
		return err
	}
	if n == 0 {
		return nil
	}
	line := head[:n]
	if i := bytes.IndexByte(line, '\n'); i >= 0 {
		line = line[:i]
	} else if n == len(head) {
		// A first line longer than the sample: look for the marker the
		// writer always puts at the start.
		if bytes.HasPrefix(line, []byte(`{"$schema":"`+SchemaTag+`"`)) {
			return nil
		}
		return ErrNotAuditLog
	}
	if notAuditLog("", line) != nil {
		return ErrNotAuditLog
	}
	return nil
}
