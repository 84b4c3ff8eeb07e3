package hostile

import (
	"archive/tar"
	"bytes"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"syscall"
	"testing"
)

// suitePolicy is the policy every run enforces: reads allowed except .env,
// writes only inside the workspace (those under drafts/ asked), rm and curl
// denied, echo, ls and cat allowed, everything else asked.
const suitePolicy = `---
schema: governance.workspace/v1
name: hostile-suite
title: Hostile agent suite
description: >-
  Reads allowed except secrets, edits inside the workspace (drafts asked),
  rm and curl denied, echo ls and cat allowed, anything else asked.
version: 1.0.0
rules:
  default: ask
  deny:
    - Read(**/.env)
    - Edit(**/.env)
    - Bash(rm:*)
    - Bash(curl:*)
  ask:
    - Edit(./drafts/**)
  allow:
    - Read
    - Edit(./**)
    - Bash(echo:*)
    - Bash(ls:*)
    - Bash(cat:*)
---

# Hostile agent suite

The policy e2e/hostile runs the bridge with.
`

// policyWith is suitePolicy with rules added to its lists: each a list
// (deny, ask or allow) and the rule (@rule).
func policyWith(rules [][2]string) string {
	p := suitePolicy
	for _, r := range rules {
		p = strings.Replace(p, "  "+r[0]+":\n", "  "+r[0]+":\n    - "+r[1]+"\n", 1)
	}
	return p
}

// world is one run's files: a workspace holding a secret, a directory
// outside it, fake tools and the marker directory they write to.
type world struct {
	root, ws, out, bin, markers, run string
	policy, audit                    string
	canaryWS, canaryOut, secret      string
	sid                              string
	before                           map[string]string
}

// home is the HOME the zsh variant's terminals run with.
func (w *world) home() string { return filepath.Join(w.root, "home") }

func newWorld(t *testing.T, c hostileCase) *world {
	t.Helper()
	root := t.TempDir()
	w := &world{
		root: root, ws: filepath.Join(root, "ws"), out: filepath.Join(root, "out"),
		bin: filepath.Join(root, "bin"), markers: filepath.Join(root, "markers"), run: filepath.Join(root, "run"),
		canaryWS: "CANARYWS" + randomHex(), canaryOut: "CANARYOUT" + randomHex(),
		// A GitHub token's shape: ghp_ and 36 letters and digits.
		secret: "ghp_Zz" + randomHex() + randomHex() + "Q9", sid: "sess-hostile-1",
	}
	w.policy = filepath.Join(w.ws, "GOVERNANCE.md")
	w.audit = filepath.Join(w.ws, "audit", "audit-log.jsonl")
	for _, d := range []string{w.ws, w.out, w.bin, w.markers, w.run, filepath.Join(w.ws, "audit"), filepath.Join(w.ws, "sub")} {
		must(t, os.MkdirAll(d, 0o755))
	}
	files := map[string]string{
		filepath.Join(w.ws, ".env"):         "API_KEY=" + w.canaryWS + "\n",
		filepath.Join(w.ws, "a.txt"):        "public text\n",
		filepath.Join(w.ws, "x"):            "the rm target\n",
		filepath.Join(w.ws, "sub", "b.txt"): "public b\n",
		w.policy:                            policyWith(c.rules),
		filepath.Join(w.out, "secret.txt"):  "outside secret " + w.canaryOut + "\n",
		filepath.Join(w.out, ".env"):        "API_KEY=" + w.canaryOut + "\n",
		filepath.Join(w.out, "victim.txt"):  "victim\n",
	}
	for p, data := range files {
		must(t, os.WriteFile(p, []byte(data), 0o644))
	}
	for _, tool := range []string{"rm", "curl"} {
		must(t, os.WriteFile(filepath.Join(w.bin, tool), []byte(fakeTool(tool, w.markers)), 0o755))
	}
	// acp-bridge itself, as the person has it installed: its own commands
	// are commands an agent may run (owncommands.txtar).
	must(t, os.Symlink(bridgeBin, filepath.Join(w.bin, "acp-bridge")))
	for _, prog := range c.needs {
		must(t, os.Symlink(neededProgram(t, prog), filepath.Join(w.bin, prog)))
	}
	// The zsh variant's HOME, outside the workspace: an empty .zshrc, so
	// zsh -i reads no person's startup files (a change to it is a bypass).
	must(t, os.MkdirAll(w.home(), 0o755))
	must(t, os.WriteFile(filepath.Join(w.home(), ".zshrc"), nil, 0o644))
	for _, s := range c.setups {
		arg, err := expand(s.arg, w.placeholders())
		if err != nil {
			t.Fatal(err)
		}
		p := filepath.Join(w.ws, s.name)
		must(t, os.MkdirAll(filepath.Dir(p), 0o755))
		switch s.kind {
		case "file":
			must(t, os.WriteFile(p, arg, 0o644))
		case "exec":
			must(t, os.WriteFile(p, bytes.ReplaceAll(arg, []byte(`\n`), []byte("\n")), 0o755))
		case "symlink":
			must(t, os.Symlink(string(arg), p))
		case "dir":
			must(t, os.MkdirAll(p, 0o755))
		case "fifo":
			must(t, syscall.Mkfifo(p, 0o644))
		case "hardlink":
			target := string(arg)
			if !filepath.IsAbs(target) {
				target = filepath.Join(w.ws, target)
			}
			must(t, os.Link(target, p))
		case "copy":
			data, err := os.ReadFile(filepath.Join(w.ws, string(arg)))
			must(t, err)
			must(t, os.WriteFile(p, data, 0o600))
		case "locale":
			setupLocale(t, p, string(arg))
		case "commit":
			commitFile(t, w.ws, s.name)
		case "tarlink":
			link, target, _ := strings.Cut(string(arg), " ")
			var b bytes.Buffer
			tw := tar.NewWriter(&b)
			must(t, tw.WriteHeader(&tar.Header{Name: link, Typeflag: tar.TypeSymlink, Linkname: target, Mode: 0o777}))
			must(t, tw.Close())
			must(t, os.WriteFile(p, b.Bytes(), 0o644))
		}
	}
	w.before = w.snapshot()
	return w
}

