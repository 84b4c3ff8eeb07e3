package shellcmd

import "testing"

// TestGoFlagsPlain: a GOFLAGS value is plain when every word is a go flag
// that runs no program and names no file; a flag that does, a word that
// is no flag, and a value make or a shell would expand are not.
func TestGoFlagsPlain(t *testing.T) {
	for _, c := range []struct {
		value string
		plain bool
	}{
		{"-mod=mod", true},
		{"--mod=vendor -count=1", true},
		{"-tags=integration,e2e -race -trimpath", true},
		{"-buildvcs=false", true},
		{"", false},
		{"-toolexec=./t", false},
		{"-exec=./t", false},
		{"-ldflags=-extld=./t", false},
		{"-gcflags=all=-N", false},
		{"-modfile=GOVERNANCE.md", false},
		{"-overlay=o.json", false},
		{"-mod=mod ./t", false},
		{"-tags=$(shell ./t)", false},
		{"-tags=`./t`", false},
		{"-mod=mod;./t", false},
	} {
		if got := GoFlagsPlain(c.value); got != c.plain {
			t.Errorf("GoFlagsPlain(%q) = %v; want %v", c.value, got, c.plain)
		}
	}
}
