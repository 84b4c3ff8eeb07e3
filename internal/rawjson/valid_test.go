package rawjson

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestValidAgreesWithEncodingJSON(t *testing.T) {
	cases := []string{
		`{}`, `[]`, `""`, `0`, `-0`, `1.5e+10`, `true`, `null`, ` {"a" : [1, 2, {"b":null}]} `,
		`{"s":"esc \" \\ \/ \b \f \n \r \t \u00e9 \uD83D\uDE00"}`, "\"\u2028\"", "\"\xff\xfe\"",
		`01`, `1.`, `.5`, `1e`, `-`, `+1`, `{"a":1,}`, `[1,]`, `{"a"}`, `{a:1}`, `"\x"`, `"\u12"`,
		"\"tab\there\"", `tru`, `nul`, `[`, `{`, `"`, ``, ` `, `1 2`, `{"a":1}x`, `"abcdefghijklmnop\"qrstuvwxyz"`,
		strings.Repeat("[", 10000) + strings.Repeat("]", 10000),
		strings.Repeat("[", 10001) + strings.Repeat("]", 10001),
		`"` + strings.Repeat("x", 100) + "\x01" + `"`,
	}
	for _, c := range cases {
		if got, want := Valid([]byte(c)), json.Valid([]byte(c)); got != want {
			t.Errorf("Valid(%.60q) = %v, encoding/json says %v", c, got, want)
		}
	}
}

