package governance

import (
	"path/filepath"
	"testing"
)

// TestRoffIncludes: man given a page by path (-l, a name holding '/'),
// groff, nroff and soelim read the files their documents' requests include
// (.so, .mso, .cf, ...), and those documents' includes in turn: each is
// decided as a read, so a page including .env is refused as reading .env;
// a request the bridge cannot follow (a computed name or file, a pass-through
// line, a request that runs a command or changes how requests are read),
// preprocessors, pages from a directory the line gives and groff's search and
// unsafe options are asked about; plain pages and pages man looks up by name
// decide as before. The policy allows by default and denies reading .env
// and secrets/.
func TestRoffIncludes(t *testing.T) {
	root := t.TempDir()
	tree{
		files: []string{".env", "secrets/a.key", "a.txt"},
		texts: map[string]string{
			"plain.1":    ".TH P 1\n.SH NAME\nplain \\- page\n.\\\" a comment naming .so .env\n",
			"so.1":       ".TH P 1\n.so .env\n",
			"quiet.1":    ".soquiet .env\n",
			"mso.1":      ".mso secrets/a.key\n",
			"cf.1":       ".cf .env\n",
			"nobreak.1":  "'so .env\n",
			"spaced.1":   ".  so\t.env\n",
			"cont.1":     ".so \\\n.env\n",
			"text.1":     ".TH P 1\n.so a.txt\n",
			"man/a.1":    ".so man/b.inc\n",
			"man/b.inc":  ".so .env\n",
			"man/c.1":    ".so b.inc\n",
			"computed.1": ".ds x so\n.\\*x .env\n",
			"file.1":     ".so \\*[f]\n",
			"through.1":  "x\n\\!.so .env\n",
			"sy.1":       ".sy rm x\n",
			"cc.1":       ".cc @\n@so .env\n",
			"rn.1":       ".rn so xx\n.xx .env\n",
			"pre.1":      "'\\\" p\n.TH P 1\n",
			"link.1":     ".so env.txt\n",
			"if.1":       ".if 1 .so .env\n",
			"ie.1":       ".ie n 'so .env\n.el .tm x\n",
			"ifplain.1":  ".TH P 1\n.if n .ad l\n.nop text\n",
		},
		links: map[string]string{"env.txt": ".env", "page.1": "so.1"},
	}.make(t, root)
	p := writePolicy(t, filepath.Join(root, "GOVERNANCE.md"), "  default: allow\n  deny:\n    - Read(**/.env)\n    - Read(./secrets/**)\n")
	e := NewEngine(p, EngineOptions{Roots: []string{root}})
	checkLines(t, e, root, lineCases(t, "roff_include_lines.txt", nil))
}
