package audit

import (
	"strings"
	"testing"

	"github.com/acp-bridge/acp-bridge/internal/rawjson"
)

// previewTextRef is the preview as appendDigestOf makes it, decoded into
// a new string rather than a pooled buffer: the reference the pooled path
// is held to.
func (r *redactor) previewTextRef(raw []byte) (short any, preview string, redactions int) {
	const decoded = PreviewBytes + previewSlack
	buf, complete := rawjson.AppendUnquoted(make([]byte, 0, min(decoded+8, len(raw))), raw, decoded)
	text := string(buf)
	if complete && len(text) <= PreviewBytes {
		if out, changed := r.str(text); changed {
			return out, "", 0
		}
		return text, "", 0
	}
	preview, redactions = previewOf(text, complete, PreviewBytes)
	return nil, preview, redactions
}

// digestAsMap is digest as it was before canonObject and the pooled
// preview buffer: the record as a map, for appendCanonical to encode.
func (r *redactor) digestAsMap(raw []byte) any {
	short, preview, n := r.previewTextRef(raw)
	if short != nil {
		return short
	}
	return map[string]any{
		"$digest":    true,
		"bytes":      jsonInt(len(raw)),
		"sha256":     hashHex(raw),
		"preview":    preview,
		"redactions": jsonInt(n),
	}
}

// FuzzDigestCanon: the digest record made in canonical form is what
// appendCanonical makes of it as a map.
func FuzzDigestCanon(f *testing.F) {
	for _, s := range []string{words(3000), words(900), strings.Repeat("A", 2000), "password=hunter22 " + words(1500),
		strings.Repeat(`\u00e9\n`, 400), strings.Repeat("é\"\\\t", 500) + "\xff", "ghp_0123456789abcdefghijklmnopqrstuvwxyzAB " + words(1100)} {
		f.Add(s)
	}
	r := redactor{maxValue: DefaultMaxValueBytes, headLen: 1024}
	f.Fuzz(func(t *testing.T, s string) {
		lit := []byte(`"` + s + `"`)
		if _, ok := rawjson.ValidString(lit, 0); !ok {
			lit = appendCanonicalString(nil, s)
		}
		got, want := digestBothWays(t, &r, lit)
		if string(got) != string(want) {
			t.Fatalf("digest of %q:\n%s\nas a map:\n%s", lit, got, want)
		}
		if len(lit) > PreviewBytes+2 {
			// The scanner's path appends to what it has made so far.
			scanned, ok := r.appendOutputString([]byte("[1,"), lit, true)
			if !ok || string(scanned) != "[1,"+string(want) {
				t.Fatalf("scanned digest of %q:\n%s\nas a map:\n[1,%s", lit, scanned, want)
			}
		}
	})
}

// TestDigestOneWord: a text that starts with one long word (the case
// appendDigestOf takes without decoding) has the preview the reference
// makes, at the edges of the decoded part too: a space, an escape or a
// byte above ASCII at or just past it, stray continuation bytes after a
// secret-shaped word, and a word the redactor would shorten.
func TestDigestOneWord(t *testing.T) {
	const n = PreviewBytes + previewSlack
	// One word the redactor replaces whole, n bytes long.
	jwt := "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0." + strings.Repeat("s", n-37)
	r := redactor{maxValue: DefaultMaxValueBytes, headLen: 1024}
	for _, text := range []string{strings.Repeat("A", n+1), strings.Repeat("A", n+40), strings.Repeat("A", n) + " x",
		strings.Repeat("A", n-1) + " " + strings.Repeat("B", 100), strings.Repeat("A", n) + `\n` + strings.Repeat("B", 10),
		strings.Repeat("A", n-1) + `\n` + strings.Repeat("B", 10), strings.Repeat("A", n) + "é", strings.Repeat("A", n) + "\x80\x80\x80",
		jwt + "\x80\x80\x80", jwt + "x", jwt, strings.Repeat("A", 500) + "\t" + strings.Repeat("A", n), "x" + strings.Repeat("A", n) + "\x7f"} {
		lit := []byte(`"` + text + `"`)
		got, want := digestBothWays(t, &r, lit)
		if string(got) != string(want) {
			t.Errorf("digest of %.40q... (%d bytes):\n%s\nreference:\n%s", text, len(text), got, want)
		}
	}
}

// digestBothWays returns the canonical form of lit's digest record as the
// scanner's digest makes it and as the reference (digestAsMap) does.
func digestBothWays(t *testing.T, r *redactor, lit []byte) (got, want []byte) {
	t.Helper()
	want, err := appendCanonical(nil, r.digestAsMap(lit))
	if err != nil {
		t.Fatal(err)
	}
	got, err = appendCanonical(nil, r.digest(lit))
	if err != nil {
		t.Fatal(err)
	}
	return got, want
}
