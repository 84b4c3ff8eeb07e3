package governance

import (
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/acp-bridge/acp-bridge/internal/shellcmd"
)

// treeWriteWorkspace builds a workspace whose policy allows every command
// and edit but editing keys/*.key and reading vault/*.pem: keys holds a
// key and a note, src plain files, src2 a key to copy in, vault a
// certificate, links a link to the key (and kk, dangling there, one that
// leads to it from the top), evil a keys directory of its own
// (evil2/keys leads there), lk, d/k and d2/keys lead to keys, old and empty are
// empty, and a.key and a.txt lie at the top; other is a directory outside
// the workspace.
func treeWriteWorkspace(t *testing.T) (*Engine, string, string) {
	t.Helper()
	tmp := t.TempDir()
	root, other := filepath.Join(tmp, "ws"), filepath.Join(tmp, "other")
	tree{
		dirs: []string{"ws/links", "ws/old", "ws/empty", "ws/evil2", "ws/d", "ws/d2"},
		files: []string{"ws/keys/a.key", "ws/keys/notes.txt", "ws/src/a.go", "ws/src/b/c.go", "ws/src2/b.key",
			"ws/vault/x.pem", "ws/a.key", "ws/a.txt", "ws/evil/keys/a.key", "ws/stage/keys/a", "ws/keys/a", "other/f"},
		links: map[string]string{"ws/links/k": "../keys/a.key", "ws/src/out": "../../other", "ws/lk": "keys",
			"ws/evil2/keys": "../evil/keys", "ws/d/k": "../keys", "ws/d2/keys": "../keys", "ws/links/kk": "keys/a.key"},
	}.make(t, tmp)
	p := testPolicy(t, "  default: allow\n  allow: [Read, Edit, Bash]\n  deny:\n    - Edit(./keys/*.key)\n    - Read(./vault/*.pem)\n")
	return NewEngine(p, EngineOptions{Roots: []string{root}}), root, other
}

// lineDecision is a command line run at the workspace's top and the
// decision it wants; what is a text of the reason when it is refused.
type lineDecision struct {
	name, line string
	want       Value
	what       string
}

// checkLineDecisions decides each line of tests as a terminal's command
// run in root.
func checkLineDecisions(t *testing.T, e *Engine, root string, tests []lineDecision) {
	t.Helper()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) { checkLineDecision(t, e, root, tt.line, tt.want, tt.what) })
	}
}

// checkLineDecision decides line as a terminal's command run in cwd, as
// the first line of a run, and checks that it gets want and, unless allowed, a reason holding what.
func checkLineDecision(t *testing.T, e *Engine, cwd, line string, want Value, what string) {
	t.Helper()
	// Each line is decided as the first of its run: none of the links
	// the lines before it would make were made.
	e.made.forget()
	d := e.Decide(Request{Action: ActionTerminalCreate, Command: line, Cwd: cwd})
	if d.Value != want || want != Allow && !strings.Contains(d.Reason, what) {
		t.Errorf("Decide(%q) = %v (ref %s: %s); want %s about %q", line, d.Value, d.Ref, d.Reason, want, what)
	}
}