// FuzzValid: Valid agrees with encoding/json.Valid on every input, and so
// does ValidNamesFacts, whose facts of a valid input are true to its bytes
// (see checkFacts).
func FuzzValid(f *testing.F) {
	for _, s := range []string{`{"jsonrpc":"2.0","id":1,"method":"x","params":{"a":[1,2.5e3,-0,true,null,"\u00e9"]}}`, `"abc\"def\\"`, `[1,{}]`, "\"\x1f\"",
		`{"t":"` + strings.Repeat(`line\n`, 20) + "\xff" + `"}`, `{"é":"x"}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		want := json.Valid(b)
		if got := Valid(b); got != want {
			t.Fatalf("Valid(%q) = %v, encoding/json says %v", b, got, want)
		}
		for _, depth := range []int{0, 1, 3} {
			ok, facts := ValidNamesFacts(b, depth, func(int, int, int, []byte, []byte) {})
			if ok != want {
				t.Fatalf("ValidNamesFacts(%q, %d) = %v, encoding/json says %v", b, depth, ok, want)
			}
			if ok {
				checkFacts(t, b, facts)
			}
		}
	})
}

// checkFacts fails t unless facts, what a validation of the valid JSON b
// learnt, are true to b's bytes: for a valid document both are exact.
func checkFacts(t *testing.T, b []byte, facts Facts) {
	t.Helper()
	if want := ascii(b); facts.ASCII != want {
		t.Fatalf("facts of %q: ASCII %v, want %v", b, facts.ASCII, want)
	}
	if want := !strings.Contains(strings.ReplaceAll(string(b), `\\`, ""), `\u`); facts.NoUEscape != want {
		t.Fatalf("facts of %q: NoUEscape %v, want %v", b, facts.NoUEscape, want)
	}
	if want := longestLiteral(b); facts.Longest != want {
		t.Fatalf("facts of %q: Longest %+v, want %+v", b, facts.Longest, want)
	}
}

// longestLiteral returns where the first of the longest string literals of
// the valid JSON b is, names and values alike: outside a literal, valid
// JSON has a quote only where one starts.
func longestLiteral(b []byte) Span {
	var best Span
	for i := 0; i < len(b); i++ {
		if b[i] != '"' {
			continue
		}
		end, _ := ValidString(b, i)
		if end-i > best.End-best.Start {
			best = Span{i, end}
		}
		i = end - 1
	}
	return best
}

// TestValidNamesFacts: a byte of 0x80 or above anywhere in a document, in
// a name or a value, a short string or a long one read by the vector scan
// (before, between and after its escapes), at a depth whose names are
// reported or below it, tells the document apart from an ASCII one, as
// does a \u escape; the facts of ASCII documents without one say so.
func TestValidNamesFacts(t *testing.T) {
	prose := strings.Repeat(`the build failed on line 12.\n`, 12) + `\\u0041 \"done\"`
	docs := []string{
		`{"jsonrpc":"2.0","method":"session/update","params":{"update":{"content":[{"text":"` + prose + `"}]}}}`,
		`{"a":"` + prose + `","b":["` + prose + `",{"c":"x"}],"d":{"e":{"f":{"g":"` + prose + `"}}}}`,
		`["` + prose + `",1,true,null]`,
		`"` + prose + `"`,
	}
	for _, doc := range docs {
		for _, depth := range []int{1, 2, 8} {
			check := func(b []byte) {
				t.Helper()
				ok, facts := ValidNamesFacts(b, depth, func(int, int, int, []byte, []byte) {})
				if ok != json.Valid(b) {
					t.Fatalf("ValidNamesFacts(%q, %d) = %v, encoding/json says otherwise", b, depth, ok)
				}
				if ok {
					checkFacts(t, b, facts)
				}
			}
			check([]byte(doc))
			for i := range len(doc) {
				for _, c := range []string{"\x80", "\xff", "é", `\u00e9`} {
					check([]byte(doc[:i] + c + doc[i:]))
				}
			}
		}
	}
}

func BenchmarkValid(b *testing.B) {
	msg := []byte(`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"` + strings.Repeat("lorem ipsum dolor sit amet ", 400) + `"}}}}`)
	b.Run("rawjson", func(b *testing.B) {
		b.SetBytes(int64(len(msg)))
		for i := 0; i < b.N; i++ {
			Valid(msg)
		}
	})
	b.Run("encoding-json", func(b *testing.B) {
		b.SetBytes(int64(len(msg)))
		for i := 0; i < b.N; i++ {
			json.Valid(msg)
		}
	})
	// Mostly short strings: a tool call update, where the cost is per
	// string rather than per byte.
	small := []byte(`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"0c42d304-07d4-4bd7-88a3-0a82dd33c1d4","update":{"sessionUpdate":"tool_call_update","toolCallId":"toolu_01","status":"completed","kind":"read","title":"Read README.md","locations":[{"path":"/ws/README.md","line":1}],"rawInput":{"file_path":"/ws/README.md"},"content":[{"type":"content","content":{"type":"text","text":"ok"}}]}}}`)
	b.Run("rawjson-short-strings", func(b *testing.B) {
		b.SetBytes(int64(len(small)))
		for i := 0; i < b.N; i++ {
			Valid(small)
		}
	})
}

// checkValidMembers asserts that ValidMembers agrees with encoding/json on
// validity and, for a valid object, with Members on the members it reports.
func checkValidMembers(t *testing.T, b []byte) {
	t.Helper()
	type member struct{ key, value string }
	var got []member
	ok := ValidMembers(b, func(name, value []byte) {
		got = append(got, member{string(Key(name)), string(value)})
	})
	if want := json.Valid(b); ok != want {
		t.Fatalf("ValidMembers(%.60q) = %v, encoding/json says %v", b, ok, want)
	}
	if !ok {
		return
	}
	ms, err := Members(b)
	if err != nil { // not an object: no members may be reported
		if len(got) != 0 {
			t.Fatalf("ValidMembers(%.60q) reported members of a non-object: %q", b, got)
		}
		return
	}
	if len(got) != len(ms) {
		t.Fatalf("ValidMembers(%.60q) reported %d members, Members %d", b, len(got), len(ms))
	}
	for i, m := range ms {
		if got[i].key != m.Key || got[i].value != string(m.Value) {
			t.Fatalf("ValidMembers(%.60q) member %d = %q, Members says %q=%q", b, i, got[i], m.Key, m.Value)
		}
	}
}

func TestValidMembers(t *testing.T) {
	cases := map[string]string{
		"request":        `{"jsonrpc":"2.0","id":1,"method":"session/prompt","params":{"a":[1,{"b":2}]}}`,
		"spaces":         " \t{ \"a\" : 1 , \"b\" :\n[ ] }\r\n",
		"empty":          `{}`,
		"empty spaced":   ` { } `,
		"escaped name":   `{"\u0069d":7,"a\"b":"x"}`,
		"duplicates":     `{"a":1,"a":2}`,
		"array":          `[{"a":1}]`,
		"string":         `"{\"a\":1}"`,
		"trailing comma": `{"a":1,}`,
		"trailing junk":  `{"a":1}x`,
		"two values":     `{"a":1} {}`,
		"bad later":      `{"a":1,"b":tru}`,
		"missing colon":  `{"a" 1}`,
		"unterminated":   `{"a":1`,
		"bad name":       `{a:1}`,
		"control char":   "{\"a\":\"x\x01\"}",
		"too deep":       `{"a":` + strings.Repeat("[", 10000) + strings.Repeat("]", 10000) + `}`,
		"deep enough":    `{"a":` + strings.Repeat("[", 9999) + strings.Repeat("]", 9999) + `}`,
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) { checkValidMembers(t, []byte(c)) })
	}
}

