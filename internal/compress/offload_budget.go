package compress

import (
	"errors"
	"fmt"
)

// DefaultMaxOffloadBytes is Config.MaxOffloadBytes's default: 1 GiB of
// offloaded content per run.
const DefaultMaxOffloadBytes = 1 << 30

// errOffloadBudget is offload's error once the run's offloads have taken
// Config.MaxOffloadBytes: the content passes as is.
var errOffloadBudget = errors.New("the run's offloads have reached their size limit")

// reserveOffload takes n bytes of the run's offload budget, reporting
// whether they were left. What is offloaded is the agent's to choose (its
// tool calls' output, the files it reads again and again), and each
// offload is a new file of the cache that outlives the run: without a
// bound an agent could fill the disk the cache lies on, at the speed of
// the pipe. The first refusal is logged as a warning.
func (p *Pipeline) reserveOffload(n int) bool {
	if p.offloaded.Add(int64(n)) <= p.cfg.MaxOffloadBytes {
		return true
	}
	p.offloaded.Add(-int64(n))
	if !p.budgetSpent.Swap(true) {
		p.logger.Warn(fmt.Sprintf("tier 1 offloads stop: %d bytes offloaded in this run, the limit; larger content now passes as is", p.cfg.MaxOffloadBytes))
	}
	return false
}

// releaseOffload gives back n bytes of the budget: the offload's file was
// removed (discardOffload).
func (p *Pipeline) releaseOffload(n int) { p.offloaded.Add(-int64(n)) }
