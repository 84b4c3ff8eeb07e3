package governance

import (
	"fmt"
	"path/filepath"
	"strings"
)

// instructionFiles are the names of the files Claude Code and Gemini CLI
// load as instructions and read "@" imports in (imports.go): their text
// reaches the model's context with no tool call.
var instructionFiles = map[string]bool{"claude.md": true, "claude.local.md": true, "gemini.md": true, "agents.md": true}

// isInstructionFile reports whether the path form p is a file an agent
// loads as instructions: one of instructionFiles (in any case, as a
// case-insensitive file system opens it), or a .md beneath .claude/rules.
func isInstructionFile(p string) bool {
	base := strings.ToLower(filepath.Base(p))
	return instructionFiles[base] || strings.HasSuffix(base, ".md") && strings.Contains(strings.ToLower(p), "/.claude/rules/")
}

// instructionWriteVerdict asks about a command's write of a file an agent
// loads as instructions: the text a command writes is not known when it is
// decided ("printf 'x: \100.env' >> GEMINI.md" writes "@.env"), and an "@"
// import in it puts the file it names into the model's context when the
// agent next loads its instructions, as a write the bridge sees the text of
// is judged for (WithImports). A tool's write of such a file, whose text the
// request holds, is judged by its text instead.
func (e *Engine) instructionWriteVerdict(in *reqInfo, p string, forms []string) (verdict, bool) {
	if !in.write || in.req.Command == "" && len(in.req.Argv) == 0 && in.req.Action != ActionTerminalCreate {
		return verdict{}, false
	}
	for _, f := range forms {
		if isInstructionFile(f) {
			return verdict{value: RequireApproval, ref: "imports", ruleTx: "require-approval for commands writing a file agents load as instructions (built-in)",
				reason: fmt.Sprintf("%s %s: an agent loads it as instructions and reads each file an '@' in it names into the model's context, and the text a command writes is not known when it is decided", e.describeAction(in), p)}, true
		}
	}
	return verdict{}, false
}
