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
// Its rows are in testdata/cases/value_code.txt.
func TestValueCode(t *testing.T) {
	for _, r := range caseRows(t, "value_code.txt", 3) {
		value, want, wantOK := r.Fields[0], r.Fields[1], caseBool(t, r, 2)
		text, ok := ValueCode(value)
		if ok != wantOK || ok && text != want {
			t.Errorf("ValueCode(%q) = %q, %v; want %q, %v", value, text, ok, want, wantOK)
		}
	}
}

// TestMakeOperandAssignments: make puts each NAME=VALUE operand into the
// environment of what it runs, so the analysis records it as an
// assignment of the line (where make runs); a value holding a make
// reference is not static, and one starting with make's directory
// ($(CURDIR), ${PWD}) reads it as $PWD. The shell itself does not hold it:
// a later $NAME is not its value.
func TestMakeOperandAssignments(t *testing.T) {
	for _, c := range []struct {
		line string
		want []Assignment
	}{
		{"make PATH=.:/usr/bin", []Assignment{{Name: "PATH", Value: ".:/usr/bin", Static: true}}},
		{"gmake 'X != rm x' ' Y = 3' 'Z+=a'", []Assignment{{Name: "X", Value: "rm x", Static: true}, {Name: "Y", Value: "3", Static: true}, {Name: "Z", Value: "a", Static: true, Append: true}}},
		{"make 'PATH=$(CURDIR)/tools:$(PATH)'", []Assignment{{Name: "PATH", Value: "$PWD/tools:$(PATH)"}}},
		{"make 'SHELL=${PWD}/sh' all", []Assignment{{Name: "SHELL", Value: "$PWD/sh"}}},
		{"make -j4 all 'A B=1'", nil},
	} {
		var got []Assignment
		for _, a := range Analyze(c.line, Options{}).Assignments {
			a.Dir = Dir{}
			got = append(got, a)
		}
		same := func(a, b Assignment) bool {
			return a.Name == b.Name && a.Value == b.Value && a.Static == b.Static && a.Append == b.Append
		}
		if !slices.EqualFunc(got, c.want, same) {
			t.Errorf("%s: assignments %+v; want %+v", c.line, got, c.want)
		}
	}
	if got := Analyze("make F=README.md; cat $F.env", Options{}).Commands[1].Forms[0][1]; got.Kind == Static {
		t.Errorf("make F=README.md; cat $F.env: cat's word read as %q; a make operand does not set the shell's F", got.Text)
	}
}
