package governance

import "testing"

// TestStatedLastElement: the file name a word states after its last "/",
// whatever computes the directory before it.
func TestStatedLastElement(t *testing.T) {
	for in, want := range map[string]string{
		`$(pwd)/.env`:      ".env",
		`"$D/.env"`:        ".env",
		`"$D"/.env`:        ".env",
		`$D"/.e"'nv'`:      ".env",
		`${PWD%/*}/a/.env`: ".env",
		`$D/.e*`:           "",
		`$D/`:              "",
		`$D/..`:            "",
		`${D}.env`:         "",
		`$D/$F`:            "",
		`.env`:             "",
		`$D/x;y`:           "",
	} {
		got, ok := statedLastElement(in)
		if ok != (want != "") || got != want {
			t.Errorf("statedLastElement(%q) = %q, %v; want %q", in, got, ok, want)
		}
	}
}
