package compress

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"time"
)

// Layout of the cache directory (see Store).
const (
	offloadedDir     = "offloaded"
	conversationsDir = "conversations"
)

// Store is the on-disk cache: offloaded content under offloaded/ and
// conversation archives under conversations/. Directories are created 0700
// and files 0600: they hold whatever the agent read, secrets included.
// A Store is safe for concurrent use.
type Store struct {
	dir string
	now func() time.Time

	mu  sync.Mutex // guards seq
	seq int
}

// NewStore returns a store rooted at dir. now is the clock used in file
// names; nil means time.Now.
func NewStore(dir string, now func() time.Time) *Store {
	if now == nil {
		now = time.Now
	}
	return &Store{dir: dir, now: now}
}

// Dir returns the cache directory.
func (s *Store) Dir() string { return s.dir }

// OffloadedDir returns the directory offloaded content is written to.
func (s *Store) OffloadedDir() string { return filepath.Join(s.dir, offloadedDir) }

// ConversationsDir returns the directory conversation archives go to.
func (s *Store) ConversationsDir() string { return filepath.Join(s.dir, conversationsDir) }

// Contains reports whether path lies inside the store's offloaded or
// conversations directory.
func (s *Store) Contains(path string) bool {
	for _, d := range []string{s.OffloadedDir(), s.ConversationsDir()} {
		if rel, err := filepath.Rel(d, path); err == nil && rel != "." && !strings.HasPrefix(rel, "..") {
			return true
		}
	}
	return false
}

var unsafeName = regexp.MustCompile(`[^A-Za-z0-9._-]+`)

// safeName turns a tool or session name into a file-name component.
func safeName(s string) string {
	s = strings.Trim(unsafeName.ReplaceAllString(s, "_"), "_.")
	if len(s) > 60 {
		s = s[:60]
	}
	if s == "" {
		s = "content"
	}
	return s
}

// archiveName returns the file name of session's conversation archive:
// {session}_full.md for an id that is its own safe name, else "_" (which
// no safe name starts with) and a SHA-256 prefix of the exact id, so that
// no two session ids, which the agent chooses, share an archive and one
// session's checkpoint never replaces another's. An id that is not its
// own safe name leaves no part of itself in the name: the name is
// recorded in the audit log, whose redaction must see the id as written
// (a secret in "API_KEY=..." would pass it as "API_KEY_...").
func archiveName(session string) string {
	if safe := safeName(session); safe == session {
		return session + "_full.md"
	}
	sum := sha256.Sum256([]byte(session))
	return "_" + hex.EncodeToString(sum[:8]) + "_full.md"
}

// WriteOffloaded writes content, byte for byte, to a new file
// offloaded/{timestamp}_{tool}.md and returns its absolute path. The
// timestamp is UTC with nanoseconds (20260129_142530.123456789); a
// sequence number is added if a name is taken.
func (s *Store) WriteOffloaded(tool, content string) (string, error) {
	dir := s.OffloadedDir()
	if err := ownDirs(s.dir, dir); err != nil {
		return "", fmt.Errorf("creating offload directory: %v", err)
	}
	ts := s.now().UTC().Format("20060102_150405.000000000")
	base := ts + "_" + safeName(tool)
	for i := 0; ; i++ {
		name := base + ".md"
		if i > 0 {
			name = fmt.Sprintf("%s_%d.md", base, i)
		}
		p := filepath.Join(dir, name)
		if err := writeNew(p, content); err != nil {
			if errors.Is(err, fs.ErrExist) && i < 1000 {
				continue
			}
			return "", fmt.Errorf("writing offloaded content: %v", err)
		}
		return absPath(p), nil
	}
}

// WriteArchive replaces the session's archive (archiveName, in
// conversations/) with text and
// returns its absolute path.
func (s *Store) WriteArchive(session, text string) (string, error) {
	return s.WriteArchiveFrom(session, func(w io.Writer) error {
		_, err := io.WriteString(w, text)
		return err
	})
}

