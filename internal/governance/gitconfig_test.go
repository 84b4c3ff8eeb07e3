package governance

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// gitConfigSeeds are configuration texts git reads (and some it refuses),
// each with a core.hooksPath somewhere or nowhere.
var gitConfigSeeds = []string{
	"[core]\n\thooksPath = tools/hooks\n",
	"[CORE]\n\tHOOKSPATH = tools/hooks\n",
	"[core] hooksPath = a\n",
	"[core]\n\thooksPath = \"a b\" ; c\n",
	"[core]\n\thooksPath = a \\\n b\n",
	"[core]\n\thooksPath = \"a\\\"b\\\\c\\td\"\n",
	"[core]\n\thooksPath = a # c\n\thooksPath = b\n",
	"[core \"x\"]\n\thooksPath = a\n",
	"[core.x]\n\thooksPath = a\n",
	"[include]\n\tpath = x\n[core]\nhooksPath=a   \n",
	"[includeIf \"gitdir:~/w/\"]\n\tpath = x\n",
	"[core]\n\tbare\n\thooksPath =\n",
	"; c\n# c\n\n[core]\r\n\thooksPath = a\r\n",
	"[core]\n\thooksPath = \"a\n",
	"[core\n\thooksPath = a\n",
	"hooksPath = a\n",
	"[core]\n\thooksPath = a\\q\n",
	"[core]\n\t1x = a\n",
	"[core]\n\thooks_path = a\n",
	"[sec \"a\\\"b\"]\n\tk = v\n",
}

// TestParseGitConfigAsGit holds parseGitConfig to git itself: for each
// seed, either both refuse it, or core.hooksPath's values are the same
// (git config --file F --get-all core.hooksPath).
func TestParseGitConfigAsGit(t *testing.T) {
	git, err := exec.LookPath("git")
	if err != nil {
		t.Fatalf("git is needed to check the parser against: %v", err)
	}
	dir := t.TempDir()
	for i, src := range gitConfigSeeds {
		f := filepath.Join(dir, "config")
		if err := os.WriteFile(f, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
		cmd := exec.Command(git, "config", "--file", f, "--no-includes", "--get-all", "core.hooksPath")
		cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "HOME="+dir)
		out, gitErr := cmd.Output()
		gitRefused := false
		if ee, ok := gitErr.(*exec.ExitError); ok && ee.ExitCode() != 1 { // 1: no such variable
			gitRefused = true
		}
		entries, err := parseGitConfig(src)
		if (err != nil) != gitRefused {
			t.Errorf("seed %d %q: parse error %v; git refused it: %v", i, src, err, gitRefused)
			continue
		}
		if err != nil {
			continue
		}
		var got []string
		for _, en := range entries {
			if en.section == "core" && en.sub == "" && en.key == "hookspath" {
				got = append(got, en.value+"\n")
			}
		}
		if strings.Join(got, "") != string(out) {
			t.Errorf("seed %d %q: core.hooksPath %q; git reads %q", i, src, strings.Join(got, ""), out)
		}
	}
}

// FuzzParseGitConfig checks that parseGitConfig never panics or hangs,
// and that every entry it returns has a lower-case section and key.
func FuzzParseGitConfig(f *testing.F) {
	for _, s := range gitConfigSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		entries, err := parseGitConfig(src)
		if err != nil {
			return
		}
		for _, en := range entries {
			if en.section != strings.ToLower(en.section) || en.key != strings.ToLower(en.key) || en.section == "" || en.key == "" {
				t.Fatalf("entry %+v of %q", en, src)
			}
		}
	})
}
