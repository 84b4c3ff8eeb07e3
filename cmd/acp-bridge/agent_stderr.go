package main

import (
	"io"
	"strings"

	"github.com/acp-bridge/acp-bridge/internal/audit"
)

// agentStderrPrefix starts every line of the agent's stderr the bridge
// copies to its own stderr and log file.
const agentStderrPrefix = "agent stderr: "

// agentStderr returns a writer that copies the agent's stderr to w, each
// line made printable (audit.Printable) and started with
// agentStderrPrefix. The agent writes there what it likes, and the bridge's
// own log lines go to the same place: as it is, a line of the agent's would
// pass for one of the bridge's ("time=... level=WARN msg=..."), and its
// escapes would restyle the person's terminal, write their clipboard
// (OSC 52) or overwrite the bridge's lines (CR, cursor moves) when they
// read the stderr or the log file. Copied so, the agent's text is text,
// and visibly the agent's.
func agentStderr(w io.Writer) io.Writer { return &agentStderrWriter{w: w, start: true} }

// agentStderrWriter is agentStderr's writer; start is whether the next
// byte begins a line.
type agentStderrWriter struct {
	w     io.Writer
	start bool
}

func (a *agentStderrWriter) Write(b []byte) (int, error) {
	var out strings.Builder
	s := string(b)
	for s != "" {
		if a.start {
			out.WriteString(agentStderrPrefix)
			a.start = false
		}
		line, rest, ended := strings.Cut(s, "\n")
		if ended {
			line = strings.TrimSuffix(line, "\r") // a CRLF line end is no overwrite
		}
		out.WriteString(audit.Printable(line))
		if ended {
			out.WriteByte('\n')
			a.start = true
		}
		s = rest
	}
	if _, err := io.WriteString(a.w, out.String()); err != nil {
		return 0, err
	}
	return len(b), nil
}
