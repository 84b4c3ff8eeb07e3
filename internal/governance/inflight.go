package governance

import (
	"crypto/sha256"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
)

// A file the agent has asked the IDE to write may not be on disk yet when
// the agent's next request is decided: the bridge forwards an
// fs/write_text_file and, right behind it, a terminal/create running
// "bash s.sh"; the IDE writes s.sh after the bridge has read the old file
// (or none). The same holds for a terminal the IDE still runs: its line
// may write the script a later line runs. So the engine keeps what is in
// flight (inFlight, fed by the Enforcer from what passes the bridge):
//
//   - each fs/write_text_file from the moment it is decided until the IDE
//     answers it with an error (nothing was written), or, answered with a
//     success, until the file on disk holds its content (or a later write
//     of the same file is answered): while it is unanswered, a line
//     running the file as code, or extracting or applying it, is refused
//     (busy), and once answered such a line is judged on its content as
//     well as on the file (written);
//   - each terminal from the moment its terminal/create is decided until
//     the bridge sees it end (an error answering the create, the answer
//     to terminal/wait_for_exit, a terminal/output answer giving its exit
//     status, the answer to terminal/release), with the files its line
//     may write (lineWrites): a line running one of them as code, or
//     extracting or applying it, is refused while it runs, saying which
//     terminal (busy), as the bridge cannot read what that terminal has
//     yet to write; a line running a program whose writes the bridge does
//     not read may write any file.

// maxFlightWrites and maxFlightBytes bound the writes kept; past them the
// oldest answered ones are forgotten, and a new write is refused while
// the unanswered ones alone fill them (Enforcer.flightStart).
const (
	maxFlightWrites = 1024
	maxFlightBytes  = 64 << 20
)

// maxFlightTerminals bounds the terminals kept as running; a new
// terminal/create is refused while that many run.
const maxFlightTerminals = 256

// flightTerm is a terminal that may still be running: what it runs in
// the user's words, and the files its line may write (absolute, cleaned),
// or any file (anyFile).
type flightTerm struct {
	what    string
	writes  []string
	anyFile bool
}

// flightWrite is an fs/write_text_file the IDE may not have carried out.
type flightWrite struct {
	path     string // absolute, as the IDE opens it (not cleaned: pathFormsOf)
	content  string
	sum      [32]byte // content's SHA-256
	what     string   // the request, in the user's words
	answered bool     // the IDE answered it with a success
	seq      int      // order of arrival
}

// inFlight is what the agent has asked the IDE to write or run that may
// still be changing files. It is safe for concurrent use.
type inFlight struct {
	mu     sync.Mutex
	writes map[string]*flightWrite // by request key
	bytes  int                     // content kept in writes
	terms  map[string]flightTerm   // running terminals, by request key or terminalKey
	seq    int
}

// addWrite records the write of content to path (absolute) by
// the request key; false when the bridge cannot keep one more.
func (f *inFlight) addWrite(key, path, content, what string) bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.writes == nil {
		f.writes = map[string]*flightWrite{}
	}
	for len(f.writes) >= maxFlightWrites || f.bytes+len(content) > maxFlightBytes {
		if !f.forgetOldestAnsweredLocked() {
			return false
		}
	}
	if old := f.writes[key]; old != nil {
		f.bytes -= len(old.content)
	}
	f.seq++
	f.writes[key] = &flightWrite{path: path, content: content, sum: sha256.Sum256([]byte(content)), what: what, seq: f.seq}
	f.bytes += len(content)
	return true
}

// forgetOldestAnsweredLocked forgets the oldest write the IDE answered;
// false when there is none.
func (f *inFlight) forgetOldestAnsweredLocked() bool {
	var oldest string
	for k, w := range f.writes {
		if w.answered && (oldest == "" || w.seq < f.writes[oldest].seq) {
			oldest = k
		}
	}
	if oldest == "" {
		return false
	}
	f.dropLocked(oldest)
	return true
}

func (f *inFlight) dropLocked(key string) {
	if w := f.writes[key]; w != nil {
		f.bytes -= len(w.content)
		delete(f.writes, key)
	}
}

// writeDone records the IDE's answer to the write of key: ok, the file
// holds its content now, and the writes of the same file answered before
// are overwritten; not ok, nothing was written. It also forgets a write
// the bridge did not forward (not ok).
func (f *inFlight) writeDone(key string, ok bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	w := f.writes[key]
	if w == nil {
		return
	}
	if !ok {
		f.dropLocked(key)
		return
	}
	for k, o := range f.writes {
		if o != w && o.answered && o.path == w.path {
			f.dropLocked(k)
		}
	}
	w.answered = true
}

// addTerminal records a terminal starting to run, by the key of its
// request; false when the bridge cannot keep one more.
func (f *inFlight) addTerminal(key string, t flightTerm) bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.terms == nil {
		f.terms = map[string]flightTerm{}
	}
	if len(f.terms) >= maxFlightTerminals {
		return false
	}
	f.terms[key] = t
	return true
}

// terminalCreated moves the terminal of request key to its terminal key
// (tkey) once the IDE names it; tkey "" says the IDE started none.
func (f *inFlight) terminalCreated(key, tkey string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	t, ok := f.terms[key]
	if !ok {
		return
	}
	delete(f.terms, key)
	if tkey != "" {
		f.terms[tkey] = t
	}
}

// terminalEnded forgets the terminal of key (a request key or terminal
// key): it has ended, or never started.
func (f *inFlight) terminalEnded(key string) {
	f.mu.Lock()
	delete(f.terms, key)
	f.mu.Unlock()
}

