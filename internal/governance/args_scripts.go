package governance

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/acp-bridge/acp-bridge/internal/shellcmd"
)

// sed and awk take their script from a file as readily as from the line
// ("sed -f s.sed a.txt", "awk -f s.awk"), and the agent writes that file
// with an edit the policy allows. A rule allowing sed or awk does not
// vouch for what the agent wrote into it: scriptLines reads each script
// file a command names (shellcmd.Command.Scripts) when the request is
// decided and judges its text exactly as the same text given on the line
// is judged (shellcmd.AnalyzeScript): the commands it gives (sed's e,
// awk's system()) are commands of the line, decided by the rules, and a
// script that opens files it names or runs a command known only when the
// line runs needs approval. A script file that cannot be read needs
// approval, whatever rule names the tool: its name is computed, the line
// runs other commands (which may make or change it first), the line
// changes directory before it, reading it is not allowed, it is outside
// the workspace roots (a link leading out too), not a regular file,
// missing, or larger than maxScriptBytes. The file may change between
// the decision and the run (docs/security.md, Limits).

// maxScriptBytes bounds the script file the bridge reads.
const maxScriptBytes = 256 << 10

// scriptLines returns the request's command lines (reqInfo.commandLines)
// with the script files their commands read judged: the command's
// ScriptFile notes replaced by what the file's text gives, and the
// commands the text gives added to the line. Read once per decision.
func (e *Engine) scriptLines(in *reqInfo) []*shellcmd.Analysis {
	if in.memo != nil && in.memo.scriptsRead {
		return in.memo.scriptLines
	}
	lines := in.commandLines()
	var out []*shellcmd.Analysis
	for i, a := range lines {
		if b := e.readScripts(in, a); b != a {
			if out == nil {
				out = slices.Clone(lines)
			}
			out[i] = b
		}
	}
	if out == nil {
		out = lines
	}
	if in.memo != nil {
		in.memo.scriptLines, in.memo.scriptsRead = out, true
	}
	return out
}

// readScripts returns a with the script files of its commands judged (a
// itself when none reads one). The analysis a may be kept by the engine
// and shared, so it is copied, not changed.
func (e *Engine) readScripts(in *reqInfo, a *shellcmd.Analysis) *shellcmd.Analysis {
	var out *shellcmd.Analysis
	others := len(a.Commands) > 1
	for j, c := range a.Commands {
		if len(c.Scripts) == 0 {
			continue
		}
		if out == nil {
			cp := *a
			cp.Commands = slices.Clone(a.Commands)
			cp.Assignments = slices.Clone(a.Assignments)
			cp.Redirects = slices.Clone(a.Redirects)
			cp.Problems = slices.Clone(a.Problems)
			out = &cp
		}
		judged := *c
		judged.Scripts = nil
		judged.Notes = slices.DeleteFunc(slices.Clone(c.Notes), func(n shellcmd.Note) bool { return n.Kind == shellcmd.ScriptFile })
		for _, s := range c.Scripts {
			text, why := e.scriptText(in, c, s, others)
			if why == "" && s.Lang == "awk" && !strings.Contains(s.Name.Text, "/") && setsAWKPATH(in, a) {
				why = "the line sets AWKPATH, the directories gawk looks for it in"
			}
			if why != "" {
				judged.Notes = append(judged.Notes, shellcmd.Note{Kind: shellcmd.Unparsed, Form: s.Form,
					Text: fmt.Sprintf("the bridge cannot read the %s file %s that %s runs: %s", s.Lang, s.Name.Text, s.Tool, why)})
				continue
			}
			notes, runs := shellcmd.AnalyzeScript(s.Lang, text, c.Dir, shellcmd.Options{Dir: in.req.Cwd})
			for _, n := range notes {
				n.Form = s.Form
				n.Text = "in the file " + s.Name.Text + ": " + n.Text
				judged.Notes = append(judged.Notes, n)
			}
			out.Commands = append(out.Commands, runs.Commands...)
			out.Assignments = append(out.Assignments, runs.Assignments...)
			out.Redirects = append(out.Redirects, runs.Redirects...)
			out.Problems = append(out.Problems, runs.Problems...)
			out.ChangesDir = out.ChangesDir || runs.ChangesDir
		}
		out.Commands[j] = &judged
	}
	if out == nil {
		return a
	}
	return out
}

