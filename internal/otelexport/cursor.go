package otelexport

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
)

// Cursor is what the collector has acknowledged of a log: the last event
// sent and acknowledged. A zero Cursor (Seq -1) means nothing was.
type Cursor struct {
	// Seq is the seq of the last acknowledged event, -1 for none.
	Seq int64 `json:"seq"`
	// Hash is that event's hash.
	Hash string `json:"hash,omitempty"`
	// RunID is that event's run id.
	RunID string `json:"runId,omitempty"`
}

// CursorPath is the cursor file of the audit log at logPath: a hidden file
// in the same directory, .<name>.otlp-cursor.
func CursorPath(logPath string) string {
	dir, base := filepath.Split(logPath)
	return filepath.Join(dir, "."+base+".otlp-cursor")
}

// LoadCursor reads the cursor file at path; a missing file is a cursor at
// the start of the log.
func LoadCursor(path string) (Cursor, error) {
	data, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return Cursor{Seq: -1}, nil
	}
	if err != nil {
		return Cursor{}, fmt.Errorf("reading the export cursor: %w", err)
	}
	var c Cursor
	if err := json.Unmarshal(data, &c); err != nil || c.Seq < -1 {
		return Cursor{}, fmt.Errorf("export cursor %s is not a cursor (delete it to send the whole log again): %v", path, err)
	}
	return c, nil
}

// SaveCursor writes c to path atomically (a temporary file renamed over
// it), mode 0600.
func SaveCursor(path string, c Cursor) error {
	data, err := json.Marshal(c)
	if err != nil {
		return err
	}
	tmp := path + ".tmp"
	// Never through a link someone left at the temporary name.
	os.Remove(tmp)
	f, err := os.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return fmt.Errorf("writing the export cursor: %w", err)
	}
	_, werr := f.Write(append(data, '\n'))
	if err := f.Close(); werr == nil {
		werr = err
	}
	if werr != nil {
		os.Remove(tmp)
		return fmt.Errorf("writing the export cursor: %w", werr)
	}
	if err := os.Rename(tmp, path); err != nil {
		return fmt.Errorf("writing the export cursor: %w", err)
	}
	return nil
}