// spoolBase returns where a session's conversation is spooled while it
// runs (see spool): a hidden file in the conversations directory, named
// for the session and a hash of its exact id so two ids that make the same
// file name do not share it: SHA-256, since the agent chooses session ids
// and could make two collide under a short checksum.
func (s *Store) spoolBase(session string) string {
	sum := sha256.Sum256([]byte(session))
	name := safeName(session)
	if name != session {
		name = "_" // as in archiveName: no part of an id that is not its own safe name
	}
	return filepath.Join(s.ConversationsDir(), fmt.Sprintf(".%s-%x.spool", name, sum[:8]))
}

// WriteArchiveFrom replaces conversations/{session}_full.md with what
// write writes and returns its absolute path.
func (s *Store) WriteArchiveFrom(session string, write func(io.Writer) error) (string, error) {
	dir := s.ConversationsDir()
	if err := ownDirs(s.dir, dir); err != nil {
		return "", fmt.Errorf("creating conversations directory: %v", err)
	}
	p := filepath.Join(dir, archiveName(session))
	tmp, err := os.CreateTemp(dir, ".archive-*")
	if err != nil {
		return "", fmt.Errorf("writing archive: %v", err)
	}
	werr := write(tmp)
	cerr := tmp.Close()
	if werr == nil {
		werr = cerr
	}
	if werr == nil {
		werr = os.Rename(tmp.Name(), p)
	}
	if werr != nil {
		os.Remove(tmp.Name())
		return "", fmt.Errorf("writing archive: %v", werr)
	}
	return absPath(p), nil
}

// LinkArchive makes the file src, which holds a whole archive (see
// spool.asArchive), conversations/{session}_full.md as well, replacing
// what was there, and returns its absolute path. src keeps its own name.
func (s *Store) LinkArchive(session, src string) (string, error) {
	dir := s.ConversationsDir()
	p := filepath.Join(dir, archiveName(session))
	s.mu.Lock()
	s.seq++
	tmp := filepath.Join(dir, fmt.Sprintf(".archive-link-%d-%d", os.Getpid(), s.seq))
	s.mu.Unlock()
	if err := os.Link(src, tmp); err != nil {
		return "", fmt.Errorf("linking archive: %v", err)
	}
	if err := os.Rename(tmp, p); err != nil {
		os.Remove(tmp)
		return "", fmt.Errorf("linking archive: %v", err)
	}
	return absPath(p), nil
}

func writeNew(p, content string) error {
	f, err := os.OpenFile(p, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return err
	}
	_, werr := f.WriteString(content)
	if cerr := f.Close(); werr == nil {
		werr = cerr
	}
	if werr != nil {
		os.Remove(p)
	}
	return werr
}

func absPath(p string) string {
	if a, err := filepath.Abs(p); err == nil {
		return a
	}
	return p
}

// Offloaded describes content written to the cache in place of the context.
type Offloaded struct {
	// Path is the absolute path of the file holding the original bytes.
	Path string
	// Source says where the content came from, e.g. "fs/read_text_file
	// /repo/big.log".
	Source string
	// Tokens is the original content's o200k token count.
	Tokens int
	// Bytes and Lines describe the original content.
	Bytes, Lines int
}

// Preview sizes used by Reference.
const (
	headLines       = 10
	tailLines       = 5
	maxPreviewLine  = 240 // runes kept of each preview line
	readMoreLimit   = 200 // lines suggested for the next ranged read
	maxPreviewBytes = 8 << 10
)

// Reference returns the text that replaces offloaded content: where the
// original bytes are, its first 10 and last 5 lines (each cut to 240
// characters), the tokens saved, and how to read more with ranged reads.
// The tokens saved are computed against the reference itself.
func Reference(o Offloaded, content string) string {
	ref, _ := reference(o, content)
	return ref
}

