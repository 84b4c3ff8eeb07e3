package auditweb

import (
	"os"
	"testing"

	"github.com/acp-bridge/acp-bridge/internal/leakcheck"
)

// TestMain fails the run if a test leaves goroutines running, and removes
// the bridge demoBridge built.
func TestMain(m *testing.M) {
	code := leakcheck.Main(m)
	if demoBridgeDir != "" {
		os.RemoveAll(demoBridgeDir)
	}
	os.Exit(code)
}
