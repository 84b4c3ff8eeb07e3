package manifest

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// BenchmarkParseProject measures parsing and validating the repository's
// own ACP.md.
func BenchmarkParseProject(b *testing.B) {
	data, err := os.ReadFile(filepath.Join("..", "..", "ACP.md"))
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if _, err := Parse("ACP.md", data); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkSyntaxErrorLargeFrontmatter measures the worst case of the
// syntax-error line search: a frontmatter of maxSyntaxScan lines whose last
// line is broken.
func BenchmarkSyntaxErrorLargeFrontmatter(b *testing.B) {
	var sb strings.Builder
	sb.WriteString("---\n")
	for i := 0; i < maxSyntaxScan-1; i++ {
		fmt.Fprintf(&sb, "key%d: value %d\n", i, i)
	}
	sb.WriteString("  broken: [\n---\n")
	data := []byte(sb.String())
	for b.Loop() {
		if _, err := Parse("ACP.md", data); err == nil {
			b.Fatal("Parse succeeded on a broken document")
		}
	}
}
