package aacp

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/acp-bridge/acp-bridge/internal/golden"
)

// report renders what a validator says about a file of packets: every
// diagnostic as "file:line:col: code: message", and for every packet that is
// accepted, its fields decoded by name.
func report(t *testing.T, path string) (out string, lines, rejected int) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	name := filepath.Base(path)
	var b strings.Builder
	err = ScanLines(f, func(l Line) error {
		lines++
		p, ds := Parse(l.Text)
		for _, d := range ds {
			fmt.Fprintf(&b, "%s [%s]\n", d.Format(name, l.Num), d.Field)
		}
		if p == nil {
			rejected++
			fmt.Fprintf(&b, "%s:%d: rejected\n", name, l.Num)
			return nil
		}
		fmt.Fprintf(&b, "%s:%d: ok task=%q dom=%q", name, l.Num, p.Task, p.Domain)
		for _, fl := range p.Fields {
			fmt.Fprintf(&b, " %s=%q", fl.Key, fl.Value)
		}
		b.WriteString("\n")
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return b.String(), lines, rejected
}

func TestGolden(t *testing.T) {
	for _, dir := range []string{"valid", "invalid"} {
		files, err := filepath.Glob(filepath.Join("testdata", dir, "*.aacp"))
		if err != nil {
			t.Fatal(err)
		}
		if len(files) == 0 {
			t.Fatalf("no test files in testdata/%s", dir)
		}
		for _, path := range files {
			t.Run(dir+"/"+filepath.Base(path), func(t *testing.T) {
				got, lines, rejected := report(t, path)
				if lines == 0 {
					t.Fatal("file holds no packets")
				}
				switch {
				case dir == "valid" && rejected > 0:
					t.Errorf("%d of %d packets rejected in a file of valid packets:\n%s", rejected, lines, got)
				case dir == "invalid" && rejected != lines:
					t.Errorf("only %d of %d packets rejected in a file of invalid packets:\n%s", rejected, lines, got)
				}
				golden.Check(t, strings.TrimSuffix(path, ".aacp")+".golden", []byte(got))
			})
		}
	}
}