// TestDecideTreeWrite checks that a command that changes files without
// naming them (a directory it deletes, moves or changes whole, a place a
// copy into a directory puts a source) is decided as changing each of
// them by name would, and that one changing no file a rule protects runs.
func TestDecideTreeWrite(t *testing.T) {
	e, root, other := treeWriteWorkspace(t)
	tests := []lineDecision{
		{"rm -r of a directory holding a key", "rm -rf keys", Deny, "keys/a.key"},
		{"find -delete", "find keys -delete", Deny, "keys/a.key"},
		{"find -delete of a glob", "find k* -name '*.key' -delete", Deny, "keys/a.key"},
		{"find -delete of every file", "find keys -type f -delete", Deny, "keys/a.key"},
		{"find -delete with -o picks every entry", "find keys -name '*.txt' -o -name x -delete", Deny, "keys/a.key"},
		{"find with a comma after -delete", "find keys -name '*.tmp' -delete , -delete", Deny, "keys/a.key"},
		{"mv -t in a cluster", "mv -vt old keys", Deny, "keys/a.key"},
		{"mv --target abbreviated", "mv --target old keys", Deny, "keys/a.key"},
		{"mv -t moving a certificate", "mv -vt old vault", Deny, "vault/x.pem"},
		{"cp -t attached", "cp -tkeys a.key", Deny, "keys/a.key"},
		{"cp -t in a cluster", "cp -vt keys a.key", Deny, "keys/a.key"},
		{"cp --target-dir abbreviated", "cp --target-dir=keys a.key", Deny, "keys/a.key"},
		{"install -Dt", "install -Dt keys a.key", Deny, "keys/a.key"},
		{"cp with -S after the operands", "cp a.key keys -S .bak", Deny, "keys/a.key"},
		{"install with -m after the operands", "install a.key keys -m 644", Deny, "keys/a.key"},
		{"ln -t with -f", "ln -f -t keys a.key", Deny, "keys/a.key"},
		{"cp -lf -t", "cp -lf -t keys a.key", Deny, "keys/a.key"},
		{"cp -rT merges into the directory", "cp -rT evil/keys keys", Deny, "keys/a.key"},
		{"cp -r --no-target merges", "cp -r --no-target evil/keys keys", Deny, "keys/a.key"},
		{"cp -r of src/./", "cp -r evil/keys/./ keys", Deny, "keys/a.key"},
		{"cp --parents keeps the path", "cd evil && cp --parents keys/a.key ..", Deny, "keys/a.key"},
		{"rsync -R keeps the path", "cd evil && rsync -R keys/a.key ..", Deny, "keys/a.key"},
		{"cp -ln into a link to the directory", "cp -ln a.key lk", Deny, "keys/a.key"},
		{"cp -rL follows a linked source", "cp -rL evil2/keys .", Deny, "keys/a.key"},
		{"cp -rH follows a linked source", "cp -rH evil2/keys .", Deny, "keys/a.key"},
		{"chmod -R of a link to the directory", "chmod -R 0 lk", Deny, "keys/a.key"},
		{"chown -R -L follows links beneath", "chown -R -L nobody d", Deny, "keys/a.key"},
		{"rsync --del", "rsync -a --del empty/ keys/", Deny, "keys/a.key"},
		{"git --work-tree checkout", "git --work-tree=keys checkout HEAD -- a.key", Deny, "keys/a.key"},
		{"git --work-tree restore", "git --work-tree keys restore a.key", Deny, "keys/a.key"},
		{"git checkout-index --prefix", "git checkout-index -f --prefix=keys/ a.key", Deny, "keys/a.key"},
		{"git stash of a pathspec", "git stash -- keys", Deny, "keys/a.key"},
		{"git stash push -p of a pathspec", "git stash push -p -- keys", Deny, "keys/a.key"},
		{"chmod -R", "chmod -R 0 keys", Deny, "keys/a.key"},
		{"mv of the directory", "mv keys old", Deny, "keys/a.key"},
		{"mv of a directory holding a certificate reads it under the new name", "mv vault public", Deny, "vault/x.pem"},
		{"git checkout of a pathspec", "git checkout -- keys", Deny, "keys/a.key"},
		{"git checkout of a file", "git checkout HEAD~1 -- keys/a.key", Deny, "keys/a.key"},
		{"git restore", "git restore --source HEAD~1 keys", Deny, "keys/a.key"},
		{"git rm -r", "git rm -r keys", Deny, "keys/a.key"},
		{"git mv", "git mv keys/a.key a2.key", Deny, "keys/a.key"},
		{"git checkout-index", "git checkout-index -f keys/a.key", Deny, "keys/a.key"},
		{"git clean of a directory", "git clean -fd keys", Deny, "keys/a.key"},
		{"git -C rm", "git -C keys rm a.key", Deny, "keys/a.key"},
		{"cp into the directory", "cp a.key keys", Deny, "keys/a.key"},
		{"cp into the directory with a slash", "cp a.key keys/", Deny, "keys/a.key"},
		{"cp -t", "cp -t keys a.key", Deny, "keys/a.key"},
		{"mv into the directory", "mv a.key keys", Deny, "keys/a.key"},
		{"install into the directory", "install a.key keys", Deny, "keys/a.key"},
		{"ln -s into the directory", "ln -s ../a.key keys", Deny, "keys/a.key"},
		{"rsync of a file into the directory", "rsync a.key keys/", Deny, "keys/a.key"},
		{"cp -r of a directory's content", "cp -r src2/. keys", Deny, "keys/b.key"},
		{"cp -r into a destination whose subdirectory leads to keys", "cp -r evil/. d2", Deny, "keys/a.key"},
		{"rsync -a of a directory's content", "rsync -a src2/ keys", Deny, "keys/b.key"},
		{"cp of a glob into the directory", "cp *.key keys", Deny, "keys/a.key"},
		{"tar --remove-files", "tar --remove-files -cf k.tar keys", Deny, "keys/a.key"},
		{"tar -C with --remove-files", "tar -C keys -cf k.tar --remove-files a.key", Deny, "keys/a.key"},
		{"zip -m", "zip -m k.zip keys/a.key", Deny, "keys/a.key"},
		{"zip -rm", "zip -rm k.zip keys", Deny, "keys/a.key"},
		{"find -name with a negated class", "find keys -name '[!b]*' -delete", Deny, "keys/a.key"},
		{"find -name with a character class", "find keys -name '[[:alpha:]].key' -delete", Deny, "keys/a.key"},
		{"find -delete before its tests", "find keys -delete -name nothing", Deny, "keys/a.key"},
		{"find -printf's value is no test", "find keys -printf -name -delete", Deny, "keys/a.key"},
		{"find -exec's words are no tests", "find keys -exec true -name x ';' -delete", Deny, "keys/a.key"},
		{"find -L of a link to the directory", "find -L lk -delete", Deny, "keys/a.key"},
		{"chmod --recursive abbreviated", "chmod --recur 000 keys", Deny, "keys/a.key"},
		{"gzip --recursive abbreviated", "gzip --rec keys", Deny, "keys/a.key"},
		{"cp --sparse's value", "cp a.key keys --sparse always", Deny, "keys/a.key"},
		{"cp --no-preserve's value", "cp a.key keys --no-preserve all", Deny, "keys/a.key"},
		{"rsync --max-alloc's value", "rsync -a evil/keys/ keys --max-alloc 1G", Deny, "keys/a.key"},
		{"install -Z takes no value", "install -Z a.key keys", Deny, "keys/a.key"},
		{"cp -r of a directory's ..", "cp -rv evil/keys/.. .", Deny, "keys/a.key"},
		{"scp into the directory", "scp a.key keys", Deny, "keys/a.key"},
		{"fd running a command on what it finds", "fdfind . keys -x rm", Deny, "keys/a.key"},
		{"git checkout -f puts the tracked files back", "git checkout -f", RequireApproval, "changes files of the work tree"},
		{"sed -i's backup lands on the key", "sed -i.key s/x/y/ keys/a", Deny, "keys/a.key"},
		{"sed -i's backup in the keys directory", "sed --in-place='keys/*' s/x/y/ a.key", Deny, "keys/a.key"},
		{"util-linux rename onto the key", "rename b.txt a.key keys/b.txt", Deny, "keys/a.key"},
		{"a tree copy's backup lands on the key", "cp -rb -S .key stage/keys .", Deny, "keys/a.key"},
		{"go mod vendor -o empties the directory", "go mod vendor -o keys", Deny, "keys/a.key"},
		{"python3 -m venv --clear empties it", "python3 -m venv --clear keys", Deny, "keys/a.key"},
		{"go test -outputdir holds the profile", "go test -outputdir keys -coverprofile a.key ./...", Deny, "keys/a.key"},
		{"go test -outputdir= with -test.cpuprofile=", "go test -outputdir=keys -test.cpuprofile=a.key ./...", Deny, "keys/a.key"},
		{"rsync's backup with --suffix", "rsync -rb --suffix=.key stage/keys .", Deny, "keys/a.key"},
		{"a cd, then rm -r", "cd keys && rm -rf .", Deny, "keys/a.key"},
		{"run by a wrapper", "timeout 5 find keys -delete", Deny, "keys/a.key"},
		{"find -delete outside the workspace", "find " + other + " -delete", Deny, "outside the workspace"},
		{"git rm -r outside the workspace", "git rm -r ../other", Deny, "outside the workspace"},

		{"rm -r of a directory holding a link to a key, as rm of the link is", "rm -rf links", Deny, "links/k"},

		{"rm -r of a directory without keys, a link beneath leading out", "rm -rf src", Allow, ""},
		{"find -delete of a directory without keys", "find src -name '*.o' -delete", Allow, ""},
		{"find without an action in a directory holding a key", "find keys -type f -print", Allow, ""},
		{"chmod -R of a directory without keys", "chmod -R u+w src", Allow, ""},
		{"mv of a directory without certificates", "mv src src3", Allow, ""},
		{"git rm of a file", "git rm src/a.go", Allow, ""},
		{"git checkout of a branch", "git checkout -b topic", Allow, ""},
		{"cp of a note into the directory", "cp a.txt keys", Allow, ""},
		{"cp -r of a directory below the directory", "cp -r src2 keys", Allow, ""},
		{"rsync without -r leaves directories out", "rsync src2/ keys/", Allow, ""},
		{"cp onto a new file", "cp a.key k2.key", Allow, ""},
		{"find -delete of what holds no key", "find keys -name '*.txt' -delete", Allow, ""},
		{"find -delete of a negated class holding no key", "find keys -name '[!a]*' -delete", Allow, ""},
		{"rsync --delete reads its source", "rsync -a --delete keys/ old/", Allow, ""},
		{"chmod of a directory without -R", "chmod 755 keys", Allow, ""},
		{"git stash list", "git stash list", Allow, ""},
		{"go mod vendor of a clean vendor", "go mod vendor", Allow, ""},
		{"go test -outputdir of a profile elsewhere", "go test -outputdir src -coverprofile c.out ./...", Allow, ""},
		{"tar of the directory keeps it", "tar -cf k.tar keys", Allow, ""},
		{"zip -m of a directory without keys", "zip -rm s.zip src", Allow, ""},
	}
	checkLineDecisions(t, e, root, tests)
}

