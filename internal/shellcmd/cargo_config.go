package shellcmd

import "strings"

// cargo takes configuration on its command line: "--config KEY=VALUE"
// (or a file of it), which sets the programs cargo runs as it builds
// (build.rustc-wrapper, build.rustc, target.<triple>.linker and .runner,
// the [env] of build scripts), and "-Z" unstable options, which can read
// more ("-Z config-include"). "cargo build --config
// 'build.rustc-wrapper=\"./evil\"'" runs ./evil. A rule allowing cargo
// build vouches for cargo, not for a program the line slips in, so no
// rule vouches for such a line.

// cargoConfigNote returns a note when form gives cargo configuration or an
// unstable option on the line, before "--" (after it the words are the
// program's or the test binary's).
func cargoConfigNote(form []Word) (Note, bool) {
	if form[0].Name() != "cargo" {
		return Note{}, false
	}
	for _, w := range form[1:] {
		if w.Kind == Static && w.Text == "--" {
			break
		}
		if w.Kind != Static {
			if strings.HasPrefix(w.Text, "-") || strings.HasPrefix(w.Text, `"-`) || strings.HasPrefix(w.Text, "'-") {
				return Note{Kind: NotStatic, Text: "cargo option computed at run time may set configuration naming a program it runs: " + w.String()}, true
			}
			continue
		}
		if w.Text == "--config" || strings.HasPrefix(w.Text, "--config=") || strings.HasPrefix(w.Text, "-Z") {
			return Note{Kind: Unparsed, Text: "cargo " + w.Text + " sets configuration, which names programs cargo runs (build.rustc-wrapper, a linker, a runner); no rule vouches for them"}, true
		}
	}
	return Note{}, false
}
