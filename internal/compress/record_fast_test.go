package compress

import (
	"fmt"
	"maps"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/acp-bridge/acp-bridge/internal/acpparams"
	"github.com/acp-bridge/acp-bridge/internal/rawjson"
)

// scanLiteralSeeds are tool outputs as JSON string literals: with and
// without escapes, with bytes that are not UTF-8 next to codes.
var scanLiteralSeeds = []string{
	`"error TS2304: cannot find name; ENOENT, status 503"`,
	`"line one\nE0308 mismatched types\nexit code 2"`,
	"\"\xffTS2304\xfe E0308\xc3\"",
	"\"caf\xc3\xa9 SC2086 \xe2\x82 ERR_BAD_THING\"",
	`"\u0054S2304 escaped capital"`,
	`"aGVsbG8K+TS2304/E0308+abc"`,
	`""`,
	`"no capital nor digit here.\nonly words, \"quoted\" and \/ escapes\t"`,
	`"escaped capitals only: \u0054\u0053\u0032\u0033\u0030\u0034 and \u0045NOENT"`,
	`"an escaped backslash before u: \\u and status\n"`,
	`"failed\nexit code 2 and status 503, no capital"`,
}

// TestScanLiteral checks that scanning a tool output's literal finds what
// decoding it and scanning the text finds.
func TestScanLiteral(t *testing.T) {
	for _, lit := range scanLiteralSeeds {
		checkScanLiteral(t, []byte(lit))
	}
}

// FuzzScanLiteral checks the same on any literal.
func FuzzScanLiteral(f *testing.F) {
	for _, lit := range scanLiteralSeeds {
		f.Add([]byte(lit[1 : len(lit)-1]))
	}
	f.Fuzz(func(t *testing.T, inner []byte) {
		lit := append(append([]byte{'"'}, inner...), '"')
		checkScanLiteral(t, lit)
	})
}

func checkScanLiteral(t *testing.T, lit []byte) {
	t.Helper()
	fast := NewRecorder("s", "")
	fast.scanLiteral(lit)
	slow := NewRecorder("s", "")
	text, _ := rawjson.AppendUnquoted(nil, lit, 0)
	slow.scanFactsIn(text)
	if !slices.Equal(fast.Facts(), slow.Facts()) {
		t.Fatalf("scanLiteral(%q) finds %q; decoded, the text gives %q", lit, fast.Facts(), slow.Facts())
	}
}

// TestToolOrderRing checks the recorder's bound on running tool calls
// against a queue of every call as it came, the oldest leaving the front
// once it holds more than MaxToolCalls: the same calls are kept, through
// ids that come back after they completed or were forgotten.
func TestToolOrderRing(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	r := NewRecorder("s", "")
	kept := map[string]bool{}
	var queue []string
	at := time.Unix(0, 0)
	for i := range 20 * MaxToolCalls {
		id := fmt.Sprintf("c%d", rng.IntN(3*MaxToolCalls))
		status := "in_progress"
		if rng.IntN(3) == 0 {
			status = "completed"
		}
		r.toolCall(at, &acpparams.ToolCall{ID: id, Status: status})
		if !kept[id] {
			kept[id] = true
			queue = append(queue, id)
			if len(queue) > MaxToolCalls {
				delete(kept, queue[0])
				queue = queue[1:]
			}
		}
		if status == "completed" {
			delete(kept, id)
		}
		if got, want := slices.Sorted(maps.Keys(r.toolCalls)), slices.Sorted(maps.Keys(kept)); !slices.Equal(got, want) {
			t.Fatalf("after call %d (%s %s): the recorder keeps %d calls, the queue %d:\n%q\n%q", i, id, status, len(got), len(want), got, want)
		}
	}
}

// TestToolNote checks a tool call's archive line against the Note it
// stands for, in memory and spooled.
func TestToolNote(t *testing.T) {
	at := time.Date(2026, 1, 29, 15, 4, 5, 0, time.UTC)
	for _, tc := range []toolCall{
		{},
		{kind: "execute", status: "completed", title: "go test ./..."},
		{kind: "edit", status: "in_progress", title: "Write a.go", paths: []string{"/w/a.go"}},
		{kind: "move", status: "failed", title: "Move", paths: []string{"/w/a.go", "/w/b.go", "/w/c d.go"}},
		{title: "ünïcode · title", paths: []string{""}},
	} {
		want := orDash(tc.kind) + " [" + orDash(tc.status) + "] " + tc.title + " " + strings.Join(tc.paths, ", ")
		for _, spooled := range []bool{false, true} {
			got, ref := NewRecorder("s", ""), NewRecorder("s", "")
			if spooled {
				dir := t.TempDir()
				got.SpoolTo(filepath.Join(dir, "got"))
				ref.SpoolTo(filepath.Join(dir, "ref"))
			}
			got.toolNote(at, &tc)
			ref.Note(at, "Tool", want)
			if g, w := got.Archive(at), ref.Archive(at); g != w {
				t.Errorf("spooled %v: toolNote(%+v) archives\n%s\nwant\n%s", spooled, tc, g, w)
			}
		}
	}
}
