package hostile

import (
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
)

var (
	bridgeOnce sync.Once
	bridgeBin  string // the acp-bridge binary under test
	bridgeErr  error
	bridgeDir  string // temporary directory the suite built it (and auditverify) in
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
	// The runs' files, the bridge this binary builds included, go to a
	// tmpfs when there is one to take them (runsTmpDir).
	tmp := runsTmpDir()
	if tmp != "" {
		os.Setenv("TMPDIR", tmp)
	}
	// Each run mostly waits on its processes, which use every core
	// whatever -cpu gives this binary: run more at once than cores.
	parallelSet := false
	flag.Visit(func(f *flag.Flag) { parallelSet = parallelSet || f.Name == "test.parallel" })
	if !parallelSet {
		flag.Set("test.parallel", strconv.Itoa(3*runtime.NumCPU()))
	}
	code := m.Run()
	if auditVerifier != nil {
		if err := auditVerifier.stop(); err != nil && code == 0 {
			fmt.Fprintln(os.Stderr, "auditverify:", err)
			code = 1
		}
	}
	if bridgeDir != "" {
		os.RemoveAll(bridgeDir)
	}
	if tmp != "" {
		os.RemoveAll(tmp)
	}
	os.Exit(code)
}

// needBridge returns once the bridge binary is built (ACP_BRIDGE_BIN names
// a prebuilt one) and auditVerifier runs, both once per test binary: one
// go build makes both binaries.
func needBridge(t *testing.T) {
	t.Helper()
	bridgeOnce.Do(func() {
		if testBin, bridgeErr = os.Executable(); bridgeErr != nil {
			return
		}
		if bridgeDir, bridgeErr = os.MkdirTemp("", "acp-bridge-hostile"); bridgeErr != nil {
			return
		}
		pkgs := []string{"./auditverify"}
		if bridgeBin = os.Getenv("ACP_BRIDGE_BIN"); bridgeBin == "" {
			bridgeBin = filepath.Join(bridgeDir, "acp-bridge")
			pkgs = append(pkgs, "../../cmd/acp-bridge")
		}
		build := append([]string{"build", "-o", bridgeDir + string(filepath.Separator)}, pkgs...)
		if out, err := exec.Command("go", build...).CombinedOutput(); err != nil {
			bridgeErr = fmt.Errorf("go %s: %v\n%s", strings.Join(build, " "), err, out)
			return
		}
		auditVerifier, bridgeErr = startVerifier(filepath.Join(bridgeDir, "auditverify"))
	})
	if bridgeErr != nil {
		t.Fatal(bridgeErr)
	}
}
