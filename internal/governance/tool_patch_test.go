package governance

import (
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestPatchPaths checks that every file a patch tool's input changes is a
// path of the request: the keys of Codex's changes (codex-acp's rawInput
// for a patch, PatchApplyBegin or ApplyPatchApprovalRequest) and each
// change's move_path, and the files the headers of an apply_patch body
// name (Add, Update, Delete, Move to). codex-acp lists only a moved
// file's destination in the call's locations and diffs, never the file it
// removes.
func TestPatchPaths(t *testing.T) {
	tests := []struct {
		name string
		tc   ToolCall
		want []string
	}{
		{"codex move: the removed source is a path",
			ToolCall{Kind: "edit", Title: "Edit /w/notes.md", Locations: []string{"/w/notes.md"}, DiffPaths: []string{"/w/notes.md"},
				RawInput: []byte(`{"call_id":"c1","changes":{"/w/GOVERNANCE.md":{"type":"update","unified_diff":"","move_path":"/w/notes.md"}},"reason":null}`)},
			[]string{"/w/GOVERNANCE.md", "/w/notes.md"}},
		{"codex changes, externally tagged",
			ToolCall{Kind: "edit", RawInput: []byte(`{"changes":{"/w/a.md":{"update":{"unified_diff":"","move_path":"/w/.zed/settings.json"}},"/w/b.md":{"delete":{"content":""}}}}`)},
			[]string{"/w/a.md", "/w/.zed/settings.json", "/w/b.md"}},
		{"codex add",
			ToolCall{Kind: "edit", Locations: []string{"/w/new.go"}, RawInput: []byte(`{"changes":{"/w/new.go":{"type":"add","content":"package x"}}}`)},
			[]string{"/w/new.go"}},
		{"apply_patch body",
			ToolCall{Tool: "apply_patch", RawInput: []byte(`{"input":"*** Begin Patch\n*** Add File: GOVERNANCE.md\n+x\n*** Update File: src/a.go\n*** Move to: .claude/settings.json\n@@\n-a\n+b\n*** Delete File: audit/audit-log.jsonl\n*** End Patch\n"}`)},
			[]string{"GOVERNANCE.md", "src/a.go", ".claude/settings.json", "audit/audit-log.jsonl"}},
		{"apply_patch body under another member, headers indented",
			ToolCall{Kind: "edit", RawInput: []byte(`{"patch":"<<'EOF'\n*** Begin Patch\n  *** Update File: a.go\n *** Move to: .git/hooks/pre-commit \n*** End Patch\nEOF"}`)},
			[]string{"a.go", ".git/hooks/pre-commit ", ".git/hooks/pre-commit"}},
		{"text that is no patch names nothing",
			ToolCall{Kind: "edit", Locations: []string{"/w/doc.md"}, RawInput: []byte(`{"input":"*** Add File: x"}`)},
			[]string{"/w/doc.md"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := ToolCallRequest(tt.tc, "/w").Paths
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("paths (-want +got):\n%s", diff)
			}
		})
	}
}

// TestDecideCodexPatches checks that a Codex patch moving, deleting or
// writing the bridge's own files is refused, though its locations name
// only an ordinary file.
func TestDecideCodexPatches(t *testing.T) {
	e, root, _ := protectedWorkspace(t)
	tests := []struct {
		name string
		tc   ToolCall
		want Value
	}{
		{"moving the policy away", ToolCall{Kind: "edit", Title: "Edit " + root + "/src/notes.md",
			Locations: []string{root + "/src/notes.md"}, DiffPaths: []string{root + "/src/notes.md"},
			RawInput: []byte(`{"call_id":"c1","changes":{"` + root + `/GOVERNANCE.md":{"type":"update","unified_diff":"","move_path":"` + root + `/src/notes.md"}},"reason":null}`)}, Deny},
		{"apply_patch adding the audit log", ToolCall{Tool: "apply_patch", Title: "Apply patch",
			RawInput: []byte(`{"input":"*** Begin Patch\n*** Add File: audit/audit-log.jsonl\n+{}\n*** End Patch"}`)}, Deny},
		{"an ordinary move", ToolCall{Kind: "edit", Locations: []string{root + "/src/b.go"},
			RawInput: []byte(`{"changes":{"` + root + `/src/a.go":{"type":"update","unified_diff":"","move_path":"` + root + `/src/b.go"}}}`)}, Allow},
		// Codex's patch approval may ask for a root to write beneath for
		// the rest of the session, beyond the files it changes.
		{"a patch asking for a root", ToolCall{Kind: "edit", Locations: []string{root + "/src/a.go"},
			RawInput: []byte(`{"call_id":"c1","turn_id":"t1","changes":{"` + root + `/src/a.go":{"type":"add","content":"x"}},"reason":null,"grant_root":"/home"}`)}, RequireApproval},
		{"a patch asking for no root", ToolCall{Kind: "edit", Locations: []string{root + "/src/a.go"},
			RawInput: []byte(`{"call_id":"c1","turn_id":"t1","changes":{"` + root + `/src/a.go":{"type":"add","content":"x"}},"reason":null,"grant_root":null}`)}, Allow},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := e.Decide(ToolCallRequest(tt.tc, root))
			if d.Value != tt.want {
				t.Fatalf("Decide = %v (%s); want %s", d.Value, d.Reason, tt.want)
			}
			if tt.want == Deny && !strings.Contains(d.Reason, "the ") {
				t.Errorf("reason %q names nothing", d.Reason)
			}
			if tt.want == RequireApproval && !strings.Contains(d.Reason, `write access beneath "/home"`) {
				t.Errorf("reason %q does not say what the patch asks for", d.Reason)
			}
		})
	}
}

// FuzzPatchBodyPaths checks that every header of an apply_patch body, as
// Codex's parser reads it (the line trimmed, the path after the marker,
// trimmed), is among the paths patchBodyPaths returns, and that no input
// makes it fail.
func FuzzPatchBodyPaths(f *testing.F) {
	f.Add("*** Begin Patch\n*** Add File: GOVERNANCE.md\n+x\n*** End Patch")
	f.Add("*** Begin Patch\n*** Update File: a.go\n*** Move to: .claude/settings.json\n@@\n-a\n+b\n*** End Patch\n")
	f.Add("<<'EOF'\n*** Begin Patch\r\n  *** Delete File:  audit/audit-log.jsonl \r\n*** End Patch\nEOF")
	f.Fuzz(func(t *testing.T, body string) {
		got := patchBodyPaths(body)
		if !strings.Contains(body, "*** Begin Patch") {
			if len(got) != 0 {
				t.Fatalf("no patch, yet paths %q", got)
			}
			return
		}
		for line := range strings.SplitSeq(body, "\n") {
			line = strings.TrimSpace(line)
			for _, h := range patchHeaders {
				p, ok := strings.CutPrefix(line, strings.TrimSpace(h))
				if !ok || !strings.HasPrefix(p, " ") {
					continue
				}
				if p = strings.TrimSpace(p); p != "" && !slices.Contains(got, p) {
					t.Fatalf("header %q: %q not among %q", line, p, got)
				}
			}
		}
	})
}
