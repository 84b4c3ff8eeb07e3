package compress

import (
	"math/rand/v2"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// errorCode is the definition findErrorCodes implements.
var errorCode = regexp.MustCompile(`\b(?:[A-Z]{1,4}\d{3,5}|E(?:NOENT|ACCES|PERM|CONNREFUSED|CONNRESET|ADDRINUSE|EXIST|ISDIR|NOTDIR|TIMEDOUT|PIPE|NOMEM|INVAL|NOSPC|NOTEMPTY)|ERR_[A-Z0-9_]{3,}|(?:status|exit code) \d{1,3})\b`)

func TestFindErrorCodes(t *testing.T) {
	tests := []struct {
		in   string
		want []string
	}{
		{"error TS2304: cannot find name", []string{"TS2304"}},
		{"E0308 mismatched types; ENOENT: no such file", []string{"E0308", "ENOENT"}},
		{"ERR_MODULE_NOT_FOUND and ERR_X", []string{"ERR_MODULE_NOT_FOUND"}},
		{"HTTP status 503, exit code 2", []string{"status 503", "exit code 2"}},
		{"ABCDE1234 AB123456 xTS2304 TS2304x ENOENTS status 5034", nil},
		{"SC2086,SC2086", []string{"SC2086", "SC2086"}},
	}
	for _, tt := range tests {
		if got := findErrorCodes(tt.in, 20); !slices.Equal(got, tt.want) {
			t.Errorf("findErrorCodes(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// TestFindErrorCodesMatchesRegexp checks the scanner against the regular
// expression it replaces on random texts built from the codes' pieces.
func TestFindErrorCodesMatchesRegexp(t *testing.T) {
	pieces := []string{"A", "E", "ERR_", "TS", "NOENT", "PERM", "NOTEMPTY", "1", "23", "456", "7890", "_", " ", ",", "x", "status ", "exit code ", "s", "e", "é", "\n"}
	r := rand.New(rand.NewPCG(5, 6))
	for range 20000 {
		var b strings.Builder
		for range 1 + r.IntN(12) {
			b.WriteString(pieces[r.IntN(len(pieces))])
		}
		s := b.String()
		if got, want := findErrorCodes(s, 20), errorCode.FindAllString(s, 20); !slices.Equal(got, want) {
			t.Fatalf("findErrorCodes(%q) = %q, the regexp finds %q", s, got, want)
		}
	}
}

func FuzzFindErrorCodes(f *testing.F) {
	f.Add("error TS2304 ENOENT ERR_ABC status 503")
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := findErrorCodes(s, 20), errorCode.FindAllString(s, 20); !slices.Equal(got, want) {
			t.Fatalf("findErrorCodes(%q) = %q, the regexp finds %q", s, got, want)
		}
	})
}

func BenchmarkFindErrorCodes(b *testing.B) {
	text := strings.Repeat("the build failed with a message about the module path and the cache; ", 300)
	b.Run("scanner", func(b *testing.B) {
		b.SetBytes(int64(len(text)))
		for range b.N {
			findErrorCodes(text, 20)
		}
	})
	b.Run("regexp", func(b *testing.B) {
		b.SetBytes(int64(len(text)))
		for range b.N {
			errorCode.FindAllString(text, 20)
		}
	})
}

// TestHasBetween checks the eight-bytes-a-step test for capitals and
// digits against a byte-by-byte one: every byte value at every position,
// among neighbours at the edges of the ranges and of ASCII.
func TestHasBetween(t *testing.T) {
	for _, r := range [][2]byte{{'A', 'Z'}, {'0', '9'}} {
		in := func(c byte) bool { return r[0] <= c && c <= r[1] }
		eachProbe([]byte{0, 'a', r[0] - 1, r[1] + 1, 0x7F, 0x80, 0xC1, 0xDA, 0xFF}, func(w uint64, fill, b byte) {
			if got, want := hasBetween(w, r[0], r[1]), in(b) || in(fill); got != want {
				t.Fatalf("hasBetween(%#016x, %q, %q) = %v, want %v", w, r[0], r[1], got, want)
			}
		})
	}
}

// eachProbe calls f with every eight-byte word that holds fill in seven
// of its bytes and any byte value b in the eighth, for each fill given.
func eachProbe(fills []byte, f func(w uint64, fill, b byte)) {
	for _, fill := range fills {
		for pos := range 8 {
			for b := range 256 {
				var w uint64
				for i := range 8 {
					c := fill
					if i == pos {
						c = byte(b)
					}
					w |= uint64(c) << (8 * i)
				}
				f(w, fill, byte(b))
			}
		}
	}
}

// FuzzFindErrorCodesAligned puts a code at every offset of an eight-byte
// step, after every kind of byte, so upperFrom's word reads are checked at
// their edges.
func FuzzFindErrorCodesAligned(f *testing.F) {
	f.Add("E0308", uint8(3), byte(' '))
	f.Add("status 503", uint8(9), byte('\n'))
	f.Add("exit code 2", uint8(15), byte('x'))
	f.Fuzz(func(t *testing.T, code string, pad uint8, before byte) {
		s := strings.Repeat("abcdefg ", int(pad)/8) + strings.Repeat("q", int(pad)%8) + string(before) + code + " tail"
		for _, text := range []string{s, strings.ToUpper(s[:len(s)/2]) + s[len(s)/2:]} {
			if got, want := findErrorCodes(text, 20), errorCode.FindAllString(text, 20); !slices.Equal(got, want) {
				t.Fatalf("findErrorCodes(%q) = %q, the regexp finds %q", text, got, want)
			}
			if got, want := findErrorCodes([]byte(text), 20), errorCode.FindAllString(text, 20); !slices.Equal(got, want) {
				t.Fatalf("findErrorCodes([]byte(%q)) = %q, the regexp finds %q", text, got, want)
			}
		}
	})
}
