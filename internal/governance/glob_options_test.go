package governance

import (
	"os"
	"path/filepath"
	"testing"
)

// TestGlobWordsUnderShellOptions decides command lines whose glob words a
// shell expands to more names than its defaults match: with bash's dotglob
// ("shopt -s dotglob", bash -O dotglob, GLOBIGNORE, or a start-up file such
// as the ~/.bashrc an IDE's "bash -i" reads) "*nv" matches .env, and with
// nocaseglob (zsh's NO_CASE_GLOB too) ".EN?" does. Each glob is decided on
// every name a shell with any of those options could expand it to, so
// "cat *nv" meets the rule refusing to read .env whatever the line or the
// person's shell sets; ordinary globs stay allowed.
func TestGlobWordsUnderShellOptions(t *testing.T) {
	root := tempTree(t, []string{"src", "Keys"}, []string{"a.txt", "src/main.go", "src/.env.example"})
	for _, f := range []string{".env", "src/.env", "Keys/ID_RSA"} {
		if err := os.WriteFile(filepath.Join(root, f), []byte("SECRET=1\n"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	e := NewEngine(testPolicy(t, "  allow: [Bash]\n  deny: [Read(**/.env), Read(**/id_rsa)]\n"), EngineOptions{Roots: []string{root}})
	checkCommandRows(t, e, root, []commandRow{
		{"shopt -s dotglob; cat *nv", Deny},
		{"shopt -s dot''glob; cat *nv", Deny},
		{"cat *nv", Deny}, // dotglob may come from the shell's start-up files
		{"GLOBIGNORE=x cat *", Deny},
		{"bash -O dotglob -c 'cat *nv'", Deny},
		{"shopt -s nocaseglob; cat .EN?", Deny},
		{"shopt -s nocaseglob; cat .[E]NV", Deny},
		{"bash -O nocaseglob -c 'cat .EN?'", Deny},
		{"setopt NO_CASE_GLOB; cat .EN?", Deny},
		{"shopt -s dotglob; cat src/*", Deny},
		{"shopt -s nocaseglob dotglob; cat SRC/*NV", Allow}, // a plain element is not matched: no SRC
		{"cat src/*/x", Allow},
		{"cat keys/id_rs?", RequireApproval}, // id_rs? may match id_rsa once the line runs
		{"shopt -s nocaseglob; cat Keys/id_rs?", Deny},
		{"cat *.txt", Allow},
		{"cat a*", Allow},
		{"grep -n main src/*.go", Allow},
		{"ls", Allow},
		// bash expands a redirection's glob that matches one name.
		{"cat < *nv", Deny},
		{"shopt -s nocaseglob; cat < .EN?", Deny},
		{"cat <> .e*", Deny},
		{"cat < a*", RequireApproval},
	})
}
