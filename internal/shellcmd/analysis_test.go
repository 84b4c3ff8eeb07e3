package shellcmd

import (
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/acp-bridge/acp-bridge/internal/cputime"
)

// checkProblems analyzes each line of testdata/cases/file
// (LINE<TAB>HAS A PROBLEM) and checks that it has a problem whose text
// holds about ("" for any problem) exactly when the row says so.
func checkProblems(t *testing.T, about, file string) {
	t.Helper()
	for _, r := range caseRows(t, file, 2) {
		line, want := r.Fields[0], caseBool(t, r, 1)
		a := Analyze(line, Options{})
		got := slices.ContainsFunc(a.Problems, func(p string) bool { return strings.Contains(p, about) })
		if got != want {
			t.Errorf("Analyze(%q): a problem about %q %v, want %v (problems %q)", line, about, got, want, a.Problems)
		}
	}
}

// formsOf renders every command's forms, one command per element, forms
// joined by " => ", non-static words marked.
func formsOf(a *Analysis) []string {
	var out []string
	for _, c := range a.Commands {
		var fs []string
		for _, f := range c.Forms {
			var ws []string
			for _, w := range f {
				switch w.Kind {
				case Glob:
					ws = append(ws, "<glob "+w.Text+">")
				case Dynamic:
					ws = append(ws, "<"+w.Why+">")
				default:
					ws = append(ws, w.Text)
				}
			}
			fs = append(fs, strings.Join(ws, " "))
		}
		out = append(out, strings.Join(fs, " => "))
	}
	return out
}

// checkReads analyzes line with opts and fails unless want is among the
// commands it reads (formsOf); it returns the analysis for further checks.
func checkReads(t *testing.T, line string, opts Options, want string) *Analysis {
	t.Helper()
	a := Analyze(line, opts)
	if got := formsOf(a); !slices.Contains(got, want) {
		t.Errorf("%q: commands %q, want %q among them (problems %q)", line, got, want, a.Problems)
	}
	return a
}

// checkRunsRm analyzes line, checks that rm x is among its commands
// exactly when runsRm says, and returns the analysis.
func checkRunsRm(t *testing.T, line string, runsRm bool) *Analysis {
	t.Helper()
	a := Analyze(line, Options{})
	if got := slices.Contains(formsOf(a), "rm x"); got != runsRm {
		t.Errorf("Analyze(%q): runs rm x %v, want %v (forms %q)", line, got, runsRm, formsOf(a))
	}
	return a
}

// checkRunsRmNoted is checkRunsRm that also checks that a command of line
// is noted as running code exactly when runsCode says.
func checkRunsRmNoted(t *testing.T, line string, runsRm, runsCode bool) {
	t.Helper()
	a := checkRunsRm(t, line, runsRm)
	if noted := hasNote(a, RunsCode); noted != runsCode {
		t.Errorf("Analyze(%q): noted as running code %v, want %v", line, noted, runsCode)
	}
}

// hasNote reports whether a command of a carries a note of kind k.
func hasNote(a *Analysis, k NoteKind) bool {
	return slices.ContainsFunc(a.Commands, func(c *Command) bool {
		return slices.ContainsFunc(c.Notes, func(n Note) bool { return n.Kind == k })
	})
}

