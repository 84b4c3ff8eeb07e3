package governance

import "testing"

// TestReviewProtectedForms checks self-protection against further forms of
// this session's judgements (links at protected names, git checkout and
// restore, other program names, glob operands) and that ordinary developer
// commands still pass.
func TestReviewProtectedForms(t *testing.T) {
	e, root, _ := protectedWorkspace(t)
	tree{
		dirs:  []string{"lib", "vendor", "evil", "build", "y/.claude", "evilrepo/.git", "sub"},
		files: []string{"script.sh", "evil/settings.json", "build/out"},
	}.make(t, root)
	checkProtectedLines(t, e, root, []protectedLine{
		// Ordinary commands. ("ln -s ../lib vendor/lib" is denied: the
		// engine reads a link's target from the working directory, not
		// from the link's; so it was at 0e3d9ac.)
		{"cd src && go test ./...", Allow, ""},
		{"git status", Allow, ""},
		{"git checkout main", Deny, "changes files of the work tree"},
		{"git restore --staged src/a.go", Allow, ""},
		{"git restore src/a.go", Allow, ""},
		{"git checkout HEAD -- src/a.go", Allow, ""},
		{"chmod +x script.sh", Allow, ""},
		{"ln -s lib vendor/lib", Allow, ""},
		{"rm -rf build/*", Allow, ""},
		{"mv build/* lib/", Allow, ""},
		{"cp -r lib/. vendor/", Allow, ""},
		// Links whose name comes from the source, or written another
		// way. A name known only when the line runs is asked about.
		{"ln -s -t . evil/.claude", Deny, "protected"},
		{"ln -st . evil/.claude", Deny, "protected"},
		{"ln -s y/.claude .", Deny, "protected"},
		{"ln -s $PWD/y/.claude .", Deny, "protected"},
		{"cp -rs y/.claude .", Deny, "protected"},
		{"ln -s evil ./.claude", Deny, "protected"},
		{"ln -s evil src/../.claude", Deny, "protected"},
		{"ln -s evil .claude/", Deny, "protected"},
		{"ln -sT evil .claude", Deny, "protected"},
		{"cd src && ln -s ../evil ../.claude", Deny, "protected"},
		{"ln -s evil .Claude", Deny, "protected"},
		{"ln -s evil .c\u200claude", Deny, "protected"},
		{"ln -s evil ~+/.claude", Deny, "protected"}, // bash's $PWD: read as ./.claude
		{"ln -s {evil,.claude}", Deny, "protected"},
		{"ln -s evil{,} .claude", Deny, "protected"},
		{"mv {audit,old}", Deny, "the audit log"},
		{"gln -s evil .claude", Deny, "protected"},
		// git forms.
		{"git restore -SW audit", Deny, "the audit log"},
		{"git restore -WS audit", Deny, "the audit log"},
		{"git restore -W --staged audit", Deny, "the audit log"},
		{"git restore --source=HEAD~1 audit", Deny, "the audit log"},
		{"git restore --pathspec-from-file=list", RequireApproval, ""},
		{"git checkout --pathspec-from-file=list HEAD", Deny, "changes files of the work tree"},
		{"git rm -r --pathspec-from-file=list", RequireApproval, ""},
		{"git -c alias.co=checkout co -- audit", Deny, "the audit log"}, // the alias is read through
		{"git -c alias.co='!git checkout' co -- audit", Deny, "the audit log"},
		{"cd src && git -C .. checkout -- audit", Deny, "the audit log"},
		{"git checkout -- ./audit", Deny, "the audit log"},
		{"git checkout -f HEAD -- .", Deny, "protected"},
		// Past "--", --cached and --staged are pathspecs: git removes or
		// restores audit (and a tracked file of that name).
		{"git rm -r -- audit --cached", Deny, "the audit log"},
		{"git restore -- audit --staged", Deny, "the audit log"},
		{"git checkout -- audit --cached", Deny, "the audit log"},
		{"git checkout HEAD -- audit --staged", Deny, "the audit log"},
		{"git mv -- audit --cached", Deny, "the audit log"},
		{"git rm -r --cached -- audit", Allow, ""},
		{"git checkout-index -f -a", Deny, "protected"},
		{"git checkout-index --all --force", Deny, "protected"},
		{"git -C src checkout-index -f -a", Allow, ""},
		{"git checkout-index -f -- src/a.go", Allow, ""},
		// git writes a repository's files where clone, worktree add and
		// submodule add say: the repository decides what they are.
		{"git clone evilrepo .claude", Deny, "protected"},
		{"git clone -q ./evilrepo .claude/", Deny, "protected"},
		{"git clone y/.claude", Deny, "protected"},
		{"git clone evil.git .zed", Deny, "protected"},
		{"mkdir .claude && git clone evilrepo .claude", Deny, "protected"},
		{"git clone evilrepo sub/.claude", Deny, "protected"},
		{"git worktree add .claude main", Deny, "protected"},
		{"git submodule add ./evilrepo .gemini", Deny, "protected"},
		{"git clone evilrepo .git/hooks", Deny, "protected"},
		{"git clone https://example.com/x/y.git", Allow, ""},
		{"git clone https://example.com/x/y.git vendor/y", Allow, ""},
		{"git clone . backup", Allow, ""},
		{"git worktree add wt topic", Allow, ""},
		{"git submodule add https://example.com/x/lib.git vendor/lib", Allow, ""},
		{"git restore --staged -- audit", Allow, ""},
		// Other program names: the coreutils multi-call binary (uutils',
		// GNU's single binary) and Homebrew's uutils names.
		{"coreutils --coreutils-prog=mv audit old", Deny, "the audit log"},
		{"coreutils mv audit old", Deny, "the audit log"},
		{"uu-mv audit old", Deny, "the audit log"},
		{"busybox mv audit old", Deny, "the audit log"},
		{"/opt/homebrew/bin/gmv audit old", Deny, "the audit log"},
		{"command gmv audit old", Deny, "the audit log"},
		{"fd . audit --exec=rm", Deny, "the audit log"},
		{"fd -HIx rm . audit", Deny, "protected"},
		// find's own options come before its starting points, and with
		// none it starts at ".": each of these deletes the audit log.
		{"find -delete", Deny, "protected"},
		{"find -name *.jsonl -delete", Deny, "protected"},
		{"find ! -name x -delete", Deny, "protected"},
		{"cd audit && find -delete", Deny, "the audit log"},
		{"find -L audit -name x -delete", Deny, "the audit log"},
		{"find -H -L -P audit -delete", Deny, "the audit log"},
		{"find -D tree audit -delete", Deny, "the audit log"},
		{"find -O3 audit -delete", Deny, "the audit log"},
		{"find -L -- audit -delete", Deny, "the audit log"},
		{"find -d -f audit -delete", Deny, "the audit log"},
		{"gfind -L audit -delete", Deny, "the audit log"},
		{"bfs -L audit -delete", Deny, "the audit log"},
		{"find -L src -delete", Allow, ""},
		{"find src -name *.o -delete", Allow, ""},
		{"find -name *.go", Allow, ""},
		// Other programs that delete or move what they name.
		{"srm -r audit", Deny, "the audit log"},
		{"wipe -rf audit", Deny, "the audit log"},
		{"gio trash audit", Deny, "the audit log"},
		{"gio move audit old", Deny, "the audit log"},
		{"gio rename audit old", Deny, "the audit log"},
		{"7z a -sdel x.7z audit", Deny, "the audit log"},
		{"7z a x.7z audit", Allow, ""},
		{"gio trash src/a.go", Allow, ""},
		{"gio info audit", Allow, ""},
		// Glob and brace operands.
		{"mv {aud,x}it old", Deny, "the audit log"},
		{"rm -r {audit,}", Deny, "the audit log"},
		{"mv ~+/aud* old", RequireApproval, ""},
		{"rm -r ./a*/", Deny, "protected"},
	})
}

