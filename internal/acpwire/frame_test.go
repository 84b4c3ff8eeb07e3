package acpwire

import (
	"bytes"
	"errors"
	"io"
	"strings"
	"testing"
)

func TestLineReader(t *testing.T) {
	cases := []struct {
		name  string
		in    string
		max   int
		lines []string // "!N" marks an oversized line of N bytes
	}{
		{"plain", "a\nb\n", 10, []string{"a", "b"}},
		{"crlf", "a\r\nb\r\n", 10, []string{"a", "b"}},
		{"blank lines", "\n\r\n  \na\n\n", 10, []string{"a"}},
		{"no final newline", "a\nlast", 10, []string{"a", "last"}},
		{"exactly max", "12345\n", 5, []string{"12345"}},
		{"exactly max with crlf", "12345\r\n", 5, []string{"12345"}},
		{"one over max", "123456\nok\n", 5, []string{"!6", "ok"}},
		{"far over max", strings.Repeat("x", 100) + "\nok\n", 5, []string{"!100", "ok"}},
		{"over max at eof", strings.Repeat("x", 9), 5, []string{"!9"}},
		{"inner cr kept", "a\rb\n", 10, []string{"a\rb"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			lr := newLineReader(strings.NewReader(c.in), c.max)
			var got []string
			for {
				line, over, err := lr.next()
				if errors.Is(err, io.EOF) {
					break
				}
				if err != nil {
					t.Fatal(err)
				}
				if over != nil {
					got = append(got, "!"+itoa(over.size))
					continue
				}
				got = append(got, string(line))
			}
			if strings.Join(got, "|") != strings.Join(c.lines, "|") {
				t.Fatalf("got %q, want %q", got, c.lines)
			}
		})
	}
}

// TestLineReaderLongLines crosses the reader's internal buffer size.
func TestLineReaderLongLines(t *testing.T) {
	long := strings.Repeat("y", 200<<10)
	lr := newLineReader(strings.NewReader(long+"\r\n"+long+"\n"), 1<<20)
	for i := 0; i < 2; i++ {
		line, over, err := lr.next()
		if err != nil || over != nil || string(line) != long {
			t.Fatalf("line %d: %d bytes, over=%v, err=%v", i, len(line), over, err)
		}
	}
}

func TestOversizedIdentify(t *testing.T) {
	cases := []struct {
		line    string
		id      string
		request bool
	}{
		{`{"jsonrpc":"2.0","id":42,"method":"m","params":{"x":"` + strings.Repeat("z", 100) + `"}}`, "42", true},
		{`{"id":"abc","jsonrpc":"2.0","result":{"x":"` + strings.Repeat("z", 100) + `"}}`, `"abc"`, false},
		{`{"jsonrpc":"2.0","method":"m","params":{"x":"` + strings.Repeat("z", 100) + `"},"id":7}`, "7", true},
		{`{"jsonrpc":"2.0","method":"m","params":{"id":5,"x":"` + strings.Repeat("z", 100) + `"}}`, "", true},
	}
	for _, c := range cases {
		lr := newLineReader(strings.NewReader(c.line+"\n"), 50)
		_, over, err := lr.next()
		if err != nil || over == nil {
			t.Fatalf("want oversized, got err=%v", err)
		}
		id, req := over.identify()
		if string(id) != c.id || req != c.request {
			t.Errorf("%.40s...: id=%q request=%v, want %q %v", c.line, id, req, c.id, c.request)
		}
	}
}

func itoa(n int) string {
	var b [20]byte
	i := len(b)
	for {
		i--
		b[i] = byte('0' + n%10)
		n /= 10
		if n == 0 {
			break
		}
	}
	return string(b[i:])
}