func TestAnalyzeForms(t *testing.T) {
	tests := []struct {
		line string
		want []string // each must be among the commands' forms
	}{
		{`>/dev/null rm -rf x`, []string{"rm -rf x"}},
		{`$'\x72m' -rf x`, []string{"rm -rf x"}},
		{`"r"'m' x`, []string{"rm x"}},
		{`r\m x`, []string{"rm x"}},
		{`{rm,-rf,x}`, []string{"rm -rf x"}},
		{`/usr/bin/r[m] x`, []string{"<glob /usr/bin/r[m]> x"}},
		{`$"rm" x`, []string{`<$"..." string translated at run time> x`}},
		{`A+=1 rm x`, []string{"rm x"}},
		{`A[0]=1 rm x`, []string{"rm x"}},
		{`function f { rm -rf x; }; f`, []string{"rm -rf x", "f"}},
		{`echo $'\''; rm -rf x # '`, []string{"echo '", "rm -rf x"}},
		{"cat <<EOF\nit's\nEOF\nrm x", []string{"cat", "rm x"}},
		{`bash -o errexit -c 'rm -rf x'`, []string{"rm -rf x"}},
		{`bash -c -- 'rm x'`, []string{"rm x"}},
		{`timeout --signal KILL 5 rm x`, []string{"timeout --signal KILL 5 rm x => rm x"}},
		{`env --unset X rm x`, []string{"env --unset X rm x => rm x"}},
		{`xargs --max-args 1 rm`, []string{"xargs --max-args 1 rm => rm <arguments xargs reads from its input>"}},
		{`nice --adjustment 5 rm x`, []string{"nice --adjustment 5 rm x => rm x"}},
		{`sudo -u root env A=1 nice -n 3 rm -rf /`, []string{"sudo -u root env A=1 nice -n 3 rm -rf / => env A=1 nice -n 3 rm -rf / => nice -n 3 rm -rf / => rm -rf /"}},
		{`find . -exec rm {} \; -exec curl x +`, []string{"find . -exec rm {} ; -exec curl x + => rm <file names find substitutes>", "curl x"}},
		{`X='a[$(rm -rf y)]'; echo $((X))`, []string{"rm -rf y"}},
		{"bash <<'EOF'\nrm -rf x\nEOF", []string{"rm -rf x"}},
		{`coproc rm x`, []string{"rm x"}},
		{`echo $(curl x) | ls`, []string{"curl x", "ls"}},
		{`watch -n 1 'rm x'`, []string{"rm x"}},
		{`flock /tmp/l -c 'rm x'`, []string{"rm x"}},
		{`su root -c 'rm x'`, []string{"rm x"}},
		{`env -S 'rm x'`, []string{"env rm x => rm x"}},
		{`parallel rm ::: a b`, []string{"rm a", "rm b"}},
		{`trap 'rm x' EXIT`, []string{"rm x"}},
		{`eval "ls; rm x"`, []string{"rm x"}},
		{`strace -f rm x`, []string{"rm x"}},
	}
	for _, tt := range tests {
		got := formsOf(Analyze(tt.line, Options{}))
		for _, w := range tt.want {
			found := false
			for _, g := range got {
				if g == w {
					found = true
				}
			}
			if !found {
				t.Errorf("Analyze(%q) forms = %q; want %q among them", tt.line, got, w)
			}
		}
	}
}

