package compress

import (
	"bufio"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/acp-bridge/acp-bridge/internal/rawjson"
)

// Archive renders the conversation as Markdown.
func (r *Recorder) Archive(now time.Time) string {
	var b strings.Builder
	_ = r.WriteArchive(&b, now)
	return b.String()
}

// WriteArchive writes the conversation as Markdown to w: from the spool on
// disk if the recorder has one, from memory otherwise.
func (r *Recorder) WriteArchive(w io.Writer, now time.Time) error {
	b := bufio.NewWriter(w)
	b.Write(r.appendArchiveHeading(nil, now, r.dropped()))
	if r.spool != nil {
		if err := b.Flush(); err != nil {
			return err
		}
		if r.spool.err != nil {
			return r.spool.err
		}
		return r.spool.copyTo(w)
	}
	var text []byte
	for _, e := range r.entries {
		b.WriteString(entryHeader(e.role, e.at))
		g := headingGuard{}
		text = g.appendText(text[:0], []byte(e.text))
		for _, c := range e.raw {
			if s, ok := rawjson.String(c); ok {
				text = g.appendText(text, []byte(s))
			}
		}
		b.Write(text)
		b.WriteString("\n\n")
	}
	return b.Flush()
}

// dropped returns the bytes of earlier conversation the archive leaves out.
func (r *Recorder) dropped() int64 {
	if r.spool != nil {
		return r.spool.dropped
	}
	return int64(r.droppedBytes)
}

// appendArchiveHeading appends what an archive written at now holds before
// the conversation: its title, where it comes from, and the bytes of
// earlier conversation it leaves out, if any.
func (r *Recorder) appendArchiveHeading(dst []byte, now time.Time, dropped int64) []byte {
	dst = append(dst, "# Conversation archive: session "...)
	dst = append(dst, r.SessionID...)
	dst = append(dst, "\n\nWritten by acp-bridge at "...)
	dst = now.UTC().AppendFormat(dst, time.RFC3339)
	dst = append(dst, " from the traffic it forwarded"...)
	if r.Cwd != "" {
		dst = append(dst, " (cwd "...)
		dst = append(dst, r.Cwd...)
		dst = append(dst, ')')
	}
	dst = append(dst, ". Content offloaded to the cache appears as its reference.\n\n"...)
	if dropped > 0 {
		dst = append(dst, '*')
		dst = strconv.AppendInt(dst, dropped, 10)
		dst = append(dst, " bytes of earlier conversation were not retained.*\n\n"...)
	}
	return dst
}

// saveArchive writes the conversation archive as of now to the store for
// session and returns its path. When the spool's older segment can become
// the archive (spool.asArchive) it is linked there rather than copied;
// either way the file holds what WriteArchive writes.
func (r *Recorder) saveArchive(st *Store, session string, now time.Time) (string, error) {
	if r.spool != nil {
		if src, ok := r.spool.asArchive(r.appendArchiveHeading(nil, now, r.dropped())); ok {
			if path, err := st.LinkArchive(session, src); err == nil {
				r.spool.sealOlder()
				return path, nil
			}
		}
	}
	return st.WriteArchiveFrom(session, func(w io.Writer) error { return r.WriteArchive(w, now) })
}
