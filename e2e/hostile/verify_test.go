package hostile

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// auditVerifier is the auditverify process every run's audit log is
// checked by; needBridge starts it.
var auditVerifier *verifier

// verifier asks a running auditverify (./auditverify) whether audit logs
// verify, one at a time: the check "acp-bridge audit verify --genesis"
// makes, without a process per run (TestAuditVerifyAsCLI compares the two).
type verifier struct {
	cmd *exec.Cmd
	mu  sync.Mutex // guards in and out: one question, then its answer
	in  io.WriteCloser
	out *bufio.Reader
}

// startVerifier starts the auditverify binary at path.
func startVerifier(path string) (*verifier, error) {
	cmd := exec.Command(path)
	cmd.Stderr = os.Stderr
	in, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("starting auditverify: %v", err)
	}
	return &verifier{cmd: cmd, in: in, out: bufio.NewReader(out)}, nil
}

// verify returns nil when the log at path verifies and its chain starts at
// GENESIS (or it holds no event), else what is wrong.
func (v *verifier) verify(path string) error {
	if strings.Contains(path, "\n") {
		return fmt.Errorf("auditverify reads one path a line: %q has a newline", path)
	}
	v.mu.Lock()
	defer v.mu.Unlock()
	if _, err := io.WriteString(v.in, path+"\n"); err != nil {
		return fmt.Errorf("asking auditverify: %v", err)
	}
	line, err := v.out.ReadBytes('\n')
	if err != nil {
		return fmt.Errorf("reading auditverify's answer: %v", err)
	}
	var a struct {
		OK      bool   `json:"ok"`
		Problem string `json:"problem"`
	}
	if err := json.Unmarshal(line, &a); err != nil {
		return fmt.Errorf("auditverify answered %q: %v", line, err)
	}
	if !a.OK {
		return errors.New(a.Problem)
	}
	return nil
}

// stop ends auditverify by closing its input.
func (v *verifier) stop() error {
	v.in.Close()
	return v.cmd.Wait()
}

// TestAuditVerifyAsCLI: auditverify accepts exactly the logs "acp-bridge
// audit verify --genesis" accepts, among a run's real log and that log
// tampered with, cut at its start, torn at its end, and other files.
func TestAuditVerifyAsCLI(t *testing.T) {
	needBridge(t)
	c, err := parseCase("inline", "control/audit-verify", []byte("@control\n"+
		`{"jsonrpc":"2.0","id":"r1","method":"fs/read_text_file","params":{"sessionId":"{{SID}}","path":"{{WS}}/a.txt"}}`+"\n"))
	if err != nil {
		t.Fatal(err)
	}
	r := runCase(t, c, "js", true)
	r.report(t)
	log := []byte(r.audit)
	first, rest, _ := bytes.Cut(log, []byte("\n"))
	if len(rest) == 0 {
		t.Fatalf("the run's audit log holds fewer than two events:\n%s", log)
	}
	i := bytes.Index(log, []byte(`"seq":1`))
	if i < 0 {
		t.Fatalf("no event with seq 1 in the run's audit log:\n%s", log)
	}
	tampered := bytes.Clone(log)
	tampered[i+len(`"seq":`)] = '2'
	dir := t.TempDir()
	for _, tt := range []struct {
		name string
		data []byte
		ok   bool // what both must say; pinned, so that neither can always fail
	}{
		{"as-written", log, true},
		{"seq-changed", tampered, false},
		{"first-event-missing", rest, false},
		{"last-line-torn", log[:len(log)-1], false},
		{"first-event-alone", append(first, '\n'), true},
		{"empty", nil, true},
		{"not-audit", []byte(`{"a":1}` + "\n"), false},
		{"missing", nil, false},
	} {
		p := filepath.Join(dir, tt.name+".jsonl")
		if tt.name != "missing" {
			must(t, os.WriteFile(p, tt.data, 0o600))
		}
		out, cliErr := bridgeOutput("audit", "verify", "--genesis", p)
		got := auditVerifier.verify(p)
		if (cliErr == nil) != tt.ok || (got == nil) != tt.ok {
			t.Errorf("%s: acp-bridge audit verify --genesis: %v (%s); auditverify: %v; want both to accept it: %v", tt.name, cliErr, strings.TrimSpace(out), got, tt.ok)
		}
	}
}
