package governance

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestScriptCommandsDecided: a rule allowing a shell or source vouches for
// the script's other commands, not for one the policy refuses. Before,
// "bash s.sh" with s.sh holding "rm -rf x" was allowed by Bash(bash:*)
// under deny Bash(rm:*), and so were sh, source, ., ./s.sh and every
// wrapper around them; now the script's text is decided as a line, into
// the scripts it runs: a deny there denies, an ask rule or a command the
// bridge cannot read asks, and the rest is the interpreter's rule's.
func TestScriptCommandsDecided(t *testing.T) {
	root := t.TempDir()
	deep := map[string]string{}
	for i := 0; i < 10; i++ {
		deep[filepath.Join("deep", "d"+string(rune('0'+i))+".sh")] = "bash deep/d" + string(rune('1'+i)) + ".sh\n"
	}
	deep["deep/d:.sh"] = "echo bottom\n"
	files := map[string]string{
		"s.sh":        "echo start\nrm -rf x\n",
		"nested.sh":   "echo hi; bash lib/t.sh\n",
		"lib/t.sh":    "rm x\n",
		"fn.sh":       "clean() { rm -rf x; }\nclean\n",
		"alias.sh":    "shopt -s expand_aliases\nalias r='rm x'\nr\n",
		"eval.sh":     "x='rm -rf x'; eval \"$x\"\n",
		"heredoc.sh":  "bash <<EOF\nrm x\nEOF\n",
		"find.sh":     "find . -name x -exec rm {} \\;\n",
		"builtin.sh":  "command rm x\n",
		"computed.sh": "c=$(cat f)m; $c x\n",
		"held.sh":     "c=r; c=${c}m; $c x\n",
		"pipe.sh":     "echo cm0gLXJmIHgK | base64 -d | sh\n",
		"dynamic.sh":  "bash \"$1\"\n",
		"writes.sh":   "printf 'rm x' > t2.sh; bash t2.sh\n",
		"push.sh":     "git push origin main\n",
		"broken.sh":   "echo a\nif then fi (((\n",
		"nul.sh":      "echo a\x00rm x\n",
		"ok.sh":       "set -e\ngo test ./...\nnpm ci\n[ ! -f x ] && echo none\nfor i in 1 2; do echo $i; done\npython3 -c 'print(1)'\n",
		"self.sh":     "echo once\n[ -n \"$DONE\" ] || DONE=1 source self.sh\n",
		"big.sh":      "echo a\n" + strings.Repeat("# padding\n", maxScriptBytes/10+1),
		"p.py":        "#!/usr/bin/env python3\nimport os\nos.system('rm x')\n",
		"path.sh":     "PATH=tools:$PATH\nhelper\n",
		"cdd.sh":      "cd \"$1\"; bash t.sh\n",
	}
	for n, c := range deep {
		files[n] = c
	}
	execs := map[string]string{
		"run.sh":       "#!/bin/sh\nrm x\n",
		"plain.sh":     "rm x\n",
		"envsh.sh":     "#!/usr/bin/env -S bash -e\nrm x\n",
		"tool.py":      "#!/usr/bin/env python3\n# rm x\nprint(1)\n",
		"tools/helper": "#!/bin/sh\nrm x\n",
		"sb.sh":        "#!/usr/bin/env -S sh -c 'rm x'\necho hi\n",
		"sb2.sh":       "#!/usr/bin/env -S rm -f x\n",
		"dash.sh":      "#!/bin/sh -\necho hi\n",
		"big":          "\x7fELF" + strings.Repeat("\x00", maxScriptBytes+1),
	}
	for n, c := range files {
		os.MkdirAll(filepath.Join(root, filepath.Dir(n)), 0o755)
		writeFiles(t, root, map[string]string{n: c}, 0o644)
	}
	os.MkdirAll(filepath.Join(root, "tools"), 0o755)
	writeFiles(t, root, execs, 0o755)
	e := rootPolicyEngine(t, root, "  allow: [Bash(bash:*), Bash(sh:*), Bash(source:*), Bash(timeout:*), Bash(env:*), Bash(nohup:*), Bash(xargs:*), Bash(./tool.py), Bash(./big), Bash(./dash.sh), Bash(echo:*)]\n  ask: [Bash(git push:*)]\n  deny: [Bash(rm:*)]\n")
	rows := []struct {
		line   string
		want   Value
		reason string
	}{
		{"bash s.sh", Deny, `running "bash s.sh": s.sh runs "rm -rf x", denied by Bash(rm:*)`},
		{"sh -e s.sh a b", Deny, `s.sh runs "rm -rf x"`},
		{"bash -x s.sh", Deny, `s.sh runs "rm -rf x"`},
		{"source s.sh", Deny, `s.sh runs "rm -rf x"`},
		{". ./s.sh", Deny, `./s.sh runs "rm -rf x"`},
		{"timeout 5 bash s.sh", Deny, `running "timeout 5 bash s.sh": s.sh runs`},
		{"env A=1 nohup bash s.sh", Deny, ""},
		{"xargs bash s.sh < /dev/null", Deny, ""},
		{"bash < s.sh", Deny, ""},
		{"bash 3< s.sh /dev/fd/3", Deny, ""},
		{"cd lib && bash t.sh", Deny, `t.sh runs "rm x"`},
		{"bash -c 'bash s.sh'", Deny, ""},
		{"command bash $PWD/s.sh", Deny, ""},
		{"bash path.sh", Deny, `path.sh runs ` + filepath.Join(root, "tools/helper") + `, which runs "rm x", denied by Bash(rm:*)`},
		{"echo go; bash s.sh", Deny, ""},
		{"./run.sh", Deny, `./run.sh runs "rm x", denied by Bash(rm:*)`},
		{"./plain.sh", Deny, ""},
		{"./envsh.sh", Deny, ""},
		{"bash nested.sh", Deny, `nested.sh runs lib/t.sh, which runs "rm x", denied by Bash(rm:*)`},
		{"bash fn.sh", Deny, ""},
		{"bash alias.sh", Deny, ""},
		{"bash eval.sh", Deny, ""},
		{"bash heredoc.sh", Deny, ""},
		{"bash find.sh", Deny, ""},
		{"bash builtin.sh", Deny, ""},
		{"bash held.sh", Deny, ""},
		{"bash computed.sh", RequireApproval, `computed.sh runs "$c x": a word computed at run time could make it match Bash(rm:*) (deny)`},
		{"bash pipe.sh", RequireApproval, "pipe.sh runs \"sh\": sh runs the commands it reads from its input"},
		{"bash dynamic.sh s.sh", RequireApproval, ""},
		{"bash cdd.sh lib", RequireApproval, `cdd.sh runs "bash t.sh": it runs a script named relative to a directory known only when the line runs`},
		{"bash writes.sh", RequireApproval, `writes.sh runs t2.sh, which may be written by "a redirect to t2.sh" before it runs`},
		{"bash push.sh", RequireApproval, `push.sh runs "git push origin main", approval required by Bash(git push:*)`},
		{"bash broken.sh", RequireApproval, "broken.sh: the command line does not parse"},
		{"bash nul.sh", RequireApproval, "nul.sh holds a NUL byte"},
		{"bash deep/d0.sh", RequireApproval, "nested more than 8 deep"},
		{"bash big.sh", RequireApproval, "big.sh cannot be read: it is larger than 256 KiB"},
		{"echo cm0gLXJmIHgK | base64 -d | bash", RequireApproval, ""},
		{"echo -e 'rm x' | bash", RequireApproval, `running "bash": bash runs the commands it reads from its input, so the bridge cannot tell`},
		{"echo 'rm x' | bash", Deny, ""},
		{"bash -- \"$f\"", RequireApproval, ""},
		{"bash -c 'echo hi'", Allow, ""},
		{"bash ok.sh", Allow, ""},
		{"bash self.sh", Allow, ""},
		{"bash missing.sh", Allow, ""},
		{"./tool.py", Allow, ""},
		{"./big", Allow, ""}, // a program, however large, that is no script
		{"./dash.sh", Allow, ""},
		{"./sb.sh", Deny, `./sb.sh's #! line runs "rm x", denied by Bash(rm:*)`},
		{"./sb2.sh", Deny, `rm -f x ./sb2.sh", denied by Bash(rm:*)`},
		{"bash p.py", RequireApproval, "p.py: the command line does not parse"}, // bash runs it as shell
		{"printf 'rm x' > s2.sh; bash s2.sh", Deny, "the line may write the file s2.sh"},
	}
	for _, r := range rows {
		d := e.Decide(Request{Action: ActionTerminalCreate, Command: r.line, Cwd: root, Paths: []string{root}})
		if d.Value != r.want || !strings.Contains(d.Reason, r.reason) {
			t.Errorf("%q: %v (ref %s: %s); want %v with %q", r.line, d.Value, d.Ref, d.Reason, r.want, r.reason)
		}
	}
}

