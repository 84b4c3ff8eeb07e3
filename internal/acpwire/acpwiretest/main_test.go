package acpwiretest

import (
	"os"
	"testing"

	"github.com/acp-bridge/acp-bridge/internal/acpwire"
)

// runFunc is a *testing.M's Run.
type runFunc func() int

func (f runFunc) Run() int { return f() }

// TestMainPoisons: the tests Main runs see acpwire.PoisonBlocksEnv set to
// 1, and Main returns their exit code.
func TestMainPoisons(t *testing.T) {
	t.Setenv(acpwire.PoisonBlocksEnv, "") // restored when the test ends
	for _, code := range []int{0, 1} {
		var seen string
		got := Main(runFunc(func() int {
			seen = os.Getenv(acpwire.PoisonBlocksEnv)
			return code
		}))
		if seen != "1" || got != code {
			t.Errorf("Main: the tests saw %s=%q and Main returned %d; want 1 and %d", acpwire.PoisonBlocksEnv, seen, got, code)
		}
	}
}
