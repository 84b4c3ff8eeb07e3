package governance

import (
	"path/filepath"
	"testing"
)

// TestNpmrcWrites: the directories a project's .npmrc has npm write into
// (logs-dir, where every npm command writes its debug log; cache) and the
// files it has npm read (userconfig, globalconfig) are decided as the same
// names on the line are, from any directory beneath the package.json it
// sits beside.
func TestNpmrcWrites(t *testing.T) {
	root := tempTree(t, []string{"out", "in/sub", "cache", "plain", "expand", "quoted", "user", "global"}, nil)
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
		"user/package.json":   `{"name":"p"}`,
		"user/.npmrc":         "userconfig=.env\n",
		"user/.env":           "API_KEY=x\n",
		"global/package.json": `{"name":"p"}`,
		"global/.npmrc":       "globalconfig = ../user/.env\n",
	} {
		writeFile(t, filepath.Join(root, name), text)
	}
	e := NewEngine(testPolicy(t, "  default: allow\n  deny:\n    - Read(**/.env)\n    - Edit(./secrets/**)\n"), EngineOptions{Roots: []string{root}})
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
		{"user", "npm config list", Deny},
		{"global", "npm config get API_KEY", Deny},
	} {
		d := e.Decide(Request{Action: ActionTerminalCreate, Command: c.line, Cwd: filepath.Join(root, c.dir)})
		if d.Value != c.want {
			t.Errorf("%q in %s: %v (%s); want %v", c.line, c.dir, d.Value, d.Reason, c.want)
		}
	}
}
