package governance

import (
	"path/filepath"
	"testing"
)

// everydayRules is a typical policy of a developer's workspace: reads and
// edits allowed, the everyday tools allowed, secrets, recursive removal
// and force pushes refused, anything else asked about.
const everydayRules = "  default: ask\n" +
	"  deny:\n    - Read(**/.env)\n    - Bash(rm -rf:*)\n    - Bash(git push --force:*)\n" +
	"  allow:\n    - Read\n    - Edit\n" +
	"    - Bash(git:*)\n    - Bash(go:*)\n    - Bash(npm:*)\n    - Bash(npx:*)\n    - Bash(node:*)\n" +
	"    - Bash(python3:*)\n    - Bash(python:*)\n    - Bash(pytest:*)\n    - Bash(pip:*)\n" +
	"    - Bash(cargo:*)\n    - Bash(make:*)\n    - Bash(docker:*)\n" +
	"    - Bash(ls:*)\n    - Bash(cat:*)\n    - Bash(grep:*)\n    - Bash(rg:*)\n    - Bash(find:*)\n" +
	"    - Bash(sed -n:*)\n    - Bash(awk:*)\n    - Bash(head:*)\n    - Bash(tail:*)\n    - Bash(wc:*)\n" +
	"    - Bash(jq:*)\n    - Bash(curl -s:*)\n    - Bash(export:*)\n    - Bash(cd:*)\n    - Bash(echo:*)\n" +
	"    - Bash(golangci-lint:*)\n    - Bash(./run.sh:*)\n    - Bash(mkdir:*)\n    - Bash(sort:*)\n" +
	"    - Bash(uniq:*)\n    - Bash(diff:*)\n    - Bash(pwd)\n    - Bash(which:*)\n    - Bash(env)\n"

// everydayTree is a realistic workspace: a Go module, a package.json with
// scripts, a Makefile, a Python virtualenv, a scripts directory, a secret
// .env and the audit log under audit/.
var everydayTree = tree{
	dirs: []string{"cmd/app", "internal/store", "web/src", "scripts", ".venv/bin", ".venv/lib/python3.12/site-packages", "tests", "audit", "docs"},
	texts: map[string]string{
		"go.mod":                       "module example.com/app\n\ngo 1.23\n",
		"go.sum":                       "",
		"cmd/app/main.go":              "package main\n\nfunc main() {}\n",
		"internal/store/store.go":      "package store\n",
		"package.json":                 `{"name":"app","scripts":{"build":"tsc","test":"jest","lint":"eslint ."}}` + "\n",
		"package-lock.json":            "{}\n",
		"web/src/index.ts":             "export {}\n",
		"Makefile":                     "build:\n\tgo build ./...\ntest:\n\tgo test ./...\n",
		"requirements.txt":             "requests\n",
		".venv/bin/python":             "#!/bin/sh\n",
		".venv/bin/activate":           "VIRTUAL_ENV=.venv\n",
		".venv/pyvenv.cfg":             "home = /usr/bin\n",
		"scripts/gen.py":               "print('gen')\n",
		"scripts/check.js":             "console.log('ok')\n",
		"scripts/release.sh":           "#!/bin/sh\necho release\n",
		"run.sh":                       "#!/bin/sh\necho run\n",
		"tests/test_app.py":            "def test_ok():\n    pass\n",
		"Cargo.toml":                   "[package]\nname = \"app\"\n",
		"Dockerfile":                   "FROM scratch\n",
		"README.md":                    "# app\n",
		"docs/notes.md":                "notes\n",
		".env":                         "TOKEN=secret\n",
		"audit/audit-log.jsonl":        "",
		"data.json":                    "{}\n",
		".gitignore":                   "node_modules\n",
		"internal/store/store_test.go": "package store\n",
	},
}

// TestEverydayLines checks that the everyday command lines of
// testdata/cases/everyday_lines.txt get the decision the policy's rules
// give them, run at the top of a realistic workspace whose GOVERNANCE.md
// and audit log are protected as the bridge protects them: no
// self-protection or variable rule refuses or asks about a line that
// cannot change the policy, the audit log or an agent's configuration.
func TestEverydayLines(t *testing.T) {
	tmp, root := tempWorkspace(t)
	everydayTree.make(t, root)
	home := filepath.Join(tmp, "home")
	writeFile(t, filepath.Join(home, ".gitconfig"), "[user]\n\tname = dev\n")
	pol := filepath.Join(root, "GOVERNANCE.md")
	p := writePolicy(t, pol, everydayRules)
	e := NewEngine(p, EngineOptions{Roots: []string{root}, Home: home,
		Protected: append(SelfProtected(p, nil), AuditProtected(filepath.Join(root, "audit", "audit-log.jsonl")))})
	checkLines(t, e, root, lineCases(t, "everyday_lines.txt", map[string]string{"$ROOT": root}))
}