// FuzzLineReader: whatever the input, the reader never panics, every line
// it returns is within the limit and carries no line terminator, and the
// lines (with the oversized ones accounted for) are the input's lines.
func FuzzLineReader(f *testing.F) {
	f.Add([]byte("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\"}\n"), 64)
	f.Add([]byte("a\r\n\r\nb\nccccccccccccccccccccc\n"), 8)
	f.Add([]byte("no newline at all"), 4)
	f.Add([]byte("\n\n\n"), 1)
	f.Fuzz(func(t *testing.T, in []byte, max int) {
		if max <= 0 || max > 1<<16 {
			max = 16
		}
		want := inputLines(in)
		readLines(t, newLineReader(bytes.NewReader(in), max), want, max, func(i int, line []byte) {
			if !bytes.Equal(line, want[i]) {
				t.Fatalf("line %d = %q, want %q", i, line, want[i])
			}
		})
	})
}

// inputLines is what a lineReader must return for in: its lines without
// their terminators, blank ones left out.
func inputLines(in []byte) [][]byte {
	var lines [][]byte
	for _, l := range bytes.Split(in, []byte("\n")) {
		l = bytes.TrimSuffix(l, []byte("\r"))
		if len(bytes.TrimSpace(l)) > 0 {
			lines = append(lines, l)
		}
	}
	return lines
}

// readLines reads lr to its end and checks it against want (inputLines):
// as many lines, each over max reported as oversized with its size, and
// each other one handed to line with its index.
func readLines(t *testing.T, lr *lineReader, want [][]byte, max int, line func(i int, l []byte)) {
	t.Helper()
	for i := 0; ; i++ {
		l, over, err := lr.next()
		if errors.Is(err, io.EOF) {
			if i != len(want) {
				t.Fatalf("got %d lines, want %d", i, len(want))
			}
			return
		}
		if err != nil {
			t.Fatal(err)
		}
		if i >= len(want) {
			t.Fatal("more lines than the input has")
		}
		if over != nil {
			if over.size != len(want[i]) || over.size <= max {
				t.Fatalf("line %d: oversized %d, input line %d bytes, max %d", i, over.size, len(want[i]), max)
			}
			continue
		}
		line(i, l)
	}
}

// FuzzPooledLineReader: with reused blocks, a line taken keeps its bytes
// until it is released, whatever is read meanwhile. The input is repeated
// to span several blocks, read in chunks of fuzzed sizes, and up to hold
// taken lines are kept (each checked before release) while the reader goes
// on; released blocks are poisoned, so a block reused too early shows, and
// with short lines only a few blocks are ever made. As the bridge hands
// its lines on in batches, the lines held are released together once
// there are more than hold, after the reader's settle, which comes only
// then: the references of the lines taken since the last one, over
// however many reads and blocks, must be counted right.
func FuzzPooledLineReader(f *testing.F) {
	f.Add([]byte(`{"jsonrpc":"2.0","method":"session/update","params":{"text":"hello"}}`), 100, uint8(3), uint16(4096))
	f.Add([]byte("a\r\n\r\nb\nccccccccccccccccccccc"), 8, uint8(0), uint16(1))
	f.Add(bytes.Repeat([]byte("x"), 70000), 1<<20, uint8(2), uint16(65535))
	f.Add([]byte("short\n"+strings.Repeat("y", 5000)), 4096, uint8(8), uint16(3000))
	f.Fuzz(func(t *testing.T, in []byte, max int, hold uint8, readSize uint16) {
		if max <= 0 || max > 1<<20 {
			max = 1 << 16
		}
		hold %= 16
		unit := append(bytes.Clone(in), '\n')
		data := bytes.Repeat(unit, min(1+(200<<10)/len(unit), 8192))
		want := inputLines(data)
		pool := newBlockPool()
		pool.poison = true
		lr := newLineReader(&chunkReader{data: data, sizes: []int{64 + int(readSize), 64 + int(readSize)/3}}, max)
		lr.reuseBlocks(pool)
		type held struct {
			i    int
			line []byte
			blk  *block
		}
		var window []held
		release := func(h held) {
			if !bytes.Equal(h.line, want[h.i]) {
				t.Fatalf("line %d changed before its release: %.40q, want %.40q", h.i, h.line, want[h.i])
			}
			if h.blk != nil {
				h.blk.release()
			}
		}
		readLines(t, lr, want, max, func(i int, line []byte) {
			window = append(window, held{i, line, lr.take()})
			if len(window) > int(hold) {
				lr.settle()
				for _, h := range window {
					release(h)
				}
				window = window[:0]
			}
		})
		lr.settle()
		for _, h := range window {
			release(h)
		}
		// Short lines never pin a block: at most the held lines' blocks
		// and the one being read are in use at a time.
		if made := pool.made.Load(); len(unit) <= minRead && made > int64(hold)+2 {
			t.Fatalf("%d blocks made for %d bytes holding %d lines: blocks are not reused", made, len(data), hold)
		}
	})
}

