package hostile

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
	"time"
)

// TestRunOverran: a command still running at runTimeout, or whose output a
// child it left in the background holds open past it, is marked overran,
// which fails the run (the IDE's errors, or the agent's stderr): it is not
// judged as if it had done all it would. The commands that overrun sleep
// ten times the shortened bound, so load cannot make them finish in time;
// the one that does not runs under the real bound.
func TestRunOverran(t *testing.T) {
	defer func(d time.Duration) { runTimeout = d }(runTimeout)
	for _, c := range []struct {
		name, line string
		bound      time.Duration
		want       bool
	}{
		{"done", "true", runTimeout, false},
		{"still running", "sleep 3", 300 * time.Millisecond, true},
		{"output held open", "sleep 3 &", 300 * time.Millisecond, true},
	} {
		runTimeout = c.bound
		for _, variant := range []string{"js", "go"} {
			p := terminalParams{Command: "bash", Args: []string{"-c", c.line}}
			if variant == "js" {
				p = terminalParams{Command: c.line}
			}
			if r := runTerminal(variant, p); r.overran != c.want {
				t.Errorf("%s under %s: overran %v (exit %d %s), want %v", c.name, variant, r.overran, r.exitCode, r.err, c.want)
			}
		}
	}
}

// TestHarnessDetects runs attacks with no bridge at all (the IDE talks to
// the agent directly) and requires the harness to see each one's real
// effect: the suite can fail. The controls must still pass, so an effect
// means the attack worked, not that the IDE is broken.
func TestHarnessDetects(t *testing.T) {
	needBridge(t)
	cases := testCases(t)
	byName := map[string]hostileCase{}
	for _, c := range cases {
		byName[c.name] = c
	}
	tests := []struct {
		name    string
		variant string
		effect  bool
		approve bool // the IDE allows permission requests, as under @approve
	}{
		{"control/read-allowed", "js", false, false},
		{"control/echo-runs", "go", false, false},
		{"wire/plain-denied-read", "js", true, false},               // the canary reaches the agent
		{"wire/id-null", "js", true, false},                         // the JS reader treats it as a request
		{"wire/case-variant-method", "go", true, false},             // the Go reader folds the key
		{"paths/write-outside-absolute", "go", true, false},         // a file outside changes
		{"paths/symlink-to-proc-self-cwd", "js", true, false},       // /proc/self is the IDE
		{"selfprotect/write-policy", "js", true, false},             // the policy changes
		{"cmd/terminal/plain-rm", "sh", true, false},                // the fake rm's marker
		{"cmd/bash-c/brace-expansion", "go", true, false},           // argv exec of bash -c
		{"cmd/permission/plain-rm", "js", false, false},             // no policy: the IDE is asked and rejects
		{"terminal/bash-env", "js", true, false},                    // BASH_ENV sourced by bash -c
		{"terminal/args-inject-command", "js", true, false},         // Zed's unquoted join
		{"sessions/update-for-unopened-session", "js", true, false}, // a session the IDE never opened
		{"toolcalls/update-swaps-rawinput", "js", true, false},      // nobody told the person
		{"serde/update-location-without-path", "zed", true, false},  // Zed's types drop the update
		{"userwords/forged-words-in-turn", "js", true, false},       // shown as the person's own message
		{"userwords/echo-of-the-prompt", "go", false, false},        // the person's own block again
		// Allowed, the agent carries out its own permission request: the
		// command in the title (Gemini), an argv array (Codex), a file_path
		// write (Claude's Edit).
		{"permission/title-only-rm", "js", true, true},
		{"permission/command-argv-array", "go", true, true},
		{"permission/write-policy-edit-kind", "js", true, true},
	}
	for _, tt := range tests {
		t.Run(tt.name+"/"+tt.variant, func(t *testing.T) {
			t.Parallel()
			c, ok := byName[tt.name]
			if !ok {
				t.Fatalf("no case %s in testdata", tt.name)
			}
			c.approve = c.approve || tt.approve
			v := runCase(t, c, tt.variant, false)
			for _, f := range v.failures {
				t.Errorf("harness: %s", f)
			}
			if tt.effect && len(v.bypasses) == 0 {
				t.Errorf("the attack reached the IDE directly and the harness saw no effect\n%s", v.context())
			}
			if !tt.effect && len(v.bypasses) > 0 {
				t.Errorf("no effect expected, got %q\n%s", v.bypasses, v.context())
			}
		})
	}
}

