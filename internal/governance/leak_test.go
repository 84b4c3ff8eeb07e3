package governance

import (
	"flag"
	"os"
	"testing"

	"github.com/acp-bridge/acp-bridge/internal/acpwire/acpwiretest"
)

// TestMain fails the run if a test leaves goroutines running. The
// harness's bridges reuse their read blocks (the Enforcer is added with
// UseFailClosedNonRetaining) and poison each one that comes back, so an
// Enforcer keeping a message's bytes records '#' where they were. Every
// decision Decide releases is poisoned likewise (poisonDecision), so a
// pointer kept into one reads garbage; not while benchmarks run, which
// measure Decide as the bridge runs it.
func TestMain(m *testing.M) {
	flag.Parse()
	if flag.Lookup("test.bench").Value.String() == "" {
		poisonReleased = poisonDecision
	}
	os.Exit(acpwiretest.Main(m))
}