// TestReviewProtectedFolding checks that self-protection's element test
// (protected.tail: a path reaches workspace configuration only with an
// element starting as its rel does) holds for the forms a case-insensitive
// file system folds together: upper case, the long s and the Kelvin sign,
// code points HFS+ ignores at an element's start or end, and paths with
// "..", "//" or a cd.
func TestReviewProtectedFolding(t *testing.T) {
	e, root, _ := protectedWorkspace(t)
	tree{
		dirs:  []string{".git/hooks", "sub/.git", "src/.claude"},
		files: []string{".git/config", ".claude/settings.json", "sub/.git/config", "src/.claude/settings.json", "lefthook.yml"},
	}.make(t, root)
	tests := protectedLines(root, []protectedLine{
		{"rm -rf .GIT", Deny, "protected"},
		{"rm -rf .g\u200cit", Deny, "protected"},
		{"rm -rf \u200c.git", Deny, "protected"},
		{"rm -rf .git\u200c", Deny, "protected"},
		{"mv .claude/\u017fettings.json x", Deny, "protected"},
		{"mv .claude/SETTINGS.JSON x", Deny, "protected"},
		{"rm -rf sub/.GIT", Deny, "protected"},
		{"rm -rf sub/\ufeff.git", Deny, "protected"},
		{"rm src/.claude/settings.json", Deny, "protected"},
		{"rm src/\u200d.claude/settings.json", Deny, "protected"},
		{"rm src/.\u212alaude/settings.json", Allow, ""},
		{"rm LEFTHOOK.YML", Deny, "protected"},
		{"rm \u200dlefthook.yml", Deny, "protected"},
		{"rm ./sub/../lefthook.yml", Deny, "protected"},
		{"rm sub//../lefthook.yml", Deny, "protected"},
		{"cd src && rm ../lefthook.yml", Deny, "protected"},
		{"cd .git && rm config", Deny, "protected"},
		{"cd .GIT && touch x", Deny, "protected"},
	})
	for _, p := range []string{".GIT/config", ".g\u200cit/config", "src/\ufeff.claude/settings.json", ".claude/\u017fettings.json", "sub/../.git/hooks/x"} {
		tests = append(tests, protectedCase{name: "write " + p, req: Request{Action: ActionFSWrite, Paths: []string{root + "/" + p}}, want: Deny, what: "protected"})
	}
	checkProtected(t, e, root, tests)
}
