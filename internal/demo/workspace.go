package demo

import (
	_ "embed"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// Policy is the example policy the demo runs under (an AIP-7 GOVERNANCE.md
// with the compact rule list): reads allowed except .env, every edit asked
// of a person, anything else asked too.
//
//go:embed workspace/GOVERNANCE.md
var Policy []byte

// SecretValue is the fake secret in the demo workspace's .env: it must never
// reach the agent under the example policy.
const SecretValue = "demo-not-a-real-secret"

// workspaceMark is the file that tells a directory the demo made, which
// WriteWorkspace may fill again.
const workspaceMark = ".acp-bridge-demo"

// WriteWorkspace fills root with what the demo agent works on: big.log, a
// log large enough for compression to offload (about 107,000 o200k tokens,
// with one ERROR line in the middle), .env holding SecretValue, and the
// example policy as GOVERNANCE.md. root must be empty, or a directory
// WriteWorkspace filled before: the demo never overwrites a project's own
// policy or secrets.
func WriteWorkspace(root string) error {
	entries, err := os.ReadDir(root)
	if err != nil {
		return err
	}
	if len(entries) > 0 {
		if _, err := os.Stat(filepath.Join(root, workspaceMark)); err != nil {
			return fmt.Errorf("%s is not empty and not a demo workspace: the demo writes .env, big.log and GOVERNANCE.md there; give an empty or new directory", root)
		}
	}
	if err := os.WriteFile(filepath.Join(root, workspaceMark), []byte("made by acp-bridge demo\n"), 0o644); err != nil {
		return err
	}
	var b strings.Builder
	for i := 1; i <= 4000; i++ {
		fmt.Fprintf(&b, "2026-11-21T10:%02d:%02dZ INFO worker-%d processed batch %d in %dms\n", i/60%60, i%60, i%7, i, 20+i%300)
		if i == 2718 {
			b.WriteString("2026-11-21T10:45:18Z ERROR worker-2 E4711 checksum mismatch in batch 2718\n")
		}
	}
	files := []struct {
		name    string
		content []byte
		mode    os.FileMode
	}{
		{"big.log", []byte(b.String()), 0o644},
		{".env", []byte("API_TOKEN=" + SecretValue + "\n"), 0o600},
		{"GOVERNANCE.md", Policy, 0o644},
	}
	for _, f := range files {
		if err := os.WriteFile(filepath.Join(root, f.name), f.content, f.mode); err != nil {
			return err
		}
	}
	return nil
}
