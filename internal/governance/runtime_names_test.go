package governance

import (
	"os"
	"path/filepath"
	"testing"
)

// TestRuntimeNamesNeedApproval checks that a file a command opens by a
// name the shell computes only when the line runs is asked about, whatever
// rule allows the command: under Bash(cat:*) and Read(**/.env) denied,
// "cat $(echo .env)" reads .env although no word of it names the file, and
// "cat ~-/x" reads wherever the OLDPWD of the request's env points. A name
// the line states (a variable's value among them: "f=.env" names .env), one
// the values the line gives its variables make ("f=.e; cat ${f}nv"), and
// the arguments of echo, are decided as before.
func TestRuntimeNamesNeedApproval(t *testing.T) {
	root := tempTree(t, []string{"sub"}, []string{".env", "a.txt", "sub/b.txt"})
	p := testPolicy(t, "  default: ask\n  deny:\n    - Read(**/.env)\n  allow:\n    - Read\n    - Bash(cat:*)\n    - Bash(cd:*)\n    - Bash(echo:*)\n    - Bash(find:*)\n")
	e := NewEngine(p, EngineOptions{Roots: []string{root}})
	tests := []namedLineCase{
		{"a command substitution", "cat $(cat f)", RequireApproval},
		{"a command substitution the line shows", "cat $(echo .env)", Deny},
		{"backquotes inside a word", "cat `cat f`v", RequireApproval},
		{"backquotes the line shows inside a word", "cat `echo .en`v", Deny},
		{"a variable the line sets", "f=.a; cat ${f}.txt", RequireApproval},
		{"a variable the line sets, making the denied name", "f=.e; cat ${f}nv", Deny},
		{"variables the line sets, joined", "f=.e g=nv; cat $f$g", Deny},
		{"a variable the line sets, making the denied name, after a read of it", "f=.e; read f; cat \"${f}nv\"", Deny},
		{"a variable the line sets, making the denied name through a directory", "d=sub; cat $d/../.env", Deny},
		{"an array the line sets", "a=(.env); cat \"${a[@]}\"", Deny},
		{"a computed directory before the denied name", "cat \"$D/.env\"", Deny},
		{"the working directory before the denied name", "cat $(pwd)/.env", Deny},
		{"a trimmed PWD before the denied name", "cd sub && cat ${PWD%/*}/.env", Deny},
		{"a redirection from a computed directory before the denied name", "cat < \"$D\"/.env", Deny},
		{"a computed directory before another name", "cat \"$D/a.txt\"", RequireApproval},
		{"a computed directory before a pattern", "cat $D/.e*", RequireApproval},
		{"a default value", "cat ${u:-.env}", Deny},
		{"a default value that names no denied file", "cat ${u:-a.txt}", RequireApproval},
		{"an alternate value", "cat \"${u:+.env}\"", Deny},
		{"a prefix removed", "f=X.env; cat ${f#X}", Deny},
		{"a case changed", "f=.ENV; cat ${f,,}", Deny},
		{"an element of an array the line sets, making the denied name", "a=(x .e); cat ${a[1]}nv", Deny},
		{"a variable the line sets to the denied name", "f=.env; cat $f", Deny},
		{"a variable from the environment", "cat $F", RequireApproval},
		{"a tilde prefix other than ~/", "cat ~-/secret.txt", RequireApproval},
		{"the value of an option", "cat --show-ends=x --x=$(cat f)", RequireApproval},
		{"a read redirection from a variable", "f=a; cat < ${f}.txt", RequireApproval},
		{"a read redirection from a variable, making the denied name", "f=.e; cat < ${f}nv", Deny},
		{"a read-write redirection from a variable, making the denied name", "f=.e; cat <> ${f}nv", Deny},
		{"a read redirection from a variable set to the denied name", "f=.env; cat < $f", Deny},
		{"a relative read redirection after a cd to a computed directory", "cd $D && cat < ../a.txt", RequireApproval},
		{"a relative read redirection of the denied name after a cd to a computed directory", "cd $D && cat < ../.env", Deny},
		{"a relative read redirection after cd", "cd sub && cat < ../.env", Deny},
		{"the names find fills in", "find sub -name '.en?' -exec cat {} +", RequireApproval},
		{"a stated name", "cat a.txt", Allow},
		{"a stated denied name", "cat .env", Deny},
		{"echo of a variable", "echo $HOME", Allow},
		{"a relative read redirection", "cat < a.txt", Allow},
	}
	checkNamedLines(t, e, root, tests)
}

// TestOperandsAfterDashDash checks that a word after "--" is decided as
// the file it is, though it starts with "-": a link named "-x" that leads
// to .env, and the last operand of cp as its destination.
func TestOperandsAfterDashDash(t *testing.T) {
	root := tempTree(t, []string{"sub"}, []string{".env", "a.txt"})
	for _, l := range [][2]string{{"-x", ".env"}, {"-z=a", ".env"}} {
		if err := os.Symlink(l[1], filepath.Join(root, l[0])); err != nil {
			t.Fatal(err)
		}
	}
	p := testPolicy(t, "  default: ask\n  deny:\n    - Read(**/.env)\n    - Edit(**/.env)\n  allow:\n    - Read\n    - Bash(cat:*)\n    - Bash(cp:*)\n")
	e := NewEngine(p, EngineOptions{Roots: []string{root}})
	tests := []struct {
		line string
		want Value
	}{
		{"cat -- -x", Deny},
		{"cat -- -z=a", Deny},
		{"cp -- a.txt -x", Deny},
		{"cat -x", Deny}, // a file to cat after an operand under POSIXLY_CORRECT
		{"cat -- a.txt", Allow},
	}
	for _, tt := range tests {
		checkLine(t, e, root, tt.line, tt.want)
	}
}

// TestURLShapedPaths checks that a word holding "://" is decided as the
// path the kernel opens: "x://../.env" is .env when a directory "x:" is
// there, and a plain URL names no file a rule restricts.
func TestURLShapedPaths(t *testing.T) {
	root := tempTree(t, []string{"x:"}, []string{".env", "a.txt"})
	p := testPolicy(t, "  default: ask\n  deny:\n    - Read(**/.env)\n  allow:\n    - Read\n    - Bash(cat:*)\n    - Bash(git clone:*)\n")
	e := NewEngine(p, EngineOptions{Roots: []string{root}})
	for _, tt := range []struct {
		line string
		want Value
	}{
		{"cat x://../.env", Deny},
		{"cat -- x://../.env", Deny},
		{"cat x://../a.txt", Allow},
		{"git clone https://example.com/acme/app.git", Allow},
	} {
		checkLine(t, e, root, tt.line, tt.want)
	}
}

// TestDescriptorPaths checks that only /dev/fd/N passes as a descriptor:
// /dev/fd/.. is /proc/self, and /dev/fd/../../.. the root, so a name
// through it is decided as the file it reaches.
func TestDescriptorPaths(t *testing.T) {
	root := tempTree(t, nil, []string{".env", "a.txt"})
	p := testPolicy(t, "  default: ask\n  deny:\n    - Read(**/.env)\n  allow:\n    - Read\n    - Bash(cat:*)\n")
	e := NewEngine(p, EngineOptions{Roots: []string{root}})
	for _, tt := range []struct {
		line string
		want Value
	}{
		{"cat /dev/fd/../../.." + root + "/.env", Deny},
		{"cat < /dev/fd/../../.." + root + "/.env", Deny},
		{"cat /dev/fd/0", Allow},
		{"cat /dev/fd/3 3< a.txt", Allow},
	} {
		checkLine(t, e, root, tt.line, tt.want)
	}
}
