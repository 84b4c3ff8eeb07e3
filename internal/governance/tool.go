package governance

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	jsonv2 "github.com/go-json-experiment/json"
)

// ClaudeToolRequest builds the Request for one of Claude Code's own tool
// calls, as its PreToolUse hook sees it: the tool name ("Bash", "Read",
// "Edit", "mcp__github__create_issue", ...), the tool_input object and the
// session's cwd. Unknown tools become plain tool calls decided by name
// (and by any path, command or url their input carries).
//
// A command runs where its input says it does (placeCommand): a Bash
// input naming a directory is decided there.
func ClaudeToolRequest(toolName string, toolInput json.RawMessage, cwd string) (Request, error) {
	in, err := toolInputObject(toolName, toolInput)
	if err != nil {
		return Request{}, err
	}
	req := claudeToolRequest(toolName, in, cwd)
	readCommandMembers(&req, in)
	placeCommand(&req, in, cwd)
	return req, nil
}

// toolInputObject reads a tool's input strictly as an object, nil for
// none.
func toolInputObject(toolName string, toolInput json.RawMessage) (map[string]any, error) {
	var in map[string]any
	if len(toolInput) > 0 && string(toolInput) != "null" {
		if err := jsonv2.Unmarshal(toolInput, &in); err != nil {
			return nil, fmt.Errorf("tool_input of %s: %v", toolName, err)
		}
	}
	return canonicalInput(in), nil
}

// claudeToolRequest is ClaudeToolRequest for the input object in, before
// its command is placed.
func claudeToolRequest(toolName string, in map[string]any, cwd string) Request {
	req := Request{Action: ActionToolCall, Tool: toolName, Cwd: cwd}
	fillFromInput(&req, in)
	req.Searched = searchesOf(toolName, in, cwd)
	switch toolName {
	case "Read", "NotebookRead", "LS":
		req.Kind = "read"
	case "Glob", "Grep":
		req.Kind = "search"
		// Without a path the search reads the cwd, whatever its file
		// filter (Grep's glob) adds.
		if dir, _ := in["path"].(string); len(req.Paths) == 0 || toolName == "Grep" && dir == "" {
			req.Paths = append([]string{cwd}, req.Paths...)
		}
	case "Write", "Edit", "MultiEdit", "NotebookEdit", "apply_patch":
		req.Kind = "edit"
	case "Bash":
		req.Kind = "execute"
		req.CommandUnknown = req.Command == ""
	case "WebFetch":
		req.Kind = "fetch"
	case "WebSearch":
		req.Kind = "fetch"
		req.URL = "" // a query, not an address
	case "Task", "TodoWrite", "ExitPlanMode":
		req.Kind = "think"
	case "EnterWorktree":
		req.Kind = "search"
		if dir := newWorktreeDir(in, cwd); dir != "" {
			// It makes a branch and checks out a work tree there, as
			// git worktree add -B does: a change, decided as one.
			req.Kind = "edit"
			req.Paths = appendNew(req.Paths, dir)
		}
	default:
		// A tool of an MCP server, or one the bridge does not know:
		// any string of its input may be a file it opens.
		req.Mentioned, req.MentionedTooMany = mentionedStrings(in)
	}
	// A call that checks out a new work tree below .claude/worktrees
	// copies into it the ignored files .worktreeinclude names, where the
	// policy's rules for their first place do not reach them: decided as
	// reading those files (worktreeIncludeSearch).
	if makesWorktree(toolName, in) {
		req.Searched = append(req.Searched, worktreeIncludeSearch(toolName, cwd)...)
	}
	return req
}

// pathKeys are the input fields agents use for file paths: Claude Code
// (file_path, notebook_path, path), Gemini CLI (absolute_path, dir_path),
// and common move/copy shapes.
var pathKeys = []string{"file_path", "notebook_path", "path", "absolute_path", "filePath", "dir_path",
	"directory", "source", "destination", "from", "to", "old_path", "new_path"}

// pathListKeys are the input fields that list paths: Gemini CLI's
// read_many_files (paths) and the like.
var pathListKeys = []string{"paths", "file_paths", "filePaths", "files"}

