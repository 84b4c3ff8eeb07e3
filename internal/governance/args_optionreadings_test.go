package governance

import (
	"testing"

	"github.com/acp-bridge/acp-bridge/internal/shellcmd"
)

// TestOptionReadings checks which names of one word (the word whole at
// 0, the rest of the word from byte j) optionReadings says the command
// never creates.
func TestOptionReadings(t *testing.T) {
	for _, tt := range []struct {
		line string
		word int
		want map[int]bool // byte -> not created
	}{
		{"go test -v ./...", 2, map[int]bool{0: true}},
		{"go test -run X", 3, map[int]bool{0: true}},
		{"go test -count=1", 2, map[int]bool{0: true, 2: true, 6: true, 7: true}},
		{"go test -coverprofile=c.out", 2, map[int]bool{0: true, 2: false, 14: false}},
		{"go test -o x", 3, map[int]bool{0: false}},
		{"go test -o.env", 2, map[int]bool{0: true, 2: false}},
		{"go run . -count 3", 4, map[int]bool{0: false}},
		{"go test -args -count 3", 4, map[int]bool{0: false}},
		{"cargo build -vj4", 2, map[int]bool{0: true, 2: true, 3: true}},
		{"cargo build -vo4", 2, map[int]bool{0: true, 2: true, 3: false}},
		{"cargo build -j 4", 3, map[int]bool{0: true}},
		{"cargo build --manifest-path m", 3, map[int]bool{0: false}},
		{"cargo build --release --target x", 4, map[int]bool{0: true}},
		{"make -j 4", 2, map[int]bool{0: false}},
		{"make -s -k", 2, map[int]bool{0: false}},
		{"make -s", 1, map[int]bool{0: true, 2: false}},
		{"touch -- -v", 2, map[int]bool{0: false}},
		{"bash -ec 'go test' x", 2, map[int]bool{0: true}},
		{"bash -ec 'go test' x", 3, map[int]bool{0: false}},
		{"nice go test -run X", 4, map[int]bool{0: true}},
		{"timeout -s KILL 300 go test", 2, map[int]bool{0: true}},
		{"timeout -s KILL 300 go test", 3, map[int]bool{0: true}},
		{"timeout 300 touch x", 3, map[int]bool{0: false}},
		{"nice -n 10 make x", 2, map[int]bool{0: true}},
		{"nice -n 10 make x", 4, map[int]bool{0: false}},
		{"/usr/bin/bash -c 'go test'", 2, map[int]bool{0: true}},
		{"./go test -run X", 3, map[int]bool{0: false}},
		{"./bash -c 'go test'", 2, map[int]bool{0: false}},
	} {
		c := shellcmd.Analyze(tt.line, shellcmd.Options{}).Commands[0]
		form := c.Forms[0]
		r := optionReadings(c)[&form[tt.word]]
		for j, want := range tt.want {
			if got := r.notCreated(j); got != want {
				t.Errorf("%q word %d (%s) from byte %d: not created %v; want %v", tt.line, tt.word, form[tt.word].Text, j, got, want)
			}
		}
	}
}
