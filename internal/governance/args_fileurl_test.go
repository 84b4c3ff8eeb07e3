package governance

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// TestFileURLs: a file: URL given to any program is decided as the local
// path it names, percent-decoded, as a read, and as a write where the
// program writes it (curl -T, gio's copy, move, save, trash, rename, set);
// curl's own globbing of a URL or of -T's value is expanded; a URL of
// another host, an escape that is none, or a glob too large is asked about.
func TestFileURLs(t *testing.T) {
	root := tempTree(t, []string{"secrets", "src", "x", ".git"},
		[]string{".env", "secrets/a.key", "secrets/c.txt", "src/a.txt", "x/a.key", "x/b.key", ".git/config"})
	out := tempTree(t, nil, []string{".bashrc", "victim.txt"})
	for name, text := range map[string]string{
		"up.cfg":      "upload-file = \"src/a.txt\"\nurl = \"file://" + root + "/secrets/a%2ekey\"\n",
		"upload.cfg":  "upload-file = \"src/a.txt\"\n",
		"url.cfg":     "url = \"file://" + root + "/%2eenv\"\n",
		"pd.cfg":      "proto-default = file\n",
		"pdurl.cfg":   "--proto-default FILE\nurl = \"" + root + "/%2eenv\"\n",
		"pdnest.cfg":  "config = pd.cfg\n",
		"pdhttps.cfg": "proto-default = https\n",
	} {
		if err := os.WriteFile(filepath.Join(root, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	p := writePolicy(t, filepath.Join(root, "GOVERNANCE.md"), "  default: allow\n  deny:\n    - Edit(./secrets/*.key)\n    - Read(**/.env)\n")
	e := NewEngine(p, EngineOptions{Roots: []string{root}, Protected: SelfProtected(p, nil)})
	checkNamedLines(t, e, root, namedLineCases(t, "file_url_lines.txt", map[string]string{"$ROOT": root, "$OUT": out}))
}

// TestFileURLPaths: the paths a file URL names, and the URLs the bridge
// cannot place.
func TestFileURLPaths(t *testing.T) {
	for _, tt := range []struct {
		url   string
		want  string // one of the paths
		asked bool
	}{
		{"file:///ws/%2eenv", "/ws/.env", false},
		{"FILE:///ws/a", "/ws/a", false},
		{"file:/ws/a", "/ws/a", false},
		{"file://localhost/ws/a", "/ws/a", false},
		{"file://LocalHost/ws/a", "/ws/a", false},
		{"file:///ws/a%2fb", "/ws/a/b", false},
		{"file:///ws/x/%2e%2e/.env", "/ws/.env", false},
		{"file:///ws/x/../.env", "/ws/.env", false},
		{"file:///ws/.env?q", "/ws/.env", false},
		{"file:///ws/.env?q", "/ws/.env?q", false},
		{"file:///ws/.env#f", "/ws/.env", false},
		{"file:../pkg", "../pkg", false},
		{"file:///ws/", "/ws/", false},
		{"file://host/ws/a", "", true},
		{"file://user@localhost/ws/a", "", true},
		{"file:///ws/%zz", "", true},
		{"file:///ws/%2", "", true},
		{"file:///ws/%00", "", true},
		{"file:// is text", "", false},
		{"file://", "", false},
	} {
		paths, why := fileURLPaths(tt.url)
		if (why != "") != tt.asked {
			t.Errorf("fileURLPaths(%q) asks %q; want asked %v", tt.url, why, tt.asked)
		}
		if tt.want != "" && !slices.Contains(paths, tt.want) {
			t.Errorf("fileURLPaths(%q) = %q; want %q among them", tt.url, paths, tt.want)
		}
	}
}

// TestCurlGlob: curl's own globbing of a URL, and the patterns it refuses.
func TestCurlGlob(t *testing.T) {
	for _, tt := range []struct {
		in   string
		want []string // nil: refused
	}{
		{"a{b,c}d", []string{"abd", "acd"}},
		{"{.e,}nv", []string{".env", "nv"}},
		{".e[m-n]v", []string{".emv", ".env"}},
		{"x[1-3]", []string{"x1", "x2", "x3"}},
		{"x[08-10]", []string{"x08", "x09", "x10"}},
		{"x[a-e:2]", []string{"xa", "xc", "xe"}},
		{`a\{b\}`, []string{"a{b}"}},
		{"{a\\,b,c}", []string{"a,b", "c"}},
		{"a[]b", []string{"a[]b"}},
		{"a{b", nil},
		{"a}b", nil},
		{"a[1-", nil},
		{"{a,{b}}", nil},
		{"[z-a]", nil},
		{"[x]", nil},
		{"[a-z][a-z][a-z]", nil},
	} {
		got, err := curlGlob(tt.in, maxGlobMatches)
		if tt.want == nil {
			if err == nil {
				t.Errorf("curlGlob(%q) = %q; want refused", tt.in, got)
			}
			continue
		}
		if err != nil || !slices.Equal(got, tt.want) {
			t.Errorf("curlGlob(%q) = %q, %v; want %q", tt.in, got, err, tt.want)
		}
	}
}