// TestDecideTreeWriteBounded checks that a directory with more entries
// than are walked is asked about when a rule protects paths, and that
// nothing is walked when no rule restricts a path.
func TestDecideTreeWriteBounded(t *testing.T) {
	defer func(n int) { maxTreeWriteEntries = n }(maxTreeWriteEntries)
	maxTreeWriteEntries = 300
	e, root, _ := treeWriteWorkspace(t)
	for i := range maxTreeWriteEntries + 1 {
		writeFile(t, filepath.Join(root, "big", "f"+strconv.Itoa(i)), "")
	}
	rm := Request{Action: ActionTerminalCreate, Command: "rm -rf big", Cwd: root}
	d := e.Decide(rm)
	if d.Value != RequireApproval || !strings.Contains(d.Reason, "too large to check") {
		t.Errorf("rm -rf of %d files: %v (%s); want require-approval as too large to check", maxTreeWriteEntries+1, d.Value, d.Reason)
	}
	open := NewEngine(testPolicy(t, "  default: allow\n  allow: [Read, Edit, Bash]\n"), EngineOptions{Roots: []string{root}})
	if d := open.Decide(rm); d.Value != Allow {
		t.Errorf("rm -rf of %d files under a policy restricting no path: %v (%s); want allow", maxTreeWriteEntries+1, d.Value, d.Reason)
	}
}

