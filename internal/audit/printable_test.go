package audit

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/acp-bridge/acp-bridge/internal/terminaltest"
)

func TestPrintable(t *testing.T) {
	tests := []struct{ in, want string }{
		{"plain text, é and 漢字", "plain text, é and 漢字"},
		{"a\nb\r\tc", `a\nb\r\tc`},
		{"\x1b[31mred\x1b[0m", `\x1b[31mred\x1b[0m`},
		{"del\x7f nul\x00", `del\x7f nul\x00`},
		{"c1 \u009b2J \u0085", `c1 \u{009B}2J \u{0085}`},
		{"bidi \u202e evil \u2066x\u2069", `bidi \u{202E} evil \u{2066}x\u{2069}`},
		{"line\u2028para\u2029", `line\u{2028}para\u{2029}`},
		{"zero\u200bwidth\ufeff", `zero\u{200B}width\u{FEFF}`},
		{"bad \xff utf8", `bad \xff utf8`},
		// Characters that print as nothing: sess-1 and sess-1 followed by
		// one of them would read as the same id.
		{"vs sess-1\ufe0f \U000e0100 fill\u3164\u115f\u1160\uffa0 cgj\u034f khmer\u17b4 mongolian\u180b",
			`vs sess-1\u{FE0F} \u{E0100} fill\u{3164}\u{115F}\u{1160}\u{FFA0} cgj\u{034F} khmer\u{17B4} mongolian\u{180B}`},
		// A blank that is not white space: runs of it padded a forged row
		// into the timeline's columns where a long row wraps.
		{"20:00:02.000\u2800\u2800\u28001\u2800tool.call", `20:00:02.000\u{2800}\u{2800}\u{2800}1\u{2800}tool.call`},
	}
	for _, tt := range tests {
		if got := Printable(tt.in); got != tt.want {
			t.Errorf("Printable(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// FuzzPrintable checks that nothing a terminal acts on survives Printable,
// and that wrapping what it returns keeps every character and the width.
func FuzzPrintable(f *testing.F) {
	for _, s := range []string{"a\nb", "\x1b[2J", "\u202e\u2028", "\xff\xfe", "plain words to wrap at a width"} {
		f.Add(s, 7)
	}
	f.Fuzz(func(t *testing.T, s string, width int) {
		p := Printable(s)
		if !utf8.ValidString(p) {
			t.Fatalf("Printable(%q) = %q: invalid UTF-8", s, p)
		}
		for _, r := range p {
			if terminaltest.ActsOn(r) {
				t.Fatalf("Printable(%q) = %q holds %U", s, p, r)
			}
		}
		width = 3 + abs(width)%40
		lines := wrapText(p, width)
		var joined bytes.Buffer
		for i, l := range lines {
			if utf8.RuneCountInString(l) > width {
				t.Fatalf("wrapText(%q, %d) line %q is wider", p, width, l)
			}
			if i > 0 {
				l = strings.TrimPrefix(l, continued)
			}
			joined.WriteString(l)
		}
		if strings.ReplaceAll(joined.String(), " ", "") != strings.ReplaceAll(p, " ", "") {
			t.Fatalf("wrapText(%q, %d) = %q lost text", p, width, lines)
		}
	})
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}

// FuzzReview feeds arbitrary input to Review and Verify: no panic, no
// hang, and both agree on whether it is an audit log.
func FuzzReview(f *testing.F) {
	f.Add([]byte("hello\n"))
	f.Add([]byte(`{"$schema":"agentgovernance/v1","doctype":"audit-event","seq":0}` + "\n"))
	f.Add([]byte(""))
	f.Fuzz(func(t *testing.T, data []byte) {
		_, rerr := Review(Input{Name: "in", R: bytes.NewReader(data)})
		_, verr := VerifyInputs(Input{Name: "in", R: bytes.NewReader(data)})
		if isNotLog(rerr) != isNotLog(verr) {
			t.Fatalf("Review: %v; Verify: %v", rerr, verr)
		}
	})
}

func isNotLog(err error) bool {
	return err != nil && strings.Contains(err.Error(), ErrNotAuditLog.Error())
}

// TestQuoted: ids that are plain tokens as they are, others quoted in
// ASCII, so that two different ids never read as one.
func TestQuoted(t *testing.T) {
	tests := []struct{ in, want string }{
		{"sess-1", "sess-1"},
		{"", `""`},
		{"sess 1", `"sess 1"`},
		{"s1\x1b[2J\nrow", `"s1\x1b[2J\nrow"`},
		{"\u202eevil", `"\u202eevil"`},
		{"sess-1\ufe0f", `"sess-1\ufe0f"`},
		{"sess-1\u3164\u034f", `"sess-1\u3164\u034f"`},
		{"sess-1\U000e0100", `"sess-1\U000e0100"`},
		{"漢字 é", `"\u6f22\u5b57 \u00e9"`},
		{"s\u0435ss-1", `"s\u0435ss-1"`},
		{"sess-9\u0301\u0301", `"sess-9\u0301\u0301"`},
	}
	for _, tt := range tests {
		got := Quoted(tt.in)
		if got != tt.want {
			t.Errorf("Quoted(%q) = %s, want %s", tt.in, got, tt.want)
		}
		for _, r := range got {
			if terminaltest.ActsOn(r) {
				t.Errorf("Quoted(%q) = %q holds %U", tt.in, got, r)
			}
		}
	}
}

// TestPrintableJSON checks that JSON made printable is the same value
// with nothing a terminal acts on: C1 controls, overrides, zero-width and
// tag characters (a surrogate pair) escaped, bytes that are not UTF-8
// read as JSON decoders read them.
func TestPrintableJSON(t *testing.T) {
	for _, s := range []string{"plain", "csi\u009b2J osc\u009d0;x\u009c", "rtl\u202egpj.exe", "iso\u2066x\u2069", "zw\u200bj\ufeff",
		"tag\U000E0041\U000E007F", "vs\ufe0f\U000E0100", "del\x7f nul\x00 esc\x1b[31m cr\r", "sep\u2028\u2029", "é ✓ 日本"} {
		b, err := json.Marshal(map[string]string{s: s})
		if err != nil {
			t.Fatal(err)
		}
		got := PrintableJSON(b)
		terminaltest.CheckPrintable(t, "PrintableJSON", string(got), "\x00never")
		var back map[string]string
		if err := json.Unmarshal(got, &back); err != nil || back[s] != s {
			t.Errorf("PrintableJSON(%s) = %s, which reads %q (%v)", b, got, back, err)
		}
	}
	if got := string(PrintableJSON([]byte("{\"a\":\"x\x9b\xffy\"}"))); got != `{"a":"x\ufffd\ufffdy"}` {
		t.Errorf("bytes that are not UTF-8: %s", got)
	}
}
