package governance

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"
)

// An agent's shell tool runs its command in a directory its input names,
// under a member of the agent's own spelling: Codex's exec and shell
// tools take workdir, Gemini CLI's run_shell_command dir_path (directory
// in older versions), other agents cwd, working_directory or workingDir.
// A command judged in the session's directory while it runs in the one
// its input names is judged on other files: "echo x > victim.txt" with
// workdir /home/u wrote /home/u/victim.txt under a decision about the
// workspace's victim.txt. So every member that names where the command
// runs is where it runs, for the decision and for the title the person
// is shown; a member whose name only looks like one (output_dir,
// buildDir) may be one, and the command is decided there and in the
// session's directory alike; and an input naming two different
// directories needs the person's approval, since the bridge cannot tell
// which one the agent uses.

// runDirKeys are the members in which known agents' shell tools name the
// directory a command runs in, the first of them the input carries being
// where the command runs (Request.Cwd).
var runDirKeys = []string{"cwd", "workdir", "dir_path", "directory", "working_directory", "workingDirectory",
	"working_dir", "workingDir"}

// runDirSuffixes end the names (in lower case, without separators) of
// members that may name the directory a command runs in: dir, directory,
// cwd (workdir, run_dir, WorkingDirectory, exec-cwd, dirPath).
var runDirSuffixes = []string{"dir", "directory", "cwd", "dirpath", "directorypath"}

// runDirLike reports whether a member named k may name the directory a
// command runs in: its name, in lower case without _ - . or spaces, ends in
// one of runDirSuffixes.
func runDirLike(k string) bool {
	n := foldedMemberName(k)
	for _, s := range runDirSuffixes {
		if strings.HasSuffix(n, s) {
			return true
		}
	}
	return false
}

// runsCommand reports whether req is judged on a command: an execute
// call, Claude Code's Bash, or a call whose input carries a command line.
func runsCommand(req *Request) bool {
	return req.Kind == "execute" || req.Tool == "Bash" || req.Command != ""
}

// placeCommand sets where req, a call judged on a command whose input is
// in, runs in a session whose cwd is sessionCwd: the first member of
// runDirKeys the input carries is req.Cwd (a relative one stays relative,
// and is refused as every relative path of a tool's input is); every other
// directory the input names (another of runDirKeys, a member runDirLike
// names) is in req.OtherCwds, and so is the session's directory when only
// a member runDirLike names says where it runs. An input naming two
// different directories, one the bridge cannot place (relative under a
// name of its own spelling) or a directory that is not a string needs
// approval (req.RunDirUnclear).
func placeCommand(req *Request, in map[string]any, sessionCwd string) {
	if in == nil || !runsCommand(req) {
		return
	}
	type named struct{ key, dir string }
	var known, like []named
	var unclear []string
	for _, k := range runDirKeys {
		switch v := in[k].(type) {
		case nil:
		case string:
			if v != "" {
				known = append(known, named{k, v})
			}
		default:
			unclear = append(unclear, fmt.Sprintf("its %s is not a string", k))
		}
	}
	var others []string
	for k := range in {
		if !slices.Contains(runDirKeys, k) && runDirLike(k) {
			others = append(others, k)
		}
	}
	slices.Sort(others) // one input is always judged alike
	for _, k := range others {
		switch v := in[k].(type) {
		case nil:
		case string:
			switch {
			case v == "":
			case filepath.IsAbs(v):
				like = append(like, named{k, v})
			default:
				unclear = append(unclear, fmt.Sprintf("its %s %q is relative, and the bridge cannot tell to what", k, v))
			}
		default:
			unclear = append(unclear, fmt.Sprintf("its %s is not a string", k))
		}
	}
	if len(known) == 0 && len(like) == 0 && len(unclear) == 0 {
		return
	}
	req.OtherCwds = nil
	if len(known) > 0 {
		req.Cwd = known[0].dir
		req.Paths = appendNew(req.Paths, known[0].dir)
	} else if sessionCwd != "" {
		req.Cwd = sessionCwd
	}
	var dirs []string // every directory named, each once, as named
	seen := map[string]bool{}
	for _, d := range append(known, like...) {
		c := filepath.Clean(d.dir)
		if !seen[c] {
			seen[c] = true
			dirs = append(dirs, d.key+" "+d.dir)
			if c != filepath.Clean(req.Cwd) {
				req.OtherCwds = append(req.OtherCwds, d.dir)
			}
		}
	}
	if len(dirs) > 1 {
		unclear = append(unclear, "it names "+strings.Join(dirs, " and ")+", and the agent runs the command in one of them")
	}
	if len(unclear) > 0 {
		req.RunDirUnclear = "the tool's input says where the command runs in a way the bridge cannot follow: " +
			strings.Join(unclear, "; ")
	}
}

// foldedMemberName returns name in lower case without '_', '-', '.' or
// spaces, as member and tool names are compared whatever their separators
// (work_dir, workDir, exec-cwd; run_shell_command, RunShellCommand).
func foldedMemberName(name string) string {
	return strings.Map(func(r rune) rune {
		switch r {
		case '_', '-', '.', ' ':
			return -1
		}
		return r
	}, strings.ToLower(name))
}
