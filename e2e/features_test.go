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
	bridgeHelpOnce.Do(func() {
		out, _ := exec.Command(s.bridge, "bridge", "-h").CombinedOutput()
		bridgeHelp = string(out)
	})
	if !strings.Contains(bridgeHelp, "-"+flag+" ") && !strings.Contains(bridgeHelp, "-"+flag+"\n") {
		t.Skipf("the bridge has no -%s flag yet: %s", flag, why)
	}
}
