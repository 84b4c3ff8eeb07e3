package demo

import (
	"bytes"
	_ "embed"
	"errors"
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
// policy or secrets. Its mark file alone does not make a directory the
// demo's, as anyone can write one (an agent, into the project it works
// on): a file it would write that is there already must hold what it
// would write, or nothing is written.
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
	var b strings.Builder
	for i := 1; i <= 4000; i++ {
		fmt.Fprintf(&b, "2026-11-21T10:%02d:%02dZ INFO worker-%d processed batch %d in %dms\n", i/60%60, i%60, i%7, i, 20+i%300)
		if i == 2718 {
			b.WriteString("2026-11-21T10:45:18Z ERROR worker-2 E4711 checksum mismatch in batch 2718\n")
		}
	}
	files := []demoFile{
		{workspaceMark, []byte("made by acp-bridge demo\n"), 0o644},
		{"big.log", []byte(b.String()), 0o644},
		{".env", []byte("API_TOKEN=" + SecretValue + "\n"), 0o600},
		{"GOVERNANCE.md", Policy, 0o644},
	}
	for _, f := range files {
		if err := f.check(root); err != nil {
			return err
		}
	}
	for _, f := range files {
		if err := f.create(root); err != nil {
			return err
		}
	}
	return nil
}

// demoFile is one file of the demo workspace.
type demoFile struct {
	name    string
	content []byte
	mode    os.FileMode
}

// check returns an error when f's name in root holds something other
// than f's content: a file of the project's, or a link.
func (f demoFile) check(root string) error {
	p := filepath.Join(root, f.name)
	fi, err := os.Lstat(p)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	if fi.Mode().IsRegular() {
		if got, err := os.ReadFile(p); err == nil && bytes.Equal(got, f.content) {
			return nil
		}
	}
	return fmt.Errorf("%s is not a demo workspace: its %s is not the demo's, and the demo never replaces a project's files; give an empty or new directory", root, f.name)
}

// create writes f into root unless it is there already (check found it
// holds f's content); never through a link made meanwhile.
func (f demoFile) create(root string) error {
	out, err := os.OpenFile(filepath.Join(root, f.name), os.O_WRONLY|os.O_CREATE|os.O_EXCL, f.mode)
	if errors.Is(err, os.ErrExist) {
		return f.check(root)
	}
	if err != nil {
		return err
	}
	_, werr := out.Write(f.content)
	if err := out.Close(); werr == nil {
		werr = err
	}
	return werr
}
