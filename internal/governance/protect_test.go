package governance

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// protectedWorkspace makes a workspace whose policy allows every edit and
// read, holding the bridge's own files: the policy (with a parent it
// extends and a POLICY.md), the manifest, the audit log and a rotated
// file, a cache directory outside the root and a hook socket directory.
func protectedWorkspace(t testing.TB) (*Engine, string, string) {
	t.Helper()
	tmp := t.TempDir()
	root := filepath.Join(tmp, "ws")
	cache := filepath.Join(tmp, "cache")
	hook := filepath.Join(tmp, "hook")
	tree{
		texts: map[string]string{
			"ws/GOVERNANCE.md": "---\nschema: governance.workspace/v1\nname: ws\ntitle: t\ndescription: d\nversion: 1.0.0\n" +
				"extends: ../base/GOVERNANCE.md\nrules:\n  default: allow\n  allow: [Read, Edit, Write, Bash]\n---\n",
			"base/GOVERNANCE.md":              "---\nschema: governance.workspace/v1\nname: base\ntitle: t\ndescription: d\nversion: 1.0.0\nextends: ../missing/GOVERNANCE.md\n---\n",
			"ws/ACP.md":                       "manifest",
			"ws/audit/audit-log.jsonl":        "{}\n",
			"ws/audit/audit-log.jsonl.000001": "{}\n",
			"ws/src/a.go":                     "package a",
			"cache/offload/1.txt":             "offloaded",
			"hook/hook.sock":                  "",
		},
		links: map[string]string{
			"ws/src/policy-link": root + "/GOVERNANCE.md",
			"ws/src/cache-link":  cache + "/offload/new.txt", // dangling into the cache
		},
		hardLinks: map[string]string{
			"ws/src/hard.md":     "ws/GOVERNANCE.md",
			"ws/src/old-log.txt": "ws/audit/audit-log.jsonl.000001",
		},
	}.make(t, tmp)
	p, err := LoadPolicy(root + "/GOVERNANCE.md")
	if err != nil {
		t.Fatal(err)
	}
	var prot []ProtectedPath
	for _, f := range p.Files() {
		prot = append(prot, ProtectedPath{Path: f, What: "the governance policy"})
	}
	prot = append(prot,
		ProtectedPath{Path: root + "/ACP.md", What: "the ACP.md manifest"},
		ProtectedPath{Path: root + "/audit/audit-log.jsonl", What: "the audit log", Read: true, Rotated: true},
		ProtectedPath{Path: cache, What: "the compression cache"})
	e := NewEngine(p, EngineOptions{Roots: []string{root}, Protected: prot})
	e.Protect(ProtectedPath{Path: hook, What: "the hook socket", Read: true})
	return e, root, tmp
}

// protectedCase is a request and what self-protection decides for it.
type protectedCase struct {
	name string
	req  Request
	want Value
	what string // substring of the reason when denied
}

// checkProtected decides each case with e, in root when the request names
// no cwd, and checks its value and, for a deny, that self-protection denied
// it for what.
func checkProtected(t *testing.T, e *Engine, root string, tests []protectedCase) {
	t.Helper()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.req.Cwd == "" {
				tt.req.Cwd = root
			}
			d := e.Decide(tt.req)
			if d.Value != tt.want || tt.want == Deny && (d.Ref != "self-protection" || !strings.Contains(d.Reason, tt.what)) {
				t.Errorf("Decide(%+v) = %v (ref %s, %s); want %s about %q", tt.req, d.Value, d.Ref, d.Reason, tt.want, tt.what)
			}
		})
	}
}