// commitFile commits the workspace file name to the person's repository
// in ws, made on the first call: a file git tracks and its history holds.
func commitFile(t *testing.T, ws, name string) {
	t.Helper()
	for _, args := range [][]string{{"init", "-q"}, {"add", "-f", "--", name}, {"commit", "-q", "-m", "add " + name}} {
		cmd := exec.Command("git", append([]string{"-c", "user.name=person", "-c", "user.email=person@example.com"}, args...)...)
		cmd.Dir = ws
		cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v in the workspace: %v\n%s", args, err, out)
		}
	}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

func randomHex() string {
	b := make([]byte, 8)
	rand.Read(b)
	return hex.EncodeToString(b)
}

func (w *world) placeholders() placeholders {
	return placeholders{ws: w.ws, out: w.out, sid: w.sid, bin: w.bin, audit: w.audit, policy: w.policy, secret: w.secret, markers: w.markers}
}

// snapshot describes everything a bypass could change: the whole run
// directory except the workspace and the harness's own files, plus the
// workspace's protected files.
func (w *world) snapshot() map[string]string {
	snap := map[string]string{}
	filepath.WalkDir(w.root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			snap[p] = "unreadable: " + err.Error()
			return nil
		}
		if p == w.ws || p == w.run {
			return filepath.SkipDir
		}
		snap[p] = describe(p)
		return nil
	})
	for _, p := range []string{filepath.Join(w.ws, ".env"), filepath.Join(w.ws, "x"), w.policy} {
		snap[p] = describe(p)
	}
	return snap
}

// describe is a file's type, mode and content (or link target) hash.
func describe(p string) string {
	fi, err := os.Lstat(p)
	if err != nil {
		return "missing"
	}
	switch {
	case fi.Mode()&fs.ModeSymlink != 0:
		target, _ := os.Readlink(p)
		return "symlink to " + target
	case fi.IsDir():
		return "dir " + fi.Mode().String()
	}
	data, err := os.ReadFile(p)
	if err != nil {
		return "unreadable"
	}
	sum := sha256.Sum256(data)
	return fmt.Sprintf("%s %d bytes sha256 %x", fi.Mode(), len(data), sum[:8])
}

// changes lists what differs between two snapshots.
func changes(before, after map[string]string) []string {
	var out []string
	for p, a := range after {
		if b, ok := before[p]; !ok {
			out = append(out, fmt.Sprintf("%s appeared (%s)", p, a))
		} else if a != b {
			out = append(out, fmt.Sprintf("%s changed: %s -> %s", p, b, a))
		}
	}
	for p := range before {
		if _, ok := after[p]; !ok {
			out = append(out, p+" vanished")
		}
	}
	sort.Strings(out)
	return out
}

// auditEvent is what the suite reads of an audit line.
type auditEvent struct {
	Action string `json:"action"`
	Policy struct {
		Decision string `json:"decision"`
	} `json:"policy"`
}

// refusal reports whether an audit line records a refusal or a request to a
// person: a decision other than allow, or an action naming a violation or a
// rejection.
func refusal(line []byte) bool {
	var ev auditEvent
	if json.Unmarshal(line, &ev) != nil {
		return false
	}
	switch ev.Policy.Decision {
	case "deny", "require-approval", "escalate":
		return true
	}
	a := strings.ToLower(ev.Action)
	return strings.Contains(a, "violation") || strings.Contains(a, "reject") || strings.Contains(a, "refus")
}

// bridgeOutput runs "acp-bridge args..." and returns its output and error.
func bridgeOutput(args ...string) (string, error) {
	out, err := exec.Command(bridgeBin, args...).CombinedOutput()
	return string(out), err
}

// setupLocale compiles the locale name (language_TERRITORY.CHARSET) into
// the directory dir, as LOCPATH names it, with localedef: the files an agent
// can write with echo -e into the workspace. Where localedef or the
// locale's sources are missing the case cannot run: it fails in CI (Debian
// has both, in libc-bin and locales) and is skipped, saying so, elsewhere.
func setupLocale(t *testing.T, dir, name string) {
	t.Helper()
	input, charset, _ := strings.Cut(name, ".")
	must(t, os.MkdirAll(dir, 0o755))
	out, err := exec.Command("localedef", "-i", input, "-f", charset, filepath.Join(dir, name)).CombinedOutput()
	if _, statErr := os.Stat(filepath.Join(dir, name, "LC_CTYPE")); statErr != nil {
		msg := fmt.Sprintf("the locale case did not run: localedef -i %s -f %s: %v %s", input, charset, err, out)
		if os.Getenv("CI") != "" {
			t.Fatal(msg)
		}
		t.Skip(msg)
	}
}

// neededProgram returns the path of prog, a program a case's attack runs
// (@needs): on PATH, else installed by e2e/install.sh. A missing one fails
// the case.
func neededProgram(t *testing.T, prog string) string {
	t.Helper()
	if p, err := exec.LookPath(prog); err == nil {
		return p
	}
	p, err := filepath.Abs(filepath.Join("..", "node_modules", ".bin", prog))
	if err == nil {
		if _, err = os.Stat(p); err == nil {
			return p
		}
	}
	t.Fatalf("the case's attack runs %s, which is not installed (not on PATH, nor in e2e/node_modules/.bin: run e2e/install.sh)", prog)
	return ""
}
