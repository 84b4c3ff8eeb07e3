package manifest

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// FuzzParseFrontmatter parses arbitrary files as ACP.md. Parse must never
// panic; it returns either a manifest or an ErrorList whose every problem
// has a position inside the file.
func FuzzParseFrontmatter(f *testing.F) {
	for _, dir := range []string{"valid", "invalid"} {
		files, _ := filepath.Glob(filepath.Join("testdata", dir, "*", "*ACP.md"))
		for _, file := range files {
			if data, err := os.ReadFile(file); err == nil {
				f.Add(data)
			}
		}
	}
	if data, err := os.ReadFile(filepath.Join("..", "..", "ACP.md")); err == nil {
		f.Add(data)
	}
	f.Add([]byte("---\r\nname: x\r\n---\r\n"))
	f.Add([]byte("\ufeff---\n{name: x, metadata: {aip44: {tier: sandboxed}}}\n---\n"))
	f.Add([]byte("---\na: &a [*a]\n---\n"))
	f.Add([]byte("---\na: &a {<<: *a, b: 1}\n<<: [*a, {c: 2}]\n---\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		m, err := Parse("ACP.md", data)
		if err == nil {
			if m == nil {
				t.Fatal("Parse returned neither a manifest nor an error")
			}
			if m.AIP44().Tier == "" || len(m.Transport) == 0 {
				t.Fatalf("a valid manifest lacks required fields: %+v", m)
			}
			_ = m.Capabilities()
			return
		}
		var l ErrorList
		if !errors.As(err, &l) {
			t.Fatalf("Parse error %T (%v), want ErrorList", err, err)
		}
		if len(l) == 0 {
			t.Fatal("empty ErrorList returned as an error")
		}
		lines := bytes.Count(data, []byte("\n")) + 1
		for _, e := range l {
			if e.Line < 1 || e.Line > lines || e.Column < 1 {
				t.Errorf("problem outside the file (%d lines): %v", lines, e)
			}
			if e.Msg == "" {
				t.Errorf("problem without a message: %+v", e)
			}
		}
	})
}