// TestDecideLinkWrites checks that a link made by a line that runs other
// commands is decided as a write of where it leads, there or not, and of
// what lies beneath a directory it leads to, and that a link made alone,
// or to a place no rule protects, is not refused for it.
func TestDecideLinkWrites(t *testing.T) {
	e, root, other := treeWriteWorkspace(t)
	tests := []lineDecision{
		{"a link to a key, then cp onto it", "ln -s keys/a.key l && cp a.key l", Deny, "keys/a.key"},
		{"a link to the directory, then cp into it", "ln -s keys l && cp a.key l/", Deny, "keys/a.key"},
		{"a link in a subdirectory read from there", "mkdir d && ln -s ../keys d/k && cp a.key d/k/", Deny, "keys/a.key"},
		{"a link to a key not there yet", "ln -s keys/new.key l; echo x > l", Deny, "keys/new.key"},
		{"cp -s, then append", "cp -s keys/a.key l && echo x >> l", Deny, "keys/a.key"},
		{"a hard link, then sed -i", "ln keys/a.key l && sed -i s/x/y/ l", Deny, "keys/a.key"},
		{"a link outside the workspace, then a write", "ln -s " + other + "/f l && echo x > l", Deny, "outside the workspace"},
		{"a computed target", `ln -s "$T" l && echo x > l`, Deny, "known only when the line runs"},
		{"ln -r reads the target from the command's directory", "mkdir x && ln -rs keys x/l && cp a.key x/l/", Deny, "keys/a.key"},
		{"a copied link, then cp into it", "cp -P lk l2 && cp a.key l2/", Deny, "keys/a.key"},
		{"a moved link, then cp into it", "mv lk l3 && cp a.key l3/", Deny, "keys/a.key"},
		{"a dangling link moved where it leads to a key", "mv links/kk k3 && echo x > k3", Deny, "keys/a.key"},
		{"a link beneath a copied directory", "cp -a links . && cp a.key k", Deny, "keys/a.key"},
		{"a link beneath an rsync copy", "rsync -a links/ c/ && cp a.key c/k", Deny, "keys/a.key"},
		{"rsync --link-dest to keys, then a write", "rsync -a --link-dest=" + root + "/keys src/b/ c/ && echo x > c/a.key", Deny, "link-dest"},
		{"rsync --link-dest as a separate word", "rsync -a --link-dest " + root + "/keys src/b/ c/ && echo x > c/a.key", Deny, "link-dest"},
		{"rsync --link-dest read from the destination", "cd src && rsync -a --link-dest=../keys b/ ../c/ && echo x > ../c/a.key", Deny, "link-dest"},
		{"rsync --link-dest given twice", "rsync -a --link-dest=" + root + "/old --link-dest=" + root + "/keys src/b/ c/ && echo x > c/a.key", Deny, "link-dest"},
		{"openrsync's prefix --link-d", "rsync -a --link-d=" + root + "/keys src/b/ c/ && echo x > c/a.key", Deny, "link-dest"},
		{"rsync --link-dest of the workspace, then rsync --inplace", "rsync -r --size-only --link-dest=" + root + " src/b/ c/ && rsync -r --inplace -I evil/ c/", Deny, "makes hard links (--link-dest)"},
		{"rsync --link-dest to one file's name", "rsync -a --link-dest=keys a.txt b.key && echo x > b.key", Deny, "link-dest"},
		{"rsync --link-dest after the operands", "rsync src/b/ c/ -r --link-dest=" + root + "/keys && echo x > c/a.key", Deny, "link-dest"},
		{"ln --sym, a prefix of --symbolic", "ln --sym a.key keys/l && echo x > keys/l", Deny, "keys/a.key"},
		{"ln --symb read as a symlink", "ln --symb a.key keys/l && echo x > keys/l", Deny, "keys/a.key"},
		{"ln --symbolic read as a symlink", "ln --symbolic a.key keys/l && echo x > keys/l", Deny, "keys/a.key"},
		{"cp --lin, a prefix of --link", "cp --lin keys/a.key y && echo x > y", Deny, "keys/a.key"},
		{"cp --li", "cp --li keys/a.key y && echo x > y", Deny, "keys/a.key"},
		{"cp --l, the only cp option starting so", "cp --l keys/a.key y && echo x > y", Deny, "keys/a.key"},
		{"cp --sym, a prefix of --symbolic-link", "cp --sym " + root + "/keys/a.key y && echo x > y", Deny, "keys/a.key"},
		{"cp --symbolic", "cp --symbolic " + root + "/keys/a.key y && echo x > y", Deny, "keys/a.key"},
		{"ln --re, a prefix of --relative", "mkdir x && ln --re -s keys x/l && cp a.key x/l/", Deny, "keys/a.key"},
		{"ln --r --sy", "mkdir x && ln --r --sy keys x/l && cp a.key x/l/", Deny, "keys/a.key"},
		{"ln -S's value is no -s: a hard link", "ln -S .s keys/a.key l && echo x > l", Deny, "keys/a.key"},
		{"ln --su's value is no option", "ln --su -s keys/a.key l && echo x > l", Deny, "keys/a.key"},
		{"ln --t, a prefix of --target-directory", "ln --t keys --sym a.key && echo x > keys/a.key", Deny, "keys/a.key"},
		{"cp --target prefix and --li", "cp --li --target keys2 keys/a.key && echo x > keys2/a.key", Deny, "keys/a.key"},

		{"git checkout-index, then a redirection into its name", "git checkout-index l && cat a.txt > l", RequireApproval, "run git checkout-index on its own first"},
		{"git checkout of a path, then echo into it", "git checkout -- l && echo x > l", RequireApproval, "git checkout may put symlinks"},
		{"git restore, then cp onto it", "git restore l && cp a.txt l", RequireApproval, "git restore may put symlinks"},
		{"git clone, then a write beneath the clone", "git clone -q r d9 && cat a.txt > d9/l", RequireApproval, "git clone may put symlinks"},
		{"git clone, cd into it, then a write", "git clone -q r d9 && cd d9 && echo x > l", RequireApproval, "git clone may put symlinks"},
		{"git clone naming no directory, then tee", "git clone -q https://example.com/x/r.git && tee r/l < a.txt", RequireApproval, "git clone may put symlinks"},
		{"git worktree add, then an append", "git worktree add -q w && echo x >> w/l", RequireApproval, "git worktree may put symlinks"},
		{"git mv of a symlink, then a write", "git mv links/kk l && echo x > l", RequireApproval, "git mv may put symlinks"},
		{"a git alias, then a write", "git co l && echo x > l", RequireApproval, "git co may put symlinks"},

		{"git clone, cd, make", "git clone -q https://example.com/r.git d9 && cd d9 && make", Allow, ""},
		{"git checkout-index, then git status elsewhere", "git checkout-index l && cd src && git status", Allow, ""},
		{"git clone, then echo", "git clone -q r d9 && echo done", Allow, ""},
		{"git clone, then a write beside the clone", "git clone -q r d9 && echo x > other.txt", Allow, ""},
		{"git mv of a plain file, then a write", "git mv a.txt b.txt && echo x > b.txt", Allow, ""},
		{"git status, then a write", "git status && echo x > l", Allow, ""},
		{"a link to a key alone", "ln -s keys/a.key l", Allow, ""},
		{"a link to a plain directory, then ls", "ln -s src l && ls l", Allow, ""},
		{"a link to a note, then cat", "ln -s keys/notes.txt l && cat l", Allow, ""},
		{"rsync --link-dest to a plain directory, then ls", "rsync -a --link-dest=" + root + "/old src/b/ c/ && ls c", Allow, ""},
		{"rsync --link-dest to keys alone", "rsync -a --link-dest=" + root + "/keys src/b/ c/", Allow, ""},
		{"rsync --compare-dest links nothing", "rsync -a --compare-dest=" + root + "/keys src/b/ c/ && echo x > c/a.key", Allow, ""},
		{"rsync --copy-dest links nothing", "rsync -a --copy-dest=" + root + "/keys src/b/ c/ && echo x > c/a.key", Allow, ""},
		{"rsync --links is no --link-dest", "rsync -r --links src/b/ c/ && echo x > c/a.key", Allow, ""},
		{"ln --sym to a plain directory, then ls", "ln --sym src l && ls l", Allow, ""},
		{"cp --li of a plain file, then cat", "cp --li src/a.go y && cat y", Allow, ""},
		{"cp --preserve is no link", "cp --pre keys/a.key y && echo x > y", Allow, ""},
		{"cp -r of plain files, then a write", "cp -r src/b s2 && echo x > s2/c.go", Allow, ""},
	}
	checkLineDecisions(t, e, root, tests)
}

