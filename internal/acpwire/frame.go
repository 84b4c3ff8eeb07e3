package acpwire

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"os"
	"regexp"
	"runtime"
	"sync/atomic"
	"time"
)

// DefaultMaxLineSize is the largest message accepted by default: 64 MiB.
const DefaultMaxLineSize = 64 << 20

// oversizeKeep is how much of the start and end of an oversized line is
// kept to find its id and method.
const oversizeKeep = 64 << 10

// lineReader splits a stream into newline-delimited messages. It trims a
// trailing '\r', skips blank lines and refuses lines over max bytes without
// holding them in memory.
type lineReader struct {
	r   *blockReader
	max int
	// last is the pooled block the line last returned lies in, nil if it
	// was copied out of its blocks or blocks are not pooled.
	last *block
}

func newLineReader(r io.Reader, max int) *lineReader {
	if max <= 0 {
		max = DefaultMaxLineSize
	}
	return &lineReader{r: &blockReader{rd: r}, max: max}
}

// reuseBlocks makes the reader take its blocks from pool and give them back
// once every line taken from them (see take) is released. Only a reader
// whose lines nobody keeps after releasing them may do this.
func (lr *lineReader) reuseBlocks(pool *blockPool) { lr.r.pool = pool }

// beforeWait makes the reader call fn before each read from its input,
// which may wait: it has no whole line left in what it has read.
func (lr *lineReader) beforeWait(fn func()) { lr.r.beforeRead = fn }

// readAt returns when the line last returned by next was read: the time
// the read that completed it returned. Lines read together share it.
func (lr *lineReader) readAt() time.Time { return lr.r.readAt }

// take returns the block the line last returned by next lies in, with a
// reference held for the caller, who must release it once nothing uses the
// line any more (or never, to keep the line's bytes for good), and not
// before the reader's settle: a reference on the block being read into is
// counted there, for all the lines taken since the last settle in one
// atomic operation. It returns nil when the line does not lie in a pooled
// block; such a line is never overwritten.
func (lr *lineReader) take() *block {
	if lr.last == nil {
		return nil
	}
	if lr.last == lr.r.cur {
		lr.r.owed++
	} else {
		lr.last.refs.Add(1)
	}
	return lr.last
}

// settle counts the references take handed out since the last settle on
// their block: the reader runs it before it hands the lines it took on to
// anyone who may release them. One atomic operation per hand-off, not per
// line: the forwarding loop's releases run on another core, and each take
// then moved the counter's cache line back to the reader's.
func (lr *lineReader) settle() { lr.r.settle() }

// blockSize is the size of the blocks a blockReader reads into.
const blockSize = 64 << 10

// blockReader is bufio.Reader's ReadSlice without buffer reuse: it reads
// into blocks and never writes to a block again once bytes of it have been
// returned, so the slices it returns stay valid and unchanged for as long as
// anyone holds them. Lines are returned as sub-slices of the block they
// were read into, with no copy; a line still incomplete when its block is
// used up moves to the next block.
//
// Blocks are new unless the reader has a pool: then a block comes back to
// the pool, to be read into again, once the reader has moved on from it
// and every reference taken on it (lineReader.take) is released.
type blockReader struct {
	rd   io.Reader
	pool *blockPool // nil: every block is new
	// beforeRead, if set, is called before each read from rd.
	beforeRead func()
	cur        *block
	buf        []byte // cur.buf
	r, w       int    // buf[r:w] is read but not yet returned
	err        error
	// readAt is when the last read returned: when every line it completed
	// arrived.
	readAt time.Time
	// owed is how many references lineReader.take handed out on cur that
	// its count does not hold yet (see settle).
	owed int32
}

// settle adds the references owed on the current block to its count.
func (b *blockReader) settle() {
	if b.owed != 0 {
		b.cur.refs.Add(b.owed)
		b.owed = 0
	}
}

// block is one read buffer with a count of who still uses its bytes: the
// reader while it reads into it, and each reference taken on it.
type block struct {
	buf  []byte
	refs atomic.Int32
	pool *blockPool
}

// release drops one reference; the last one gives the block back to its
// pool.
func (k *block) release() { k.releaseN(1) }

// releaseN drops n references at once (see blockReleases).
func (k *block) releaseN(n int32) {
	if k.refs.Add(-n) == 0 && k.pool != nil {
		k.pool.put(k)
	}
}

// blockReleases gathers the releases of a run of messages, so that the
// messages of one block that follow each other drop their references in
// one atomic operation. The reader takes a reference on the block for
// each message it reads (lineReader.take) on another core, and each
// release moved the counter's cache line from the reader's core to the
// loop's and the next take moved it back: on a stream of small messages,
// that was a few percent of the bridge's CPU. Releasing later only keeps
// a block from the pool a little longer.
type blockReleases struct {
	blk *block
	n   int32
}

// add notes one release of k.
func (r *blockReleases) add(k *block) {
	if k != r.blk {
		r.flush()
		r.blk = k
	}
	r.n++
}

