package governance

import (
	"sync"

	"github.com/acp-bridge/acp-bridge/internal/shellcmd"
)

// maxAnalyses bounds the command lines an engine keeps the analysis of.
const maxAnalyses = 512

// maxAnalysedLine bounds the length of a line whose analysis is kept.
const maxAnalysedLine = 1024

// analyses keeps the analyses of pure command lines (shellcmd.Pure),
// which depend on nothing but the line's text: an agent runs the same
// few lines again and again. The analysis is the shell grammar's reading
// of the text, not a decision; every decision is made again from it. It
// is safe for concurrent use; the analyses it returns are shared and
// must not be changed.
type analyses struct {
	mu sync.Mutex
	m  map[string]*shellcmd.Analysis // guarded by mu
}

// analyze returns shellcmd.Analyze(line, opts), kept when line is pure.
func (c *analyses) analyze(line string, opts shellcmd.Options) *shellcmd.Analysis {
	if len(line) > maxAnalysedLine || !shellcmd.Pure(line) {
		return shellcmd.Analyze(line, opts)
	}
	c.mu.Lock()
	a, ok := c.m[line]
	c.mu.Unlock()
	if ok {
		return a
	}
	a = shellcmd.Analyze(line, opts)
	c.mu.Lock()
	if c.m == nil || len(c.m) >= maxAnalyses {
		c.m = make(map[string]*shellcmd.Analysis)
	}
	c.m[line] = a
	c.mu.Unlock()
	return a
}