// FuzzTreeWriteReaders checks that reading any command's words for what
// it changes without naming it (operands and their options, copy flags,
// find's expression, git stash's pathspecs, output options, tar's
// archive) never panics, and that each word an output option marks is a
// word of the command after its program.
func FuzzTreeWriteReaders(f *testing.F) {
	for _, s := range []string{"cp -vt d a b", "mv --target d a", "install a d -m 644", "rsync -aR --del a/./b d/",
		"cp -rT a d", "cp --parents a/b ..", "ln -f -t d a", "find k -name *.o -type f,d -delete", "find ( -o ) -delete",
		"git stash push -m x -- a", "git --work-tree=k checkout -- a", "tar -cf", "tar czf a", "tar --file", "gcc -o",
		"cc -oout x.c", "openssl -out", "wget -O", "find . -fprint", "zip -m a", "tar --remove-files -C"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		var form []shellcmd.Word
		for _, w := range strings.Fields(line) {
			form = append(form, shellcmd.Word{Kind: shellcmd.Static, Text: w})
		}
		if len(form) == 0 {
			return
		}
		name := filepath.Base(form[0].Text)
		operands(name, form[1:])
		actedOperands(name, form)
		readCopyFlags(name, form)
		archivedAway(name, form)
		findPicks(form)
		gitStashedPaths(form, "/ws")
		checkoutIndexWrites(form, "/ws")
		gitOutputWrites(form)
		manifestWrites(form, "/ws")
		renamedTo(name, strings.Fields(line))
		clearedDirs(form)
		goOutputDirWrites(form)
		wgetExecuteWrites(form)
		for i := range outputOptionWords(form) {
			if i < 1 || i >= len(form) {
				t.Fatalf("%q: word %d is an output, outside 1..%d", line, i, len(form)-1)
			}
		}
	})
}

