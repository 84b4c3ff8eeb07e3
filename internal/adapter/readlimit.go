package adapter

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/acp-bridge/acp-bridge/internal/nowaitopen"
	"github.com/acp-bridge/acp-bridge/internal/rawjson"
	"github.com/acp-bridge/acp-bridge/internal/tokens"
)

// DefaultOffloadTokens is the Tier 1 threshold used when none is given, the
// compression pipeline's default.
const DefaultOffloadTokens = 15000

// maxCountBytes bounds how much of a file is read to count its tokens; a
// larger file is over any threshold anyway.
const maxCountBytes = 32 << 20

// ReadLimit configures Tier 1 for an agent's own file reads.
type ReadLimit struct {
	// Threshold is the offload threshold in tokens; a Read of a file above
	// it with no range gets a limit. Zero disables the limiter.
	Threshold int
	// Budget is how many tokens of the file the limited read may return;
	// optional, if zero, a tenth of Threshold.
	Budget int
	// Count counts tokens; optional, if nil, o200k_base.
	Count func(string) int
	// Offload keeps a byte-identical copy of a file whose read was
	// limited for the session that read it (compress.Pipeline.KeepCopy,
	// which lets that session read the copy back) and returns its path;
	// optional.
	Offload func(session, tool, content string) (string, error)
	// OnLimit is told about each limited read (for the compression event
	// log); optional.
	OnLimit func(LimitedRead)
	// Logger; nil means discard.
	Logger *slog.Logger
}

// LimitLargeReads wraps next so that Claude Code's own Read of a file above
// the threshold, with no offset or limit, reads only the first lines that fit
// the budget: the decision keeps next's verdict and gains an UpdatedInput
// with a "limit" and a Context telling the model where the whole file is and
// how to read the rest. Denied and asked calls, ranged reads and small files
// pass unchanged.
func LimitLargeReads(next Decider, rl ReadLimit) Decider {
	if rl.Threshold <= 0 {
		return next
	}
	if rl.Budget <= 0 {
		rl.Budget = rl.Threshold / 10
	}
	if rl.Count == nil {
		rl.Count = tokens.Count
	}
	logger := rl.Logger
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	return DeciderFunc(func(ctx context.Context, c ToolCall) (Decision, error) {
		d, err := next.DecideTool(ctx, c)
		if err != nil || d.Verdict == Deny || d.Verdict == Ask || c.Agent != Claude || c.Tool != "Read" {
			return d, err
		}
		input := c.Input
		if len(d.UpdatedInput) > 0 {
			input = d.UpdatedInput
		}
		var in struct {
			FilePath string          `json:"file_path"`
			Offset   json.RawMessage `json:"offset"`
			Limit    json.RawMessage `json:"limit"`
			Pages    json.RawMessage `json:"pages"`
		}
		if decodeObject(input, &in) != nil || in.FilePath == "" || in.Offset != nil || in.Limit != nil || in.Pages != nil {
			return d, nil
		}
		path, ok := claudeReadPath(in.FilePath, c.Cwd)
		if !ok {
			return d, nil
		}
		f, ok := openRegular(path)
		if !ok {
			return d, nil
		}
		defer f.Close()
		// The bridge reads the file itself (to count it, and for the copy
		// the model may read from the cache): it reads only the file it
		// opened, and only if the policy allows that very file, wherever
		// a link swapped in since the decision now leads.
		if !openedAllowed(ctx, next, c, input, f, path) {
			return d, nil
		}
		plan, ok := planRead(f, rl)
		if !ok {
			return d, nil
		}
		updated, err := rawjson.Set(input, []byte(strconv.Itoa(plan.limit)), "limit")
		if err != nil {
			return d, nil
		}
		d.UpdatedInput = updated
		note := fmt.Sprintf("acp-bridge (context offload): %s has %d lines, about %d tokens, more than the %d-token offload threshold, "+
			"so only lines 1-%d were read. The full file is unchanged at %s. To read more, call Read with file_path %q and "+
			"offset/limit, e.g. offset %d and limit %d; use Grep to find the part you need.",
			in.FilePath, plan.lines, plan.tokens, rl.Threshold, plan.limit, in.FilePath, in.FilePath, plan.limit+1, plan.limit)
		lr := LimitedRead{Session: c.SessionID, Path: in.FilePath, Threshold: rl.Threshold, FileTokens: plan.tokens,
			ShownTokens: plan.shown, Lines: plan.lines, Limit: plan.limit}
		if rl.Offload != nil && plan.complete {
			if copyPath, err := rl.Offload(c.SessionID, "Read", string(plan.data)); err == nil {
				note += fmt.Sprintf(" A copy as read now is kept in the bridge's cache at %s.", copyPath)
				lr.Copy = copyPath
			} else {
				logger.Warn("tier 1: keeping a copy of a large read", "path", in.FilePath, "err", err)
			}
		}
		if rl.OnLimit != nil {
			rl.OnLimit(lr)
		}
		if d.Context != "" {
			d.Context += "\n" + note
		} else {
			d.Context = note
		}
		if d.Reason == "" {
			d.Reason = fmt.Sprintf("acp-bridge: large file, read limited to %d lines", plan.limit)
		}
		logger.Info("tier 1: limited a large read", "path", in.FilePath, "tokens", plan.tokens, "lines", plan.lines, "limit", plan.limit)
		return d, nil
	})
}

