package shellcmd

import (
	"testing"
	"time"
)

// FuzzUnknownProgramWords checks that reading the words a program no
// table knows is given (as sh code when they look like it) never panics,
// gives every command a form, and ends within a bound however the words
// nest.
func FuzzUnknownProgramWords(f *testing.F) {
	for _, s := range []string{"cat .env", "rm -rf / ; ls", "a | b > c", "$(cat x)", "select * from t", "--cmd=cat .env",
		"foo 'bar baz'", "`id`", "x; y; z; w; v; u; t; s; r", "pee 'pee \"cat .env\"'"} {
		f.Add(s, "echo a b")
	}
	f.Fuzz(func(t *testing.T, a, b string) {
		start := time.Now()
		an := AnalyzeArgv([]string{"chronic-unknown", a, b, "--run=" + a}, Options{})
		for _, c := range an.Commands {
			if len(c.Forms) == 0 {
				t.Fatalf("%q %q: a command without forms", a, b)
			}
		}
		if d := time.Since(start); d > 5*time.Second {
			t.Fatalf("%q %q: read in %v", a, b, d)
		}
	})
}