// TestDecideTreeWriteAskThenDeny checks that a walk does not stop at a
// question when a refusal lies deeper in (a.txt asked about, b.key
// denied, both beneath top), and that find's -name counts a name outside
// ASCII as picked (find in the C locale matches bytes, "??" two of é's).
func TestDecideTreeWriteAskThenDeny(t *testing.T) {
	root := filepath.Join(t.TempDir(), "ws")
	tree{files: []string{"top/a.txt", "top/b.key", "src/top/a.txt", "src/top/b.key", "keys/é.key", "keys/n.txt"}}.make(t, root)
	p := testPolicy(t, "  default: allow\n  allow: [Read, Edit, Bash]\n  ask:\n    - Edit(./top/*.txt)\n  deny:\n    - Edit(./top/*.key)\n    - Edit(./keys/*.key)\n")
	e := NewEngine(p, EngineOptions{Roots: []string{root}})
	checkLineDecisions(t, e, root, []lineDecision{
		{"rm -r", "rm -rf top", Deny, "top/b.key"},
		{"chmod -R", "chmod -R 0 top", Deny, "top/b.key"},
		{"mv", "mv top gone", Deny, "top/b.key"},
		{"cp -r into place", "cp -r src/. .", Deny, "top/b.key"},
		{"find -name of a name outside ASCII", "find keys -name '??.key' -delete", Deny, "keys/é.key"},
		{"find -name picking nothing protected", "find top -name '*.md' -delete", Allow, ""},
	})
}
