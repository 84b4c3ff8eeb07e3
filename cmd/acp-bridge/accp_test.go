package main

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/acp-bridge/acp-bridge/internal/accp"
)

func TestACCPEncodeDecode(t *testing.T) {
	corpus, err := os.ReadFile("../../internal/accp/acpmap/testdata/corpus.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	frames, stderr, code := runCmd(t, string(corpus), "accp", "encode")
	if code != 0 {
		t.Fatalf("encode exited %d\n%s", code, stderr)
	}
	inLines := strings.Split(strings.TrimSpace(string(corpus)), "\n")
	outLines := strings.Split(strings.TrimSpace(frames), "\n")
	if len(outLines) != len(inLines) {
		t.Fatalf("%d frames for %d messages", len(outLines), len(inLines))
	}
	decoded, stderr, code := runCmd(t, frames, "accp", "decode")
	if code != 0 {
		t.Fatalf("decode exited %d\n%s", code, stderr)
	}
	for i, line := range strings.Split(strings.TrimSpace(decoded), "\n") {
		x, _ := accp.DecodeJSON([]byte(inLines[i]))
		want := x.(map[string]any)["msg"]
		got, err := accp.DecodeJSON([]byte(line))
		if err != nil {
			t.Fatalf("line %d: %v", i+1, err)
		}
		if !accp.JSONEqual(got, want) {
			t.Errorf("line %d: got %s", i+1, line)
		}
	}
}

func TestACCPEncodeRunsRefs(t *testing.T) {
	corpus, err := os.ReadFile("../../testdata/transcripts/claude-basic.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	inLines := strings.Split(strings.TrimSpace(string(corpus)), "\n")
	for _, args := range [][]string{{"-runs"}, {"-runs", "-run-tokens", "-1"}, {"-refs"}, {"-runs", "-refs"}} {
		t.Run(strings.Join(args, " "), func(t *testing.T) {
			frames, stderr, code := runCmd(t, string(corpus), append([]string{"accp", "encode"}, args...)...)
			if code != 0 {
				t.Fatalf("encode exited %d\n%s", code, stderr)
			}
			outLines := strings.Split(strings.TrimSpace(frames), "\n")
			if args[0] == "-runs" && (len(outLines) >= len(inLines) || !strings.Contains(frames, ">sync:run{m:[")) {
				t.Fatalf("%d frames for %d messages, no run:\n%s", len(outLines), len(inLines), frames)
			}
			if args[len(args)-1] == "-refs" && !strings.Contains(frames, ":$") {
				t.Fatalf("no back-reference:\n%s", frames)
			}
			decoded, stderr, code := runCmd(t, frames, "accp", "decode")
			if code != 0 {
				t.Fatalf("decode exited %d\n%s", code, stderr)
			}
			got := strings.Split(strings.TrimSpace(decoded), "\n")
			if len(got) != len(inLines) {
				t.Fatalf("decoded %d messages, want %d", len(got), len(inLines))
			}
			for i, line := range got {
				x, _ := accp.DecodeJSON([]byte(inLines[i]))
				want := x.(map[string]any)["msg"]
				g, err := accp.DecodeJSON([]byte(line))
				if err != nil || !accp.JSONEqual(g, want) {
					t.Errorf("message %d: got %s (%v)", i+1, line, err)
				}
			}
		})
	}
}

func TestACCPDecodeErrors(t *testing.T) {
	in := "@agent>sync:plan{e:[]}[mid:123456789012,seq:1,ts:1714000000]\n" +
		"@agent>sync:plan{e:[]}[mid:123456789012,seq:2,ts:1714000000]\n" +
		"@agent>sync:plan{e:[] }[mid:123456789013,seq:2,ts:1714000000]\n"
	out, _, code := runCmd(t, in, "accp", "decode")
	if code == 0 {
		t.Fatal("decode of bad frames succeeded")
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 3 {
		t.Fatalf("got %d output lines:\n%s", len(lines), out)
	}
	for i, want := range []string{"", "code:E3002", "code:E1001"} {
		if want == "" {
			if !strings.HasPrefix(lines[i], "{") {
				t.Errorf("line %d: %s", i+1, lines[i])
			}
			continue
		}
		if !strings.HasPrefix(lines[i], "@decoder>fail:error{"+want) || !strings.Contains(lines[i], "schema:ER") {
			t.Errorf("line %d: got %s, want an ER frame with %s", i+1, lines[i], want)
		}
		if _, err := accp.ParseFrame(lines[i]); err != nil {
			t.Errorf("line %d: the error frame does not parse: %v", i+1, err)
		}
	}
}

func TestACCPStats(t *testing.T) {
	out, stderr, code := runCmd(t, "", "accp", "stats", "../../internal/accp/acpmap/testdata/corpus.jsonl")
	if code != 0 {
		t.Fatalf("exit %d\n%s", code, stderr)
	}
	for _, want := range []string{"compact JSON", "session/update tool_call ", "TOTAL", "STRUCTURAL", "-runs -refs  STRUCTURAL"} {
		if !strings.Contains(out, want) {
			t.Errorf("stats output lacks %q:\n%s", want, out)
		}
	}
	if _, _, code := runCmd(t, "", "accp", "stats"); code == 0 {
		t.Error("stats without files succeeded")
	}
}

// TestACCPEncodeSkipsHeldBack: a --record entry for a message the bridge
// held back is not part of the stream a peer saw, so it gets no frame.
func TestACCPEncodeSkipsHeldBack(t *testing.T) {
	rec := `{"ts":"2026-11-21T10:00:00Z","dir":"agent_to_client","msg":{"jsonrpc":"2.0","id":7,"method":"fs/read_text_file","params":{"sessionId":"s","path":"/etc/shadow"}},"bridge":"answered"}
{"ts":"2026-11-21T10:00:00Z","dir":"client_to_agent","msg":{"jsonrpc":"2.0","id":7,"error":{"code":-32602,"message":"denied"}}}
`
	frames, stderr, code := runCmd(t, rec, "accp", "encode")
	if code != 0 {
		t.Fatalf("encode exited %d\n%s", code, stderr)
	}
	if lines := strings.Split(strings.TrimSpace(frames), "\n"); len(lines) != 1 || strings.Contains(frames, "shadow") {
		t.Fatalf("frames = %q, want one frame, for the error response", frames)
	}
}

// TestACCPEncodeTooDeep checks that a message no frame can carry within
// the mapping's limits is reported (E1001) and skipped, and that the other
// messages, in a run or not, are encoded and decode.
func TestACCPEncodeTooDeep(t *testing.T) {
	note := `{"jsonrpc":"2.0","method":"_x/note","params":{"note":"hello"}}`
	deep := `{"jsonrpc":"2.0","method":"_x/deep","params":` + strings.Repeat(`{"a":`, 70) + `1` + strings.Repeat(`}`, 70) + `}`
	for _, args := range [][]string{nil, {"-runs", "-run-tokens", "-1"}} {
		t.Run(strings.Join(append([]string{"encode"}, args...), " "), func(t *testing.T) {
			frames, stderr, code := runCmd(t, note+"\n"+deep+"\n"+note+"\n", append([]string{"accp", "encode"}, args...)...)
			if code == 0 || !strings.Contains(stderr, "stdin:2: ") || !strings.Contains(stderr, "E1001") {
				t.Fatalf("exit %d, stderr %q: want line 2 reported with E1001", code, stderr)
			}
			decoded, stderr, code := runCmd(t, frames, "accp", "decode")
			if code != 0 {
				t.Fatalf("decode exited %d\n%s", code, stderr)
			}
			if got := strings.Count(decoded, `"_x/note"`); got != 2 {
				t.Errorf("%d notes decoded, want 2:\n%s", got, decoded)
			}
		})
	}
}

// TestACCPLines checks the line reader of the accp commands: lines of any
// length without a bound, and with one a long line cut to one byte over
// it, the rest dropped and the next line intact.
func TestACCPLines(t *testing.T) {
	long := strings.Repeat("x", 200_000) // over bufio's 64 KiB buffer
	tests := []struct {
		name  string
		in    string
		max   int
		lines []int // the length of each line fn sees
	}{
		{"unbounded", "ab\r\n" + long + "\nc", 0, []int{2, len(long), 1}},
		{"within the bound", "ab\n" + long[:1000] + "\n", 1000, []int{2, 1000}},
		{"over the bound", "ab\n" + long + "\nc\n", 1000, []int{2, 1001, 1}},
		{"one byte over", long[:1001] + "\r\n" + "c", 1000, []int{1001, 1}},
		{"no final newline", long, 1000, []int{1001}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got []int
			err := lines(context.Background(), strings.NewReader(tt.in), tt.max, func(n int, line []byte) error {
				if n != len(got)+1 {
					t.Errorf("line %d numbered %d", len(got)+1, n)
				}
				got = append(got, len(line))
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(got, tt.lines) {
				t.Errorf("got lines of %v bytes, want %v", got, tt.lines)
			}
		})
	}
}

// TestACCPLongInputLines checks that accp encode reports and skips a line
// over its input limit, encoding the lines around it, and that accp stats
// refuses such a file naming the line.
func TestACCPLongInputLines(t *testing.T) {
	defer func(n int) { accpMaxInputLine = n }(accpMaxInputLine)
	accpMaxInputLine = 1000
	note := `{"jsonrpc":"2.0","method":"_x/note","params":{"note":"hello"}}`
	long := `{"jsonrpc":"2.0","method":"_x/long","params":{"text":"` + strings.Repeat("x", 5000) + `"}}`
	frames, stderr, code := runCmd(t, note+"\n"+long+"\n"+note+"\n", "accp", "encode")
	if code == 0 || !strings.Contains(stderr, "stdin:2: line longer than 1000 bytes, skipped") {
		t.Fatalf("exit %d, stderr %q: want line 2 reported as too long", code, stderr)
	}
	if got := strings.Count(strings.TrimSpace(frames), "\n") + 1; got != 2 || strings.Contains(frames, "xxxx") {
		t.Fatalf("frames %q: want the two notes only", frames)
	}
	path := filepath.Join(t.TempDir(), "long.jsonl")
	if err := os.WriteFile(path, []byte(note+"\n"+long+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	_, stderr, code = runCmd(t, "", "accp", "stats", path)
	if code == 0 || !strings.Contains(stderr, "long.jsonl:2: line longer than 1000 bytes") {
		t.Fatalf("stats: exit %d, stderr %q: want line 2 reported", code, stderr)
	}
}

// TestACCPEncodeSessionRandomMID: a frame's mid is derived from -session
// and seq (the same input and session encode to the same mid, another
// session to another), unless -random-mid makes it fresh each time; decode
// gives the same message back either way.
func TestACCPEncodeSessionRandomMID(t *testing.T) {
	const in = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":1}}` + "\n"
	mid := regexp.MustCompile(`\[mid:([0-9a-z]+),`)
	encode := func(args ...string) string {
		t.Helper()
		out, stderr, code := runCmd(t, in, append([]string{"accp", "encode"}, args...)...)
		if code != 0 {
			t.Fatalf("encode %v exited %d\n%s", args, code, stderr)
		}
		decoded, stderr, code := runCmd(t, out, "accp", "decode")
		if code != 0 || !accp.JSONEqual(mustJSON(t, decoded), mustJSON(t, in)) {
			t.Errorf("decode of %q (exit %d, %s): %q, want %q", out, code, stderr, decoded, in)
		}
		m := mid.FindStringSubmatch(out)
		if m == nil {
			t.Fatalf("encode %v: no mid in %q", args, out)
		}
		return m[1]
	}
	if a, b := encode("-session", "s-42"), encode("-session", "s-42"); a != b {
		t.Errorf("-session s-42 twice gave mids %s and %s, want the same", a, b)
	}
	if a, b := encode("-session", "s-42"), encode("-session", "s-43"); a == b {
		t.Errorf("sessions s-42 and s-43 gave the same mid %s", a)
	}
	if a, b := encode("-session", "s-42", "-random-mid"), encode("-session", "s-42", "-random-mid"); a == b {
		t.Errorf("-random-mid gave mid %s twice", a)
	}
}

func mustJSON(t *testing.T, s string) any {
	t.Helper()
	v, err := accp.DecodeJSON([]byte(strings.TrimSpace(s)))
	if err != nil {
		t.Fatalf("%q: %v", s, err)
	}
	return v
}
