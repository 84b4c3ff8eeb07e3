package e2e

import (
	"os/exec"
	"strings"
	"sync"
	"testing"
)

var (
	bridgeHelpOnce sync.Once
	bridgeHelp     string
)

// needBridgeFlag skips the test unless the bridge under test has the flag
// (as listed by "acp-bridge bridge -h"): scenarios of features still being built are
// written now and start running the day their flag lands.
func needBridgeFlag(t *testing.T, s *suiteEnv, flag, why string) {
	t.Helper()
	if !bridgeHasFlag(s, flag) {
		t.Skipf("the bridge has no -%s flag yet: %s", flag, why)
	}
}

// bridgeHasFlag reports whether "acp-bridge bridge -h" lists the flag.
func bridgeHasFlag(s *suiteEnv, flag string) bool {
	bridgeHelpOnce.Do(func() {
		out, _ := exec.Command(s.bridge, "bridge", "-h").CombinedOutput()
		bridgeHelp = string(out)
	})
	return strings.Contains(bridgeHelp, "-"+flag+" ") || strings.Contains(bridgeHelp, "-"+flag+"\n")
}

// wireOnly returns the bridge flags that turn the agent adapters off, so
// that a scenario exercises enforcement on the ACP wire alone.
func wireOnly(s *suiteEnv) []string {
	if bridgeHasFlag(s, "adapter") {
		return []string{"--adapter", "none"}
	}
	return nil
}