// filterKeys are the input fields holding a glob that picks the files a
// search reads below its directory: Claude Code's Grep (glob), Gemini
// CLI's grep_search (include_pattern) and read_many_files (include).
var filterKeys = []string{"glob", "include", "include_pattern"}

// judgedInputKeys are every member of a tool's input that fillFromInput
// reads: the rest of an input (a file's new content, say) is never judged,
// so the bridge may forget it (reduceInput).
var judgedInputKeys = append(append(append(append([]string(nil), pathKeys...), pathListKeys...), filterKeys...),
	"pattern", "command", "args", "cwd", "url", "changes", "input", "patch")

// judgedInputKey reports whether fillFromInput reads the input member
// named k: one of judgedInputKeys, or one whose name says it holds a path
// (namedPathKey).
func judgedInputKey(k string) bool {
	return slices.Contains(judgedInputKeys, k) || namedPathKey(k)
}

// fillFromInput sets the paths, command and url a tool's input names. It
// reads only the members judgedInputKey names.
func fillFromInput(req *Request, in map[string]any) {
	if in == nil {
		return
	}
	for _, k := range pathKeys {
		if s, ok := in[k].(string); ok && s != "" {
			if k == "directory" && req.Cwd == "" {
				req.Cwd = s
			}
			req.Paths = append(req.Paths, s)
		}
	}
	// Any other tool's path fields, by their names (namedPathKey), in
	// order, so that one input is always judged alike.
	var named []string
	for k := range in {
		if !slices.Contains(judgedInputKeys, k) && namedPathKey(k) {
			named = append(named, k)
		}
	}
	slices.Sort(named)
	for _, k := range named {
		switch v := in[k].(type) {
		case string:
			if v != "" {
				req.Paths = appendNew(req.Paths, v)
			}
		case []any:
			for _, e := range v {
				if s, ok := e.(string); ok && s != "" {
					req.Paths = appendNew(req.Paths, s)
				}
			}
		}
	}
	for _, k := range pathListKeys {
		if list, ok := in[k].([]any); ok {
			for _, v := range list {
				if s, ok := v.(string); ok && s != "" {
					req.Paths = append(req.Paths, s)
				}
			}
		}
	}
	// A patch's files are in its changes or its body (tool_patch.go).
	for _, p := range patchPaths(in) {
		req.Paths = appendNew(req.Paths, p)
	}
	// A patch that asks for a root to write beneath for the rest of the
	// session asks for more than its files: the person decides.
	for _, k := range grantKeys {
		if v, ok := in[k]; ok && v != nil && holdsText(v) {
			req.UnreadInput = append(req.UnreadInput, InputMember{k, compactJSON(v)})
		}
	}
	// A glob's fixed leading directories are a path too: "/etc/**/*.conf"
	// reads under /etc.
	if s, ok := in["pattern"].(string); ok && (filepath.IsAbs(s) || strings.HasPrefix(s, "~") || strings.Contains(s, "..")) {
		req.Paths = append(req.Paths, globBase(s))
	}
	// A search's file filter names the files it reads: Grep with glob
	// ".env" over the workspace reads every .env in it, judged as the
	// path <dir>/**/.env (a filter without "/" matches at any depth).
	for _, k := range filterKeys {
		for _, g := range stringOrList(in[k]) {
			if p := filterPath(req, in, g); p != "" {
				req.Paths = append(req.Paths, p)
			}
		}
	}
	switch c := in["command"].(type) {
	case string:
		req.Command = c
	case []any:
		req.Command = shellJoin(toStrings(c))
	}
	if a, ok := in["args"].([]any); ok && req.Command != "" {
		req.Command += " " + shellJoin(toStrings(a))
	}
	if s, ok := in["cwd"].(string); ok && s != "" {
		// The directory a tool runs in is a place it reaches, too.
		req.Cwd = s
		req.Paths = append(req.Paths, s)
	}
	if s, ok := in["url"].(string); ok {
		req.URL = s
	} else if s, ok := in["prompt"].(string); ok {
		// A fetch tool without a url member fetches what its prompt
		// names (decided for a fetch-kind call only).
		req.PromptURLs = promptURLs(s)
	}
}

