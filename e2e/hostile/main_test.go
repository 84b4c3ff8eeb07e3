package hostile

import (
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"sync"
	"testing"
)

var (
	bridgeOnce sync.Once
	bridgeBin  string // the acp-bridge binary under test
	bridgeErr  error
	bridgeDir  string // temporary directory the suite built it in
	testBin    string // this test binary, re-executed as the agent and the IDE
)

func TestMain(m *testing.M) {
	if len(os.Args) == 3 {
		switch os.Args[1] {
		case "hostile-agent":
			os.Exit(runAgent(os.Args[2]))
		case "hostile-ide":
			os.Exit(runIDE(os.Args[2]))
		}
	}
	flag.Parse()
	// Each run mostly waits on its processes: run more at once than cores.
	parallelSet := false
	flag.Visit(func(f *flag.Flag) { parallelSet = parallelSet || f.Name == "test.parallel" })
	if !parallelSet {
		flag.Set("test.parallel", strconv.Itoa(3*runtime.GOMAXPROCS(0)))
	}
	code := m.Run()
	if bridgeDir != "" {
		os.RemoveAll(bridgeDir)
	}
	os.Exit(code)
}

// needBridge returns once the bridge binary is built (ACP_BRIDGE_BIN names
// a prebuilt one).
func needBridge(t *testing.T) {
	t.Helper()
	bridgeOnce.Do(func() {
		if testBin, bridgeErr = os.Executable(); bridgeErr != nil {
			return
		}
		if bridgeBin = os.Getenv("ACP_BRIDGE_BIN"); bridgeBin != "" {
			return
		}
		if bridgeDir, bridgeErr = os.MkdirTemp("", "acp-bridge-hostile"); bridgeErr != nil {
			return
		}
		bridgeBin = filepath.Join(bridgeDir, "acp-bridge")
		out, err := exec.Command("go", "build", "-o", bridgeBin, "../../cmd/acp-bridge").CombinedOutput()
		if err != nil {
			bridgeErr = fmt.Errorf("building the bridge: %v\n%s", err, out)
		}
	})
	if bridgeErr != nil {
		t.Fatal(bridgeErr)
	}
}
