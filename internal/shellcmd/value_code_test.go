package shellcmd

import (
	"slices"
	"testing"
)

// TestMakeOperandValues: make's NAME=VALUE operands are make variables a
// recipe expands into a command line for sh (and $(shell ...) runs as make
// expands the value), so a value that looks like a command line adds its
// commands to the line's; text adds none.
func TestMakeOperandValues(t *testing.T) {
	for _, c := range []struct {
		line string
		want []string // the commands' first words, in order
	}{
		{"make CC='rm x;' a", []string{"make", "rm"}},
		{"make CFLAGS='$(shell rm x)' a", []string{"make", "$(rm x)", "rm"}},
		{"gmake 'X:=${shell cat .env}'", []string{"gmake", "$(cat .env)", "cat"}},
		{"make 'X!=rm x'", []string{"make", "rm"}},
		{"make CFLAGS='-O2 -g' a", []string{"make"}},
		{"make V=1 MSG='hello world'", []string{"make"}},
		{"make -C sub 'X=select * from t'", []string{"make"}},
	} {
		var got []string
		for _, cmd := range Analyze(c.line, Options{}).Commands {
			got = append(got, cmd.Forms[0][0].Text)
		}
		if !slices.Equal(got, c.want) {
			t.Errorf("%s: commands %q; want %q", c.line, got, c.want)
		}
	}
}

// TestValueCode reads a variable's value as the command line a program
// may run: make's $(shell cmd) as sh's $(cmd); text is not code.
func TestValueCode(t *testing.T) {
	for _, c := range []struct {
		value, text string
		ok          bool
	}{
		{"rm x;", "rm x;", true},
		{"$(shell rm x)", "$(rm x)", true},
		{"${shell  cat .env}", "$(cat .env)", true},
		{"-O2; rm x", "-O2; rm x", true},
		{"-O2 -g", "", false},
		{"hello world", "", false},
		{"select * from t", "", false},
		{"clang", "", false},
	} {
		text, ok := ValueCode(c.value)
		if ok != c.ok || ok && text != c.text {
			t.Errorf("ValueCode(%q) = %q, %v; want %q, %v", c.value, text, ok, c.text, c.ok)
		}
	}
}
