package audit

import (
	"bytes"
	"encoding/json"
	"math/big"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/gowebpki/jcs"
)

// TestNumberKeptExactly: a number whose canonical form (RFC 8785: the
// shortest text of the double it rounds to) names another value than the
// agent wrote is recorded as a marker holding its text, as a number out of
// a double's range is: the log keeps what was sent, not what a double made
// of it. A number the canonical form keeps (another spelling of the same
// decimal value) is written canonically.
func TestNumberKeptExactly(t *testing.T) {
	for _, tc := range []struct {
		num, want string
	}{
		{"-0", `{"$number":"-0"}`},
		{"-0.0e5", `{"$number":"-0.0e5"}`},
		{"1e-400", `{"$number":"1e-400"}`},
		{"-2.5e-330", `{"$number":"-2.5e-330"}`},
		{"9007199254740993", `{"$number":"9007199254740993"}`},
		{"0.10000000000000001", `{"$number":"0.10000000000000001"}`},
		{"123456789012345678901234567890", `{"$number":"123456789012345678901234567890"}`},
		{"0", "0"},
		{"0.000e-7", "0"},
		{"1.0", "1"},
		{"1E2", "100"},
		{"0.1", "0.1"},
		{"-1.50", "-1.5"},
		{"1" + string(bytes.Repeat([]byte("0"), 300)), "1e+300"},
		{"9007199254740992", "9007199254740992"},
		{"123456789012345", "123456789012345"},
		{"5e-324", "5e-324"},
		{"00.5e1", ""}, // not JSON: refused before any number is read
	} {
		t.Run(tc.num, func(t *testing.T) {
			raw := json.RawMessage(`{"command":"x","n":` + tc.num + `,"o":[` + tc.num + `]}`)
			if !json.Valid(raw) {
				if tc.want != "" {
					t.Fatalf("%s is not JSON", raw)
				}
				return
			}
			for _, kind := range []string{"input", "output"} {
				path := filepath.Join(t.TempDir(), "audit.jsonl")
				l, err := Open(path, Options{})
				if err != nil {
					t.Fatal(err)
				}
				ev := Event{Actor: Actor{ID: "agent:a"}, Action: "tool.call", Subject: Subject{Kind: "tool-call", Ref: "c1"},
					Policy: &Policy{Ref: "allow", Decision: DecisionAllow}}
				if kind == "input" {
					ev.Input = raw
				} else {
					ev.Output = ToolOutput(raw)
				}
				if err := l.AppendSync(ev); err != nil {
					t.Fatal(err)
				}
				if err := l.Close(); err != nil {
					t.Fatal(err)
				}
				if _, err := Verify(path); err != nil {
					t.Fatalf("Verify: %v", err)
				}
				line := readLines(t, path)[0]
				for _, w := range []string{`"n":` + tc.want + `,`, `"o":[` + tc.want + `]`} {
					if !bytes.Contains(line, []byte(w)) {
						t.Errorf("%s: record %s\nwant %s in it", kind, line, w)
					}
				}
			}
		})
	}
}

// FuzzKeptExactly: keptExactly says a number is kept exactly when, and
// only when, its canonical form (jcs.NumberToJSON of the double it reads
// as) has the same exact decimal value and the same sign.
func FuzzKeptExactly(f *testing.F) {
	for _, s := range []string{"-0", "1e-400", "9007199254740993", "0.1", "1.0", "1E2", "-1.50", "5e-324", "2.4703282292062328e-324", "123456789012345", "1234567890123456", "-0.0e5", "0.000e-7", "1e21", "1e+300"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if s == "" || len(s) > 400 || s[0] != '-' && (s[0] < '0' || s[0] > '9') {
			return
		}
		d := fastDecoder{jsonCursor: jsonCursor{data: []byte(s)}} // without marks: the double, or false
		v, ok := d.number()
		if !ok || d.i != len(s) {
			return
		}
		if m := exponentOf(s); m > 1000 || m < -1000 {
			return
		}
		num, ok := v.(float64)
		if !ok {
			return // beyond a double's range
		}
		canon, err := jcs.NumberToJSON(num)
		if err != nil {
			t.Fatal(err)
		}
		a, okA := new(big.Rat).SetString(s)
		b, okB := new(big.Rat).SetString(canon)
		if !okA || !okB {
			t.Fatalf("big.Rat cannot read %q or %q", s, canon)
		}
		want := a.Cmp(b) == 0 && !(s[0] == '-' && a.Sign() == 0)
		if got := keptExactly([]byte(s), num); got != want {
			t.Fatalf("keptExactly(%q) = %v, want %v (canonical %s)", s, got, want, canon)
		}
	})
}

// exponentOf returns the exponent a number's text writes, 0 if none.
func exponentOf(s string) int {
	i := strings.IndexAny(s, "eE")
	if i < 0 {
		return 0
	}
	n, _ := strconv.Atoi(strings.TrimPrefix(s[i+1:], "+"))
	return n
}
