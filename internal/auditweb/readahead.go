package auditweb

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"math"
	"os"

	"github.com/acp-bridge/acp-bridge/internal/audit"
)

// parsedLine is one complete line of a file, decoded ahead of the index.
type parsedLine struct {
	size  int64 // bytes, the newline included
	entry audit.Entry
	ok    bool // the line is an audit event
}

// lineBatch is lines decoded ahead. The last batch of a read has end set,
// with how it ended.
type lineBatch struct {
	lines []parsedLine
	end   bool
	// atEOF is set when the read reached the end of the file; torn is
	// then the size of the bytes after the last complete line.
	atEOF bool
	torn  int64
	err   error
}

// batchLines is how many lines go in one batch.
const batchLines = 256

// readAhead reads f from off in a goroutine of its own, decodes each
// complete line with audit.ParseEntryBrief and sends the lines in batches,
// until their bytes reach budget, the file ends, or reading fails (a line
// longer than audit.MaxLineBytes). lines is how many lines precede off.
// The index adds one batch while the next is decoded, so that a long log
// is read on two cores. The caller must receive until the last batch.
func readAhead(f *os.File, name string, off int64, lines int, budget int64) <-chan lineBatch {
	out := make(chan lineBatch, 4)
	go func() {
		defer close(out)
		out <- readLines(bufio.NewReaderSize(io.NewSectionReader(f, off, math.MaxInt64-off), 256<<10), name, lines, budget, out)
	}()
	return out
}

// readLines sends full batches on out and returns the last one.
func readLines(br *bufio.Reader, name string, lines int, budget int64, out chan<- lineBatch) lineBatch {
	b := lineBatch{lines: make([]parsedLine, 0, batchLines)}
	for budget > 0 {
		line, err := br.ReadSlice('\n')
		if errors.Is(err, bufio.ErrBufferFull) {
			// A line longer than the buffer: gather it.
			long := append([]byte(nil), line...)
			for errors.Is(err, bufio.ErrBufferFull) {
				line, err = br.ReadSlice('\n')
				long = append(long, line...)
				if len(long) > audit.MaxLineBytes {
					b.end, b.err = true, fmt.Errorf("%s:%d: a line longer than %d bytes: not an audit event", name, lines+1, audit.MaxLineBytes)
					return b
				}
			}
			line = long
		}
		if err == io.EOF {
			b.end, b.atEOF, b.torn = true, true, int64(len(line))
			return b
		}
		if err != nil {
			b.end, b.err = true, fmt.Errorf("reading %s: %v", name, err)
			return b
		}
		lines++
		e, ok := audit.ParseEntryBrief(line[:len(line)-1])
		b.lines = append(b.lines, parsedLine{size: int64(len(line)), entry: e, ok: ok})
		budget -= int64(len(line))
		if len(b.lines) == batchLines {
			out <- b
			b = lineBatch{lines: make([]parsedLine, 0, batchLines)}
		}
	}
	b.end = true
	return b
}