// LimitedRead describes one read LimitLargeReads limited.
type LimitedRead struct {
	// Session is the agent's session id.
	Session string
	// Path is the file read.
	Path string
	// Threshold is the offload threshold in tokens.
	Threshold int
	// FileTokens is the file's o200k count; ShownTokens the count of the
	// lines the read returns, as Claude Code shows them.
	FileTokens, ShownTokens int
	// Lines is the file's line count; Limit the lines read.
	Lines, Limit int
	// Copy is the offloaded copy's path, if one was kept.
	Copy string
}

type readPlan struct {
	tokens, lines, limit int
	shown                int    // tokens of the lines read
	data                 []byte // the file as counted
	complete             bool   // data is the whole file
}

// claudeReadPath returns the file Claude Code's Read opens for filePath
// in a call whose working directory is cwd: filePath itself when
// absolute, else filePath below cwd (as the policy judged it). It reports
// false when that is not known: a relative path in a call without an
// absolute cwd, or one starting with "~" (Claude's home, which the bridge
// does not guess). The bridge's own working directory is never used: the
// same name there may be another file.
func claudeReadPath(filePath, cwd string) (string, bool) {
	switch {
	case strings.HasPrefix(filePath, "~"):
		return "", false
	case filepath.IsAbs(filePath):
		return filepath.Clean(filePath), true
	case filepath.IsAbs(cwd):
		return filepath.Join(cwd, filePath), true
	}
	return "", false
}

// openRegular opens path for reading if it is a regular file, without
// blocking: a FIFO put in its place would otherwise hold the decision
// until someone writes to it.
func openRegular(path string) (*os.File, bool) {
	if st, err := os.Stat(path); err != nil || !st.Mode().IsRegular() {
		return nil, false
	}
	f, _, err := nowaitopen.OpenRegular(path, 0)
	if err != nil {
		return nil, false
	}
	return f, true
}

// openedAllowed reports whether the policy (next) lets the call read the
// file f, opened at path after the call was decided: decided again on
// where f is (the kernel's name for the open file), so a link swapped in
// between the decision and the open (big.txt made a link to a denied file)
// is decided where it leads. A file whose place cannot be told is not.
func openedAllowed(ctx context.Context, next Decider, c ToolCall, input json.RawMessage, f *os.File, path string) bool {
	real, ok := openedPath(f, path)
	if !ok {
		return false
	}
	in, err := rawjson.Set(input, mustJSON(real), "file_path")
	if err != nil {
		return false
	}
	c.Input = in
	d, err := next.DecideTool(ctx, c)
	return err == nil && d.Verdict != Deny && d.Verdict != Ask
}

// openedPath returns where the open file f is: the kernel's name for it
// (/proc/self/fd), or else the resolved path when it is still f.
func openedPath(f *os.File, path string) (string, bool) {
	if p, err := os.Readlink("/proc/self/fd/" + strconv.Itoa(int(f.Fd()))); err == nil && filepath.IsAbs(p) {
		return p, true
	}
	p, err := filepath.EvalSymlinks(path)
	if err != nil {
		return "", false
	}
	st, err1 := f.Stat()
	pt, err2 := os.Stat(p)
	if err1 != nil || err2 != nil || !os.SameFile(st, pt) {
		return "", false
	}
	return p, true
}

// mustJSON is s as a JSON string.
func mustJSON(s string) []byte {
	b, _ := json.Marshal(s)
	return b
}

// planRead counts the tokens of the regular file f and, if it is above
// the threshold, returns how many lines fit the budget. Each line is
// counted as Claude Code shows it, with its line number and a tab in
// front.
func planRead(f *os.File, rl ReadLimit) (readPlan, bool) {
	st, err := f.Stat()
	// A token is at least one byte: a file no longer than the threshold in
	// bytes cannot exceed it in tokens.
	if err != nil || !st.Mode().IsRegular() || st.Size() <= int64(rl.Threshold) {
		return readPlan{}, false
	}
	data, err := io.ReadAll(io.LimitReader(f, maxCountBytes))
	if err != nil {
		return readPlan{}, false
	}
	total := rl.Count(string(data))
	if total <= rl.Threshold && st.Size() <= maxCountBytes {
		return readPlan{}, false
	}
	lines := bytes.Count(data, []byte{'\n'})
	if len(data) > 0 && data[len(data)-1] != '\n' {
		lines++
	}
	used, limit := 0, 0
	for rest := data; len(rest) > 0 && limit < lines; {
		line := rest
		if i := bytes.IndexByte(rest, '\n'); i >= 0 {
			line, rest = rest[:i+1], rest[i+1:]
		} else {
			rest = nil
		}
		n := rl.Count(strconv.Itoa(limit+1) + "\t" + string(line))
		if used+n > rl.Budget && limit > 0 {
			break
		}
		used += n
		limit++
	}
	if limit < 1 {
		limit = 1
	}
	return readPlan{tokens: total, lines: lines, limit: limit, shown: used, data: data, complete: st.Size() == int64(len(data))}, true
}