func TestDecideProtected(t *testing.T) {
	e, root, tmp := protectedWorkspace(t)
	tests := []protectedCase{
		{"write the policy", Request{Action: ActionFSWrite, Paths: []string{root + "/GOVERNANCE.md"}}, Deny, "the governance policy"},
		{"create the missing parent of the policy it extends", Request{Action: ActionFSWrite, Paths: []string{tmp + "/missing/GOVERNANCE.md"}}, Deny, "the governance policy"},
		{"write the policy it extends", Request{Action: ActionFSWrite, Paths: []string{tmp + "/base/GOVERNANCE.md"}}, Deny, "the governance policy"},
		{"edit tool on the policy", Request{Action: ActionToolCall, Tool: "Edit", Kind: "edit", Paths: []string{root + "/GOVERNANCE.md"}}, Deny, "the governance policy"},
		{"write the policy in other case", Request{Action: ActionFSWrite, Paths: []string{root + "/governance.MD"}}, Deny, "the governance policy"},
		{"write through a symlink", Request{Action: ActionFSWrite, Paths: []string{root + "/src/policy-link"}}, Deny, "the governance policy"},
		{"write through a hard link", Request{Action: ActionFSWrite, Paths: []string{root + "/src/hard.md"}}, Deny, "the governance policy"},
		{"read a rotated audit file through a hard link", Request{Action: ActionFSRead, Paths: []string{root + "/src/old-log.txt"}}, Deny, "the audit log"},
		{"write through dotdot", Request{Action: ActionFSWrite, Paths: []string{root + "/src/../GOVERNANCE.md"}}, Deny, "the governance policy"},
		{"read the policy", Request{Action: ActionFSRead, Paths: []string{root + "/GOVERNANCE.md"}}, Allow, ""},
		{"write the manifest", Request{Action: ActionFSWrite, Paths: []string{root + "/ACP.md"}}, Deny, "the ACP.md manifest"},
		{"read the manifest", Request{Action: ActionFSRead, Paths: []string{root + "/ACP.md"}}, Allow, ""},
		{"read the audit log", Request{Action: ActionFSRead, Paths: []string{root + "/audit/audit-log.jsonl"}}, Deny, "the audit log"},
		{"write the audit log", Request{Action: ActionFSWrite, Paths: []string{root + "/audit/audit-log.jsonl"}}, Deny, "the audit log"},
		{"read a rotated audit file", Request{Action: ActionFSRead, Paths: []string{root + "/audit/audit-log.jsonl.000001"}}, Deny, "the audit log"},
		{"write the audit lock", Request{Action: ActionFSWrite, Paths: []string{root + "/audit/.audit-log.jsonl.lock"}}, Deny, "the audit log"},
		{"grep the audit log", Request{Action: ActionToolCall, Tool: "Grep", Kind: "search", Paths: []string{root + "/audit/audit-log.jsonl"}}, Deny, "the audit log"},
		{"delete the audit directory", Request{Action: ActionToolCall, Kind: "delete", Paths: []string{root + "/audit"}}, Deny, "the audit log"},
		{"move the workspace away", Request{Action: ActionToolCall, Kind: "move", Paths: []string{root, tmp + "/elsewhere"}}, Deny, "the governance policy"},
		{"list the workspace", Request{Action: ActionToolCall, Tool: "LS", Kind: "read", Paths: []string{root}}, Allow, ""},
		{"another file beside the log", Request{Action: ActionFSWrite, Paths: []string{root + "/audit/notes.md"}}, Allow, ""},
		{"write into the cache", Request{Action: ActionFSWrite, Paths: []string{tmp + "/cache/offload/1.txt"}}, Deny, "the compression cache"},
		{"dangling link into the cache", Request{Action: ActionFSWrite, Paths: []string{root + "/src/cache-link"}}, Deny, "the compression cache"},
		{"read the hook socket", Request{Action: ActionFSRead, Paths: []string{tmp + "/hook/hook.sock"}}, Deny, "the hook socket"},
		{"command naming the policy", Request{Action: ActionTerminalCreate, Command: "sed -i s/deny/allow/ GOVERNANCE.md", Paths: []string{root + "/GOVERNANCE.md"}}, Deny, "the governance policy"},
		{"tool of unknown kind on the manifest", Request{Action: ActionToolCall, Tool: "mcp__fs__touch", Kind: "other", Paths: []string{root + "/ACP.md"}}, Deny, "the ACP.md manifest"},
		{"redirect into the policy, quoted", Request{Action: ActionTerminalCreate, Command: "echo 'rules: {}' > GOVERN''ANCE.md"}, Deny, "the governance policy"},
		{"the audit log by relative path", Request{Action: ActionTerminalCreate, Command: "sed -i 1d audit/audit-log.jsonl"}, Deny, "the audit log"},
		{"the audit log read by a command", Request{Action: ActionTerminalCreate, Command: "tail", Argv: []string{"tail", "audit/audit-log.jsonl.000001"}}, Deny, "the audit log"},
		{"a glob reaching the policy", Request{Action: ActionTerminalCreate, Command: "cp /dev/null GOVERN*"}, Deny, "the governance policy"},
		{"a glob with dotdot", Request{Action: ActionTerminalCreate, Command: "truncate -s0 src/../A?P.md"}, Deny, "the ACP.md manifest"},
		{"the cache by absolute path", Request{Action: ActionTerminalCreate, Command: "rm -rf " + tmp + "/cache/offload"}, Deny, "the compression cache"},
		{"an execute tool call", Request{Action: ActionToolCall, Tool: "Bash", Kind: "execute", Command: "mv ACP.md /tmp/x"}, Deny, "the ACP.md manifest"},
		{"a command run inside the cache", Request{Action: ActionTerminalCreate, Command: "rm -rf ./offload", Cwd: tmp + "/cache"}, Deny, "the compression cache"},
		{"Claude's project settings", Request{Action: ActionFSWrite, Paths: []string{root + "/.claude/settings.json"}}, Deny, "Claude Code's project settings"},
		{"Claude's local settings by an edit tool", Request{Action: ActionToolCall, Tool: "Write", Kind: "edit", Paths: []string{root + "/.claude/settings.local.json"}}, Deny, "Claude Code's local project settings"},
		{"a Gemini project policy", Request{Action: ActionFSWrite, Paths: []string{root + "/.gemini/policies/allow.toml"}}, Deny, "Gemini CLI's project policies"},
		{"Zed's project settings by a command", Request{Action: ActionTerminalCreate, Command: `printf '{"agent_servers":{}}' > .zed/settings.json`}, Deny, "Zed's project settings"},
		{"the MCP server list from a subdirectory", Request{Action: ActionTerminalCreate, Command: "cp evil.json ../.mcp.json", Cwd: root + "/src"}, Deny, "MCP servers"},
		{"the repository's git config", Request{Action: ActionFSWrite, Paths: []string{root + "/.git/config"}}, Deny, "git configuration"},
		{"a git hook", Request{Action: ActionFSWrite, Paths: []string{root + "/.git/hooks/pre-commit"}}, Deny, "git hooks"},
		{"a git hook by a command", Request{Action: ActionTerminalCreate, Command: "cp evil .git/hooks/post-checkout"}, Deny, "git hooks"},
		{"the git config by a redirect", Request{Action: ActionTerminalCreate, Command: `echo '[core] fsmonitor = touch /tmp/x' > .git/config`}, Deny, "git configuration"},
		{"direnv's .envrc", Request{Action: ActionFSWrite, Paths: []string{root + "/.envrc"}}, Deny, "direnv"},
		{"VS Code's tasks", Request{Action: ActionToolCall, Tool: "Write", Kind: "edit", Paths: []string{root + "/.vscode/tasks.json"}}, Deny, "VS Code's tasks"},
		{"Zed's tasks", Request{Action: ActionFSWrite, Paths: []string{root + "/.zed/tasks.json"}}, Deny, "Zed's tasks"},
		{"a JetBrains run configuration", Request{Action: ActionFSWrite, Paths: []string{root + "/.idea/runConfigurations/x.xml"}}, Deny, "run configurations"},
		{"reading the git config", Request{Action: ActionFSRead, Paths: []string{root + "/.git/config"}}, Allow, ""},
		{"a file in the git directory", Request{Action: ActionFSWrite, Paths: []string{root + "/.git/description"}}, Deny, "a repository's .git"},
		{"reading Claude's settings", Request{Action: ActionFSRead, Paths: []string{root + "/.claude/settings.json"}}, Allow, ""},
		{"another file in .claude", Request{Action: ActionFSWrite, Paths: []string{root + "/.claude/agents/reviewer.md"}}, Allow, ""},
		{"the audit log by an ANSI-C quoted letter", Request{Action: ActionTerminalCreate, Command: "cat audit/audit-log.js$'o'nl"}, Deny, "the audit log"},
		{"the audit log around an empty parameter", Request{Action: ActionTerminalCreate, Command: "cat audit/audit-log.js${NOPE}onl"}, Deny, "the audit log"},
		{"the audit log by brace expansion", Request{Action: ActionTerminalCreate, Command: "cat audit/audit-log.js{o,}nl"}, Deny, "the audit log"},
		{"the audit log by a translated string", Request{Action: ActionTerminalCreate, Command: `cat audit/audit-log.js$"o"nl`}, Deny, "the audit log"},
		{"the audit log around an empty substitution", Request{Action: ActionTerminalCreate, Command: "cat audit/audit-log.js$()onl"}, Deny, "the audit log"},
		{"the audit log in argv with an empty parameter", Request{Action: ActionTerminalCreate, Command: "cp", Argv: []string{"cp", "a.txt", "audit/audit-log.js${NOPE}onl"}}, Deny, "the audit log"},
		{"sed on the policy, ANSI-C quoted", Request{Action: ActionTerminalCreate, Command: "sed", Argv: []string{"sed", "-i", "s/rm:/true:/", "GOVERNANCE.m$'d'"}}, Deny, "the governance policy"},
		{"mv onto the policy, ANSI-C quoted", Request{Action: ActionTerminalCreate, Command: "mv a.txt GOVERNANCE.m$'d'"}, Deny, "the governance policy"},
		{"hard link to the policy, ANSI-C quoted", Request{Action: ActionTerminalCreate, Command: "ln GOVERNANCE.m$'d' hl"}, Deny, "the governance policy"},
		{"git checkout of the policy, ANSI-C quoted", Request{Action: ActionTerminalCreate, Command: "git checkout -- GOVERNANCE.m$'d'"}, Deny, "the governance policy"},
		{"the policy by a parameter in the middle", Request{Action: ActionTerminalCreate, Command: "tee GOVERN${X}ANCE.md </dev/null"}, Deny, "the governance policy"},
		{"the manifest by dotdot, ANSI-C quoted", Request{Action: ActionTerminalCreate, Command: "truncate -s0 src/../AC$'P'.md"}, Deny, "the ACP.md manifest"},
		{"the cache by a parameter", Request{Action: ActionTerminalCreate, Command: "rm -rf " + tmp + "/ca${X}che/offload"}, Deny, "the compression cache"},
		{"a translated string ending short of the audit log", Request{Action: ActionTerminalCreate, Command: `cat audit/audit-log.js$"o"`}, RequireApproval, "not known until the line runs"},
		{"a parameter with a common suffix", Request{Action: ActionTerminalCreate, Command: "cat $F.md; echo $HOME"}, RequireApproval, "not known until the line runs"},
		{"an ordinary command", Request{Action: ActionTerminalCreate, Command: "go test ./... && ls src"}, Allow, ""},
		{"ordinary write", Request{Action: ActionFSWrite, Paths: []string{root + "/src/a.go"}}, Allow, ""},
		{"session in the workspace", Request{Action: ActionSessionNew, Paths: []string{root}}, Allow, ""},
	}
	checkProtected(t, e, root, tests)
}

