package auditweb

import (
	"encoding/json"
	"strings"

	"github.com/acp-bridge/acp-bridge/internal/audit"
)

// diffFrom finds the ACP diff content ({"type":"diff","path","oldText",
// "newText"}) of a tool call's result.
func diffFrom(result []byte) []diffLine {
	var items []struct {
		Type    string  `json:"type"`
		Path    string  `json:"path"`
		OldText *string `json:"oldText"`
		NewText string  `json:"newText"`
	}
	if json.Unmarshal(result, &items) != nil {
		return nil
	}
	var out []diffLine
	for _, it := range items {
		if it.Type != "diff" {
			continue
		}
		out = append(out, diffLine{Op: "@", Text: audit.Printable(it.Path)})
		old := ""
		if it.OldText != nil {
			old = *it.OldText
		}
		out = append(out, lineDiff(old, it.NewText)...)
	}
	return out
}

// diffFromArgs makes a diff from the arguments of an edit or a write:
// old_string/new_string (an edit), or content (a whole file written).
func diffFromArgs(args []byte) []diffLine {
	var a struct {
		OldString *string `json:"old_string"`
		NewString *string `json:"new_string"`
		Content   *string `json:"content"`
	}
	if json.Unmarshal(args, &a) != nil {
		return nil
	}
	switch {
	case a.NewString != nil:
		old := ""
		if a.OldString != nil {
			old = *a.OldString
		}
		return lineDiff(old, *a.NewString)
	case a.Content != nil:
		return lineDiff("", *a.Content)
	}
	return nil
}

// maxDiffCells bounds the work of lineDiff (lines of old times lines of
// new); beyond it the diff shows every old line removed and every new
// line added.
const maxDiffCells = 1 << 18

// lineDiff is a line diff of old and new by longest common subsequence,
// each line made printable.
func lineDiff(old, new string) []diffLine {
	a, b := splitLines(old), splitLines(new)
	var out []diffLine
	if len(a)*len(b) > maxDiffCells {
		for _, l := range a {
			out = append(out, diffLine{"-", audit.Printable(l)})
		}
		for _, l := range b {
			out = append(out, diffLine{"+", audit.Printable(l)})
		}
		return out
	}
	// lcs[i][j] is the LCS length of a[i:] and b[j:].
	lcs := make([][]int, len(a)+1)
	for i := range lcs {
		lcs[i] = make([]int, len(b)+1)
	}
	for i := len(a) - 1; i >= 0; i-- {
		for j := len(b) - 1; j >= 0; j-- {
			if a[i] == b[j] {
				lcs[i][j] = lcs[i+1][j+1] + 1
			} else {
				lcs[i][j] = max(lcs[i+1][j], lcs[i][j+1])
			}
		}
	}
	i, j := 0, 0
	for i < len(a) || j < len(b) {
		switch {
		case i < len(a) && j < len(b) && a[i] == b[j]:
			out = append(out, diffLine{" ", audit.Printable(a[i])})
			i, j = i+1, j+1
		case j < len(b) && (i == len(a) || lcs[i][j+1] >= lcs[i+1][j]):
			out = append(out, diffLine{"+", audit.Printable(b[j])})
			j++
		default:
			out = append(out, diffLine{"-", audit.Printable(a[i])})
			i++
		}
	}
	return out
}

func splitLines(s string) []string {
	if s == "" {
		return nil
	}
	return strings.Split(strings.TrimSuffix(s, "\n"), "\n")
}
