package compress

import "testing"

// markBytes and codeStartBytes are markFrom and codeStartFrom byte by
// byte: what the scans eight and 16 bytes a step must find.
func markBytes(s string, i int) int {
	for i < len(s) && !isUpper(s[i]) && !isDigit(s[i]) {
		i++
	}
	return i
}

func codeStartBytes(s string, i int) int {
	for ; i < len(s); i++ {
		if canStart(s, i) {
			return i
		}
	}
	return len(s)
}

// checkCodeStart fails t if codeStartFrom or codeStartWords, on s as a
// string and as []byte, finds other than codeStartBytes from i, or
// markFrom or markWords other than markBytes, or if the platform's
// 16-bytes-a-step scans, if any, do (checkWide).
func checkCodeStart(t *testing.T, s string, i int) {
	t.Helper()
	want, mark := codeStartBytes(s, i), markBytes(s, i)
	checkWide(t, s, i, want, mark)
	b := []byte(s)
	for _, c := range []struct {
		name      string
		got, want int
	}{
		{"markFrom", markFrom(s, i), mark},
		{"markFrom([]byte)", markFrom(b, i), mark},
		{"markWords", markWords(s, i), mark},
		{"codeStartFrom", codeStartFrom(s, i), want},
		{"codeStartFrom([]byte)", codeStartFrom(b, i), want},
		{"codeStartWords", codeStartWords(s, i), want},
		{"codeStartWords([]byte)", codeStartWords(b, i), want},
	} {
		if c.got != c.want {
			t.Fatalf("%s(%q, %d) = %d, want %d", c.name, s, i, c.got, c.want)
		}
	}
}

// TestCodeStart checks codeStartFrom and markFrom, which scan 16 bytes a
// step on amd64, and the portable codeStartWords and markWords against the
// byte-by-byte walks:
// every byte value at every position of texts long enough for three
// 16-byte steps and a tail, over fillers of each class; then pairs of
// bytes at the edges of the classes side by side and across a step, from
// starts that put them in every step and in the tail.
func TestCodeStart(t *testing.T) {
	const n = 53
	fills := []byte{'a', 'z', 'A', 'Z', '0', '9', '_', ' ', '/', 0x80, 0xFF}
	starts := []int{0, 1, 7, 8, 15, 16, 17, 33, 40, n - 1, n}
	buf := make([]byte, n)
	fill := func(c byte) {
		for i := range buf {
			buf[i] = c
		}
	}
	for _, f := range fills {
		for probe := range 256 {
			for at := range n {
				fill(f)
				buf[at] = byte(probe)
				for _, from := range starts {
					checkCodeStart(t, string(buf), from)
				}
			}
		}
	}
	edges := []byte{0, ' ', '/', '0', '9', ':', '@', 'A', 'Z', '[', '^', '_', '`', 'a', 'z', '{', 0x7F, 0x80, 0xFF}
	for _, f := range []byte{'a', 'A', ' ', 0xFF} {
		for _, a := range edges {
			for _, b := range edges {
				for at := range n {
					for _, gap := range []int{1, 15, 16, 17} {
						if at+gap >= n {
							continue
						}
						fill(f)
						buf[at], buf[at+gap] = a, b
						for _, from := range []int{0, at, at + 1} {
							checkCodeStart(t, string(buf), from)
						}
					}
				}
			}
		}
	}
}

// FuzzCodeStart checks codeStartFrom, codeStartWords, markFrom and
// markWords against the byte-by-byte walks, from every start.
func FuzzCodeStart(f *testing.F) {
	f.Add("the build failed on line forty two of the module and nobody noticed it at all TS2304")
	f.Add("aGVsbG8gd29ybGQ+TS2304/abc_DEF0123456789 x\xff\x80Q status 503 exit code 2")
	f.Fuzz(func(t *testing.T, s string) {
		for i := range len(s) + 1 {
			checkCodeStart(t, s, i)
		}
	})
}
