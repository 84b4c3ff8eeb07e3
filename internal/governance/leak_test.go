package governance

import (
	"os"
	"testing"

	"github.com/acp-bridge/acp-bridge/internal/acpwire/acpwiretest"
)

// TestMain fails the run if a test leaves goroutines running. The
// harness's bridges reuse their read blocks (the Enforcer is added with
// UseFailClosedNonRetaining) and poison each one that comes back, so an
// Enforcer keeping a message's bytes records '#' where they were.
func TestMain(m *testing.M) { os.Exit(acpwiretest.Main(m)) }