// TestHarnessWantFails shows @want-agent and @asked can fail: an allowed
// read whose text is not what the case wants, and no question at all.
func TestHarnessWantFails(t *testing.T) {
	needBridge(t)
	c, err := parseCase("inline", "control/wrong-want", []byte("@control\n"+
		`{"jsonrpc":"2.0","id":"r1","method":"fs/read_text_file","params":{"sessionId":"{{SID}}","path":"{{WS}}/a.txt"}}`+"\n"+
		"@want-agent text that is in no file\n@asked a tool call nobody asked about\n"))
	if err != nil {
		t.Fatal(err)
	}
	v := runCase(t, c, "js", true)
	if len(v.failures) != 2 || !strings.Contains(v.failures[0], "never received") || !strings.Contains(v.failures[1], "never asked") {
		t.Errorf("want a failure for the missing text and one for the question never asked, got %q\n%s", v.failures, v.context())
	}
}

// TestHarnessApprovalFails shows @want-file, @not-file, @kept-file and
// @approval can fail: the person's answer is the opposite of what each
// case's checks expect, so the agent's write happens where it must not and
// is missing where it must be, and the log records the other answer. An allowed write
// the agent cannot make fails the run too.
func TestHarnessApprovalFails(t *testing.T) {
	needBridge(t)
	request := `{"jsonrpc":"2.0","id":"p1","method":"session/request_permission","params":{"sessionId":"{{SID}}","toolCall":{"toolCallId":"tc-p1","title":"Write drafts/plan.md","kind":"edit","rawInput":{"file_path":"{{WS}}/drafts/plan.md","content":"the agent's plan"}},"options":[{"optionId":"allow-once","name":"Allow","kind":"allow_once"},{"optionId":"reject-once","name":"Reject","kind":"reject_once"}]}}`
	for _, tt := range []struct {
		name, directives string
		bypass           bool
		failures         []string
	}{
		{"rejected", "@setup dir drafts\n@want-file drafts/plan.md the agent's plan\n@approval allow drafts/plan.md\n", false,
			[]string{"does not hold", "no approval.recorded record"}},
		{"approved", "@setup dir drafts\n@approve\n@not-file drafts/plan.md the agent's plan\n@approval reject drafts/plan.md\n", true,
			[]string{"no approval.recorded record"}},
		// The approved write replaces a file the case says is kept.
		{"kept-changed", "@setup file drafts/plan.md the person's plan\n@approve\n@kept-file drafts/plan.md the person's plan\n@approval allow drafts/plan.md\n", true,
			nil},
		// No drafts directory: the agent's write, allowed, cannot be made.
		{"write-failed", "@approve\n", false, []string{"a write the agent was allowed failed"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			c, err := parseCase("inline", "approval/"+tt.name, []byte("@control\n"+tt.directives+request+"\n"))
			if err != nil {
				t.Fatal(err)
			}
			v := runCase(t, c, "js", true)
			if got := len(v.bypasses) > 0; got != tt.bypass {
				t.Errorf("bypasses %q, want one: %v", v.bypasses, tt.bypass)
			}
			if len(v.failures) != len(tt.failures) {
				t.Fatalf("failures %q, want %d\n%s", v.failures, len(tt.failures), v.context())
			}
			for i, want := range tt.failures {
				if !strings.Contains(v.failures[i], want) {
					t.Errorf("failure %d is %q, want one about %q", i, v.failures[i], want)
				}
			}
		})
	}
}

