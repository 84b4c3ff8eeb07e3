package soak

import (
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"
)

// Mix is the kind of text a fake agent's turn carries.
type Mix int

// The mixes of the soak benchmark.
const (
	// Prose is English-like text: words, spaces, punctuation, newlines.
	Prose Mix = iota
	// Runs is long runs without spaces (base64 and minified code): the
	// agent's chunks join into one run the length of the turn.
	Runs
)

// String returns the mix's name as ParseMix accepts it.
func (m Mix) String() string {
	if m == Runs {
		return "runs"
	}
	return "prose"
}

// ParseMix returns the mix named s ("prose" or "runs").
func ParseMix(s string) (Mix, error) {
	switch s {
	case "prose":
		return Prose, nil
	case "runs":
		return Runs, nil
	}
	return 0, fmt.Errorf("unknown mix %q: want prose or runs", s)
}

var words = strings.Fields(`the bridge forwards each message as it came and the agent reads files runs
tests edits code while the user waits for an answer about why the build failed on line error
function return value string buffer token context window session prompt tool call update result
output input path directory module package import test bench memory heap stack goroutine channel`)

const runAlphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"

// text returns n bytes of the mix's text, already safe inside a JSON
// string literal (no quotes, backslashes or control characters other than
// the escaped newline).
func (m Mix) text(r *rand.Rand, n int) string {
	var b strings.Builder
	b.Grow(n + 16)
	if m == Runs {
		for b.Len() < n {
			b.WriteByte(runAlphabet[r.IntN(len(runAlphabet))])
		}
		return b.String()
	}
	for b.Len() < n {
		b.WriteString(words[r.IntN(len(words))])
		switch r.IntN(12) {
		case 0:
			b.WriteString(`.\n`)
		case 1:
			b.WriteString(", ")
		default:
			b.WriteByte(' ')
		}
	}
	return b.String()[:n]
}

// Text returns n bytes of m's text (one byte less or a space at the end
// where the text would end in half an escape) drawn from r as the soak's
// messages draw theirs, for a benchmark to send what the soak sends.
func (m Mix) Text(r *rand.Rand, n int) string { return trimEscape(m.text(r, n)) }

// turn is a pool of message bodies a fake agent cycles through, built once
// so the agent spends its time writing, not generating.
type turn struct {
	chunks     []string // JSON string literal contents, 1..1024 bytes
	tools      []string // 100..20480 bytes
	usageEvery int      // see AgentConfig.UsageEvery
}

func newTurn(m Mix, seed uint64, usageEvery int) *turn {
	r := rand.New(rand.NewPCG(seed, 20))
	t := &turn{chunks: make([]string, 257), tools: make([]string, 61), usageEvery: usageEvery}
	for i := range t.chunks {
		t.chunks[i] = trimEscape(m.text(r, 1+r.IntN(1024)))
	}
	for i := range t.tools {
		t.tools[i] = trimEscape(m.text(r, 100+r.IntN(20480-100+1)))
	}
	return t
}

// trimEscape replaces a trailing half of the two-byte escape `\n`.
func trimEscape(s string) string {
	if strings.HasSuffix(s, `\`) {
		return s[:len(s)-1] + " "
	}
	return s
}

// toolKinds are the kinds the fake agent's tool calls cycle through.
var toolKinds = []string{"read", "execute", "search", "fetch"}

// message appends the i-th message of a turn in session sid, whose
// working directory is cwd, to b: every tenth (i%10 == 9) a
// tool_call_update completing the call the message before opened with
// tool_call on a file under cwd, the rest agent_message_chunk, of which
// those with i%usageEvery == 0 are a usage_update instead if usageEvery is
// set (with a usageEvery that is a multiple of ten, every usageEvery-th
// message; otherwise a place a tool call holds keeps its tool call).
func (t *turn) message(b []byte, sid, cwd string, turnNo, i int) []byte {
	b = append(b, `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":`...)
	b = strconv.AppendQuote(b, sid)
	call := "call_" + strconv.Itoa(turnNo) + "_" + strconv.Itoa(i/10)
	switch {
	case i%10 < 8 && t.usageEvery > 0 && i%t.usageEvery == 0:
		// What Claude Code's adapter sends: the context used so far, the
		// window, and the cost.
		b = append(b, `,"update":{"sessionUpdate":"usage_update","used":`...)
		b = strconv.AppendInt(b, int64(20000+i%50000), 10)
		b = append(b, `,"size":200000,"cost":{"amount":`...)
		b = strconv.AppendFloat(b, float64(i)/1e4, 'f', 4, 64)
		b = append(b, `,"currency":"USD"}}}}`...)
		return append(b, '\n')
	}
	switch i % 10 {
	case 8:
		k := toolKinds[(i/10)%len(toolKinds)]
		b = append(b, `,"update":{"sessionUpdate":"tool_call","toolCallId":"`...)
		b = append(b, call...)
		b = append(b, `","title":"`...)
		b = append(b, k...)
		b = append(b, ` src/file`...)
		b = strconv.AppendInt(b, int64((i/10)%50), 10)
		b = append(b, `.go","kind":"`...)
		b = append(b, k...)
		b = append(b, `","status":"in_progress","locations":[{"path":`...)
		b = strconv.AppendQuote(b, cwd+"/src/file"+strconv.Itoa((i/10)%50)+".go")
		b = append(b, `}]}}}`...)
	case 9:
		b = append(b, `,"update":{"sessionUpdate":"tool_call_update","toolCallId":"`...)
		b = append(b, call...)
		b = append(b, `","status":"completed","content":[{"type":"content","content":{"type":"text","text":"`...)
		b = append(b, t.tools[(i/10)%len(t.tools)]...)
		b = append(b, `"}}]}}}`...)
	default:
		b = append(b, `,"update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"`...)
		b = append(b, t.chunks[i%len(t.chunks)]...)
		b = append(b, `"}}}}`...)
	}
	return append(b, '\n')
}