// writer returns, in the user's words, a terminal still running whose
// line may write the file at p (absolute, cleaned), or "".
func (f *inFlight) writer(p string) string {
	f.mu.Lock()
	if len(f.terms) == 0 {
		f.mu.Unlock()
		return ""
	}
	terms := make([]flightTerm, 0, len(f.terms))
	for _, t := range f.terms {
		terms = append(terms, t)
	}
	f.mu.Unlock()
	sort.Slice(terms, func(i, j int) bool { return terms[i].what < terms[j].what })
	var forms []string
	for _, t := range terms {
		if t.anyFile {
			return t.what
		}
		if forms == nil && len(t.writes) > 0 {
			forms = pathFormsOf(p)
		}
		for _, w := range t.writes {
			if shareForm(forms, pathFormsOf(w)) {
				return t.what
			}
		}
	}
	return ""
}

// shareForm reports whether two lists of a path's forms share one.
func shareForm(a, b []string) bool {
	for _, x := range a {
		for _, y := range b {
			if x == y {
				return true
			}
		}
	}
	return false
}

// busy returns, in the user's words, what may still be writing the file
// at p (absolute, cleaned): an fs/write_text_file of it the IDE has not
// answered, or a terminal still running whose line may write it
// (writer); "" for none.
func (f *inFlight) busy(p string) string {
	if t := f.writer(p); t != "" {
		return t
	}
	var open []*flightWrite
	f.mu.Lock()
	for _, w := range f.writes {
		if !w.answered {
			open = append(open, w)
		}
	}
	f.mu.Unlock()
	sort.Slice(open, func(i, j int) bool { return open[i].seq < open[j].seq })
	var forms []string
	for _, w := range open {
		if forms == nil {
			forms = pathFormsOf(p)
		}
		if shareForm(forms, pathFormsOf(w.path)) {
			return w.what
		}
	}
	return ""
}

// flightText is the content an answered write gave a file, and the
// request that wrote it.
type flightText struct{ text, what string }

// written returns the contents the IDE has answered writing to the file
// at p (absolute, cleaned, or leading where p leads) that the disk may not
// show yet. disk is the SHA-256 of the file's text now (ok: it could be
// read): once it is one of them, they are forgotten (the disk shows the
// last) and none is returned.
func (f *inFlight) written(p string, disk [32]byte, ok bool) []flightText {
	f.mu.Lock()
	var paths []string
	for _, w := range f.writes {
		if w.answered {
			paths = append(paths, w.path)
		}
	}
	f.mu.Unlock()
	if len(paths) == 0 {
		return nil
	}
	forms := pathFormsOf(p)
	match := map[string]bool{}
	for _, q := range paths {
		if !match[q] && shareForm(forms, pathFormsOf(q)) {
			match[q] = true
		}
	}
	if len(match) == 0 {
		return nil
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	onDisk := false
	for _, w := range f.writes {
		if match[w.path] && w.answered && ok && w.sum == disk {
			onDisk = true
		}
	}
	var out []flightText
	for k, w := range f.writes {
		switch {
		case !match[w.path] || !w.answered:
		case onDisk:
			f.dropLocked(k)
		default:
			out = append(out, flightText{w.content, w.what})
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].what < out[j].what })
	return out
}

// pathFormsOf returns the names of the file at p (absolute, as written):
// p cleaned, as an IDE that cleans a path before opening it reads it, and
// where p leads now through its links, as the kernel reads it ("link/.."
// is the parent of the link's target; through its directory's links when
// p itself is missing; a missing target of a link), so that either
// reading counts; and the file itself, when it has several names (a
// write through a hard link changes every name's text).
func pathFormsOf(p string) []string {
	out := []string{filepath.Clean(p)}
	if r, err := filepath.EvalSymlinks(p); err == nil {
		out = append(out, r)
		if fi, err := os.Stat(r); err == nil {
			if k := fileKey(fi); k != "" {
				out = append(out, k) // a hard link is the same file
			}
		}
		return out
	}
	i := strings.LastIndexByte(p, '/')
	dir, base := p[:i+1], p[i+1:]
	if base == "" || base == "." || base == ".." {
		return out
	}
	d, err := filepath.EvalSymlinks(dir)
	if err != nil {
		return out
	}
	out = append(out, filepath.Join(d, base))
	if t, err := os.Readlink(filepath.Join(d, base)); err == nil {
		// A link to a file not there yet: the IDE writes its target.
		if !filepath.IsAbs(t) {
			t = filepath.Join(d, t)
		}
		out = append(out, filepath.Clean(t))
		if r, err := filepath.EvalSymlinks(filepath.Dir(t)); err == nil {
			out = append(out, filepath.Join(r, filepath.Base(t)))
		}
	}
	return out
}

// describeWrite names an fs/write_text_file in the user's words.
func describeWrite(id, path string) string {
	return fmt.Sprintf("the fs/write_text_file request %s writing %s", id, path)
}

// flightBusyVerdict denies running line src while t, a request in
// flight, may still be writing file, a file the bridge reads to decide
// the line.
func flightBusyVerdict(src, t, file string) (verdict, bool) {
	return verdict{value: Deny, ref: "self-protection",
		ruleTx: "deny commands reading a file that a request in flight may still be writing (built-in self-protection)",
		reason: fmt.Sprintf("running %q: %s has not finished and may still be writing %s, which the bridge reads to decide the line; the line can run once that has finished", src, t, file)}, true
}
