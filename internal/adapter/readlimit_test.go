package adapter

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/acp-bridge/acp-bridge/internal/tokens"
)

var countO200k = tokens.Count

// bigFile writes a file of numbered lines of about tokens o200k tokens and
// returns its path.
func bigFile(t *testing.T, tokens int) string {
	t.Helper()
	var b strings.Builder
	for i, n := 1, 0; n < tokens; i++ {
		line := fmt.Sprintf("line %d: the quick brown fox jumps over the lazy dog near river %d\n", i, i*7)
		n += countO200k(line)
		b.WriteString(line)
	}
	p := filepath.Join(t.TempDir(), "big.txt")
	if err := os.WriteFile(p, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestLimitLargeReads(t *testing.T) {
	big := bigFile(t, 20000)
	small := filepath.Join(t.TempDir(), "small.txt")
	os.WriteFile(small, []byte("hello\n"), 0o644)
	verdict := Verdict(NoOpinion)
	inner := DeciderFunc(func(context.Context, ToolCall) (Decision, error) { return Decision{Verdict: verdict}, nil })
	d := LimitLargeReads(inner, ReadLimit{Threshold: 15000})

	read := func(input string) ToolCall {
		return ToolCall{Agent: Claude, Tool: "Read", Input: json.RawMessage(input)}
	}
	t.Run("large full read is limited", func(t *testing.T) {
		got, err := d.DecideTool(context.Background(), read(fmt.Sprintf(`{"file_path":%q}`, big)))
		if err != nil {
			t.Fatal(err)
		}
		var in struct {
			FilePath string `json:"file_path"`
			Limit    int    `json:"limit"`
		}
		if err := json.Unmarshal(got.UpdatedInput, &in); err != nil {
			t.Fatalf("updated input %s: %v", got.UpdatedInput, err)
		}
		if in.FilePath != big || in.Limit < 1 {
			t.Fatalf("updated input = %s", got.UpdatedInput)
		}
		// What Claude will show: the first Limit lines, numbered.
		data, _ := os.ReadFile(big)
		lines := strings.SplitAfter(string(data), "\n")
		var shown strings.Builder
		for i := 0; i < in.Limit; i++ {
			fmt.Fprintf(&shown, "%6d\t%s", i+1, lines[i])
		}
		shownTokens, fileTokens := countO200k(shown.String()), countO200k(string(data))
		if shownTokens > fileTokens/10 {
			t.Errorf("limited read shows %d tokens, more than 10%% of the file's %d", shownTokens, fileTokens)
		}
		if shownTokens < 1000 {
			t.Errorf("limited read shows only %d tokens; the budget is 1500", shownTokens)
		}
		if !strings.Contains(got.Context, big) || !strings.Contains(got.Context, "offset") || got.Verdict != NoOpinion {
			t.Errorf("decision = %+v: want the path and how to read more, and the inner verdict kept", got)
		}
	})
	for _, tt := range []struct{ name, input string }{
		{"ranged read passes", fmt.Sprintf(`{"file_path":%q,"offset":10,"limit":20}`, big)},
		{"limit only passes", fmt.Sprintf(`{"file_path":%q,"limit":20}`, big)},
		{"small file passes", fmt.Sprintf(`{"file_path":%q}`, small)},
		{"missing file passes", `{"file_path":"/nonexistent/x"}`},
		{"bad input passes", `[]`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got, err := d.DecideTool(context.Background(), read(tt.input))
			if err != nil || got.UpdatedInput != nil || got.Context != "" {
				t.Errorf("got %+v, %v; want the inner decision untouched", got, err)
			}
		})
	}
	t.Run("a copy is offloaded byte for byte", func(t *testing.T) {
		var kept, keptFor string
		var told []LimitedRead
		d := LimitLargeReads(inner, ReadLimit{Threshold: 15000, Offload: func(session, tool, content string) (string, error) {
			kept, keptFor = content, session
			return "/cache/offloaded/x_Read.md", nil
		}, OnLimit: func(lr LimitedRead) { told = append(told, lr) }})
		c := read(fmt.Sprintf(`{"file_path":%q}`, big))
		c.SessionID = "s1"
		got, _ := d.DecideTool(context.Background(), c)
		want, _ := os.ReadFile(big)
		if kept != string(want) || !strings.Contains(got.Context, "/cache/offloaded/x_Read.md") {
			t.Errorf("offloaded %d bytes of %d; context %q", len(kept), len(want), got.Context)
		}
		if keptFor != "s1" {
			t.Errorf("the copy was kept for session %q, want the reader's s1 (so it may read it back)", keptFor)
		}
		if len(told) != 1 || told[0].Session != "s1" || told[0].Copy != "/cache/offloaded/x_Read.md" ||
			told[0].FileTokens < 20000 || told[0].ShownTokens > 1500 || told[0].ShownTokens < 1000 {
			t.Errorf("OnLimit got %+v", told)
		}
	})
	t.Run("denied read stays denied", func(t *testing.T) {
		verdict = Deny
		defer func() { verdict = NoOpinion }()
		got, _ := d.DecideTool(context.Background(), read(fmt.Sprintf(`{"file_path":%q}`, big)))
		if got.Verdict != Deny || got.UpdatedInput != nil {
			t.Errorf("got %+v", got)
		}
	})
	t.Run("other tools pass", func(t *testing.T) {
		got, _ := d.DecideTool(context.Background(), ToolCall{Agent: Claude, Tool: "Bash", Input: json.RawMessage(`{"command":"cat big"}`)})
		if got.UpdatedInput != nil {
			t.Errorf("got %+v", got)
		}
	})
}