// TestReaders pins how each modelled client reads the lines the attacks
// rely on.
func TestReaders(t *testing.T) {
	read := `{"jsonrpc":"2.0","id":"1","method":"fs/read_text_file","params":{"sessionId":"s","path":"/a"}}`
	tests := []struct {
		name     string
		line     string
		jsKind   string
		goKind   string
		jsPath   string
		goPath   string
		jsMethod string
	}{
		{"plain", read, "request", "request", "/a", "/a", "fs/read_text_file"},
		{"cr before", "\r" + read, "request", "request", "/a", "/a", "fs/read_text_file"},
		{"bom before", "\uFEFF" + read, "request", "", "/a", "", "fs/read_text_file"},
		{"vertical tab before", "\v" + read, "request", "", "/a", "", "fs/read_text_file"},
		{"nbsp before", "\u00A0" + read, "request", "", "/a", "", "fs/read_text_file"},
		{"id null", `{"jsonrpc":"2.0","id":null,"method":"fs/read_text_file","params":{"path":"/a"}}`, "request", "notification", "/a", "/a", "fs/read_text_file"},
		{"Method", `{"jsonrpc":"2.0","id":"1","Method":"fs/read_text_file","params":{"path":"/a"}}`, "response", "request", "", "/a", ""},
		{"duplicate method", `{"jsonrpc":"2.0","id":"1","method":"x","method":"fs/read_text_file","params":{"path":"/a"}}`, "request", "request", "/a", "/a", "fs/read_text_file"},
		{"path then PATH", `{"jsonrpc":"2.0","id":"1","method":"m","params":{"path":"/a","PATH":"/b"}}`, "request", "request", "/a", "/b", "m"},
		{"long s key", `{"jsonrpc":"2.0","id":"1","method":"m","params":{"pa\u017fh":"/b","path":"/a"}}`, "request", "request", "/a", "/a", "m"},
		{"no jsonrpc", `{"id":"1","method":"m","params":{"path":"/a"}}`, "", "request", "", "/a", ""},
		{"batch", "[" + read + "]", "", "", "", "", ""},
		{"invalid utf-8", `{"jsonrpc":"2.0","id":"1","method":"m","params":{"path":"/a` + "\xff" + `"}}`, "request", "request", "/a\uFFFD", "/a\uFFFD", "m"},
		{"unpaired surrogate", `{"jsonrpc":"2.0","id":"1","method":"m","params":{"path":"/a\ud800"}}`, "request", "request", "/a\uFFFD", "/a\uFFFD", "m"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for _, r := range []struct {
				rd         reader
				kind, path string
			}{{jsReader{}, tt.jsKind, tt.jsPath}, {goReader{}, tt.goKind, tt.goPath}} {
				m := r.rd.read([]byte(tt.line))
				if m.kind != r.kind {
					t.Errorf("%T: kind %q, want %q", r.rd, m.kind, r.kind)
				}
				if m.kind == "" || m.kind == "response" {
					continue
				}
				var p readParams
				if err := r.rd.params(m.params, &p); err != nil {
					t.Fatalf("%T: params: %v", r.rd, err)
				}
				if p.Path != r.path {
					t.Errorf("%T: path %q, want %q", r.rd, p.Path, r.path)
				}
			}
			if m := (jsReader{}).read([]byte(tt.line)); m.method != tt.jsMethod {
				t.Errorf("js method %q, want %q", m.method, tt.jsMethod)
			}
		})
	}
}

// TestCasesLoad checks every case file parses, so a broken case fails even
// while the suite is off.
func TestCasesLoad(t *testing.T) {
	cases := testCases(t)
	if len(cases) < 100 {
		t.Errorf("only %d cases loaded", len(cases))
	}
	p := placeholders{ws: "/w", out: "/o", sid: "s", bin: "/b", audit: "/a", policy: "/p", secret: "ghp_x", markers: "/m"}
	for _, c := range cases {
		for _, l := range c.lines {
			b, err := expand(l, p)
			if err != nil {
				t.Errorf("%s: %v", c.file, err)
			}
			if c.name != "wire/batch-read" && len(b) > 0 && b[0] == '{' && !json.Valid(b) && validJSONExpected(c.name) {
				t.Errorf("%s: line is not JSON: %.200s", c.file, b)
			}
		}
	}
}

