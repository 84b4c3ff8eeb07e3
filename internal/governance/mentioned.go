package governance

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// A tool the bridge does not know (an MCP tool the IDE offers over ACP, a
// tool of an MCP server the agent runs, any tool_call whose name the
// bridge has no rules of its own for) may open a file whose path it takes
// under a name that does not say so ({"target": "/ws/.env"}), or deeper
// in its input ({"options": {"files": [{"item": ".env"}]}}). Judging every
// such string as a path the call touches would refuse routes and
// identifiers ("/api/users" lies outside the workspace), so such a string
// is decided as a path only where that restricts: where a rule naming
// paths, self-protection, a per-process location (/proc/self) or a hard
// link to a file under a rule decides it. The direction is unknown, so it
// is decided as a read and as a write, the stricter standing.

// maxMentioned is how many strings of one input are judged as paths:
// past that the call needs approval (Request.MentionedTooMany).
const maxMentioned = 4096

// mentionedStrings returns the strings of a tool's input, at any depth,
// but for the top-level members fillFromInput reads (judgedInputKey: they
// are judged as paths, a command or a URL already), that may be paths
// (mentionedPath decides which are), sorted and each once, so that one
// input is always judged alike; more says there were more than
// maxMentioned.
func mentionedStrings(in map[string]any) (out []string, more bool) {
	for k, v := range in {
		if judgedInputKey(k) {
			continue
		}
		for s := range stringsIn(v) {
			if !mayBePath(s) {
				continue
			}
			if len(out) == maxMentioned {
				return nil, true
			}
			out = append(out, s)
		}
	}
	slices.Sort(out)
	return slices.Compact(out), false
}

// judgesMentioned reports whether the strings of a tool's input are
// judged as paths (Request.Mentioned): for every tool but Claude Code's
// own, whose inputs ClaudeToolRequest reads member by member.
func judgesMentioned(tool string) bool {
	return !claudeOwnTools[tool]
}

// claudeOwnTools are the tools ClaudeToolRequest knows the input of.
var claudeOwnTools = map[string]bool{"Read": true, "NotebookRead": true, "LS": true, "Glob": true, "Grep": true,
	"Write": true, "Edit": true, "MultiEdit": true, "NotebookEdit": true, "apply_patch": true, "Bash": true,
	"WebFetch": true, "WebSearch": true, "Task": true, "TodoWrite": true, "ExitPlanMode": true}

// mayBePath reports whether s could name a file: not empty, no longer
// than the system opens. Which ones do is decided with the file system
// (mentionedPath).
func mayBePath(s string) bool {
	return s != "" && len(s) <= maxPathLen
}

// mentionedPath returns the absolute path a string of a tool's input
// names when read as a path: as it is when absolute, below home for "~"
// and "~/...", below cwd when it holds a '/' or names an existing file
// there; "" when it names none. C code ends a path at a NUL byte, so a
// string holding one is read up to it.
func mentionedPath(s, cwd, home string) string {
	if i := strings.IndexByte(s, 0); i >= 0 {
		s = s[:i]
	}
	switch {
	case s == "":
		return ""
	case strings.HasPrefix(s, "/"):
		return s
	case s == "~" || strings.HasPrefix(s, "~/"):
		if home == "" {
			return ""
		}
		return home + s[1:]
	case cwd == "" || !strings.HasPrefix(cwd, "/"):
		return ""
	case strings.Contains(s, "/"):
		return cwd + "/" + s
	}
	p := filepath.Join(cwd, s)
	if _, err := os.Lstat(p); err != nil {
		return ""
	}
	return cwd + "/" + s
}

// mentionedVerdict decides the string s of a tool's input as a path the
// tool may read or write, when it reads as one (mentionedPath), and a
// file:// URI as every path it may name to its reader (mcpFilePaths; one
// the bridge cannot place is refused): the strictest of the decisions,
// where it restricts (mentionedRestricts); ok is false when s says
// nothing.
func (e *Engine) mentionedVerdict(in *reqInfo, s string) (v verdict, ok bool) {
	paths, isFile, err := mcpFilePaths(s) // a file:// URI names its path
	if err != nil {
		return verdict{value: Deny, ref: "unresolvable-path", ruleTx: mcpFileURIRule,
			reason: fmt.Sprintf("the tool's input holds %q, which a tool may open as a file: %v", s, err)}, true
	}
	if p := mentionedPath(s, in.req.Cwd, e.home); p != "" {
		paths = append(paths, p) // as a name, also when it is a URI: Node's path.resolve keeps "file:"
	}
	if !isFile && len(paths) == 0 {
		return verdict{}, false
	}
	for _, p := range paths {
		if checkPathText(p) != nil {
			continue
		}
		for _, write := range []bool{false, true} {
			sub := *in
			sub.read, sub.write, sub.opaque, sub.command, sub.fetch = !write, write, false, false, false
			sub.defaultLast = true
			var discard []string
			w := e.decidePathLazy(&sub, p, &discard)
			if r, ok := e.ruledBeyondRoots(&sub, p, w); ok {
				w = r
			}
			if mentionedRestricts(w) && (!ok || w.value.Stricter(v.value)) {
				v, ok = w, true
			}
		}
	}
	if ok {
		v.reason = fmt.Sprintf("the tool's input holds %q, which a tool may open as a file: %s", s, v.text())
	}
	return v, ok
}

// mentionedRestricts reports whether w, a decision on a string of a
// tool's input read as a path, counts: it restricts, by a rule naming
// paths, self-protection, a per-process location or a hard link; a
// decision by the default, a rule for every file or the workspace roots
// says nothing of a string that may be no path at all.
func mentionedRestricts(w verdict) bool {
	if w.value == Allow {
		return false
	}
	switch w.ref {
	case "self-protection", "magic-link", "hard-link":
		return true
	}
	return w.rule != nil && w.rule.path != nil
}

// mentionedVerdicts considers each string of the request's input that
// reads as a path where it restricts (mentionedVerdict), and asks about
// an input holding more strings than the bridge judges.
func (e *Engine) mentionedVerdicts(in *reqInfo, consider func(verdict, string, []string)) {
	for _, s := range in.req.Mentioned {
		if v, ok := e.mentionedVerdict(in, s); ok {
			consider(v, "the input's "+s, nil)
		}
	}
	if in.req.MentionedTooMany {
		consider(verdict{value: RequireApproval, ref: "unreadable-input", ruleTx: "require-approval for tool inputs too large to judge (built-in)",
			reason: fmt.Sprintf("the tool's input holds more than %d strings, each of which it may open as a file: too many for the bridge to judge", maxMentioned)},
			"the input's strings", nil)
	}
	if in.req.InputHidden {
		consider(verdict{value: RequireApproval, ref: "unreadable-input", ruleTx: "require-approval for tool inputs too large to judge (built-in)",
			reason: "the agent shows the call's arguments only in its text, and not all of them (left out as too long, a fetch prompt cut short in its title, or a directory the bridge cannot tell from the rest), or not the tool's name (an MCP tool titled with its command argument): the bridge cannot judge them"},
			"the input", nil)
	}
}