// TestImplicitRules checks the rules self-protection shows in `policy
// check` and hands to the agents' native rules.
func TestImplicitRules(t *testing.T) {
	e, root, tmp := protectedWorkspace(t)
	got := strings.Join(e.ImplicitRules(), "\n")
	for _, want := range []string{
		"deny Edit(/" + root + "/GOVERNANCE.md) (built-in: the governance policy)",
		"deny Write(/" + tmp + "/base/GOVERNANCE.md) (built-in: the governance policy)",
		"deny Read(/" + root + "/audit/audit-log.jsonl) (built-in: the audit log)",
		"deny Read(/" + root + "/audit/audit-log.jsonl.*) (built-in: the audit log)",
		"deny Edit(/" + root + "/audit/.audit-log.jsonl.*) (built-in: the audit log)",
		"deny Edit(/" + tmp + "/cache/**) (built-in: the compression cache)",
		"deny Read(/" + tmp + "/hook/**) (built-in: the hook socket)",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("implicit rules lack %q; got:\n%s", want, got)
		}
	}
	if strings.Contains(got, "Read(/"+root+"/GOVERNANCE.md)") || strings.Contains(got, "Read(/"+tmp+"/cache") {
		t.Errorf("implicit rules deny reads of what may be read:\n%s", got)
	}
	// Each implicit rule is a rule the policy syntax accepts.
	for _, line := range e.ImplicitRules() {
		text := strings.TrimPrefix(line[:strings.LastIndex(line, " (")], "deny ")
		if _, err := parseRule(text, root, "/home/u"); err != nil {
			t.Errorf("%s: %v", line, err)
		}
	}
}

