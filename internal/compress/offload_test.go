package compress

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/acp-bridge/acp-bridge/internal/golden"
)

// bigLog returns n numbered log lines.
func bigLog(n int) string {
	var b strings.Builder
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&b, "2026-01-29T14:25:%02d INFO worker %d processed batch %d of the nightly import job\n", i%60, i%7, i)
	}
	return b.String()
}

func TestReferenceGolden(t *testing.T) {
	tests := []struct {
		name    string
		content string
		source  string
	}{
		{"log", bigLog(2000), "fs/read_text_file /repo/logs/import.log"},
		{"short", "one\ntwo\nthree\n", "terminal/output make test"},
		// A 1 MB single line (minified bundle) must not put the line into
		// the preview; and a fence inside the content must not end ours.
		{"single_line", "```js\n" + strings.Repeat("var a=1;", 200) + "\n```", "embedded resource file:///repo/dist/app.min.js"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			o := Offloaded{
				Path: "/home/dev/.cache/acp-bridge/offloaded/20260129_142530.000000000_" + tt.name + ".md", Source: tt.source,
				Tokens: CountTokens(tt.content), Bytes: len(tt.content), Lines: countLines(tt.content),
			}
			golden.Check(t, "testdata/reference_"+tt.name+".golden", []byte(Reference(o, tt.content)))
		})
	}
}

func TestReferenceSavesTokens(t *testing.T) {
	content := bigLog(5000)
	o := Offloaded{Path: "/c/offloaded/x.md", Tokens: CountTokens(content), Bytes: len(content), Lines: countLines(content)}
	ref := Reference(o, content)
	refTokens := CountTokens(ref)
	if refTokens*50 > o.Tokens {
		t.Errorf("reference of %d tokens for %d tokens of content: want under 2%%", refTokens, o.Tokens)
	}
	want := fmt.Sprintf("**Tokens Saved:** %s\n", groupDigits(o.Tokens-refTokens))
	if !strings.Contains(ref, want) {
		t.Errorf("reference does not state %q:\n%s", want, ref)
	}
	for _, line := range []string{"processed batch 1 of", "processed batch 10 of", "processed batch 5000 of"} {
		if !strings.Contains(ref, line) {
			t.Errorf("preview lacks %q", line)
		}
	}
	if strings.Contains(ref, "processed batch 11 of") {
		t.Error("preview shows more than the first 10 lines")
	}
}

func TestWriteOffloadedByteIdentical(t *testing.T) {
	dir := t.TempDir()
	clock := func() time.Time { return time.Date(2026, 1, 29, 14, 25, 30, 0, time.UTC) }
	st := NewStore(filepath.Join(dir, "cache"), clock)
	contents := map[string]string{
		"crlf":      "a\r\nb\r\n",
		"no_final":  "line without newline",
		"utf8":      "naïve café \u2028 \u2029 \x7f ✓\n",
		"invalid":   "bad \xff\xfe bytes",
		"empty":     "",
		"large_log": bigLog(3000),
	}
	seen := map[string]bool{}
	for name, c := range contents {
		t.Run(name, func(t *testing.T) {
			p, err := st.WriteOffloaded("fs/read_text_file", c)
			if err != nil {
				t.Fatal(err)
			}
			if seen[p] {
				t.Fatalf("path %s reused", p)
			}
			seen[p] = true
			if !strings.HasPrefix(filepath.Base(p), "20260129_142530.000000000_fs_read_text_file") {
				t.Errorf("name %s does not follow {timestamp}_{tool}.md", filepath.Base(p))
			}
			got, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != c {
				t.Errorf("file content differs from the original (%d vs %d bytes)", len(got), len(c))
			}
			fi, _ := os.Stat(p)
			if fi.Mode().Perm() != 0o600 {
				t.Errorf("file mode %v, want 0600", fi.Mode().Perm())
			}
		})
	}
	di, err := os.Stat(st.OffloadedDir())
	if err != nil {
		t.Fatal(err)
	}
	if di.Mode().Perm() != 0o700 {
		t.Errorf("directory mode %v, want 0700", di.Mode().Perm())
	}
}

func TestStoreContains(t *testing.T) {
	st := NewStore("/c", nil)
	tests := []struct {
		path string
		want bool
	}{
		{"/c/offloaded/x.md", true},
		{"/c/conversations/s_full.md", true},
		{"/c/offloaded", false},
		{"/c/other/x.md", false},
		{"/c/offloaded/../secret", false},
		{"/repo/main.go", false},
	}
	for _, tt := range tests {
		if got := st.Contains(tt.path); got != tt.want {
			t.Errorf("Contains(%q) = %v, want %v", tt.path, got, tt.want)
		}
	}
}

func TestRecoverFindsNeedle(t *testing.T) {
	st := NewStore(t.TempDir(), nil)
	hay := bigLog(4000)
	lines := strings.Split(hay, "\n")
	lines[2345] = "the deploy key rotation code is ZEBRA-7731"
	p, err := st.WriteOffloaded("terminal_output", strings.Join(lines, "\n"))
	if err != nil {
		t.Fatal(err)
	}
	snips, err := st.Recover("zebra-7731", 5)
	if err != nil {
		t.Fatal(err)
	}
	if len(snips) != 1 || snips[0].Path != p || snips[0].Line != 2346 || !strings.Contains(snips[0].Text, "ZEBRA-7731") {
		t.Fatalf("Recover = %+v, want one match at %s:2346", snips, p)
	}
	if _, err := st.Recover("  ", 5); err == nil {
		t.Error("empty topic accepted")
	}
}

func TestGroupDigits(t *testing.T) {
	for in, want := range map[int]string{0: "0", 999: "999", 1000: "1,000", 18500: "18,500", 1234567: "1,234,567", -4200: "-4,200"} {
		if got := groupDigits(in); got != want {
			t.Errorf("groupDigits(%d) = %q, want %q", in, got, want)
		}
	}
}
