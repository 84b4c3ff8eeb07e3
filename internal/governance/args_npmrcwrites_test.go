package governance

import (
	"path/filepath"
	"testing"
)

// TestNpmrcWrites: the directories a project's .npmrc has npm write into
// (logs-dir, where every npm command writes its debug log; cache) are
// decided as the same directories named on the line are, from any
// directory beneath the package.json it sits beside.
func TestNpmrcWrites(t *testing.T) {
	root := tempTree(t, []string{"out", "in/sub", "cache", "plain", "expand", "quoted"}, nil)
	for name, text := range map[string]string{
		"out/package.json":    `{"name":"p"}`,
		"out/.npmrc":          "logs-dir=../../elsewhere\n",
		"in/package.json":     `{"name":"p"}`,
		"in/.npmrc":           "logs-dir=logs\ncache=.npm-cache\n",
		"cache/package.json":  `{"name":"p"}`,
		"cache/.npmrc":        "Cache = ../secrets\n",
		"plain/package.json":  `{"name":"p"}`,
		"expand/package.json": `{"name":"p"}`,
		"expand/.npmrc":       "logs-dir=${HOME}/logs\n",
		"quoted/package.json": `{"name":"p"}`,
		"quoted/.npmrc":       "logs-dir = \"../secrets\"\n",
	} {
		writeFile(t, filepath.Join(root, name), text)
	}
	e := NewEngine(testPolicy(t, "  default: allow\n  deny:\n    - Edit(./secrets/**)\n"), EngineOptions{Roots: []string{root}})
	for _, c := range []struct {
		dir, line string
		want      Value
	}{
		{"plain", "npm ls", Allow},
		{"in", "npm ls", Allow},
		{"in/sub", "npm test", Allow},
		{"out", "npm ls", Deny},
		{"out", "npm --version", Deny},
		{"out", "pnpm install", Deny},
		{"cache", "npm ci", Deny},
		{"quoted", "npm ls", Deny},
		{"expand", "npm ls", RequireApproval},
		{".", "npm --prefix out ls", Deny},
		{".", "npm ls", Allow},
	} {
		d := e.Decide(Request{Action: ActionTerminalCreate, Command: c.line, Cwd: filepath.Join(root, c.dir)})
		if d.Value != c.want {
			t.Errorf("%q in %s: %v (%s); want %v", c.line, c.dir, d.Value, d.Reason, c.want)
		}
	}
}