func TestAnalyzeNotes(t *testing.T) {
	tests := []struct {
		line string
		kind NoteKind // 0: no note on any command
	}{
		{"ls -la", 0},
		{"bash -c 'ls'", 0},
		{"$X -rf /", NotStatic},
		{"cur[l] x", NotStatic},
		{"env --frobnicate rm x", Unparsed},
		{"timeout $T rm x", Unparsed},
		{"env $X rm x", Unparsed},
		{"python3 -c 'print(1)'", RunsCode},
		{"python3 -m pytest -k foo", 0},
		{"python3 -Im pytest -k foo", 0},
		{"python3 -mpytest -x -k foo", 0},
		{"python3 -k foo", RunsCode},
		{"python3 -c x -m pytest", RunsCode},
		{"perl -ne 'print' x", RunsCode},
		{"date | sh", RunsCode},
		{"bash ./x.sh", RunsCode},
		{"source x", RunsCode},
		{"awk '{system(\"id\")}'", RunsCode},
		{"awk '{print $1}' f", 0},
		{"sed -n 's/a/b/p' f", 0},
		{"sed 's/a/b/e' f", RunsCode},
		{"zsh -c ls", Unparsed},
		{"alias ls=rm", RunsCode},
		{"bash -c \"$X\"", NotStatic},
		{"tar -cf x.tar --to-command='sh x' .", RunsCode},
		{"tar -I 'sh x' -cf x.tar .", RunsCode},
		{"tar -czf x.tgz .", 0},
		{"rsync -e 'sh x' a b", RunsCode},
		{"rsync -avz a b", 0},
		{"git -c core.pager='sh x' log", RunsCode},
		{"printf '!id' | ed", RunsCode},
		{"ex -s x < cmds", RunsCode},
		{"vim -es x < cmds", RunsCode},
		{"vim -u NONE x", 0},
		{"dc -e '!id'", RunsCode},
		{"sqlite3 x.db '.shell id'", RunsCode},
		{`psql -c '\! id'`, RunsCode},
		{"mysql -e 'system id'", RunsCode},
		{"m4 defs.m4", RunsCode},
		{"echo id | at now", RunsCode},
		{"at -l", 0},
		{"crontab jobs.txt", RunsCode},
		{"crontab -l", 0},
		{"emacs --batch -l x.el", RunsCode},
		{"docker run alpine id", RunsCode},
		{"docker ps", 0},
		{"ssh -F ./cfg host", RunsCode},
		{"scp -S ./prog a h:b", RunsCode},
		{"scp a h:b", 0},
		{"wget --use-askpass=./prog http://x", RunsCode},
		{"less '+!id' x", RunsCode},
		{"hyperfine 'rm x'", Unparsed},
		{"npm run test --script-shell=./x", Unparsed},
		{"npm test --node-options='--require ./x.js'", Unparsed},
		{"pnpm test --config.script-shell=./x", Unparsed},
		{"npm test -- --script-shell=./x", 0},
		{"npm run test -- --watch", 0},
		{"gh alias set x '!id'", RunsCode},
		{"gh extension install o/r", RunsCode},
		{"gh config set pager 'sh x'", RunsCode},
		{"gh alias list", 0},
		{"gh pr view 12", 0},
		{"gh pr view $N", 0},
		{"gh $SUB set x '!id'", NotStatic},
		{"op run -- rm x", Unparsed},
		{"doppler run -- rm x", Unparsed},
		{"less -R x", 0},
		{"git -c alias.x='!sh' x", RunsCode},
		{"git -c user.name=x commit -m y", 0},
		{"ssh -o ProxyCommand='sh x' h", RunsCode},
		{"ssh -o StrictHostKeyChecking=no h", 0},
		{"vim -c '!sh x' f", RunsCode},
		{"vim +'!sh' f", RunsCode},
		{"vim -u x.vim f", RunsCode},
		{"nvim -u x.vim f", RunsCode},
		{"vi -U x.vim f", RunsCode},
		{"man -P 'sh x' ls", RunsCode},
		{"zip -T -TT 'sh x' a.zip a", RunsCode},
		{"make SHELL=/tmp/x", RunsCode},
		{"make -E 'x:;cat .env' x", RunsCode},
		{"make -sE'x:;cat .env' x", RunsCode},
		{"make --ev='x:;cat .env' x", RunsCode},
		{"gmake --eva 'x:;cat .env' x", RunsCode},
		{"make -f - <<< 'x:;cat .env'", RunsCode},
		{"echo 'x:;cat .env' | make -f-", RunsCode},
		{"make -sf /dev/stdin x", RunsCode},
		{"make --file=/proc/self/fd/0 x", RunsCode},
		{"make --mak - x", RunsCode},
		{"make -C src -f Makefile.ci test", 0},
		{"make -f /dev/null x", 0},
		{"make -j4 test", 0},
		{"make -e test", 0},
		{"wget --execu=use_askpass=./prog http://x", RunsCode},
		{"man --htm=./prog ls", RunsCode},
		{"sed 'r .env' a.txt", OpensFiles},
		{"sed 1R.env a.txt", OpensFiles},
		{"sed -n '/x/{w ../out.txt' a.txt", OpensFiles},
		{"sed -e 's/a/b/w ../out.txt' a.txt", OpensFiles},
		{"sed -n 's/a/b/gw /dev/stdout' a.txt", 0},
		{"sed -n '1,10p;$W.claude/x' a.txt", OpensFiles},
		{"sed -i 's/a/b/g' a.txt", 0},
		{"sed -n '/^r/p' a.txt", 0},
		{"awk 'BEGIN{while((getline l<\".env\")>0)print l}'", OpensFiles},
		{"awk '{print > \"../out.txt\"}' a.txt", OpensFiles},
		{"awk '{printf \"%s\", $1 >> \"../out.txt\"}' a.txt", OpensFiles},
		{"awk 'BEGIN{ARGV[1]=\".env\";ARGC=2}{print}' a.txt", OpensFiles},
		{"gawk '@include \"x.awk\"' a.txt", OpensFiles},
		{"awk '{print $1 > \"/dev/stderr\"}' a.txt", 0},
		{"awk '$3 > 10 {print $1}' a.txt", 0},
		{"awk -F: '{print $1}' a.txt", 0},
	}
	for _, tt := range tests {
		a := Analyze(tt.line, Options{})
		var kinds []NoteKind
		for _, c := range a.Commands {
			for _, n := range c.Notes {
				kinds = append(kinds, n.Kind)
			}
		}
		found := tt.kind == 0 && len(kinds) == 0
		for _, k := range kinds {
			found = found || k == tt.kind
		}
		if !found {
			t.Errorf("Analyze(%q) notes %v; want kind %d", tt.line, kinds, tt.kind)
		}
	}
}

