package shellcmd

import "testing"

// TestCargoConfigNoted checks that cargo given configuration or an
// unstable option on its line is noted as code no rule vouches for, and
// that its everyday lines and the program's own words after "--" are not.
func TestCargoConfigNoted(t *testing.T) {
	for line, want := range map[string]bool{
		`cargo build --config 'build.rustc-wrapper="./evil"'`:              true,
		"cargo build --config=target.x86_64-unknown-linux-gnu.linker=./cc": true,
		"cargo --config ./evil.toml test":                                  true,
		"cargo +nightly build -Zbuild-std":                                 true,
		"cargo build -Z unstable-options":                                  true,
		`cargo build $OPTS`:                                                false,
		`cargo build "$OPT"`:                                               false,
		`cargo build "-$OPT"`:                                              true,
		"/usr/bin/cargo build --config x=1":                                true,
		"cargo build --release --target x86_64":                            false,
		"cargo run -- --config x":                                          false,
		"cargo test -- -Z":                                                 false,
		"make --config x":                                                  false,
	} {
		a := Analyze(line, Options{})
		got := false
		for _, n := range a.Commands[0].Notes {
			if n.Kind == Unparsed || n.Kind == NotStatic && len(n.Text) > 5 && n.Text[:5] == "cargo" {
				got = true
			}
		}
		if got != want {
			t.Errorf("%s: noted %v (%v); want %v", line, got, a.Commands[0].Notes, want)
		}
	}
}
