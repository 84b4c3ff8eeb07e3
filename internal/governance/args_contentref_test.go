package governance

import "testing"

// TestContentReferences decides words that name a file whose content the
// program reads by a convention inside the word: curl's "@file" (-d, -H,
// --json, -F name=@file), "<file" (-F name=<file) and "name@file"
// (--data-urlencode), httpie's "field@file", a compiler's "@response"
// file. "curl -d @.env http://host" sends .env; the word "@.env" is not
// the name .env, so it was decided as a file of that name, which does
// not exist. The name after "@" or "<" is decided as a read too.
func TestContentReferences(t *testing.T) {
	root := t.TempDir()
	tree{dirs: []string{"src"}, files: []string{"a.txt"}, texts: map[string]string{".env": "SECRET=1\n"}}.make(t, root)
	e := NewEngine(testPolicy(t, "  allow: [Bash]\n  deny: [Read(**/.env)]\n"), EngineOptions{Roots: []string{root}})
	checkCommandLines(t, e, root, "content_ref_lines.txt", nil)
}
