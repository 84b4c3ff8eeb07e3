package shellcmd

import (
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// globDir returns a directory holding files that command-position globs
// in the lines below would match.
func globDir(t testing.TB) string {
	dir := t.TempDir()
	for _, f := range []string{"ls", "rm", "sh", "bash", "sudo", "x", "go"} {
		if err := os.WriteFile(filepath.Join(dir, f), nil, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// checkPure fails t when line is Pure and its analysis depends on the
// directory it runs in.
func checkPure(t *testing.T, dir, line string) {
	t.Helper()
	if !Pure(line) {
		return
	}
	if a, b := Analyze(line, Options{Dir: dir}), Analyze(line, Options{}); !reflect.DeepEqual(a, b) {
		t.Fatalf("Pure(%q), but its analysis in %s differs from the one without a directory:\n%+v\n%+v", line, dir, a, b)
	}
}

// TestPure checks that a pure line's analysis does not depend on the
// directory and its files, on lines that run wrappers and nested shells
// and on random lines of the pure alphabet; and that the check can see a
// difference: a glob line is not pure, and its analysis does depend on
// the directory.
func TestPure(t *testing.T) {
	dir := globDir(t)
	for _, line := range []string{"execute src/file1.go", "go test ./...", "sudo env X=1 sh -c ls", "bash -c rm", "xargs sh -c x",
		"env -S sh -c ls", "eval ls", "time ls", "if ls", "FOO=1 go build", "nohup nice -n 5 timeout 3 rm -rf /", "a=b", "cd src",
		"python3 -c x", "sh -c sh -c sh -c ls", "git -c core.pager=less log", "%1", "find . -exec sh -c ls +"} {
		checkPure(t, dir, line)
	}
	r := rand.New(rand.NewPCG(5, 5))
	alpha := []string{"sh", "bash", "-c", "env", "sudo", "ls", "x", " ", " ", "=", "/", ".", "-", ":", "+", "@", "%", ",", "_", "eval", "exec", "xargs", "A1"}
	for range 3000 {
		var b strings.Builder
		for range 1 + r.IntN(12) {
			b.WriteString(alpha[r.IntN(len(alpha))])
		}
		checkPure(t, dir, b.String())
	}
	for _, line := range []string{"l* x", "s? -c x", "[s]h", "'l*'", `l\*`, "$X", "{l,r}s", "~/x", "a\nb", "a;b", "a|b", "a#b", "a(b)"} {
		if Pure(line) {
			t.Errorf("Pure(%q) = true", line)
		}
	}
	if a, b := Analyze("l* x", Options{Dir: dir}), Analyze("l* x", Options{}); reflect.DeepEqual(a, b) {
		t.Fatalf("the analysis of a command-position glob does not depend on the directory: the check above cannot fail")
	}
}

// FuzzPure checks that Analyze of a pure line is the same in a directory
// of files a glob would match and without a directory.
func FuzzPure(f *testing.F) {
	f.Add("sudo env X=1 sh -c ls")
	f.Add("execute src/file1.go")
	f.Add("l* x")
	dir := globDir(f)
	f.Fuzz(func(t *testing.T, line string) {
		checkPure(t, dir, line)
	})
}
