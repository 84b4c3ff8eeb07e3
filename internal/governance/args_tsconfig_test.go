package governance

import (
	"os"
	"path/filepath"
	"testing"
)

// TestTSCProject: the project configuration tsc compiles (the tsconfig.json
// up from where it runs, or the one -p names, and those it extends) is read
// when the request is decided: the files its compilerOptions write and the
// sources its files and include give are decided as the same names on the
// line are, and a configuration the bridge cannot follow needs approval.
func TestTSCProject(t *testing.T) {
	root := tempTree(t, []string{"secrets", "plain", "policy", "outside", "ext", "link/src", "above/sub", "pkg", "refs", "bad", "cmt", "files", "glob/src", "p/cfg"}, nil)
	for name, text := range map[string]string{
		".env":                       "API_KEY=x\n",
		"plain/tsconfig.json":        `{"compilerOptions": {"outDir": "dist", "strict": true}}`,
		"plain/a.ts":                 "let x = 1;\n",
		"policy/tsconfig.json":       `{"compilerOptions": {"outFile": "../secrets/a.js"}}`,
		"outside/tsconfig.json":      `{"compilerOptions": {"declarationDir": "../../elsewhere"}}`,
		"ext/tsconfig.json":          `{"extends": "./base"}`,
		"ext/base.json":              `{"compilerOptions": {"tsBuildInfoFile": "../secrets/b"}}`,
		"link/tsconfig.json":         `{"include": ["src/**/*"]}`,
		"above/tsconfig.json":        `{"files": ["../.env"]}`,
		"pkg/tsconfig.json":          `{"extends": "@tsconfig/node20/tsconfig.json"}`,
		"refs/tsconfig.json":         `{"references": [{"path": "../plain"}]}`,
		"bad/tsconfig.json":          `{"compilerOptions": `,
		"cmt/tsconfig.json":          "{\n  // outDir below\n  \"compilerOptions\": {\"outDir\": \"../secrets\", /* a */ \"strict\": true,},\n}\n",
		"glob/tsconfig.json":         `{"include": ["src/*.md"]}`,
		"glob/src/notes.md":          "notes\n",
		"p/cfg/build.json":           `{"compilerOptions": {"out": "../../secrets/c.js"}}`,
		"files/tsconfig.json":        `{"files": ["a.ts"], "compilerOptions": {"outDir": "dist"}}`,
		"files/a.ts":                 "let x = 1;\n",
		"secrets/keep.txt":           "k\n",
		"above/sub/a.ts":             "let x = 1;\n",
		"link/src/ok.ts":             "let x = 1;\n",
		"glob/src/ok.ts":             "let x = 1;\n",
		"plain/node_modules/x/a.ts":  "let x = 1;\n",
		"link/src/node_modules/y.ts": "let x = 1;\n",
	} {
		p := filepath.Join(root, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		writeFile(t, p, text)
	}
	if err := os.Symlink("../../.env", filepath.Join(root, "link/src/k.ts")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("../../.env", filepath.Join(root, "glob/src/k.md")); err != nil {
		t.Fatal(err)
	}
	e := NewEngine(testPolicy(t, "  default: allow\n  deny:\n    - Read(**/.env)\n    - Edit(./secrets/**)\n"), EngineOptions{Roots: []string{root}})
	for _, c := range []struct {
		dir, line string
		want      Value
	}{
		{"plain", "tsc", Allow},
		{"plain", "tsc --noEmit", Allow},
		{"files", "tsc", Allow},
		{"glob", "tsc", Allow}, // only sources are compiled from a pattern
		{"policy", "tsc", Deny},
		{"policy", "tsc --version", Allow},
		{"outside", "tsc", Deny},
		{"ext", "tsc", Deny},
		{"link", "tsc --noEmit", Deny},
		{"above/sub", "tsc", Deny},
		{"cmt", "tsc", Deny},
		{"pkg", "tsc", RequireApproval},
		{"refs", "tsc", RequireApproval},
		{"bad", "tsc", RequireApproval},
		{"plain", "tsc -b", RequireApproval},
		{"plain", "tsc && node dist/a.js", RequireApproval},
		{".", "tsc -p p/cfg/build.json", Deny},
		{".", "tsc -p missing.json", RequireApproval},
		{".", "./node_modules/.bin/tsc -p policy", Deny},
	} {
		d := e.Decide(Request{Action: ActionTerminalCreate, Command: c.line, Cwd: filepath.Join(root, c.dir)})
		if d.Value != c.want {
			t.Errorf("%q in %s: %v (%s); want %v", c.line, c.dir, d.Value, d.Reason, c.want)
		}
	}
}

// TestReadTSConfig: a tsconfig's comments and trailing commas are read
// past and text inside strings kept; names are read case-exact, as tsc reads
// them (a "CompilerOptions" is not its compilerOptions), and a name given
// twice, or what is no JSON with comments, is an error.
func TestReadTSConfig(t *testing.T) {
	for _, c := range []struct {
		text, outFile string
		files         int
		bad           bool
	}{
		{text: `{"compilerOptions": {"outFile": "a.js",},}`, outFile: `"a.js"`},
		{text: "{// x\n\"compilerOptions\": {\"outFile\": \"//b\"}}", outFile: `"//b"`},
		{text: `{/* x */"compilerOptions": {"outFile": "/*,}"}}`, outFile: `"/*,}"`},
		{text: `{"files": ["x.ts", "y.ts" , ] , }`, files: 2},
		{text: `{"compilerOptions": {"outFile": "a.js"}, "CompilerOptions": {"outFile": "b.js"}}`, outFile: `"a.js"`},
		{text: `{"CompilerOptions": {"outFile": "GOVERNANCE.md"}}`},
		{text: `{"files": ["k.ts"], "files": []}`, bad: true},
		{text: `{"compilerOptions": {"outFile": "a.js", "outFile": "b.js"}}`, bad: true},
		{text: `{"a": 1 /* unterminated`, bad: true},
		{text: `{"a": "unterminated`, bad: true},
	} {
		var cfg tsconfig
		err := readTSConfig(c.text, &cfg)
		if c.bad {
			if err == nil {
				t.Errorf("readTSConfig(%q) = %+v; want an error", c.text, cfg)
			}
			continue
		}
		if err != nil {
			t.Errorf("readTSConfig(%q): %v", c.text, err)
			continue
		}
		if got := string(cfg.CompilerOptions["outFile"]); got != c.outFile || len(cfg.Files) != c.files {
			t.Errorf("readTSConfig(%q): outFile %s, %d files; want %s, %d", c.text, got, len(cfg.Files), c.outFile, c.files)
		}
	}
}