func TestAnalyzeAssignments(t *testing.T) {
	a := Analyze(`A=1 B+=2 C[0]=3 ls; export D=4; env E=5 'BASH_FUNC_f%%=() { id; }' ls; read F; for G in x; do :; done; declare -x H=$(id)`, Options{})
	var names []string
	for _, as := range a.Assignments {
		names = append(names, as.Name)
	}
	got := strings.Join(names, " ")
	for _, w := range []string{"A", "B", "C", "D", "E", "BASH_FUNC_f%%", "F", "G", "H"} {
		if !strings.Contains(" "+got+" ", " "+w+" ") {
			t.Errorf("assignments %q lack %s", got, w)
		}
	}
}

func TestAnalyzeProblems(t *testing.T) {
	// An extended glob: bash without extglob rejects the line (bash -c
	// "ls *(e:'rm x':)" exits 2), zsh runs the glob qualifier's code. zsh
	// replaces =rm with the path of the program rm.
	// The recovering parser of mvdan.cc/sh v3.14.1 panics on an
	// unfinished arithmetic expansion after an assignment.
	for _, line := range []string{"A=$((0 A", "A=0$[0 A\"0000", "echo 'oops", "if true; then", "rm x\nfi", "ls *(e:'rm x':)", "ls ?(e:'rm x':)", "cat @(a|b)", "echo pwned > =rm", "cp a =ls"} {
		a := Analyze(line, Options{})
		if len(a.Problems) == 0 {
			t.Errorf("Analyze(%q) has no problem", line)
		}
	}
	// What a recovering parse reads is still listed.
	if got := formsOf(Analyze("rm x\n)", Options{})); len(got) == 0 {
		t.Errorf("a line with a syntax error after rm lists no command")
	}
}

// TestClassifyEnv gives names of every risk their class; its rows are in
// testdata/cases/env_classes.txt.
func TestClassifyEnv(t *testing.T) {
	checkClassifyEnv(t, "env_classes.txt")
}

// checkClassifyEnv checks that ClassifyEnv gives each name of
// testdata/cases/file (NAME<TAB>RISK, a name once) its risk, and a reason
// whenever that is not EnvPlain.
func checkClassifyEnv(t *testing.T, file string) {
	t.Helper()
	risks := map[string]EnvRisk{"EnvPlain": EnvPlain, "EnvChangesCommands": EnvChangesCommands, "EnvRunsCode": EnvRunsCode}
	seen := map[string]bool{}
	for _, r := range caseRows(t, file, 2) {
		name, want := r.Fields[0], r.Fields[1]
		risk, ok := risks[want]
		if !ok || seen[name] {
			t.Fatalf("%s:%d: %s %s: a risk that is not one, or a name listed twice", file, r.Line, name, want)
		}
		seen[name] = true
		if got, why := ClassifyEnv(name); got != risk {
			t.Errorf("ClassifyEnv(%q) = %d (%s); want %d (%s)", name, got, why, risk, want)
		} else if risk != EnvPlain && why == "" {
			t.Errorf("ClassifyEnv(%q): no reason given", name)
		}
	}
}

