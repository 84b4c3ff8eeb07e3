package governance

import (
	"maps"
	"slices"
	"strings"
	"unicode"
)

// A patch tool changes files its input names in its own shapes rather
// than in a path field. Codex reports a patch (codex-acp's rawInput for
// PatchApplyBegin and ApplyPatchApprovalRequest) as
//
//	{"call_id": ..., "changes": {"/w/a.go": {"type": "update", "unified_diff": ..., "move_path": "/w/b.go"}}}
//
// and codex-acp's locations and diffs name only a moved file's
// destination, never the file the move removes. Its apply_patch tool takes
// a patch body ("*** Begin Patch", then "*** Add File: P", "*** Update
// File: P", "*** Move to: P", "*** Delete File: P" headers). Every file
// either names is a path the call changes.

// grantKeys are the members of Codex's patch approval that ask for write
// access beneath a directory for the rest of the session (grant_root),
// beyond the files the patch changes.
var grantKeys = []string{"grant_root", "grantRoot"}

// patchKeys are the input members that may hold a patch body.
var patchKeys = []string{"input", "patch"}

// patchHeaders are the apply_patch header prefixes followed by a path.
var patchHeaders = []string{"*** Add File: ", "*** Update File: ", "*** Delete File: ", "*** Move to: "}

// maxPatchDepth bounds how deep a change's move_path is looked for: the
// change object, or the one object inside it when the change is tagged
// by its member name ({"update": {"move_path": ...}}).
const maxPatchDepth = 2

// patchPaths returns the files a patch tool's input changes: the keys of
// its changes object with each change's move_path, and the files the
// headers of a patch body name.
func patchPaths(in map[string]any) []string {
	var out []string
	if changes, ok := in["changes"].(map[string]any); ok {
		// In order, so that one input is always judged alike.
		for _, p := range slices.Sorted(maps.Keys(changes)) {
			if p != "" {
				out = append(out, p)
			}
			out = append(out, movePaths(changes[p], maxPatchDepth)...)
		}
	}
	for _, k := range patchKeys {
		if body, ok := in[k].(string); ok {
			out = append(out, patchBodyPaths(body)...)
		}
	}
	return out
}

// movePaths returns the move_path strings of a change, looked for depth
// objects deep.
func movePaths(change any, depth int) []string {
	obj, ok := change.(map[string]any)
	if !ok || depth == 0 {
		return nil
	}
	var out []string
	for _, k := range slices.Sorted(maps.Keys(obj)) {
		switch v := obj[k].(type) {
		case string:
			if k == "move_path" && v != "" {
				out = append(out, v)
			}
		case map[string]any:
			out = append(out, movePaths(v, depth-1)...)
		}
	}
	return out
}

// patchBodyPaths returns the paths the headers of an apply_patch body
// name, each as written and, when it differs, trimmed of white space:
// Codex's parser trims a header line (Rust's trim, any Unicode white
// space) and may take the path either way. Text without "*** Begin Patch" is no patch and
// names nothing.
func patchBodyPaths(body string) []string {
	if !strings.Contains(body, "*** Begin Patch") {
		return nil
	}
	var out []string
	for line := range strings.SplitSeq(body, "\n") {
		line = strings.TrimLeftFunc(strings.TrimSuffix(line, "\r"), unicode.IsSpace)
		for _, h := range patchHeaders {
			p, ok := strings.CutPrefix(line, h)
			if !ok {
				continue
			}
			if p != "" {
				out = append(out, p)
			}
			if t := strings.TrimSpace(p); t != p && t != "" {
				out = append(out, t)
			}
		}
	}
	return out
}
