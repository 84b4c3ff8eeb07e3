package audit

import (
	"strings"

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
	const decoded = PreviewBytes + previewSlack
	buf, complete := rawjson.AppendUnquoted(make([]byte, 0, min(decoded+8, len(raw))), raw, decoded)
	text := string(buf)
	if complete && len(text) <= PreviewBytes {
		if out, changed := r.str(text); changed {
			return out
		}
		return text
	}
	preview, n := previewOf(text, complete, PreviewBytes)
	return map[string]any{
		"$digest":    true,
		"bytes":      jsonInt(len(raw)),
		"sha256":     hashHex(raw),
		"preview":    preview,
		"redactions": jsonInt(n),
	}
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
func lastSpace(s string, end int) int {
	if end < len(s) && strings.IndexByte(spaceBytes, s[end]) >= 0 {
		return end
	}
	if i := strings.LastIndexAny(s[:min(end, len(s))], spaceBytes); i > 0 {
		return i
	}
	return 0
}
