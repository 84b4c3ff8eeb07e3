package shellcmd

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestCommentEndsAtNewline: bash and dash end a comment at the newline,
// the backslash before it a character of the comment, so the line after
// it is a command of its own. The grammar took the backslash and newline
// for a line continuation, and "echo ok # \" then "rm x" for one command,
// echo ok rm x.
// Its rows are in testdata/cases/comment_newline_lines.txt.
func TestCommentEndsAtNewline(t *testing.T) {
	for _, r := range caseRows(t, "comment_newline_lines.txt", 2) {
		line := r.Fields[0]
		a := checkReads(t, line, Options{}, r.Fields[1])
		for _, f := range formsOf(a) {
			if strings.HasPrefix(f, "echo") && strings.Contains(f, "rm") {
				t.Errorf("%q: %q read as one command", line, f)
			}
		}
	}
	// A backslash-newline anywhere else is still a continuation, and one
	// inside quotes still text.
	for _, tc := range []struct{ line, want string }{
		{"echo ok \\\nrm x", "echo ok rm x"},
		{"echo '# \\\n'; ls", "ls"},
	} {
		checkReads(t, tc.line, Options{}, tc.want)
	}
}

// TestPatternReplacementQuotes: at a compatibility level of 4.2 or lower
// (BASH_COMPAT=42, shopt -s compat42) bash reads the single quotes of the
// replacement in "${x/pat/rep}" as characters, so the substitution in it
// runs.
func TestPatternReplacementQuotes(t *testing.T) {
	for _, line := range []string{
		`BASH_COMPAT=42; echo "${PWD/?/'$(rm x)'}"`,
		`echo "${PWD//?/'$(rm x)'}"`,
		"cat <<E\n${PWD/#?/'$(rm x)'}\nE",
	} {
		checkReads(t, line, Options{}, "rm x")
	}
	if a := Analyze(`echo "${PWD/?/'b'}"`, Options{}); len(a.Problems) > 0 {
		t.Errorf("a replacement without expansions: problems %q", a.Problems)
	}
}

// TestQuotedCompoundAssignment: declare -a (typeset, readonly, -A) takes a
// quoted value in parentheses for a compound assignment and expands its
// elements, running the substitutions in them.
func TestQuotedCompoundAssignment(t *testing.T) {
	for _, line := range []string{
		`declare -a a='($(rm x))'`,
		`declare -a 'a=($(rm x))'`,
		`typeset -A a='([k]=$(rm x))'`,
		"readonly -a a='(y `rm x`)'",
	} {
		checkReads(t, line, Options{}, "rm x")
	}
}

// TestNullglobAndKeywordReadings: a glob that matches nothing is no word
// under nullglob, and a NAME=value word after the command word is no
// argument under set -k; both move the words after them, and the command
// they leave is decided too.
// Its rows are in testdata/cases/nullglob_keyword_lines.txt.
func TestNullglobAndKeywordReadings(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "a.txt"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	checkReadsCases(t, "nullglob_keyword_lines.txt", Options{Dir: dir})
	// A glob that matches a file stays a word; without set -k a NAME=value
	// word stays an argument.
	for _, tc := range []struct{ line, unwanted string }{
		{"sort -o out a.t?t", "sort -o out"},
		{"make CC=gcc", "make"},
	} {
		if got := formsOf(Analyze(tc.line, Options{Dir: dir})); slices.Contains(got, tc.unwanted) {
			t.Errorf("%q: commands %q, want no %q", tc.line, got, tc.unwanted)
		}
	}
	a := Analyze("set -k; bash -c 'echo hi' BASH_ENV=x.sh", Options{Dir: dir})
	found := false
	for _, as := range a.Assignments {
		found = found || as.Name == "BASH_ENV" && as.Value == "x.sh"
	}
	if !found {
		t.Errorf("set -k: BASH_ENV=x.sh after the command word not read as an assignment: %+v", a.Assignments)
	}
}

// TestEmptyBraceWords: bash drops the empty words brace expansion leaves
// unquoted, moving the words after them; a quoted empty word stays.
// Its rows are in testdata/cases/empty_brace_lines.txt.
func TestEmptyBraceWords(t *testing.T) {
	checkReadsCases(t, "empty_brace_lines.txt", Options{})
}

// TestRedirectBraces: bash brace-expands a redirection's word and opens the
// one name it gives; sh opens the word as written. Both are redirections
// of the line.
func TestRedirectBraces(t *testing.T) {
	a := Analyze("cat < .e{n..n}v; echo x > GOVERNANCE.m{d..d}", Options{})
	var got []string
	for _, r := range a.Redirects {
		got = append(got, r.Target.Text)
	}
	for _, want := range []string{".env", ".e{n..n}v", "GOVERNANCE.md", "GOVERNANCE.m{d..d}"} {
		if !slices.Contains(got, want) {
			t.Errorf("redirections %q, want %q among them", got, want)
		}
	}
}

// TestUnparsedLinePieces: a line the grammar here does not parse, which
// bash runs, has the commands of each piece that parses decided. An
// associative array's key with a blank ([a b]=1) is such a line.
// Its lines are in testdata/cases/unparsed_pieces_lines.txt.
func TestUnparsedLinePieces(t *testing.T) {
	for _, r := range caseRows(t, "unparsed_pieces_lines.txt", 1) {
		line := r.Fields[0]
		if a := checkReads(t, line, Options{}, "rm x"); len(a.Problems) == 0 {
			t.Errorf("%q: no problem recorded for a line that does not parse", line)
		}
	}
}

// TestHistoryStoredLine: history -s stores a line fc -s runs; it is
// decided as the line's commands.
func TestHistoryStoredLine(t *testing.T) {
	for _, line := range []string{"history -s 'rm x'", "history -s rm x", "history -ps -- 'rm x'"} {
		checkReads(t, line, Options{}, "rm x")
	}
}
