package governance

import (
	"crypto/sha256"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"unicode/utf8"
)

// A file a line runs as code is read whole for the protected names it
// holds, however long: a script padded past any bound the bridge read it
// to would run the text past the bound unread. namedInFile reads it in
// blocks and finds what namedIndex finds in its whole text (with no
// command of a line to look at), keeping between blocks only the bytes a
// name may still span and what the name bytes before them say.
// maxScanBytes bounds that read: a larger file refuses the line
// (protectedScripts), as the bridge cannot say what it holds.

// maxScanBytes bounds a file read for protected names.
const maxScanBytes = 64 << 20

// scanBlock is how much of the file is read at once.
const scanBlock = 256 << 10

// errScanTooLarge says a file is larger than maxScanBytes.
var errScanTooLarge = fmt.Errorf("it is larger than %d MiB, more than the bridge reads to look for protected names", maxScanBytes>>20)

// nameNeedle is one name namedIndex looks for: a protected form (index k,
// counting as namedIndex counts) as written in lower case or shortened.
type nameNeedle struct {
	s       string
	rotated bool
	k       int
}

// scanNeedles returns the names namedIndex(list, text, nil, cwd) looks
// for, for each of cwds.
func scanNeedles(list []protected, cwds ...string) []nameNeedle {
	var out []nameNeedle
	k := 0
	for i := range list {
		pr := &list[i]
		for j := range pr.forms {
			if !pr.elem {
				out = append(out, nameNeedle{pr.lower[j], pr.Rotated, k})
				for _, c := range cwds {
					inCwd := strings.TrimSuffix(strings.ToLower(c), "/") + "/"
					for _, s := range shortNames(pr, j, inCwd) {
						if s != "" {
							out = append(out, nameNeedle{s, pr.Rotated, k})
						}
					}
				}
			}
			k++
		}
	}
	return out
}

// namedInFile returns the index namedIndex gives the text of the regular
// file at p (a path with no link in it) for each of cwds, the least
// found, or -1; and the SHA-256 of the text. The error says why the file
// cannot be read (os.ErrNotExist when it is missing).
func namedInFile(list []protected, p string, cwds ...string) (int, [32]byte, error) {
	var sum [32]byte
	f, fi, err := openRegular(p)
	if err != nil {
		return -1, sum, err
	}
	defer f.Close()
	if lfi, err := os.Lstat(p); err != nil || !os.SameFile(fi, lfi) {
		return -1, sum, errors.New("it changed while the bridge read it")
	}
	if fi.Size() > maxScanBytes {
		return -1, sum, errScanTooLarge
	}
	k, sum, err := namedInReader(list, io.LimitReader(f, maxScanBytes+1), cwds...)
	return k, sum, err
}

// namedInReader is namedInFile's reading of r.
func namedInReader(list []protected, r io.Reader, cwds ...string) (int, [32]byte, error) {
	needles := scanNeedles(list, cwds...)
	longest := 0
	for _, n := range needles {
		longest = max(longest, len(n.s))
	}
	h := sha256.New()
	buf := make([]byte, scanBlock)
	var partial []byte // the start of a character the block cut
	carry, rep := "", ""
	best, total := -1, 0
	for {
		n, rerr := io.ReadFull(r, buf)
		total += n
		if total > maxScanBytes {
			return -1, [32]byte{}, errScanTooLarge
		}
		h.Write(buf[:n])
		end := rerr != nil
		if rerr != nil && rerr != io.EOF && rerr != io.ErrUnexpectedEOF {
			return -1, [32]byte{}, rerr
		}
		raw := append(partial, buf[:n]...)
		partial = nil
		if !end {
			cut := len(raw)
			for i := len(raw) - 1; i >= 0 && i >= len(raw)-utf8.UTFMax; i-- {
				if utf8.RuneStart(raw[i]) {
					if !utf8.FullRune(raw[i:]) {
						cut = i
					}
					break
				}
			}
			partial = append([]byte(nil), raw[cut:]...)
			raw = raw[:cut]
		}
		text := rep + carry + strings.ToLower(unquoter.Replace(string(raw)))
		for _, nd := range needles {
			if best >= 0 && nd.k >= best {
				continue
			}
			if anyIndex(text, nd.s, func(j int) bool {
				e := j + len(nd.s)
				return j >= len(rep) && (end || e < len(text)) && nameStartsAt(text, j, nd.rotated) && nameEndsAt(text, e, nd.s, nd.rotated)
			}) {
				best = nd.k
			}
		}
		if end {
			var sum [32]byte
			copy(sum[:], h.Sum(nil))
			return best, sum, nil
		}
		// Keep the bytes a name may span into the next block, and in
		// place of the name bytes before them one that reads alike.
		real := text[len(rep):]
		cut := max(0, len(real)-longest)
		run := len(rep) + cut
		for run > 0 && nameByte(text[run-1]) {
			run--
		}
		rep, carry = runLike(text[run:len(rep)+cut]), real[cut:]
	}
}

// runLike returns a name byte or none that nameStartsAt reads as it reads
// run, a run of name bytes, before a name: none, an option's '-', a lone
// '.', letters, or another name's bytes.
func runLike(run string) string {
	switch {
	case run == "":
		return ""
	case run[0] == '-':
		return "-"
	case run == ".":
		return "."
	}
	for i := 0; i < len(run); i++ {
		if !letterByte(run[i]) {
			return "0"
		}
	}
	return "a"
}