// scriptText returns the text of the script file s that c reads, or why
// the bridge cannot read it. others says the line runs other commands.
func (e *Engine) scriptText(in *reqInfo, c *shellcmd.Command, s shellcmd.Script, others bool) (text, why string) {
	switch {
	case s.Name.Kind != shellcmd.Static:
		return "", "its name is computed when the line runs"
	case others:
		return "", "the line runs other commands, which may make or change it first"
	}
	bases, unknown := e.commandDirs(in, c.Dir)
	if unknown || len(bases) != 1 {
		return "", "the line changes directory before it"
	}
	// The file is decided as a read of the command's too; the bridge
	// reads it only where the agent may read without asking, so that no
	// part of another file shows in a reason.
	p := e.operandPath(bases[0], s.Name.Text)
	sub := *in
	sub.read, sub.write, sub.command = true, false, false
	var discard []string
	if v := e.decidePathLazy(&sub, p, &discard); v.value != Allow {
		return "", "reading it is not allowed without asking"
	}
	resolved, err := filepath.EvalSymlinks(p)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return "", "it does not exist"
	case err != nil:
		return "", "it cannot be read now (" + err.Error() + ")"
	}
	if !in.insideRoots(resolved) {
		return "", "it is outside the workspace roots"
	}
	return readScriptFile(resolved)
}

// readScriptFile returns the text of the regular file at p (a path with
// no link in it), or why it cannot be read.
func readScriptFile(p string) (string, string) {
	text, why := readTextFile(p)
	if why == "" && strings.IndexByte(text, 0) >= 0 {
		return "", "it holds a NUL byte, which sed and awk read otherwise than the bridge"
	}
	return text, why
}

// readTextFile returns the bytes of the regular file at p (a path with no
// link in it), up to maxScriptBytes, or why it cannot be read.
func readTextFile(p string) (string, string) {
	f, fi, why := openText(p)
	if why != "" {
		return "", why
	}
	defer f.Close()
	if fi.Size() > maxScriptBytes {
		return "", fmt.Sprintf("it is larger than %d KiB", maxScriptBytes>>10)
	}
	b, err := io.ReadAll(io.LimitReader(f, maxScriptBytes+1))
	switch {
	case err != nil:
		return "", "it cannot be read now (" + err.Error() + ")"
	case len(b) > maxScriptBytes:
		return "", fmt.Sprintf("it is larger than %d KiB", maxScriptBytes>>10)
	}
	return string(b), ""
}

// openText opens the regular file at p (a path with no link in it) to
// read it, or says why it cannot: it is no regular file, it cannot be
// opened, or it is no longer the file at p.
func openText(p string) (*os.File, os.FileInfo, string) {
	f, fi, err := openRegular(p)
	if errors.Is(err, errNotRegular) {
		return nil, nil, "it is not a regular file"
	}
	if err != nil {
		return nil, nil, "it cannot be read now (" + err.Error() + ")"
	}
	if lfi, err := os.Lstat(p); err != nil || !os.SameFile(fi, lfi) {
		f.Close()
		return nil, nil, "it changed while the bridge read it"
	}
	return f, fi, ""
}

// setsAWKPATH reports whether the request or line a sets AWKPATH, the
// directories gawk looks in for a program file named without a '/'
// (not in the directory it runs in unless AWKPATH says so).
func setsAWKPATH(in *reqInfo, a *shellcmd.Analysis) bool {
	for _, v := range in.req.Env {
		if v.Name == "AWKPATH" {
			return true
		}
	}
	for _, as := range a.Assignments {
		if as.Name == "AWKPATH" {
			return true
		}
	}
	return false
}