// FuzzAnalyze checks that no line makes Analyze panic or list an empty
// form.
func FuzzAnalyze(f *testing.F) {
	for _, s := range []string{"ls && rm -rf /", "bash -c 'sh -c \"eval x\"'", "{a,b}{c,d}", "$'\\x72m'", "cat <<EOF\n$(id)\nEOF",
		"env -S 'a b' c", "find . -exec a {} ; -ok b +", "A[0]=1 x", "x='a[$(id)]'", "parallel a ::: b :::: c", "{1..100000}",
		"git -c alias.x='!a b' -C d x c", "git rebase -ix 'a' -s b", "git submodule foreach -- a b", "git -C a -C /b clone -c core.pager=c -u d",
		"tar -xCf d a --to-com=b", "go vet -vettool", "zip -TT=a", "npm run t --script-shell", "gh alias set", "t* *",
		"setopt extendedglob; cat .e[n]#v~x ^a/b##", "echo $mapfile[.e] mapfile[a[b]]=c", "ls a(e:'rm':+f)(", "echo x >! ", "cat k<->", "zargs -- a -- b", "zpty -w", "x=A.B; $x:l:r:gs/a/:h:t ${x:u:e}", "${w~~} ${w~}"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		for _, a := range []*Analysis{Analyze(line, Options{Dir: t.TempDir()}), AnalyzeArgv(strings.Fields(line), Options{})} {
			for _, c := range a.Commands {
				if len(c.Forms) == 0 {
					t.Fatalf("%q: a command without forms", line)
				}
				for _, form := range c.Forms {
					if len(form) == 0 {
						t.Fatalf("%q: an empty form", line)
					}
				}
			}
		}
	})
}

func ExampleAnalyze() {
	a := Analyze(`sudo -u root timeout --signal KILL 5 r'm' -rf "$DIR"; echo $(curl -s x)`, Options{})
	for _, c := range a.Commands {
		for i, f := range c.Forms {
			var ws []string
			for _, w := range f {
				ws = append(ws, w.String())
			}
			fmt.Println(strings.Repeat("  ", i) + strings.Join(ws, " | "))
		}
	}
	// Output:
	// sudo | -u | root | timeout | --signal | KILL | 5 | rm | -rf | "$DIR" (parameter expansion $DIR)
	//   timeout | --signal | KILL | 5 | rm | -rf | "$DIR" (parameter expansion $DIR)
	//     rm | -rf | "$DIR" (parameter expansion $DIR)
	// echo | $(curl -s x) (command substitution)
	// curl | -s | x
}

// TestAnalyzeBounded: a line built to make the analysis work
// exponentially (shell strings nested in both dialects, wrappers whose
// every word is a candidate) finishes quickly and says it stopped.
func TestAnalyzeBounded(t *testing.T) {
	line := "ls"
	for range 5 {
		line = "sh -c " + quoteSingle(line) + " " + quoteSingle(line)
	}
	wide := "bash --unknown" + strings.Repeat(" 'sh -c \"sh -c \\\"sh -c x\\\"\"'", 400)
	deep := strings.Repeat("eval ", 20) + "ls"
	// Substitutions and expansions nested 20,000 deep parse in a tenth of a
	// second; walking them took minutes and gigabytes.
	nested := "echo " + strings.Repeat("$(", 20000) + "rm x" + strings.Repeat(")", 20000)
	subscripts := "echo " + strings.Repeat("${a[", 20000) + "1" + strings.Repeat("]}", 20000)
	for _, l := range []string{line, wide, deep, nested, subscripts} {
		var a *Analysis
		if d := cputime.Of(func() { a = Analyze(l, Options{}) }); d > 2*time.Second {
			t.Errorf("Analyze took %v of CPU on a %d-byte line", d, len(l))
		}
		if l != line && len(a.Problems) == 0 {
			t.Errorf("Analyze(%.40q...) reports no problem", l)
		}
	}
}

