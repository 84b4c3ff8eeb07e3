package auditweb

import (
	"fmt"

	"github.com/acp-bridge/acp-bridge/internal/audit"
)

// verifyState is how far a log's chain has been verified (audit.Checker:
// canonical form, schema, hashes, seq and prevHash of every line).
type verifyState struct {
	checker audit.Checker
	// done counts the records, from the first, that verified.
	done int
	// problem is the first line that did not verify, at record position
	// problemAt; nil while none did.
	problem   *audit.Problem
	problemAt int
}

// verifyBudget is how many lines one verify call checks, so that the
// poller also follows new lines while a long log is being verified.
const verifyBudget = 500

// verify checks up to verifyBudget records that were indexed but not yet
// verified. It reports whether the verdict changed (all verified, or a
// problem found), which is when open pages are told.
func (x *logIndex) verify() (bool, error) {
	x.mu.RLock()
	from, to := x.ver.done, min(len(x.recs), x.ver.done+verifyBudget)
	stopped := x.ver.problem != nil
	x.mu.RUnlock()
	if stopped || from == to {
		return false, nil
	}
	// Lines are read and checked under the read lock (refresh only
	// appends, or resets under the write lock); the result is published
	// under the write lock if the index was not reset meanwhile.
	x.mu.RLock()
	c := x.ver.checker
	var prob *audit.Problem
	n := from
	for ; n < to && n < len(x.recs); n++ {
		line, err := x.line(int32(n))
		if err != nil {
			x.mu.RUnlock()
			return false, err
		}
		if _, err := c.Check(line); err != nil {
			r := x.recs[n]
			prob = &audit.Problem{File: x.files[r.file].name, Line: int(r.line), Err: err}
			break
		}
	}
	resets := x.resets
	x.mu.RUnlock()

	x.mu.Lock()
	defer x.mu.Unlock()
	if x.resets != resets || x.ver.done != from {
		return false, nil
	}
	x.ver.checker, x.ver.done = c, n
	changed := false
	if prob != nil {
		x.ver.problem, x.ver.problemAt = prob, n
		changed = true
	}
	if n == len(x.recs) && from != n {
		changed = true
	}
	if changed {
		x.notify()
	}
	return changed, nil
}

// fileStatus is the chain status of one file, as pages show it.
type fileStatus struct {
	Name    string
	Records int
	// State is "ok", "verifying", "broken" or "unverified" (after a
	// broken file).
	State string
	// Text says it in a sentence.
	Text string
	// Torn is set when bytes follow the last complete line.
	Torn string
}

// chainStatus describes the verification of the whole log.
type chainStatus struct {
	State string // "ok", "verifying", "broken", "empty"
	Text  string
	// Trust says what the rest of the page can still be trusted for
	// when the chain is broken.
	Trust string
	// Loading says how far the first reading of the log got; "" once it
	// is done.
	Loading string
	Files   []fileStatus
}

// status describes the chain and each file. Called with mu held.
func (x *logIndex) status() chainStatus {
	st := chainStatus{Loading: x.loadStatus()}
	first := 0
	for i, xf := range x.files {
		fs := fileStatus{Name: audit.Printable(xf.name), Records: xf.lines}
		last := first + xf.lines
		switch {
		case x.ver.problem != nil && x.ver.problemAt < first:
			fs.State, fs.Text = "unverified", "not verified: it continues a chain that is broken in an earlier file"
		case x.ver.problem != nil && x.ver.problemAt < last:
			fs.State = "broken"
			fs.Text = fmt.Sprintf("BROKEN at line %d: %s", x.ver.problem.Line, audit.Printable(x.ver.problem.Err.Error()))
		case x.ver.done >= last:
			fs.State, fs.Text = "ok", fmt.Sprintf("intact: %d lines verified", xf.lines)
		default:
			fs.State, fs.Text = "verifying", fmt.Sprintf("verifying: %d of %d lines checked", max(0, x.ver.done-first), xf.lines)
		}
		if xf.torn > 0 {
			fs.Torn = fmt.Sprintf("%d bytes after the last complete line (a line being written, or cut short by a crash) are not shown", xf.torn)
			if i < len(x.files)-1 && fs.State == "ok" {
				fs.State, fs.Text = "broken", "BROKEN: a torn line at the end of a file that is not the last of the chain"
			}
		}
		st.Files = append(st.Files, fs)
		first = last
	}
	switch {
	case len(x.recs) == 0:
		st.State, st.Text = "empty", "no events yet"
	case x.ver.problem != nil:
		p := x.ver.problem
		st.State = "broken"
		st.Text = fmt.Sprintf("The chain is BROKEN at %s line %d: %s", audit.Printable(p.File), p.Line, audit.Printable(p.Err.Error()))
		if x.ver.problemAt > 0 {
			r := x.recs[x.ver.problemAt-1]
			st.Trust = fmt.Sprintf("The %d records before it (up to seq %d) verified and can be trusted as written; from that line on, records are shown as found but the log no longer vouches for them: they may have been altered, inserted or removed.", x.ver.problemAt, r.seq)
		} else {
			st.Trust = "No record verified: nothing on these pages is vouched for by the log."
		}
	case x.ver.done < len(x.recs):
		st.State, st.Text = "verifying", fmt.Sprintf("verifying the chain: %d of %d records checked so far", x.ver.done, len(x.recs))
	default:
		st.State = "ok"
		st.Text = fmt.Sprintf("The chain is intact: all %d records verified (hashes, seq and links).", len(x.recs))
	}
	if len(x.recs) > 0 && x.recs[0].seq > 0 {
		st.Text += fmt.Sprintf(" The chain starts at seq %d, not at GENESIS: files with earlier events were not given.", x.recs[0].seq)
	}
	return st
}

// trusted reports whether record pos verified. Called with mu held.
func (x *logIndex) trusted(pos int) bool {
	if x.ver.problem != nil && pos >= x.ver.problemAt {
		return false
	}
	return pos < x.ver.done
}
