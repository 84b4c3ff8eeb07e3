package main

import (
	"runtime/debug"
	"strings"
	"testing"
)

// helpCommands is every command line that has its own usage: each
// subcommand and each command of the subcommands that have commands.
func helpCommands() [][]string {
	var out [][]string
	for name := range commands() {
		out = append(out, []string{name})
	}
	for _, sub := range [][]string{
		{"audit", "verify"}, {"audit", "repair"}, {"audit", "sessions"}, {"audit", "show"}, {"audit", "tail"},
		{"accp", "encode"}, {"accp", "decode"}, {"accp", "stats"},
		{"aacp", "validate"}, {"aacp", "encode"},
		{"policy", "check"},
	} {
		out = append(out, sub)
	}
	return append(out, []string{}) // the bridge itself: acp-bridge --help
}

// TestHelpExitsZeroOnce: -h and --help print the usage once, on stdout, and
// exit 0, for every subcommand, as the CLIs users know do.
func TestHelpExitsZeroOnce(t *testing.T) {
	for _, cmd := range helpCommands() {
		for _, flag := range []string{"-h", "--help"} {
			args := append(append([]string(nil), cmd...), flag)
			t.Run(strings.Join(args, " "), func(t *testing.T) {
				out, errOut, code := runCmd(t, "", args...)
				if code != 0 {
					t.Fatalf("exit status %d, want 0\nstdout:\n%s\nstderr:\n%s", code, out, errOut)
				}
				if n := strings.Count(strings.ToLower(out), "usage:"); n != 1 {
					t.Errorf("stdout has %d usage lines, want 1:\n%s", n, out)
				}
				if errOut != "" {
					t.Errorf("stderr not empty:\n%s", errOut)
				}
			})
		}
	}
}

// TestHelpListsEverything: "acp-bridge help" names every subcommand and the
// bridge's own flags, and "help CMD" is CMD --help.
func TestHelpListsEverything(t *testing.T) {
	out, errOut, code := runCmd(t, "", "help")
	if code != 0 || errOut != "" {
		t.Fatalf("help: exit %d, stderr %q", code, errOut)
	}
	for name := range commands() {
		if !strings.Contains(out, "\n  "+name+" ") {
			t.Errorf("help does not list %q:\n%s", name, out)
		}
	}
	for _, flag := range []string{"-policy", "-audit", "-compress", "-manifest", "-record", "-log-file", "-adapter"} {
		if !strings.Contains(out, flag) {
			t.Errorf("help does not list the bridge flag %s", flag)
		}
	}
	demoHelp, _, code := runCmd(t, "", "help", "demo")
	want, _, _ := runCmd(t, "", "demo", "--help")
	if code != 0 || demoHelp != want {
		t.Errorf("help demo (exit %d):\n%s\nwant demo --help:\n%s", code, demoHelp, want)
	}
}

// TestVersion: --version and version print the module version and commit,
// and say "unknown" for what the build did not record.
func TestVersion(t *testing.T) {
	for _, args := range [][]string{{"--version"}, {"version"}, {"-version"}} {
		out, errOut, code := runCmd(t, "", args...)
		if code != 0 || errOut != "" {
			t.Fatalf("%v: exit %d, stderr %q", args, code, errOut)
		}
		if !strings.HasPrefix(out, "acp-bridge ") || !strings.Contains(out, "commit ") || strings.Count(out, "\n") != 1 {
			t.Errorf("%v: %q, want one line: acp-bridge VERSION (commit ...)", args, out)
		}
	}
}

// TestVersionString covers the build information a binary may carry.
func TestVersionString(t *testing.T) {
	vcs := func(kv ...string) []debug.BuildSetting {
		var s []debug.BuildSetting
		for i := 0; i < len(kv); i += 2 {
			s = append(s, debug.BuildSetting{Key: kv[i], Value: kv[i+1]})
		}
		return s
	}
	cases := []struct {
		name string
		bi   *debug.BuildInfo
		want string
	}{
		{"no build info", nil, "acp-bridge unknown (commit unknown)"},
		{"go run without vcs", &debug.BuildInfo{GoVersion: "go1.25.0", Main: debug.Module{Version: "(devel)"}},
			"acp-bridge (devel) (commit unknown, go1.25.0)"},
		{"go install of a tag", &debug.BuildInfo{GoVersion: "go1.25.0", Main: debug.Module{Version: "v1.2.0"}},
			"acp-bridge v1.2.0 (commit unknown, go1.25.0)"},
		{"checkout", &debug.BuildInfo{GoVersion: "go1.25.0", Main: debug.Module{Version: "(devel)"},
			Settings: vcs("vcs.revision", "3fbe8d3a0a5b7f1d2c3e4f5a6b7c8d9e0f1a2b3c", "vcs.time", "2026-11-25T16:00:00Z", "vcs.modified", "false")},
			"acp-bridge (devel) (commit 3fbe8d3a0a5b, 2026-11-25T16:00:00Z, go1.25.0)"},
		{"dirty checkout", &debug.BuildInfo{GoVersion: "go1.25.0", Main: debug.Module{Version: "(devel)"},
			Settings: vcs("vcs.revision", "3fbe8d3a0a5b7f1d2c3e4f5a6b7c8d9e0f1a2b3c", "vcs.modified", "true")},
			"acp-bridge (devel) (commit 3fbe8d3a0a5b+modified, go1.25.0)"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := versionString(c.bi); got != c.want {
				t.Errorf("got  %q\nwant %q", got, c.want)
			}
		})
	}
}

