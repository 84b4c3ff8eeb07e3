package governance

import (
	"bufio"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// commandCase is one line of testdata/commands/commands.txt.
type commandCase struct {
	line    int
	want    string // deny, ask, allow, ask+
	proof   string // both, bash, sh, -
	command string
}

// loadCommandCases reads the command corpus (see its README.md).
func loadCommandCases(t testing.TB) []commandCase {
	t.Helper()
	f, err := os.Open("testdata/commands/commands.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []commandCase
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		text := sc.Text()
		if text == "" || strings.HasPrefix(text, "#") {
			continue
		}
		parts := strings.SplitN(text, "\t", 3)
		if len(parts) != 3 {
			t.Fatalf("commands.txt:%d: want DECISION<TAB>PROOF<TAB>COMMAND", n)
		}
		out = append(out, commandCase{line: n, want: parts[0], proof: parts[1], command: unescapeCase(parts[2])})
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// unescapeCase decodes \n, \t and \\ in a corpus command.
func unescapeCase(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+1 < len(s) {
			switch s[i+1] {
			case 'n':
				b.WriteByte('\n')
				i++
				continue
			case 't':
				b.WriteByte('\t')
				i++
				continue
			case '\\':
				b.WriteByte('\\')
				i++
				continue
			}
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// corpusEngine loads the corpus policy with a workspace root whose
// directory holds no files named like commands.
func corpusEngine(t testing.TB) (*Engine, string) {
	t.Helper()
	p, err := LoadPolicy("testdata/commands/GOVERNANCE.md")
	if err != nil {
		t.Fatal(err)
	}
	root := t.TempDir()
	return NewEngine(p, EngineOptions{Roots: []string{root}}), root
}

// corpusFuzz seeds f with the corpus commands and returns the corpus
// engine and its root for the lines f makes of them.
func corpusFuzz(f *testing.F) (*Engine, string) {
	f.Helper()
	for _, c := range loadCommandCases(f) {
		f.Add(c.command)
	}
	return corpusEngine(f)
}

// TestCommandCorpus decides every corpus command as a Bash tool call and
// as a terminal request.
func TestCommandCorpus(t *testing.T) {
	e, root := corpusEngine(t)
	cases := loadCommandCases(t)
	if len(cases) < 150 {
		t.Fatalf("the corpus has %d cases; want at least 150", len(cases))
	}
	for _, c := range cases {
		for _, req := range []Request{
			{Action: ActionToolCall, Tool: "Bash", Kind: "execute", Command: c.command, Cwd: root},
			{Action: ActionTerminalCreate, Command: c.command, Cwd: root},
		} {
			d := e.Decide(req)
			ok := false
			switch c.want {
			case "ask+":
				ok = d.Value != Allow
			case "ask":
				ok = d.Value == RequireApproval
			default:
				ok = string(d.Value) == c.want
			}
			if !ok {
				t.Errorf("commands.txt:%d: %s %q = %s; want %s\n  %s", c.line, req.Action, c.command, d.Value, c.want, d)
				for _, s := range d.Subjects {
					t.Logf("    %s: %s [%s] %v", s.What, s.Value, s.Rule, s.Details)
				}
			}
		}
	}
}

// TestCommandCorpusRuns proves the corpus: each case marked for a shell
// really runs a fake rm or curl under that shell, so a case expected to be
// denied is a command that would run.
func TestCommandCorpusRuns(t *testing.T) {
	bin := t.TempDir()
	marker := filepath.Join(t.TempDir(), "ran")
	fake := "#!/bin/sh\necho \"$(basename \"$0\") $*\" >> \"$ACPB_MARKER\"\n"
	for _, name := range []string{"rm", "curl"} {
		if err := os.WriteFile(filepath.Join(bin, name), []byte(fake), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	proven := 0
	for _, c := range loadCommandCases(t) {
		var shells []string
		switch c.proof {
		case "both":
			shells = []string{"bash", "sh"}
		case "bash", "sh":
			shells = []string{c.proof}
		default:
			continue
		}
		if c.want != "deny" && c.want != "ask+" {
			t.Errorf("commands.txt:%d: only deny and ask+ cases are proven", c.line)
		}
		for _, sh := range shells {
			os.Remove(marker)
			dir := t.TempDir()
			if err := os.WriteFile(filepath.Join(dir, "x"), nil, 0o644); err != nil {
				t.Fatal(err)
			}
			cmd := exec.Command(sh, "-c", c.command)
			cmd.Dir = dir
			cmd.Env = []string{"PATH=" + bin + ":/usr/local/bin:/usr/bin:/bin", "ACPB_MARKER=" + marker, "HOME=" + dir}
			cmd.WaitDelay = 5 * time.Second
			done := make(chan struct{})
			timer := time.AfterFunc(10*time.Second, func() {
				if cmd.Process != nil {
					cmd.Process.Kill()
				}
				close(done)
			})
			out, _ := cmd.CombinedOutput()
			if !timer.Stop() {
				<-done
			}
			got, err := os.ReadFile(marker)
			if err != nil || len(got) == 0 {
				t.Errorf("commands.txt:%d: %s -c %q ran neither rm nor curl; output: %s", c.line, sh, c.command, out)
				continue
			}
			proven++
		}
	}
	t.Logf("%d runs proved a denied command runs", proven)
}