// FuzzProtectedCommand checks that the self-protection of commands never
// panics, and that a command line holding a protected file's absolute path
// as a plain word is always denied, whatever surrounds it.
func FuzzProtectedCommand(f *testing.F) {
	for _, s := range []string{"rm {P}", "echo x > {P}", "cat '{P}'", "ls && mv {P} /tmp", "$(cat {P})", "x=\"{P}\"; rm $x",
		"cp /dev/null GOVERN*", "echo 'unterminated", "`", "rm -rf .", "sed -i s/a/b/ \"GOVERN\"\"ANCE.md\"",
		"cat GOVERN${X}ANCE.md", "cat GOVERNANCE.m$'d'", `cat GOVERNANCE.m$"d"`, `cat GOVERNANCE$"x"`, "cat $(x)$(y)ANCE.md${z}", "ln GOV{ER,}NANCE.md h"} {
		f.Add(s)
	}
	dir := f.TempDir()
	policy := dir + "/GOVERNANCE.md"
	if err := os.WriteFile(policy, []byte("x"), 0o644); err != nil {
		f.Fatal(err)
	}
	allow := testRule(f, "Bash", dir, Allow, "fuzz:1", "fuzz")
	e := NewEngine(&Policy{Default: Allow, DefaultWhere: "fuzz", rules: []*rule{allow}},
		EngineOptions{Roots: []string{dir}, Protected: []ProtectedPath{{Path: policy, What: "the governance policy"}}})
	f.Fuzz(func(t *testing.T, line string) {
		line = strings.ReplaceAll(line, "{P}", policy)
		d := e.Decide(Request{Action: ActionTerminalCreate, Command: line, Cwd: dir})
		if d.Value == "" || d.Rule == "" {
			t.Fatalf("%q: incomplete decision %+v", line, d)
		}
		for _, w := range strings.Fields(line) {
			if w == policy && d.Value != Deny {
				t.Fatalf("%q names %s and was not denied: %v", line, policy, d)
			}
		}
	})
}

// BenchmarkDecideProtected measures what self-protection adds to a file
// read and a command: ten protected locations against none.
func BenchmarkDecideProtected(b *testing.B) {
	root := b.TempDir()
	if err := os.MkdirAll(root+"/src", 0o755); err != nil {
		b.Fatal(err)
	}
	var prot []ProtectedPath
	for i := 0; i < 10; i++ {
		prot = append(prot, ProtectedPath{Path: filepath.Join(root, "p", strconv.Itoa(i), "GOVERNANCE.md"), What: "the governance policy"})
	}
	for _, withProt := range []bool{false, true} {
		opts := EngineOptions{Roots: []string{root}}
		name := "none"
		if withProt {
			opts.Protected, name = prot, "ten"
		}
		e := NewEngine(nil, opts)
		for kind, req := range map[string]Request{
			"write":   {Action: ActionFSWrite, Paths: []string{root + "/src/main.go"}, Cwd: root},
			"command": {Action: ActionTerminalCreate, Command: "go test ./... && git status", Cwd: root},
		} {
			b.Run(kind+"/"+name, func(b *testing.B) {
				for i := 0; i < b.N; i++ {
					e.Decide(req)
				}
			})
		}
	}
}