// TestUsageMistakes: what a user gets wrong is answered with the error and
// one line saying what to do, never the whole flag list, and status 2.
func TestUsageMistakes(t *testing.T) {
	cases := []struct {
		name string
		args []string
		want []string // each must appear on stderr
	}{
		{"agent command without --", []string{"npx", "@agentclientprotocol/claude-agent-acp"},
			[]string{`unknown command "npx"`, "acp-bridge [flags] -- <agent command>"}},
		{"agent path without --", []string{"/usr/bin/gemini", "--acp"},
			[]string{`unknown command "/usr/bin/gemini"`, "acp-bridge [flags] -- <agent command>"}},
		{"misspelt subcommand", []string{"valdate", "ACP.md"}, []string{`unknown command "valdate"`, "did you mean validate?"}},
		{"bad bridge flag value", []string{"--max-line-size", "lots", "--", "true"},
			[]string{`invalid value "lots" for flag -max-line-size`, "acp-bridge --help"}},
		{"unknown bridge flag", []string{"--polcy", "GOVERNANCE.md", "--", "true"},
			[]string{"flag provided but not defined: -polcy", "acp-bridge --help"}},
		{"bad demo flag value", []string{"demo", "--pace", "slow"}, []string{`invalid value "slow" for flag -pace`, "acp-bridge demo --help"}},
		{"unknown validate flag", []string{"validate", "--yaml", "ACP.md"}, []string{"flag provided but not defined: -yaml", "acp-bridge validate --help"}},
		{"unknown audit verify flag", []string{"audit", "verify", "--deep", "x.jsonl"}, []string{"flag provided but not defined: -deep", "acp-bridge audit verify --help"}},
		{"unknown accp encode flag", []string{"accp", "encode", "--fast"}, []string{"flag provided but not defined: -fast", "acp-bridge accp encode --help"}},
		{"unknown aacp validate flag", []string{"aacp", "validate", "--fast"}, []string{"flag provided but not defined: -fast", "acp-bridge aacp validate --help"}},
		{"unknown policy check flag", []string{"policy", "check", "--file", "x"}, []string{"flag provided but not defined: -file", "acp-bridge policy check --help"}},
		{"unknown replay flag", []string{"replay", "--loose", "x.jsonl"}, []string{"flag provided but not defined: -loose", "acp-bridge replay --help"}},
		{"replay without a file", []string{"replay"}, []string{"replay: one transcript file", "acp-bridge replay --help"}},
		{"unknown demo-agent flag", []string{"demo-agent", "--fast"}, []string{"flag provided but not defined: -fast", "acp-bridge demo-agent --help"}},
		{"no agent command", []string{"--compress", "on"}, []string{"no agent command", "acp-bridge --help"}},
		{"unknown audit command", []string{"audit", "check", "x"}, []string{`unknown command "check"`, "acp-bridge audit --help"}},
		{"unknown accp command", []string{"accp", "pack"}, []string{`unknown command "pack"`, "acp-bridge accp --help"}},
		{"unknown aacp command", []string{"aacp", "pack"}, []string{`unknown command "pack"`, "acp-bridge aacp --help"}},
		{"unknown policy command", []string{"policy", "test"}, []string{`unknown command "test"`, "acp-bridge policy --help"}},
		{"no audit command", []string{"audit"}, []string{"which command? verify, repair, sessions, show, tail, serve or export", "acp-bridge audit --help"}},
		{"no accp command", []string{"accp"}, []string{"which command? encode, decode or stats", "acp-bridge accp --help"}},
		{"no aacp command", []string{"aacp"}, []string{"which command? validate or encode", "acp-bridge aacp --help"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			out, errOut, code := runCmd(t, "", c.args...)
			if code != 2 {
				t.Errorf("exit status %d, want 2", code)
			}
			for _, w := range c.want {
				if !strings.Contains(errOut, w) {
					t.Errorf("stderr lacks %q:\n%s", w, errOut)
				}
			}
			if strings.Contains(errOut, "  -") || strings.Count(errOut, "\n") > 3 {
				t.Errorf("stderr is more than the error and a pointer to --help:\n%s", errOut)
			}
			if out != "" {
				t.Errorf("stdout not empty:\n%s", out)
			}
		})
	}
}

// TestNoArguments: acp-bridge alone prints the usage to stderr and fails,
// so an IDE configured without an agent command says so.
func TestNoArguments(t *testing.T) {
	out, errOut, code := runCmd(t, "")
	if code != 2 || out != "" || !strings.Contains(errOut, "usage: acp-bridge [flags] -- <agent command>") {
		t.Errorf("exit %d\nstdout:\n%s\nstderr:\n%s", code, out, errOut)
	}
}

// TestHelpOfTheBinary runs the real binary (this test binary as main) for
// the commands whose exit status main itself sets.
func TestHelpOfTheBinary(t *testing.T) {
	for _, c := range []struct {
		args []string
		code int
	}{{[]string{"replay", "--help"}, 0}, {[]string{"--version"}, 0}, {[]string{"npx", "x"}, 2}, {[]string{"demo", "--pace", "x"}, 2}} {
		out, errOut, code := runProcess(t, bridgeCommand(t, c.args...), "")
		if code != c.code {
			t.Errorf("%v: exit %d, want %d\nstdout:\n%s\nstderr:\n%s", c.args, code, c.code, out, errOut)
		}
		if c.code == 0 && errOut != "" {
			t.Errorf("%v: stderr %q", c.args, errOut)
		}
	}
}