// quoteSingle quotes s for sh.
func quoteSingle(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

func TestAnalyzeRedirects(t *testing.T) {
	a := Analyze(`ls > out 2>&1 >&2 <in; echo x >> ~/.bashrc; cat <&3 &>"$F"; exec 3<>/dev/tcp/h/80; cat > >(wc)`, Options{})
	// The bash and sh readings each list the redirections they read:
	// the distinct ones are compared.
	var got []string
	for _, r := range a.Redirects {
		if s := fmt.Sprintf("%v%v:%s", r.Read, r.Write, r.Target); !slices.Contains(got, s) {
			got = append(got, s)
		}
	}
	// <> opens its file for reading as well: "cat <> .env" reads .env.
	want := `[falsetrue:out truefalse:in falsetrue:~/.bashrc (tilde expansion) falsetrue:"$F" (parameter expansion $F) truetrue:/dev/tcp/h/80]`
	if fmt.Sprint(got) != want {
		t.Errorf("redirects = %v; want %s", got, want)
	}
	if Analyze("ls", Options{}).ChangesDir || !Analyze("cd /etc && ls", Options{}).ChangesDir {
		t.Error("ChangesDir is wrong")
	}
}

// TestAnalyzeDescriptors: each redirection says the descriptor it opens its
// file on, and each copy of a descriptor onto another is listed, so a
// write through /dev/fd/N can be traced to the file the line gave N.
func TestAnalyzeDescriptors(t *testing.T) {
	a := Analyze(`cat <in 3<k 4>o {fd}<x 5<>rw 2>&1 6<&3 7>&3- >&$fd 0<&- 8>&- {v}<&3`, Options{})
	var got []string
	for _, r := range a.Redirects {
		got = append(got, fmt.Sprintf("%d:%s", r.FD, r.Target))
	}
	if want := `[0:in 3:k 4:o -1:x 5:rw 1:$fd (parameter expansion $fd)]`; fmt.Sprint(got) != want {
		t.Errorf("redirects = %v; want %s", got, want)
	}
	want := []Duplication{{2, 1}, {6, 3}, {7, 3}, {1, -1}, {-1, 3}}
	if !reflect.DeepEqual(a.Duplications, want) {
		t.Errorf("duplications = %v; want %v", a.Duplications, want)
	}
}

// TestQuotedAssignmentIsCommand: bash reads a word before the command word
// as an assignment only where its name and '=' are written unquoted; 'A='
// x runs a program named "A=" with the argument x, which the analysis once
// took for the assignment A= and the command x.
func TestQuotedAssignmentIsCommand(t *testing.T) {
	for _, tt := range []struct{ line, program, assigned string }{
		{`'A=' 00`, "A=", ""},
		{`"A"=x ls`, "A=x", ""},
		{`A\=x ls`, "A=x", ""},
		{`A'='x ls`, "A=x", ""},
		{`cd /tmp; 'X=' ls`, "X=", ""},
		{`A="x y" ls`, "ls", "A"},
		{`a["k"]=v ls`, "ls", "a"},
		{`B+=2 ls`, "ls", "B"},
		{`C[0]=3 ls`, "ls", "C"},
	} {
		a := Analyze(tt.line, Options{})
		c := a.Commands[len(a.Commands)-1]
		if got := c.Forms[0][0].Text; got != tt.program {
			t.Errorf("Analyze(%q) runs %q, want %q", tt.line, got, tt.program)
		}
		assigned := map[string]bool{}
		for _, as := range a.Assignments {
			assigned[as.Name] = true
		}
		want := 0
		if tt.assigned != "" {
			want = 1
		}
		if len(assigned) != want || tt.assigned != "" && !assigned[tt.assigned] {
			t.Errorf("Analyze(%q) assigns %v, want %q only", tt.line, assigned, tt.assigned)
		}
	}
}