// reference returns Reference and its own tokens. Only the preview lines
// are split out of content, so its cost does not depend on how many lines
// content has.
func reference(o Offloaded, content string) (string, int) {
	n := countLines(content)
	var b strings.Builder
	b.WriteString("## Offloaded Content Reference\n")
	fmt.Fprintf(&b, "**File:** %s\n", o.Path)
	if o.Source != "" {
		fmt.Fprintf(&b, "**Source:** %s\n", o.Source)
	}
	fmt.Fprintf(&b, "**Original:** %s tokens, %s lines, %s bytes\n", groupDigits(o.Tokens), groupDigits(o.Lines), groupDigits(o.Bytes))
	b.WriteString("**Tokens Saved:** {{saved}}\n")
	head := firstLines(content, headLines)
	fmt.Fprintf(&b, "**First %d lines:**\n", len(head))
	writeFenced(&b, head)
	if n > headLines {
		tail := lastLines(content, min(tailLines, n-headLines))
		fmt.Fprintf(&b, "**Last %d lines (from line %d):**\n", len(tail), n-len(tail)+1)
		writeFenced(&b, tail)
	}
	b.WriteString("*The file above holds the full content, byte-identical. Read more with ranged reads, e.g. ")
	fmt.Fprintf(&b, "fs/read_text_file {\"path\": %q, \"line\": %d, \"limit\": %d}", o.Path, min(n, headLines)+1, readMoreLimit)
	b.WriteString(" or your file tool with an offset and limit; search it with grep.*\n")
	ref := b.String()
	own := CountTokens(strings.Replace(ref, "{{saved}}", groupDigits(o.Tokens), 1))
	return strings.Replace(ref, "{{saved}}", groupDigits(max(o.Tokens-own, 0)), 1), own
}

// firstLines returns the first k lines of s as splitLines would.
func firstLines(s string, k int) []string {
	s = strings.TrimSuffix(s, "\n")
	var out []string
	for s != "" && len(out) < k {
		line, rest, found := strings.Cut(s, "\n")
		out = append(out, line)
		if !found {
			break
		}
		s = rest
		if s == "" && len(out) < k {
			out = append(out, "")
		}
	}
	return out
}

// lastLines returns the last k lines of s as splitLines would.
func lastLines(s string, k int) []string {
	s = strings.TrimSuffix(s, "\n")
	out := make([]string, 0, k)
	for len(out) < k {
		i := strings.LastIndexByte(s, '\n')
		out = append(out, s[i+1:])
		if i < 0 {
			break
		}
		s = s[:i]
	}
	slices.Reverse(out)
	return out
}

// countLines counts lines the way splitLines does, without allocating.
func countLines(s string) int {
	s = strings.TrimSuffix(s, "\n")
	if s == "" {
		return 0
	}
	return strings.Count(s, "\n") + 1
}

func writeFenced(b *strings.Builder, lines []string) {
	fence := "```"
	for _, l := range lines {
		for strings.Contains(l, fence) {
			fence += "`"
		}
	}
	b.WriteString(fence + "\n")
	budget := maxPreviewBytes
	for _, l := range lines {
		l = strings.TrimSuffix(l, "\r")
		l = cutRunes(l, maxPreviewLine)
		if budget -= len(l); budget < 0 {
			b.WriteString("[preview cut]\n")
			break
		}
		b.WriteString(l)
		b.WriteByte('\n')
	}
	b.WriteString(fence + "\n")
}

// cutRunes keeps the first n runes of s and says how much was cut.
func cutRunes(s string, n int) string {
	if len(s) <= n {
		return s
	}
	i, count := 0, 0
	for i = range s {
		if count == n {
			return fmt.Sprintf("%s… [+%d bytes]", s[:i], len(s)-i)
		}
		count++
	}
	return s
}

// groupDigits formats n with thousands separators: 18500 -> "18,500".
func groupDigits(n int) string {
	s := fmt.Sprint(n)
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	var b strings.Builder
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	if neg {
		return "-" + b.String()
	}
	return b.String()
}
