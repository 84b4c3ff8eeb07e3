package auditweb

import (
	"os"
	"testing"

	"github.com/acp-bridge/acp-bridge/internal/leakcheck"
)

// TestMain fails the run if a test leaves goroutines running.
func TestMain(m *testing.M) { os.Exit(leakcheck.Main(m)) }
