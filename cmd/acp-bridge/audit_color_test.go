//go:build linux

package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"unsafe"

	"github.com/acp-bridge/acp-bridge/internal/terminaltest"
)

// openPTY opens a pseudo-terminal: the master to read what a program
// writes, the slave to give it as its standard output.
func openPTY(t *testing.T) (master, slave *os.File) {
	t.Helper()
	m, err := os.OpenFile("/dev/ptmx", os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		t.Fatalf("opening a pseudo-terminal: %v", err)
	}
	var n uint32
	if _, _, e := syscall.Syscall(syscall.SYS_IOCTL, m.Fd(), syscall.TIOCGPTN, uintptr(unsafe.Pointer(&n))); e != 0 {
		t.Fatalf("TIOCGPTN: %v", e)
	}
	var unlock int32
	if _, _, e := syscall.Syscall(syscall.SYS_IOCTL, m.Fd(), syscall.TIOCSPTLCK, uintptr(unsafe.Pointer(&unlock))); e != 0 {
		t.Fatalf("TIOCSPTLCK: %v", e)
	}
	s, err := os.OpenFile(fmt.Sprintf("/dev/pts/%d", n), os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		t.Fatalf("opening the pseudo-terminal's slave: %v", err)
	}
	t.Cleanup(func() { m.Close(); s.Close() })
	return m, s
}

// runOnTerminal runs "acp-bridge audit args..." with its standard output
// on a pseudo-terminal and returns what it printed there.
func runOnTerminal(t *testing.T, noColor string, args ...string) string {
	t.Helper()
	m, s := openPTY(t)
	cmd := bridgeCommand(t, append([]string{"audit"}, args...)...)
	cmd.Env = append(cmd.Env, "NO_COLOR="+noColor, "TERM=xterm")
	cmd.Stdout = s
	var errb bytes.Buffer
	cmd.Stderr = &errb
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	s.Close()
	var out bytes.Buffer
	_, err := io.Copy(&out, m) // EIO once the program exits and the slave closes
	var pe *os.PathError
	if err != nil && !(errors.As(err, &pe) && errors.Is(pe.Err, syscall.EIO)) {
		t.Fatal(err)
	}
	if err := cmd.Wait(); err != nil {
		t.Fatalf("audit %v: %v\n%s", args, err, errb.String())
	}
	return strings.ReplaceAll(out.String(), "\r\n", "\n")
}

// TestAuditColorOnTerminal checks that decisions are coloured on a
// terminal, not with NO_COLOR set nor into a pipe, and that the only
// escapes printed are the decision colours even for the hostile log.
func TestAuditColorOnTerminal(t *testing.T) {
	dir := t.TempDir()
	log := filepath.Join(dir, "audit.jsonl")
	writeAuditLog(t, log)
	hostile := filepath.Join(dir, "hostile.jsonl")
	writeHostileLog(t, hostile)
	const red, yellow, reset = "\x1b[31m", "\x1b[33m", "\x1b[0m"

	out := runOnTerminal(t, "", "show", log)
	if !strings.Contains(out, red+"deny"+reset) || !strings.Contains(out, yellow+"require-approval"+reset) {
		t.Errorf("no coloured decisions on a terminal:\n%q", out)
	}
	if out := runOnTerminal(t, "1", "show", log); strings.ContainsRune(out, 0x1b) {
		t.Errorf("colours with NO_COLOR=1:\n%q", out)
	}
	if out, _, _ := auditProcess(t, nil, "show", log); strings.ContainsRune(out, 0x1b) {
		t.Errorf("colours into a pipe:\n%q", out)
	}
	for _, args := range [][]string{{"show", "--all", hostile}, {"tail", hostile}} {
		out := runOnTerminal(t, "", args...)
		plain := out
		for _, c := range []string{"\x1b[31m", "\x1b[32m", "\x1b[33m", "\x1b[0m"} {
			plain = strings.ReplaceAll(plain, c, "")
		}
		terminaltest.CheckPrintable(t, "audit "+strings.Join(args, " ")+" on a terminal", plain, forgedPrefix)
		if !strings.Contains(out, red+"deny"+reset) {
			t.Errorf("audit %v: no coloured deny:\n%q", args, out)
		}
	}
}
