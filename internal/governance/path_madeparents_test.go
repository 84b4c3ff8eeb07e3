package governance

import (
	"os"
	"slices"
	"testing"
)

// TestMadeParents checks the directories a maker of missing parents makes
// on the way to a path: each missing one the path steps back out of with
// "..", where the walk reached it, and none for a path without "..".
func TestMadeParents(t *testing.T) {
	root, outside := pathWorkspace(t)
	if err := os.MkdirAll(outside, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		path string
		want []string
	}{
		{outside + "/made/../../ws/src/x.go", []string{outside + "/made"}},
		{outside + "/a/b/../../../ws/x", []string{outside + "/a", outside + "/a/b"}},
		{root + "/new/../src/x.go", []string{root + "/new"}},
		{root + "/src/up/new/../x", []string{root + "/new"}}, // src/up leads to the root
		{root + "/src/../x", nil},                            // src exists: nothing made
		{root + "/new/deeper/x", nil},                        // no "..": the path itself
		{root + "/src/x.go", nil},
	} {
		if got := madeParents(tt.path, root); !slices.Equal(got, tt.want) {
			t.Errorf("madeParents(%s) = %q; want %q", tt.path, got, tt.want)
		}
	}
}

// TestDecideMadeParents checks that a write whose path leads into the
// workspace through a missing directory outside it is decided as writing
// that directory too (the IDE's mkdir -p makes it), and one through a
// missing directory inside the workspace as the path alone.
func TestDecideMadeParents(t *testing.T) {
	e, root := pathEngine(t)
	outside := root + "/../outside"
	if err := os.MkdirAll(outside, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		action, path string
		want         Value
	}{
		{ActionFSWrite, outside + "/made/../../ws/src/x.go", Deny},           // makes outside/made
		{ActionFSWrite, root + "/../outside/a/b/../../../ws/src/x.go", Deny}, // makes outside/a and a/b
		{ActionFSWrite, root + "/new/../src/x.go", Allow},                    // makes ws/new: inside
		{ActionFSWrite, root + "/src/x.go", Allow},
	} {
		if d := e.Decide(Request{Action: tt.action, Paths: []string{tt.path}, Cwd: root}); d.Value != tt.want {
			t.Errorf("Decide(%s %s) = %v; want %s", tt.action, tt.path, d, tt.want)
		}
	}
}
