package shellcmd

import "testing"

// TestInterpreterName reads a versioned interpreter's name as its
// interpreter's, and leaves every other name as it is.
func TestInterpreterName(t *testing.T) {
	for name, want := range map[string]string{
		"python3": "python", "python3.11": "python", "pypy3": "python", "perl5.36.0": "perl", "perl": "perl",
		"ruby3.1": "ruby", "php8.2": "php", "lua5.4": "lua", "luajit-2.1": "luajit", "tclsh8.6": "tclsh",
		"node22": "node", "nodejs18": "nodejs", "ghci-9.4.7": "ghci",
		"node-gyp": "node-gyp", "php-cs-fixer": "php-cs-fixer", "make": "make", "gcc-12": "gcc-12", "x264": "x264",
	} {
		if got := InterpreterName(name); got != want {
			t.Errorf("InterpreterName(%q) = %q; want %q", name, got, want)
		}
	}
}
