package governance

import (
	"strings"
	"testing"
)

// TestValueFilesNamingProtected decides lines whose variables point a
// program at the agent's configuration: git's aliases in $HOME/.gitconfig
// and in the config of the repository GIT_DIR names, wget's WGETRC
// (output_document truncates the file it names), tclsh's packages beneath
// TCLLIBPATH, less's LESSKEYIN, names of every kind, on no list or asked
// about. Before, the line was asked about at most, and the person's
// approval emptied the policy. The file a value names, and each file
// beneath a directory it names, is read as code the line runs; a value
// naming no such file, a file kept from the agent and the bridge's own
// files keep their decision.
// Its workspace is testdata/cases/value_files_tree.txt.
func TestValueFilesNamingProtected(t *testing.T) {
	root := caseTree(t, "value_files_tree.txt")
	e := rootPolicyEngine(t, root, "  allow: [Bash, Env]\n", ProtectedPath{Path: root + "/audit/audit-log.jsonl", What: "the audit log", Read: true})
	checkCommandLines(t, e, root, "value_files_lines.txt", map[string]string{"$ROOT": root})
	checkEnvRequestDenied(t, e, root, "git", []string{"lg"}, EnvVar{Name: "HOME", Value: root + "/cfg"})
}

// TestValueDirectoryTooLarge: a directory a variable names that holds more
// entries than the bridge reads is asked about, saying so, whatever rule
// allows the line.
func TestValueDirectoryTooLarge(t *testing.T) {
	root := tempTree(t, []string{"big/a", "big/b"}, []string{"a.txt", "big/a/x", "big/b/y"})
	defer func(n int) { maxTreeEntries = n }(maxTreeEntries)
	maxTreeEntries = 3
	e := rootPolicyEngine(t, root, "  allow: [Bash, Env]\n")
	d := e.Decide(Request{Action: ActionTerminalCreate, Command: "XDG_DATA_DIRS=big git status", Cwd: root, Paths: []string{root}})
	if d.Value != RequireApproval || !strings.Contains(d.Reason, "more than 3 entries") {
		t.Errorf("a variable naming a directory too large to read: %v (%s: %s); want it asked about, saying so", d.Value, d.Ref, d.Reason)
	}
}

// TestValueFilesFromTheLinesDirectory: a value written from the line's
// directory ($PWD/cfg, ~+/cfg, $(pwd)/cfg, "${PWD}"/cfg, an element of a
// ':' list so) is known before the line runs, and names the file the rest
// names there. Before, such a value was not static and its file was not
// read: "HOME=$PWD/cfg git lg" was asked about for HOME and the person's
// approval ran the agent's alias.
// Its workspace is testdata/cases/value_files_pwd_tree.txt.
func TestValueFilesFromTheLinesDirectory(t *testing.T) {
	checkTreeLines(t, "value_files_pwd_tree.txt", "  allow: [Bash, Env]\n", "value_files_pwd_lines.txt")
}

// TestValueFilesTheLineMakes: a line may make the configuration a
// variable's value names before the program reads it: copy the agent's
// file there, or into the directory it names. Before, only the files there
// when the line was decided were read: "cp gc.txt cfg/.gitconfig && HOME=cfg
// git lg" ran the alias. A workspace root a value names is read for its
// hidden entries only (.gitconfig, .curlrc, .config/), where programs find
// their configuration, not the project's files.
// Its workspace is testdata/cases/value_files_made_tree.txt.
func TestValueFilesTheLineMakes(t *testing.T) {
	checkTreeLines(t, "value_files_made_tree.txt", "  allow: [Bash, Env]\n", "value_files_made_lines.txt")
}
