package governance

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestScriptFilesJudged decides sed and awk lines whose script is in a
// file: under rules allowing sed, awk and cat, "sed -f s.sed" whose s.sed
// the agent wrote as "e cat .env" was allowed, and cat .env ran; the
// file's text is judged as the same text on the line, so the command it
// gives is refused by the rule refusing it. A script file the bridge
// cannot read (missing, a link out of the workspace, too large, the line
// runs other commands or changes directory, reading it needs approval)
// needs approval; a file whose reading a rule denies is refused as that
// read, and its text shows nowhere in the decision. Scripts that only
// process text stay allowed.
func TestScriptFilesJudged(t *testing.T) {
	outside := t.TempDir()
	writeFile(t, filepath.Join(outside, "ok.awk"), "{ print $1 }\n")
	root := t.TempDir()
	tree{
		dirs: []string{"sub"},
		texts: map[string]string{
			"a.txt":          "a b\n",
			".env":           "SECRET=1\n",
			"cat-env.sed":    "e cat .env\n",
			"cat-env.awk":    "BEGIN { system(\"cat .env\") }\n",
			"rm.awk":         "BEGIN { system(\"rm x\") }\n",
			"rm-escaped.awk": "BEGIN { system(\"\\162m x\") }\n",
			"redirect.sed":   "e echo x > ../out.txt\n",
			"reads.sed":      "1,5p\nr .env\n",
			"computed.awk":   "{ system($0) }\n",
			"include.awk":    "@include \"lib\"\n",
			"ok.awk":         "{ print $1 }\n",
			"ok.sed":         "s/a/b/\n",
			"big.awk":        "# " + strings.Repeat("x", 1<<20) + "\n",
			"secret/cmd.awk": "BEGIN { system(\"echo TOPSECRET\") }\n",
			"sub/ok.awk":     "{ print $1 }\n",
		},
		links: map[string]string{"in.awk": "ok.awk", "out.awk": filepath.Join(outside, "ok.awk")},
	}.make(t, root)
	e := NewEngine(testPolicy(t, "  default: ask\n  deny: [Read(**/.env), Read(secret/**), Bash(rm:*)]\n  allow: [Read, Bash(sed:*), Bash(awk:*), Bash(cat:*), Bash(echo:*)]\n"),
		EngineOptions{Roots: []string{root}})
	for _, c := range []struct {
		line string
		want Value
		why  string // in the reason, when set
	}{
		{"sed -f cat-env.sed a.txt", Deny, "Read(**/.env)"},
		{"sed -nf cat-env.sed a.txt", Deny, ""},
		{"sed -fcat-env.sed a.txt", Deny, ""},
		{"sed --file=cat-env.sed a.txt", Deny, ""},
		{"sed --file cat-env.sed a.txt", Deny, ""},
		{"sed -e p -f ok.sed -f cat-env.sed a.txt", Deny, ""},
		{"sed -n p a.txt -f cat-env.sed", Deny, ""},
		{"awk -f cat-env.awk", Deny, ""},
		{"awk --file=cat-env.awk", Deny, ""},
		{"awk -E cat-env.awk", Deny, ""},
		{"awk --exec cat-env.awk", Deny, ""},
		{"awk -f ok.awk -f cat-env.awk a.txt", Deny, ""},
		{"awk -f - < cat-env.awk", Deny, ""},
		{"awk -f /dev/stdin < cat-env.awk", Deny, ""},
		{"timeout 5 awk -f cat-env.awk", Deny, ""},
		{"awk -f rm.awk", Deny, "Bash(rm:*)"},
		{"awk -f rm-escaped.awk", Deny, "Bash(rm:*)"},
		{"sed -f redirect.sed a.txt", Deny, "outside the workspace"},
		{"sed -f reads.sed a.txt", RequireApproval, "opens files it names"},
		{"awk -f computed.awk a.txt", RequireApproval, "known only when the line runs"},
		{"awk -f include.awk", RequireApproval, "opens files it names"},
		{"awk -f missing.awk", RequireApproval, "the bridge cannot read the awk file missing.awk that awk runs: it does not exist"},
		{"awk -f big.awk", RequireApproval, "it is larger than"},
		{"awk -f out.awk a.txt", RequireApproval, "cannot read the awk file out.awk"},
		{"awk -f ok.awk a.txt | cat", RequireApproval, "the line runs other commands"},
		{"echo hi; awk -f ok.awk a.txt", RequireApproval, "the line runs other commands"},
		{"env -C sub awk -f ok.awk", RequireApproval, "the line changes directory"},
		{"AWKPATH=sub awk -f ok.awk a.txt", RequireApproval, "the line sets AWKPATH"},
		{"env AWKPATH=sub awk -f ok.awk a.txt", RequireApproval, "the line sets AWKPATH"},
		{"AWKPATH=sub awk -f ./ok.awk a.txt", Allow, ""},
		{"awk -f .env", Deny, "Read(**/.env)"},
		{"awk -f secret/cmd.awk", Deny, "Read(secret/**)"},
		{"awk -f ok.awk a.txt", Allow, ""},
		{"awk -F: -f ok.awk a.txt", Allow, ""},
		{"awk -f in.awk a.txt", Allow, ""},
		{"sed -f ok.sed a.txt", Allow, ""},
		{"sed -n -f ok.sed -i a.txt", Allow, ""},
		{"sed -n 1,5p a.txt", Allow, ""},
		{"sed -i s/a/b/ a.txt", Allow, ""},
		{"sed -i.bak s/a/b/ a.txt", Allow, ""},
		{"awk '{print $1}' a.txt", Allow, ""},
	} {
		d := e.Decide(Request{Action: ActionTerminalCreate, Command: c.line, Cwd: root, Paths: []string{root}})
		if d.Value != c.want || !strings.Contains(d.Reason, c.why) {
			t.Errorf("%q: %v (%s); want %v, the reason saying %q", c.line, d.Value, d.Reason, c.want, c.why)
		}
		for _, s := range d.Subjects {
			if strings.Contains(s.Reason+s.What+strings.Join(s.Details, " "), "TOPSECRET") {
				t.Errorf("%q: a subject shows the text of a file the agent may not read: %+v", c.line, s)
			}
		}
	}
	// As a client that execs argv runs it.
	d := e.Decide(Request{Action: ActionTerminalCreate, Command: "awk", Argv: []string{"awk", "-f", "cat-env.awk"}, Cwd: root, Paths: []string{root}})
	if d.Value != Deny {
		t.Errorf("argv awk -f cat-env.awk: %v (%s); want deny", d.Value, d.Reason)
	}
	// gawk looks for a program file named without a '/' in AWKPATH's
	// directories, which the terminal's environment may set.
	d = e.Decide(Request{Action: ActionTerminalCreate, Command: "awk -f ok.awk a.txt", Env: []EnvVar{{Name: "AWKPATH", Value: "sub"}}, Cwd: root, Paths: []string{root}})
	if d.Value != RequireApproval || !strings.Contains(d.Reason, "AWKPATH") {
		t.Errorf("awk -f ok.awk with AWKPATH=sub in the environment: %v (%s); want require-approval", d.Value, d.Reason)
	}
}
