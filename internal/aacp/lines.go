package aacp

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"strings"
)

// A Line is one packet line read by ScanLines.
type Line struct {
	Num  int    // 1-based line number
	Text string // the line without its terminator (and without a trailing '\r')
}

// ScanLines reads a stream of packets, one per line, and calls fn for each.
// Blank lines and lines whose first byte is '#' are skipped: no packet can
// start with '#', so files may carry comments. A trailing '\r' is removed.
// A line longer than MaxPacketBytes is passed on cut to MaxPacketBytes+1
// bytes, so Parse reports it as too large without the reader holding the
// whole line in memory. ScanLines stops at the first error fn returns.
func ScanLines(r io.Reader, fn func(Line) error) error {
	br := bufio.NewReaderSize(r, 64<<10)
	var buf []byte
	for n := 1; ; n++ {
		buf = buf[:0]
		var err error
		for {
			var chunk []byte
			chunk, err = br.ReadSlice('\n')
			if len(buf) <= MaxPacketBytes {
				buf = append(buf, chunk...)
			}
			if !errors.Is(err, bufio.ErrBufferFull) {
				break
			}
		}
		if err != nil && err != io.EOF {
			return fmt.Errorf("line %d: %w", n, err)
		}
		if len(buf) == 0 && err == io.EOF {
			return nil
		}
		text := strings.TrimSuffix(strings.TrimSuffix(string(buf), "\n"), "\r")
		if len(text) > MaxPacketBytes+1 {
			text = text[:MaxPacketBytes+1]
		}
		if strings.TrimSpace(text) != "" && text[0] != '#' {
			if ferr := fn(Line{Num: n, Text: text}); ferr != nil {
				return ferr
			}
		}
		if err == io.EOF {
			return nil
		}
	}
}
