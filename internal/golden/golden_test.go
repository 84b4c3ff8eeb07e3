package golden

import (
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

// recorder is a testing.TB that keeps failures instead of failing the
// test, so Check's own failures can be inspected; like testing.T, Fatalf
// ends the goroutine it is called on.
type recorder struct {
	testing.TB
	errors []string
	fatal  bool
}

func (r *recorder) Helper() {}

func (r *recorder) Errorf(format string, args ...any) {
	r.errors = append(r.errors, format)
}

func (r *recorder) Fatalf(format string, args ...any) {
	r.errors = append(r.errors, format)
	r.fatal = true
	runtime.Goexit()
}

func TestCheck(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "out.golden")
	if err := os.WriteFile(path, []byte("line 1\nline 2\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name       string
		path       string
		got        string
		update     bool
		wantErrors int
		wantFatal  bool
		wantFile   string
	}{
		{name: "same", path: path, got: "line 1\nline 2\n", wantFile: "line 1\nline 2\n"},
		{name: "differs", path: path, got: "line 1\nline 3\n", wantErrors: 1, wantFile: "line 1\nline 2\n"},
		{name: "trailing newline counts", path: path, got: "line 1\nline 2", wantErrors: 1, wantFile: "line 1\nline 2\n"},
		{name: "missing file", path: filepath.Join(dir, "none.golden"), got: "x", wantErrors: 1, wantFatal: true},
		{name: "update rewrites", path: path, got: "new\n", update: true, wantFile: "new\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			old := *update
			*update = tt.update
			defer func() { *update = old }()
			r := &recorder{TB: t}
			done := make(chan struct{})
			go func() {
				defer close(done)
				Check(r, tt.path, []byte(tt.got))
			}()
			<-done
			if len(r.errors) != tt.wantErrors || r.fatal != tt.wantFatal {
				t.Errorf("Check reported %q (fatal %v); want %d reports (fatal %v)", r.errors, r.fatal, tt.wantErrors, tt.wantFatal)
			}
			if tt.wantFile != "" {
				b, err := os.ReadFile(tt.path)
				if err != nil || string(b) != tt.wantFile {
					t.Errorf("file holds %q (%v); want %q", b, err, tt.wantFile)
				}
			}
		})
	}
}