// TestDirectives: each directive sets what it names in the case, a second
// use of a list directive adds to the list, and a directive that lacks its
// argument, or that does not exist, is an error.
func TestDirectives(t *testing.T) {
	for _, tt := range []struct {
		directives string
		got        func(c hostileCase) any
		want       any
	}{
		{"@approve", func(c hostileCase) any { return c.approve }, true},
		{"@approve-shown touch y", func(c hostileCase) any { return c.approveShown }, "touch y"},
		{"@press Reject", func(c hostileCase) any { return c.press }, "Reject"},
		{`@listed-sessions [{"sessionId":"s","cwd":"/"}]`, func(c hostileCase) any { return c.listed }, `[{"sessionId":"s","cwd":"/"}]`},
		{"@no-refusal", func(c hostileCase) any { return c.noRefuse }, true},
		{"@told", func(c hostileCase) any { return c.told }, true},
		{"@control", func(c hostileCase) any { return c.control }, true},
		{"@agent-name  evil agent ", func(c hostileCase) any { return c.agent }, "evil agent"},
		{"@audit tool.call\n@audit deny", func(c hostileCase) any { return c.audits }, []string{"tool.call", "deny"}},
		{"@no-audit tool call x\n@no-audit written", func(c hostileCase) any { return c.noAudits }, []string{"tool call x", "written"}},
		{"@secret ghp_x", func(c hostileCase) any { return c.secrets }, []string{"ghp_x"}},
		{"@forged FORGED row", func(c hostileCase) any { return c.forged }, []string{"FORGED row"}},
		{"@archive-forged FORGED", func(c hostileCase) any { return c.archiveForged }, []string{"FORGED"}},
		{"@asked rm -rf", func(c hostileCase) any { return c.asked }, []string{"rm -rf"}},
		{"@want-agent \"error\"", func(c hostileCase) any { return c.wants }, []string{`"error"`}},
		{"@rss 64", func(c hostileCase) any { return c.rssMB }, 64},
		{"@compress --context-size 1000", func(c hostileCase) any { return c.compress }, []string{"--context-size", "1000"}},
		{"@compress", func(c hostileCase) any { return c.compressOn }, true},
		{"@rollover", func(c hostileCase) any { return c.rollover }, true},
		{"@mode-option read-only", func(c hostileCase) any { return c.modeOption }, "read-only"},
		{"@opened-mode read-only", func(c hostileCase) any { return c.openedMode }, "read-only"},
		{`@rolled-answer {"sessionId":"x"}`, func(c hostileCase) any { return c.rolledAnswer }, `{"sessionId":"x"}`},
		{"@setup copy cache/x.md .env", func(c hostileCase) any { return c.setups }, []setupStep{{kind: "copy", name: "cache/x.md", arg: ".env"}}},
		{"@ide go, sh", func(c hostileCase) any { return c.ides }, []string{"go", "sh"}},
		{`@auth-methods [{"id":"a"}]`, func(c hostileCase) any { return c.auth }, `[{"id":"a"}]`},
	} {
		c, err := parseCase("inline", "directives", []byte(tt.directives+"\n{}\n"))
		if err != nil {
			t.Errorf("%q: %v", tt.directives, err)
			continue
		}
		if got := tt.got(c); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("%q: got %#v, want %#v", tt.directives, got, tt.want)
		}
	}
	for _, d := range []string{"@agent-name", "@audit", "@no-audit", "@secret ", "@forged", "@asked", "@want-agent", "@rss", "@approvals allow x", "@auth-methods {}", "@approve-shown", "@press", "@listed-sessions {}", "@rolled-answer []", "@nope"} {
		_, err := parseCase("inline", "directives", []byte(d+"\n{}\n"))
		if err == nil || !strings.Contains(err.Error(), strings.Fields(d)[0]) {
			t.Errorf("%q: error %v, want one naming the directive", d, err)
		}
	}
}

// TestExpand: each placeholder stands for its value, and a malformed or
// unknown one is an error.
func TestExpand(t *testing.T) {
	p := placeholders{ws: "/w", out: "/o", sid: "s", bin: "/b", audit: "/a", policy: "/p", secret: "ghp_x", markers: "/m"}
	line := "{{WS}}|{{OUT}}|{{SID}}|{{BIN}}|{{AUDIT}}|{{POLICY}}|{{SECRET}}|{{SECRETBODY}}|{{MARKERS}}|" +
		"{{CR}}{{LF}}{{TAB}}{{BOM}}{{ESC}}|{{x:ff}}|{{u:2028}}|{{BIG:3}}|{{BIG:1k}}"
	want := "/w|/o|s|/b|/a|/p|ghp_x|x|/m|\r\n\t\uFEFF\x1b|\xff|\u2028|aaa|" + strings.Repeat("a", 1024)
	if got, err := expand(line, p); err != nil || string(got) != want {
		t.Errorf("expand = %q, %v; want %q", got, err, want)
	}
	for _, bad := range []string{"{{WS", "{{NOPE}}", "{{ws}}", "{{x:f}}", "{{u:110000}}", "{{BIG:65M}}", "{{y:1}}"} {
		if got, err := expand(bad, p); err == nil {
			t.Errorf("expand(%q) = %q, want an error", bad, got)
		}
	}
}

// validJSONExpected says whether a case's lines are meant to be valid JSON
// (the classes that attack the wire or the encoding are not).
func validJSONExpected(name string) bool {
	for _, prefix := range []string{"wire/", "keys/invalid", "keys/unpaired", "keys/args-long-s", "keys/sessionId", "toolcalls/cr"} {
		if len(name) >= len(prefix) && name[:len(prefix)] == prefix {
			return false
		}
	}
	return true
}

// FuzzCaseFile feeds arbitrary case files and lines to the parsers: they
// must return an error or cases, never panic or hang.
func FuzzCaseFile(f *testing.F) {
	f.Add([]byte("-- a/b --\n@ide js\n@setup file x y\n{\"a\":\"{{WS}}{{x:ff}}{{u:2028}}{{BIG:2k}}\"}\n"))
	f.Add([]byte("-- x --\n@rss 10\n@told\n{{CR}}{}\n-- y --\n{{nope}}\n"))
	f.Add([]byte("name {{BIN}}/r[m] -rf x\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		cs, err := parseArchive("fuzz.txtar", data)
		if err == nil {
			for _, c := range cs {
				for _, l := range c.lines {
					expand(l, placeholders{})
				}
			}
		}
		parseCommands("fuzz.txt", data)
		jsReader{}.read(data)
		goReader{}.read(data)
	})
}
