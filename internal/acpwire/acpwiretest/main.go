package acpwiretest

import (
	"os"

	"github.com/acp-bridge/acp-bridge/internal/acpwire"
	"github.com/acp-bridge/acp-bridge/internal/leakcheck"
)

// Main is the TestMain of a package whose middleware is added with
// Bridge.UseNonRetaining (or UseFailClosedNonRetaining): it sets
// acpwire.PoisonBlocksEnv, so that every bridge the tests start overwrites
// each read block with '#' when it comes back and middleware keeping a
// message's bytes reads the poison where they were, then runs the tests as
// leakcheck.Main does, failing the run if they leave goroutines running:
//
//	func TestMain(m *testing.M) { os.Exit(acpwiretest.Main(m)) }
//
// m is a *testing.M.
func Main(m interface{ Run() int }) int {
	os.Setenv(acpwire.PoisonBlocksEnv, "1")
	return leakcheck.Main(m)
}
