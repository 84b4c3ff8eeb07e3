package governance

import (
	"strings"

	"github.com/acp-bridge/acp-bridge/internal/shellcmd"
)

// cargo reads options of its own before its subcommand, and rustup's cargo
// a toolchain first: "cargo --offline build", "cargo -q build" and "cargo
// +stable build" build as "cargo build" does, and "cargo -C DIR build"
// builds the package of DIR. cargoSubcommand finds the subcommand past
// them, so that what a build reads is read whatever comes before it.

// cargoValueOpts are cargo's options before its subcommand that take the
// next word (or the rest of their own, -Zx, --color=never).
var cargoValueOpts = []string{"--color", "--config", "-Z", "-C", "--explain"}

// cargoSubcommand returns the index in form, a cargo command, of its
// subcommand (0 when there is none), and the directory cargo runs in as
// its -C option gives it ("." without one); why says a word before the
// subcommand is computed when the line runs, so the subcommand is not
// known.
func cargoSubcommand(form []shellcmd.Word) (at int, dir shellcmd.Word, why string) {
	dir = shellcmd.Word{Kind: shellcmd.Static, Text: "."}
	for i := 1; i < len(form); i++ {
		w, t := form[i], form[i].Text
		switch {
		case w.Kind != shellcmd.Static:
			return 0, dir, "cargo is given a word computed when the line runs before its subcommand"
		case i == 1 && strings.HasPrefix(t, "+"):
			continue // rustup's toolchain
		case !strings.HasPrefix(t, "-") || t == "-":
			return i, dir, ""
		}
		for _, o := range cargoValueOpts {
			var v shellcmd.Word
			switch {
			case t == o && i+1 < len(form):
				i++
				v = form[i]
			case len(t) > len(o) && strings.HasPrefix(t, o) && (len(o) == 2 || t[len(o)] == '='):
				v = shellcmd.Word{Kind: w.Kind, Text: strings.TrimPrefix(t[len(o):], "=")}
			default:
				continue
			}
			if o == "-C" {
				if v.Kind != shellcmd.Static {
					return 0, dir, "cargo runs in a directory computed when the line runs (-C)"
				}
				dir = shellcmd.Word{Kind: shellcmd.Static, Text: joinRaw(dir.Text, v.Text)}
			}
			break
		}
	}
	return 0, dir, ""
}
