package governance

import (
	"testing"

	"github.com/acp-bridge/acp-bridge/internal/shellcmd"
)

// TestCargoSubcommand finds cargo's subcommand past its own options and
// rustup's toolchain, and the directory its -C option moves it to.
func TestCargoSubcommand(t *testing.T) {
	for _, c := range []struct {
		line, sub, dir string
		why            bool
	}{
		{line: "cargo build", sub: "build", dir: "."},
		{line: "cargo --offline -q build", sub: "build", dir: "."},
		{line: "cargo +stable check", sub: "check", dir: "."},
		{line: "cargo --color never build", sub: "build", dir: "."},
		{line: "cargo --color=never -Z unstable-options -C sub test", sub: "test", dir: "./sub"},
		{line: "cargo -Zunstable-options -Csub -C in run", sub: "run", dir: "./sub/in"},
		{line: "cargo --config x=1 fmt", sub: "fmt", dir: "."},
		{line: "cargo --version", sub: "", dir: "."},
		{line: "cargo build+x", sub: "build+x", dir: "."},
		{line: "cargo $flags build", why: true},
		{line: "cargo -C $d build", why: true},
	} {
		a := shellcmd.Analyze(c.line, shellcmd.Options{})
		form := a.Commands[0].Forms[0]
		at, dir, why := cargoSubcommand(form)
		if (why != "") != c.why {
			t.Errorf("%q: why = %q; want one: %v", c.line, why, c.why)
			continue
		}
		if c.why {
			continue
		}
		sub := ""
		if at > 0 {
			sub = form[at].Text
		}
		if sub != c.sub || dir.Text != c.dir {
			t.Errorf("%q = %q in %q; want %q in %q", c.line, sub, dir.Text, c.sub, c.dir)
		}
	}
}
