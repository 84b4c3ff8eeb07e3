package audit

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"
	"unsafe"

	"github.com/acp-bridge/acp-bridge/internal/rawjson"
)

// A digest record stands for a long string of a tool's output:
//
//	{"$digest": true, "bytes": 20480, "sha256": "9f2c…",
//	 "preview": "first words of the text …", "redactions": 0}
//
// bytes and sha256 are of the string's JSON text exactly as the agent sent
// it and the IDE received it (quotes and escapes included), so a wire
// recording can be checked against the log without the log holding the
// text. preview is at most PreviewBytes of the decoded text from its
// start, redacted, and ends where white space ends a word: the word the
// cut would split is left out whole, so no part of a token survives the
// cut for a reviewer to read. redactions counts the secrets the redactor
// replaced in the preview.
//
// A string that fits in the preview is kept as it is (redacted) and gets
// no hash: the hash of a short secret can be found by trying candidates,
// and would undo its redaction.

// previewSlack is how far past the preview the text is decoded and
// redacted, so that a secret which starts in the preview is seen whole
// by the redactor (the longest token a rule knows is 255 bytes).
const previewSlack = 512

// digestMarker starts every marker the redactor puts in a string.
const digestMarker = "[REDACTED:"

// digest returns the digest record of a string of a tool's output whose
// JSON text is raw, or the redacted string when it fits in the preview.
func (r *redactor) digest(raw []byte) any {
	rec, short := r.appendDigestOf(make([]byte, 0, 160+min(len(raw), PreviewBytes)), raw)
	if short != nil {
		return short
	}
	return canonObject(rec)
}

// previewBufs holds the buffers a preview is decoded into: the decoded
// text is only read, redacted into the preview and copied into the
// record, so no string of it need outlive appendDigestOf.
var previewBufs = sync.Pool{New: func() any {
	b := make([]byte, 0, PreviewBytes+previewSlack+8)
	return &b
}}

// appendDigestOf appends the digest record of the string whose JSON text
// is raw, decoding it only as far as the preview needs; when the whole
// string fits in the preview it returns the string, redacted, as short
// instead, and dst unchanged.
func (r *redactor) appendDigestOf(dst, raw []byte) (out []byte, short any) {
	const decoded = PreviewBytes + previewSlack
	if len(raw)-2 > decoded && wordRun(raw[1:2+decoded]) == decoded+1 {
		// The decoded part would be the text's first bytes as they are
		// (no escape, nothing but ASCII, up to the byte after it) and
		// one word, no white space in it: the word is cut, so the
		// preview is empty.
		return appendDigest(dst, len(raw), sha256.Sum256(raw), "", 0), nil
	}
	bp := previewBufs.Get().(*[]byte)
	buf, complete := rawjson.AppendUnquoted((*bp)[:0], raw, decoded)
	if complete && len(buf) <= PreviewBytes {
		text := string(buf)
		putPreviewBuf(bp, buf)
		if out, changed := r.str(text); changed {
			return dst, out
		}
		return dst, text
	}
	// The text is a view of the pooled buffer: previewOf returns it or a
	// part of it, or a new string; redactCount keeps a copy of what it
	// remembers (cleanStrings.add); appendDigest copies the preview.
	text := unsafe.String(unsafe.SliceData(buf), len(buf))
	preview, n := previewOf(text, complete, PreviewBytes)
	dst = appendDigest(dst, len(raw), sha256.Sum256(raw), preview, n)
	putPreviewBuf(bp, buf)
	return dst, nil
}

// wordRun returns how many bytes b starts with that are printable ASCII
// other than the space and '\\': bytes that a JSON string holds as
// themselves and that no preview is cut at. Eight bytes are looked at a
// step, as plainRun does.
func wordRun(b []byte) int {
	const (
		ones  = 0x0101010101010101
		highs = 0x8080808080808080
	)
	i := 0
	for ; i+8 <= len(b); i += 8 {
		w := binary.LittleEndian.Uint64(b[i:])
		// Nonzero when a byte of w is 0x80 or above, 0x20 or below, or
		// '\\' (a byte equal to '\\' is a zero byte of w^('\\'*ones)).
		bs := w ^ ('\\' * ones)
		if (w|(w-0x21*ones)&^w|(bs-ones)&^bs)&highs != 0 {
			break
		}
	}
	for ; i < len(b); i++ {
		if c := b[i]; c <= ' ' || c >= utf8.RuneSelf || c == '\\' {
			break
		}
	}
	return i
}

// putPreviewBuf returns a preview buffer to previewBufs.
func putPreviewBuf(bp *[]byte, buf []byte) {
	if cap(buf) > 2*(PreviewBytes+previewSlack) {
		return
	}
	*bp = buf[:0]
	previewBufs.Put(bp)
}

// canonObject is a JSON object already in canonical form, made without a
// map: appendCanonical copies it, the redactor passes it through, and it
// counts as an object where input, output and metadata must be one.
type canonObject []byte

// appendDigest appends the digest record of a string whose JSON text is
// size bytes long with SHA-256 sum, in canonical form: its members in
// RFC 8785 order ($digest, bytes, preview, redactions, sha256).
func appendDigest[B ~[]byte](dst B, size int, sum [sha256.Size]byte, preview string, redactions int) B {
	dst = append(dst, `{"$digest":true,"bytes":`...)
	dst = strconv.AppendInt(dst, int64(size), 10)
	dst = append(dst, `,"preview":`...)
	dst = appendCanonicalString(dst, preview)
	dst = append(dst, `,"redactions":`...)
	dst = strconv.AppendInt(dst, int64(redactions), 10)
	dst = append(dst, `,"sha256":"`...)
	dst = hex.AppendEncode(dst, sum[:])
	return append(dst, `"}`...)
}

// previewOf returns the redacted start of text, at most max bytes ending
// at a word's end, and the number of secrets replaced in it. text is the
// start of a longer string unless complete: its last word may then be
// cut, and is left out before redaction.
func previewOf(text string, complete bool, limit int) (string, int) {
	if !complete {
		text = text[:lastSpace(text, len(text))]
	}
	red, _, n := redactCount(text)
	if len(red) > limit {
		cut := lastSpace(red, limit)
		n -= strings.Count(red[cut:], digestMarker)
		red = red[:cut]
	}
	red = strings.TrimRight(red, spaceBytes)
	return red, max(0, min(n, strings.Count(red, digestMarker)))
}

// spaceBytes are the bytes a preview is cut at.
const spaceBytes = " \t\n\r\v\f"

// lastSpace returns the index of the last white space byte at or before
// s[end] (end itself only when it is in s), or 0 when there is none.
// Text without spaces (base64, minified code) is common in tools'
// output: eight bytes none of which is below '!' are passed over at once.
func lastSpace(s string, end int) int {
	if end < len(s) && isSpaceByte(s[end]) {
		return end
	}
	i := min(end, len(s)) - 1
	for ; i >= 8; i -= 8 {
		w := uint64(s[i-7]) | uint64(s[i-6])<<8 | uint64(s[i-5])<<16 | uint64(s[i-4])<<24 |
			uint64(s[i-3])<<32 | uint64(s[i-2])<<40 | uint64(s[i-1])<<48 | uint64(s[i])<<56
		// Nonzero when a byte of w is below 0x21, as every space byte is.
		if (w-0x2121212121212121)&^w&0x8080808080808080 != 0 {
			break
		}
	}
	for ; i > 0; i-- {
		if isSpaceByte(s[i]) {
			return i
		}
	}
	return 0
}

func isSpaceByte(c byte) bool { return c == ' ' || c >= '\t' && c <= '\r' }