// FuzzParse: Parse never panics, accepts exactly the valid JSON, and leaves
// Raw untouched.
func FuzzParse(f *testing.F) {
	for _, s := range []string{
		`{"jsonrpc":"2.0","id":1,"method":"session/prompt","params":{}}`,
		`[{"jsonrpc":"2.0","method":"a"},1,"x"]`,
		`{"id":null,"error":{"code":1}}`,
		`{"method":5}`,
		`{"a":"\u2028"}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		orig := bytes.Clone(in)
		m, err := Parse(ClientToAgent, in)
		if (err == nil) != jsonValid(in) {
			t.Fatalf("Parse error %v for validity %v", err, jsonValid(in))
		}
		if m != nil && !bytes.Equal(m.Raw, orig) {
			t.Fatal("Raw changed")
		}
	})
}

// TestParseAllocations: classifying a common notification costs one
// allocation, the Message itself; Parse reads its members in the same pass
// that validates it, without building a member list or name strings.
func TestParseAllocations(t *testing.T) {
	line := []byte(`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"hello"}}}}`)
	n := testing.AllocsPerRun(100, func() {
		m, err := Parse(AgentToClient, line)
		if err != nil || m.Kind != KindNotification || m.Method != "session/update" {
			t.Fatalf("Parse = %+v, %v", m, err)
		}
	})
	if n > 1 {
		t.Errorf("Parse allocates %v times per notification, want 1", n)
	}
}

// chunkReader returns its data in reads of varying sizes, as a pipe does.
type chunkReader struct {
	data  []byte
	sizes []int
	n     int
}

func (c *chunkReader) Read(p []byte) (int, error) {
	if len(c.data) == 0 {
		return 0, io.EOF
	}
	k := min(c.sizes[c.n%len(c.sizes)], len(p), len(c.data))
	c.n++
	copy(p, c.data[:k])
	c.data = c.data[k:]
	return k, nil
}

// TestLineReaderLinesStayValid: lines are handed out without copying, so
// every line returned must keep its bytes while later lines are read (the
// reader never writes over memory it returned), and appending to a line
// must not reach the bytes of the next one.
func TestLineReaderLinesStayValid(t *testing.T) {
	var want [][]byte
	var in []byte
	sizes := []int{10, 300, 4000, 20000, 65535, 65536, 70000, 200000, 1, 5000}
	for i := range 100 {
		line := bytes.Repeat([]byte{'a' + byte(i%26)}, sizes[i%len(sizes)])
		want = append(want, line)
		in = append(in, line...)
		in = append(in, "\r\n"[i%2:]...) // alternate "\r\n" and "\n"
	}
	for _, reads := range [][]int{{1 << 20}, {65536}, {4093, 17, 60000}, {1, 2, 3, 900}} {
		lr := newLineReader(&chunkReader{data: in, sizes: reads}, 1<<20)
		var got [][]byte
		for {
			line, over, err := lr.next()
			if errors.Is(err, io.EOF) {
				break
			}
			if err != nil || over != nil {
				t.Fatalf("reads %v: line %d: over %v, err %v", reads, len(got), over, err)
			}
			got = append(got, line)
			if n := len(got); n > 1 {
				// Writes into the previous line's spare capacity
				// must not show up in this one.
				prev := got[n-2]
				spare := prev[len(prev):cap(prev)]
				for j := range spare {
					spare[j] = '#'
				}
			}
		}
		if len(got) != len(want) {
			t.Fatalf("reads %v: %d lines, want %d", reads, len(got), len(want))
		}
		for i := range want {
			if !bytes.Equal(got[i], want[i]) {
				t.Fatalf("reads %v: line %d (%d bytes) changed after it was returned", reads, i, len(want[i]))
			}
		}
	}
}