// FuzzValidMembers: ValidMembers agrees with encoding/json.Valid on validity
// and with Members on the members of a valid object.
func FuzzValidMembers(f *testing.F) {
	for _, s := range []string{
		`{"jsonrpc":"2.0","id":1,"method":"x","params":{"a":[1,2.5e3,-0,true,null,"\u00e9"]}}`,
		`{"jsonrpc":"2.0","id":"a\"b","result":null}`, ` {"\u0069d" : 1 } `, `{"a":1,"a":2}`, `[{"a":1}]`, `{"a":1,}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) { checkValidMembers(t, b) })
}

func TestKeyDoesNotAllocate(t *testing.T) {
	name := []byte(`"method"`)
	n := testing.AllocsPerRun(100, func() {
		switch string(Key(name)) {
		case "method":
		default:
			t.Fatal("Key did not decode to method")
		}
	})
	if n != 0 {
		t.Errorf("Key allocates %v times for a name without escapes", n)
	}
}

// plainRunRef is the byte-by-byte definition of plainRun.
func plainRunRef(b []byte, i int) int {
	for ; i < len(b); i++ {
		if c := b[i]; c == '"' || c == '\\' || c < 0x20 {
			return i
		}
	}
	return i
}

// TestPlainRun checks the vector and word-at-a-time scans against a
// byte-by-byte one for every byte value at every offset of two 16-byte
// vectors and the tail after them, alone and next to every other byte value.
func TestPlainRun(t *testing.T) {
	eachBytePair(func(buf []byte) { plainRunScan.check(t, buf, 0) })
}

// runScan is one of the scans for the end of a run of bytes that need no
// attention (plainRun, stringRun): its byte-by-byte definition and the
// fast versions that must agree with it.
type runScan struct {
	name string
	ref  func(b []byte, i int) int
	fast []runFast
}

// runFast is one fast version of a scan. One that reports what it read
// (seen: the OR of the bytes it read, eight to a word) must have read
// every byte from where it starts to where it stops, so that a byte of
// 0x80 or above among them sets a high bit of seen.
type runFast struct {
	name string
	scan func(b []byte, i int) (end int, seen uint64)
	// seen says whether the scan reports what it read.
	seen bool
}

var (
	plainRunScan = runScan{"plainRun", plainRunRef, []runFast{
		{"plainRun", func(b []byte, i int) (int, uint64) { return plainRun(b, i), 0 }, false},
		{"plainRunWordsSeen", plainRunWordsSeen, true},
	}}
	stringRunScan = runScan{"stringRun", stringRunRef, []runFast{
		{"stringRun", stringRun, true},
		{"stringRunWords", stringRunWords, true},
	}}
)

// check fails t unless every fast version of the scan of b from i agrees
// with the definition, and those that report what they read report each
// byte of 0x80 or above they passed. It is called millions of times per
// test, so it does not mark itself a helper; its message names the scan,
// input and offset.
func (s runScan) check(t *testing.T, b []byte, i int) {
	w := s.ref(b, i)
	for _, f := range s.fast {
		got, seen := f.scan(b, i)
		if got != w {
			t.Fatalf("%s(%q, %d) = %d, want %d", f.name, b, i, got, w)
		}
		if f.seen && seen&highBits == 0 && !ascii(b[i:w]) {
			t.Fatalf("%s(%q, %d) passed a byte of 0x80 or above; what it saw, %#x, says none", f.name, b, i, seen)
		}
	}
}

// ascii reports whether every byte of b is below 0x80.
func ascii(b []byte) bool {
	for _, c := range b {
		if c >= 0x80 {
			return false
		}
	}
	return true
}

// eachBytePair calls check with 40 bytes of 'a' (two 16-byte vectors and a
// tail) holding each pair of byte values at each offset in turn.
func eachBytePair(check func(buf []byte)) {
	buf := make([]byte, 40)
	for c := 0; c < 256; c++ {
		for d := 0; d < 256; d++ {
			for pos := 0; pos < len(buf)-1; pos++ {
				for i := range buf {
					buf[i] = 'a'
				}
				buf[pos], buf[pos+1] = byte(c), byte(d)
				check(buf)
			}
		}
	}
}

// FuzzPlainRun compares the scans with the definition on arbitrary bytes
// from every start offset.
func FuzzPlainRun(f *testing.F) {
	f.Add([]byte(`{"jsonrpc":"2.0","method":"session/update","params":{"text":"abc\\n"}}`))
	f.Add([]byte("aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\x1f"))
	f.Fuzz(func(t *testing.T, b []byte) {
		for i := 0; i <= len(b); i++ {
			plainRunScan.check(t, b, i)
		}
	})
}

// stringRunRef is the byte-by-byte definition of stringRun.
func stringRunRef(b []byte, i int) int {
	for i < len(b) {
		switch c := b[i]; {
		case c == '"' || c < 0x20:
			return i
		case c == '\\':
			if i+1 < len(b) && strings.IndexByte(`"\/bfnrt`, b[i+1]) >= 0 {
				i += 2
				continue
			}
			return i
		}
		i++
	}
	return i
}

