package shellcmd

import (
	"bufio"
	"os"
	"strings"
	"testing"
)

// TestNpmCommandAsNpmDerefs holds npmCommand to what npm's own deref
// makes of every prefix of its commands and aliases
// (testdata/npm_deref.txt, written by npm 11.19.1's lib/utils/cmd-list.js):
// "npm publ" publishes and "npm i" installs, so a rule naming npm publish
// or npm install must know them.
func TestNpmCommandAsNpmDerefs(t *testing.T) {
	f, err := os.Open("testdata/npm_deref.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	n := 0
	for line := 1; sc.Scan(); line++ {
		if strings.HasPrefix(sc.Text(), "#") {
			continue
		}
		word, want, ok := strings.Cut(sc.Text(), "\t")
		if !ok {
			t.Fatalf("npm_deref.txt:%d: want WORD<TAB>COMMAND", line)
		}
		if got := npmCommand(word); got != want {
			t.Errorf("npm_deref.txt:%d: npmCommand(%q) = %q; npm runs %q", line, word, got, want)
		}
		n++
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if n < 400 {
		t.Fatalf("read %d words; the table holds every prefix of npm's names", n)
	}
}