// promptURLs returns the URLs a fetch tool's prompt names, as Gemini CLI's
// web_fetch finds them (parsePrompt): every word, the prompt split at
// white space, that holds "://". An address in a prompt is fetched, so
// it is decided as a url member is. Gemini splits at JavaScript's \s,
// which counts U+FEFF as a space where Go does not ("https://ok.example/
// U+FEFF https://evil.example/" is two addresses), and not U+0085, where Go
// does: the words of both splittings are decided. So is the address
// Gemini's own fetch of a GitHub file page reaches (geminiFetchedAs).
func promptURLs(prompt string) []string {
	var out []string
	add := func(u string) {
		if !slices.Contains(out, u) {
			out = append(out, u)
		}
	}
	for _, words := range [][]string{strings.FieldsFunc(prompt, jsSpace), strings.Fields(prompt)} {
		for _, w := range words {
			if !strings.Contains(w, "://") {
				continue
			}
			add(w)
			if raw, ok := geminiFetchedAs(w); ok {
				add(raw)
			}
		}
	}
	return out
}

// jsSpace reports whether JavaScript's regular expressions match r with
// \s: the white space and line terminators of ECMAScript, U+FEFF among
// them.
func jsSpace(r rune) bool {
	switch r {
	case '\t', '\n', '\v', '\f', '\r', ' ', 0xa0, 0x1680, 0x2028, 0x2029, 0x202f, 0x205f, 0x3000, 0xfeff:
		return true
	}
	return r >= 0x2000 && r <= 0x200a
}

// filterPath returns the path pattern a search's file filter g covers:
// g below the directory the search reads (its path, else the cwd), after
// "**/" when g has no "/" of its own; "" for an empty filter or an
// unknown directory.
func filterPath(req *Request, in map[string]any, g string) string {
	g = strings.TrimSpace(g)
	if g == "" {
		return ""
	}
	if filepath.IsAbs(g) || strings.HasPrefix(g, "~") {
		return g
	}
	dir := req.Cwd
	for _, k := range []string{"path", "dir_path", "directory", "absolute_path"} {
		if s, ok := in[k].(string); ok && s != "" {
			dir = s
			break
		}
	}
	if dir == "" {
		return ""
	}
	if !strings.Contains(strings.TrimPrefix(g, "/"), "/") {
		g = "**/" + g
	}
	return strings.TrimSuffix(dir, "/") + "/" + g
}

func toStrings(a []any) []string {
	out := make([]string, 0, len(a))
	for _, v := range a {
		out = append(out, fmt.Sprint(v))
	}
	return out
}

// stringOrList returns the words of an input member that is a string (one
// word) or a list (toStrings of it), and none for any other value.
func stringOrList(v any) []string {
	switch v := v.(type) {
	case string:
		return []string{v}
	case []any:
		return toStrings(v)
	}
	return nil
}

// globBase returns the directories of a glob before its first wildcard.
func globBase(p string) string {
	i := strings.IndexAny(p, "*?[{")
	if i < 0 {
		return p
	}
	return filepath.Dir(p[:i] + "x")
}