// TestStringRun checks the vector and word-at-a-time scans that step over
// two-byte escapes against a byte-by-byte one for every pair of byte values
// at every offset of two 16-byte vectors and the tail after them, and
// behind escaped newlines at every spacing.
func TestStringRun(t *testing.T) {
	eachBytePair(func(buf []byte) {
		stringRunScan.check(t, buf, 0)
		stringRunScan.check(t, buf, 1)
	})
	for gap := 0; gap < 70; gap++ {
		for _, end := range []string{`"`, "\x01", `\u0041"`, `\x`, `\`, ``} {
			b := []byte(strings.Repeat(strings.Repeat("a", gap)+`\n`, 9) + strings.Repeat("b", gap%17) + end)
			for from := range b {
				stringRunScan.check(t, b, from)
			}
		}
	}
}

// TestStringRunLong is TestStringRun's sweep for scans that read 64 bytes
// a step (AVX2 on amd64): each pair of the byte values a scan tells apart
// (control characters, quote, backslash, the escaped letters and others,
// bytes of 0x80 and above) at every offset of 160 bytes, two such steps
// and a tail behind the 16 bytes read a word at a time, after leads that
// put the scan into text with escapes (an escape at either end of a
// block, every kind the blocks pass whole, escaped backslashes).
func TestStringRunLong(t *testing.T) {
	values := []byte{0x00, 0x01, 0x1f, ' ', '!', '"', '#', '/', '[', '\\', ']', 'b', 'f', 'n', 'r', 't', 'u', 'x', 'a', 0x7f, 0x80, 0xc3, 0xff}
	leads := []string{"", strings.Repeat("a", 62) + `\n`, `\n` + strings.Repeat("a", 62), strings.Repeat(`\t\r\"ab`, 8), strings.Repeat(`\\`, 32)}
	for _, lead := range leads {
		buf := make([]byte, len(lead)+160)
		for _, c := range values {
			for _, d := range values {
				for pos := len(lead); pos < len(buf)-1; pos++ {
					copy(buf, lead)
					for i := len(lead); i < len(buf); i++ {
						buf[i] = 'a'
					}
					buf[pos], buf[pos+1] = c, d
					stringRunScan.check(t, buf, 0)
					stringRunScan.check(t, buf, 1)
				}
			}
		}
	}
}

// TestStringRunAfterEscapes is TestStringRun's sweep of byte pairs behind
// 32 bytes whose escapes the vector scan steps over by their masks, so that
// the blocks after them are read as text with escapes is (eloop32 on
// amd64), and behind such blocks with each escape the masks take at each
// offset.
func TestStringRunAfterEscapes(t *testing.T) {
	for _, lead := range []string{strings.Repeat("a", 30) + `\n`, `\n` + strings.Repeat("a", 30), strings.Repeat(`\t\r\"ab`, 4)} {
		eachBytePair(func(buf []byte) {
			stringRunScan.check(t, append([]byte(lead), buf...), 0)
		})
	}
	for _, esc := range []string{`\n`, `\t`, `\r`, `\"`, `\\`, `\/`, `\b`, `\u`, `\x`, `\` + "\x01", `"`, "\x1f", "\x80", "\xff", "é"} {
		for at := 0; at < 70; at++ {
			b := []byte(strings.Repeat("a", 30) + `\n` + strings.Repeat("b", 70))
			b = append(append(append([]byte(nil), b[:32+at]...), esc...), b[32+at:]...)
			b = append(b, '"')
			for from := range 3 {
				stringRunScan.check(t, b, from)
			}
		}
	}
}

// FuzzStringRun compares the scans with the definition on arbitrary bytes
// from every start offset.
func FuzzStringRun(f *testing.F) {
	f.Add([]byte(`the build failed on line 12.\nfunction return value, string buffer.\n\"quoted\" \\ back \/ slash \u0041 \b\f\r\t end"`))
	f.Add([]byte(strings.Repeat(`word \n`, 40) + `\`))
	f.Add([]byte(strings.Repeat(`some words\tin a line\r\n\"`, 12) + `\\n"`))
	f.Fuzz(func(t *testing.T, b []byte) {
		for i := 0; i <= len(b); i++ {
			stringRunScan.check(t, b, i)
		}
	})
}