// flush makes the releases noted so far.
func (r *blockReleases) flush() {
	if r.blk != nil {
		r.blk.releaseN(r.n)
	}
	r.blk, r.n = nil, 0
}

// blockPool keeps up to its capacity of blocks that nobody uses for the
// next reads; more are left to the garbage collector. Reusing blocks saves
// allocating and zeroing one per 64 KiB read and the collections that
// follow.
type blockPool struct {
	free chan *block
	made atomic.Int64 // blocks allocated
	// poison overwrites every block that comes back, so that bytes kept
	// past their release show up as garbage rather than as a later
	// message's bytes now and then (see PoisonBlocksEnv).
	poison bool
}

// PoisonBlocksEnv names the environment variable that, set to 1, makes the
// bridge overwrite each read block with '#' when it comes back for reuse,
// and each message it would reuse with a line of '#' that it does not
// reuse. Tests of middleware added with Bridge.UseNonRetaining set it so
// that a middleware keeping bytes or messages it promised not to keep
// corrupts its output at once; it costs a memset per 64 KiB read and the
// reuse of messages.
const PoisonBlocksEnv = "ACPWIRE_POISON_BLOCKS"

// pooledBlocks is how many unused blocks a pool keeps: 1 MiB.
const pooledBlocks = 16

func newBlockPool() *blockPool {
	return &blockPool{free: make(chan *block, pooledBlocks), poison: os.Getenv(PoisonBlocksEnv) == "1"}
}

func (p *blockPool) get() *block {
	select {
	case k := <-p.free:
		return k
	default:
		p.made.Add(1)
		return &block{buf: make([]byte, blockSize), pool: p}
	}
}

func (p *blockPool) put(k *block) {
	if p.poison {
		for i := range k.buf {
			k.buf[i] = '#'
		}
	}
	select {
	case p.free <- k:
	default:
	}
}

// newBlock returns a block to read into, holding the reader's reference.
func (b *blockReader) newBlock() *block {
	var k *block
	if b.pool != nil {
		k = b.pool.get()
	} else {
		k = &block{buf: make([]byte, blockSize)}
	}
	k.refs.Store(1)
	return k
}

// ReadSlice behaves as bufio.Reader.ReadSlice with a blockSize buffer, except
// that what it returns is never overwritten. Each slice's capacity ends
// where its bytes do, so appending to it cannot reach the bytes after it.
func (b *blockReader) ReadSlice(delim byte) ([]byte, error) {
	s := 0 // bytes of buf[r:w] already searched
	for {
		if i := bytes.IndexByte(b.buf[b.r+s:b.w], delim); i >= 0 {
			end := b.r + s + i + 1
			line := b.buf[b.r:end:end]
			b.r = end
			return line, nil
		}
		if b.err != nil {
			line := b.buf[b.r:b.w:b.w]
			b.r = b.w
			err := b.err
			b.err = nil
			return line, err
		}
		if b.w-b.r >= blockSize {
			line := b.buf[b.r:b.w:b.w]
			b.r = b.w
			// The piece is kept until the whole line is read, after the
			// reader has moved on: the block must not come back.
			b.cur.refs.Add(1)
			return line, bufio.ErrBufferFull
		}
		s = b.w - b.r
		b.fill()
	}
}

var errBadRead = errors.New("acpwire: reader returned an impossible count")

// minRead is the least free space a read is given; with less left in the
// current block, the unreturned bytes move to a new block first.
const minRead = 4 << 10

// fill reads once (retrying a few empty reads, as bufio does) into the free
// end of the current block, or of a new one.
func (b *blockReader) fill() {
	if len(b.buf)-b.w < minRead {
		// The references owed on the block are counted before the
		// reader drops its own: else the block could come back to the
		// pool, and be read into, under lines not yet handed on.
		b.settle()
		old := b.cur
		b.cur = b.newBlock()
		b.w = copy(b.cur.buf, b.buf[b.r:b.w])
		b.r = 0
		b.buf = b.cur.buf
		if old != nil {
			old.release()
		}
	}
	if b.beforeRead != nil {
		b.beforeRead()
	}
	for range 100 {
		n, err := b.rd.Read(b.buf[b.w:])
		b.readAt = time.Now()
		if n < 0 || n > len(b.buf)-b.w {
			b.err = errBadRead
			return
		}
		b.w += n
		if err != nil {
			b.err = err
			return
		}
		if n > 0 {
			return
		}
	}
	b.err = io.ErrNoProgress
}

// oversized describes a line that was longer than the limit.
type oversized struct {
	size  int    // bytes in the line
	head  []byte // its first bytes
	tail  []byte // its last bytes
	blank bool   // only white space: skipped like any blank line
}

// next returns the next non-blank line. A line over the limit is consumed and
// reported through over with a nil line. At the end of the stream it returns
// io.EOF; a final line without a newline is still returned first.
func (lr *lineReader) next() (line []byte, over *oversized, err error) {
	for {
		line, over, err = lr.readLine()
		if over != nil && over.blank {
			continue
		}
		if err != nil || over != nil {
			return line, over, err
		}
		if len(bytes.TrimSpace(line)) > 0 {
			return line, nil, nil
		}
	}
}