// TestScriptCommandsByPrefixRule: a deny rule naming a command with its
// options holds inside a script as on the line, and a script of commands
// no restrictive rule names stays the interpreter's rule's; with no
// restrictive rule at all, scripts are not read for their commands.
func TestScriptCommandsByPrefixRule(t *testing.T) {
	root := t.TempDir()
	writeFiles(t, root, map[string]string{
		"cleanup.sh": "rm -rf build\n",
		"tidy.sh":    "rm a.txt\n",
		"comp.sh":    "$RM x\n",
	}, 0o644)
	e := rootPolicyEngine(t, root, "  allow: [Bash(bash:*), Bash(rm:*)]\n  deny: [Bash(rm -rf:*)]\n")
	checkCommandRows(t, e, root, []commandRow{
		{"bash cleanup.sh", Deny},
		{"bash tidy.sh", Allow},
		{"bash comp.sh", RequireApproval},
	})
	open := rootPolicyEngine(t, root, "  allow: [Bash(bash:*)]\n")
	checkCommandRows(t, open, root, []commandRow{
		{"bash cleanup.sh", Allow},
		{"bash comp.sh", Allow},
	})
}

// TestScriptFilesByPathRules: the files a script's commands name and its
// redirections open are decided by the path rules as the line's own are,
// under the interpreter's rule: before, "bash s.sh" whose s.sh runs
// "cat .env" was allowed by Bash(bash:*) under deny Read(**/.env).
func TestScriptFilesByPathRules(t *testing.T) {
	root := t.TempDir()
	os.MkdirAll(filepath.Join(root, "drafts"), 0o755)
	writeFiles(t, root, map[string]string{
		".env":      "SECRET=1\n",
		"env.sh":    "cat .env\n",
		"grep.sh":   "grep -r SECRET .\n",
		"redir.sh":  "cat < .env\n",
		"drafts.sh": "echo x > drafts/a.txt\n",
		"plain.sh":  "cat \"$1\" > /dev/null 2>&1\necho done > out.txt\n",
	}, 0o644)
	e := rootPolicyEngine(t, root, "  allow: [Bash(bash:*), Bash(cat:*), Edit(./**)]\n  ask: [Edit(./drafts/**)]\n  deny: [Read(**/.env)]\n")
	for _, r := range []struct {
		line   string
		want   Value
		reason string
	}{
		{"bash env.sh", Deny, `env.sh runs "cat .env", denied by Read(**/.env)`},
		{"bash grep.sh", Deny, "denied by Read(**/.env)"},
		{"bash redir.sh", Deny, `redir.sh runs "< .env", denied by Read(**/.env)`},
		{"bash drafts.sh", RequireApproval, `drafts.sh runs "> drafts/a.txt", approval required by Edit(./drafts/**)`},
		{"bash plain.sh", Allow, ""},
	} {
		d := e.Decide(Request{Action: ActionTerminalCreate, Command: r.line, Cwd: root, Paths: []string{root}})
		if d.Value != r.want || !strings.Contains(d.Reason, r.reason) {
			t.Errorf("%q: %v (ref %s: %s); want %v with %q", r.line, d.Value, d.Ref, d.Reason, r.want, r.reason)
		}
	}
}
