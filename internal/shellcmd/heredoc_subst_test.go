package shellcmd

import (
	"slices"
	"strings"
	"testing"
)

// TestShellReadingsOfHereDocsAndDash: a here-document opened inside a
// substitution that ends on the operator's line is empty to bash and dash,
// which run the lines after it, and one whose delimiter line they find
// after joining a backslash-newline, or past an expansion the body leaves
// open, ends earlier for them than for the parser, and so does one inside
// $(...) or <(...) that bash ends at a line starting with the delimiter and
// holding a ")" after it ("EOF)"): such a line has a
// problem (it needs approval); one closed on a later line (how agents
// write commit messages), a quoted one, <<- and two on one line have none. A line the POSIX grammar rejects has the commands before its
// error read as dash runs them.
//
// A backquote substitution bash and dash end at the first backquote a
// backslash does not escape (\\ escaping a backslash), where the parser
// reads on through a quote or ${ it opened, has the problem too, and so
// do backquotes inside backquotes; plain ones have none.
func TestShellReadingsOfHereDocsAndDash(t *testing.T) {
	for _, tc := range []struct {
		line    string
		problem bool
		want    string // a command the line must be read to run, if any
	}{
		{"echo `cat <<EOF`\nrm x\nEOF\n", true, ""},
		{"echo `cat <<'EOF'`\ncat .env\nEOF\n", true, ""},
		{"x=`cat <<EOF`\nrm x\nEOF\n", true, ""},
		{"echo $(cat <<EOF)\nrm x\nEOF\n", true, ""},
		{"echo \"$(cat <<EOF)\"\nrm x\nEOF\n", true, ""},
		{"for i in `cat <<EOF`; do :; done\nrm x\nEOF\n", true, ""},
		{"git commit -m \"$(cat <<'EOF'\nfix: a thing\nEOF\n)\"", false, "git commit -m <command substitution>"},
		{"cat <<EOF > notes.md\nhello\nEOF", false, "cat"},
		{"cat <<EOF\n\\\nEOF\nrm x\nEOF\n", true, ""},
		{"echo ok <<EOF\nEO\\\nF\nrm x\nEOF\n", true, ""},
		{"cat <<EOF\n${x-\nEOF\nrm x\necho }\nEOF\n", true, ""},
		{"cat <<EOF\n$(cat <<X\nEOF\nrm x\nX\n)\nEOF\n", true, ""},
		{"cat <<'EOF'\nhello\\\nEOF\n", false, "cat"},
		{"cat <<-EOF\n\thello\n\tEOF\n", false, "cat"},
		{"cat <<EOF; cat <<X\na\nEOF\nb\nX\n", false, "cat"},
		{"cat > f.txt <<EOF\nline $HOME \\\\\nEOF", false, "cat"},
		{"echo $(cat <<'EOF'\nhi\nEOF)\nrm x\necho $(cat <<EOF\nEOF\n)", true, ""},
		{"cat <(cat <<EOF\nhi\nEOFx)\nrm x\nEOF\n)", true, ""},
		{"echo $( (cat <<EOF\nhi\nEOF # )\nrm x\nEOF\n))", true, ""},
		{"echo $(cat <<-EOF\nhi\n\tEOF \\\n)\nrm x\n(\nEOF\n)", true, ""},
		{"git commit -m \"$(cat <<'EOF'\nfix: a thing (see #1)\n EOF)\nEOF\n)\"", false, "git commit -m <command substitution>"},
		{"(cat <<EOF\nhi\nEOF)\nEOF\n)", false, "cat"},
		{"echo `cat <<EOF\nhi \\\\` ; rm x ; \\\\`\nEOF\n`", true, ""},
		{"echo `echo '\\\\` ; rm x ; echo \\\\`'`", true, ""},
		{"echo `echo ${x:-\\\\` ; rm x ; \\\\`}`", true, ""},
		{"echo `echo \\`date\\``", true, ""},
		{"x=`git rev-parse HEAD`; echo $x", false, "git rev-parse HEAD"},
		{"echo `printf \"%s\\\\n\" a`", false, "echo <command substitution>"},
		{"echo $'\\'; rm x; echo ${x:0:1} \\''\\'", false, "rm x"},
		{"echo $'\\'; cat .env; echo ${x:0:1}", false, "cat .env"},
	} {
		a := Analyze(tc.line, Options{})
		has := slices.ContainsFunc(a.Problems, func(p string) bool {
			return strings.Contains(p, "here-document") || strings.Contains(p, "ends elsewhere")
		})
		if has != tc.problem {
			t.Errorf("%q: problem %v, want %v (problems %q)", tc.line, has, tc.problem, a.Problems)
		}
		if tc.want != "" {
			checkReads(t, tc.line, Options{}, tc.want)
		}
	}
}