func (lr *lineReader) readLine() ([]byte, *oversized, error) {
	lr.last = nil
	// A long line arrives in pieces; they are kept as they come and joined
	// once at the end, so the line is allocated at its exact size rather
	// than through repeated growth that would leave copies behind.
	var pieces [][]byte
	size := 0
	var over *oversized
	for {
		chunk, err := lr.r.ReadSlice('\n')
		switch {
		case over != nil:
			over.size += len(chunk)
			over.tail = appendTail(over.tail, chunk)
			over.blank = over.blank && isBlank(chunk)
		case pieces == nil && err == nil && len(chunk) <= lr.max+2:
			// The common case: the whole line fit in one block, and is
			// used where it was read.
			line := trimEOL(chunk)
			if len(line) > lr.max {
				return nil, &oversized{size: len(line), head: copyOf(firstN(line, oversizeKeep)), tail: appendTail(nil, line), blank: isBlank(line)}, nil
			}
			lr.pooled()
			return line, nil, nil
		case size+len(chunk) > lr.max+2:
			// Too long whatever its terminator: stop keeping it.
			buf := join(pieces, size)
			over = &oversized{size: size + len(chunk)}
			over.head = append([]byte(nil), firstN(append(buf, chunk...), oversizeKeep)...)
			over.tail = appendTail(nil, chunk)
			over.blank = isBlank(buf) && isBlank(chunk)
			pieces, size = nil, 0
		default:
			pieces = append(pieces, chunk) // never overwritten: no copy needed
			size += len(chunk)
		}
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		if err != nil && !errors.Is(err, io.EOF) {
			return nil, nil, err
		}
		if over != nil {
			over.size -= len(chunk) - len(trimEOL(chunk))
			return nil, over, nil
		}
		if err != nil && size == 0 { // io.EOF with nothing read
			return nil, nil, io.EOF
		}
		line := trimEOL(join(pieces, size))
		if len(line) > lr.max {
			return nil, &oversized{size: len(line), head: copyOf(firstN(line, oversizeKeep)), tail: appendTail(nil, line), blank: isBlank(line)}, nil
		}
		if len(pieces) == 1 {
			lr.pooled() // the last piece, in the current block, not copied
		}
		return line, nil, nil
	}
}

// pooled notes that the line being returned lies in the reader's current
// block, if that block is pooled.
func (lr *lineReader) pooled() {
	if lr.r.pool != nil {
		lr.last = lr.r.cur
	}
}

// collectAbove is the line size above which the reader runs the garbage
// collector before assembling the line, so that the memory of earlier huge
// messages is reused instead of added to: a 64 MiB message then costs about
// twice its size, not four times.
const collectAbove = 16 << 20

// join concatenates pieces into one slice of exactly size bytes.
func join(pieces [][]byte, size int) []byte {
	if len(pieces) == 1 {
		return pieces[0]
	}
	if size > collectAbove {
		runtime.GC()
	}
	out := make([]byte, 0, size)
	for _, p := range pieces {
		out = append(out, p...)
	}
	return out
}

func isBlank(b []byte) bool { return len(bytes.TrimSpace(b)) == 0 }

func trimEOL(b []byte) []byte {
	b = bytes.TrimSuffix(b, []byte("\n"))
	return bytes.TrimSuffix(b, []byte("\r"))
}

func firstN(b []byte, n int) []byte {
	if len(b) > n {
		return b[:n]
	}
	return b
}

func appendTail(tail, chunk []byte) []byte {
	tail = append(tail, chunk...)
	if len(tail) > oversizeKeep {
		tail = append(tail[:0:0], tail[len(tail)-oversizeKeep:]...)
	}
	return tail
}

var (
	headIDPattern     = regexp.MustCompile(`^\s*\{(?:[^{}\[\]]*?,)?\s*"id"\s*:\s*(-?[0-9]+|"(?:[^"\\]|\\.)*")`)
	headMethodPattern = regexp.MustCompile(`"method"\s*:\s*"((?:[^"\\]|\\.)*)"`)
	tailIDPattern     = regexp.MustCompile(`,\s*"id"\s*:\s*(-?[0-9]+|"(?:[^"\\]|\\.)*")\s*\}\s*$`)
)

// identify finds the id of an oversized message if it can be read from the
// kept head or tail, and whether the message looks like a request (it has a
// "method" member near its start).
func (o *oversized) identify() (id []byte, isRequest bool) {
	head := trimEOL(o.head)
	if m := headIDPattern.FindSubmatch(head); m != nil {
		id = m[1]
	} else if m := tailIDPattern.FindSubmatch(trimEOL(o.tail)); m != nil {
		id = m[1]
	}
	isRequest = headMethodPattern.Match(firstN(head, 4096))
	return id, isRequest
}

// copyOf returns a copy of b: the part of an oversized line kept to answer
// it must not share a read block that may be reused before it is answered.
func copyOf(b []byte) []byte { return append([]byte(nil), b...) }