// shellJoin quotes words so a shell reads them back as the same words.
func shellJoin(words []string) string {
	var b strings.Builder
	for i, w := range words {
		if i > 0 {
			b.WriteByte(' ')
		}
		if w != "" && strings.IndexFunc(w, func(r rune) bool {
			return !(r == '-' || r == '_' || r == '.' || r == '/' || r == '=' || r == ':' || r == ',' || r == '+' || r == '@' ||
				r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9')
		}) < 0 {
			b.WriteString(w)
			continue
		}
		b.WriteByte('\'')
		b.WriteString(strings.ReplaceAll(w, "'", `'\''`))
		b.WriteByte('\'')
	}
	return b.String()
}

// ToolCall is what the bridge knows about an ACP tool call, gathered from
// tool_call updates and permission requests.
type ToolCall struct {
	// Kind and Title are the ACP fields.
	Kind, Title string
	// Tool is the agent's own tool name, from _meta (Claude Code puts it
	// in _meta.claudeCode.toolName).
	Tool string
	// Name is ACP's name member: the programmatic name of the invoked
	// tool, which an IDE may show. The call is judged under it as under
	// Tool, and under both when they differ (judgeCall).
	Name string
	// RawInput is the tool's input as the agent reported it.
	RawInput json.RawMessage
	// Locations are the paths of the tool call's locations.
	Locations []string
	// DiffPaths are the paths of the tool call's diff content: files it
	// changes.
	DiffPaths []string
	// InputHidden says the call shows that it left its arguments out
	// (textInput): it needs approval.
	InputHidden bool
}

// ToolCallRequest builds the Request for an ACP tool call running with
// working directory cwd.
func ToolCallRequest(tc ToolCall, cwd string) Request {
	if tc.Tool != "" && !strings.HasPrefix(tc.Tool, "mcp__") {
		if in, err := toolInputObject(tc.Tool, tc.RawInput); err == nil {
			r := claudeToolRequest(tc.Tool, in, cwd)
			if tc.Kind != "" && r.Kind == "" {
				r.Kind = tc.Kind
			}
			r.Title, r.InputHidden = tc.Title, tc.InputHidden
			r.Paths = appendNew(r.Paths, tc.Locations...)
			r.Paths = appendNew(r.Paths, tc.DiffPaths...)
			if tc.Kind == "execute" {
				r.Kind = "execute"
			}
			readCommandMembers(&r, in)
			if r.Kind == "execute" {
				commandFromTitle(&r)
			}
			placeCommand(&r, in, cwd)
			return r
		}
	}
	return genericToolRequest(tc, cwd)
}

// genericToolRequest builds the Request for a tool call read by its ACP
// fields alone: its kind, title, locations, diffs and the members of its
// input, with tc.Tool only as the name tool rules match.
func genericToolRequest(tc ToolCall, cwd string) Request {
	req := Request{Action: ActionToolCall, Tool: tc.Tool, Kind: tc.Kind, Title: tc.Title, Cwd: cwd, InputHidden: tc.InputHidden}
	in := inputObject(tc.RawInput)
	fillFromInput(&req, in)
	req.Mentioned, req.MentionedTooMany = mentionedStrings(in)
	req.Searched = searchesOf(tc.Tool, in, cwd)
	req.Paths = appendNew(req.Paths, tc.Locations...)
	req.Paths = appendNew(req.Paths, tc.DiffPaths...)
	readCommandMembers(&req, in)
	if in == nil {
		readBareInput(&req, tc.RawInput)
	}
	if req.Kind == "execute" {
		commandFromTitle(&req)
	}
	placeCommand(&req, in, cwd)
	return req
}

// inputObject reads a tool call's rawInput as an object, nil when there
// is none. Not an object, or not one read the same way by every reader: no
// arguments to read. Judged messages were read strictly before.
func inputObject(raw json.RawMessage) map[string]any {
	if len(raw) == 0 {
		return nil // and no map to read into made
	}
	var in map[string]any
	_ = jsonv2.Unmarshal(raw, &in)
	return canonicalInput(in)
}

// commandFromTitle fills in the command of an execute tool call whose
// input does not carry it from the title: Gemini CLI's permission requests
// for run_shell_command have no rawInput and the command line as their
// title; Claude Code's Bash titles are the command in backticks. The title
// is no less the agent's word than rawInput is.
func commandFromTitle(req *Request) {
	if req.Command != "" {
		req.CommandUnknown = false
		return
	}
	t := strings.TrimSpace(req.Title)
	if len(t) >= 2 && strings.HasPrefix(t, "`") && strings.HasSuffix(t, "`") && strings.Count(t, "`") == 2 {
		t = t[1 : len(t)-1]
	}
	req.Command = t
	req.CommandUnknown = t == ""
}

func appendNew(list []string, more ...string) []string {
	for _, m := range more {
		dup := m == ""
		for _, l := range list {
			if l == m {
				dup = true
			}
		}
		if !dup {
			list = append(list, m)
		}
	}
	return list
}
