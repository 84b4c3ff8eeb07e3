package compress

import (
	"os"
	"testing"

	"github.com/acp-bridge/acp-bridge/internal/acpwire/acpwiretest"
)

// TestMain fails the run if a test leaves goroutines running. The
// harness's bridges reuse their read blocks (the pipeline is added with
// UseNonRetaining) and poison each one that comes back, so a pipeline
// keeping a message's bytes reads '#' where they were.
func TestMain(m *testing.M) { os.Exit(acpwiretest.Main(m)) }
