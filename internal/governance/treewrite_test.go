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
// Its rows are in testdata/cases/tree_write_lines.txt.
func TestDecideTreeWrite(t *testing.T) {
	e, root, other := treeWriteWorkspace(t)
	tests := lineDecisionCases(t, "tree_write_lines.txt", map[string]string{"{{OTHER}}": other})
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
// Its rows are in testdata/cases/link_writes_lines.txt.
func TestDecideLinkWrites(t *testing.T) {
	e, root, other := treeWriteWorkspace(t)
	tests := lineDecisionCases(t, "link_writes_lines.txt", map[string]string{"{{ROOT}}": root, "{{OTHER}}": other})
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
// Its rows are in testdata/cases/tree_write_ask_deny_lines.txt.
func TestDecideTreeWriteAskThenDeny(t *testing.T) {
	root := filepath.Join(t.TempDir(), "ws")
	tree{files: []string{"top/a.txt", "top/b.key", "src/top/a.txt", "src/top/b.key", "keys/é.key", "keys/n.txt"}}.make(t, root)
	p := testPolicy(t, "  default: allow\n  allow: [Read, Edit, Bash]\n  ask:\n    - Edit(./top/*.txt)\n  deny:\n    - Edit(./top/*.key)\n    - Edit(./keys/*.key)\n")
	e := NewEngine(p, EngineOptions{Roots: []string{root}})
	checkLineDecisions(t, e, root, lineDecisionCases(t, "tree_write_ask_deny_lines.txt", nil))
}
