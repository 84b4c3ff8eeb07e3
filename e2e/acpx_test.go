package e2e

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/acp-bridge/acp-bridge/internal/e2e/fakemodel"
	"github.com/google/go-cmp/cmp"
)

// TestAcpx runs a second, independent ACP client, acpx (a headless client on
// the TypeScript SDK), through the bridge: "acpx --format json" prints every
// message it sends and receives, and those lines must be exactly the messages
// of the bridge's --record (as a multiset: acpx prints the two directions from
// different places, so their interleaving is not comparable).
func TestAcpx(t *testing.T) {
	s := needSuite(t)
	acpx := filepath.Join(s.bin, "acpx")
	if _, err := os.Stat(acpx); err != nil {
		t.Fatalf("acpx is not installed: run e2e/install.sh")
	}
	for _, a := range agents {
		t.Run(a.name, func(t *testing.T) {
			w := newWorkspace(t)
			for _, d := range []string{w.home, w.ws} {
				if err := os.MkdirAll(d, 0o755); err != nil {
					t.Fatal(err)
				}
			}
			if err := a.setupHome(w.home); err != nil {
				t.Fatal(err)
			}
			model, err := fakemodel.Start(fakemodel.Options{Script: fakemodel.Script{Steps: []fakemodel.Step{fakemodel.Text("Hello from the fake model.")}}})
			if err != nil {
				t.Fatal(err)
			}
			defer model.Close()
			// acpx's --timeout bounds each step (the agent's start and
			// initialize, session/new, the prompt), and the bridge bounds
			// the agent's start (--initialize-timeout): a fixed 60 s for
			// each was exceeded by a Gemini start that only waited for a
			// core on a loaded machine (acpx's exit status 3, its TIMEOUT;
			// then the bridge's "agent did not answer initialize within
			// 1m0s"). Both get the run's whole time (see start).
			timeout := runTimeout(t)
			rec := filepath.Join(w.base, "bridge-record.jsonl")
			agentCmd := strings.Join(append([]string{s.bridge, "--record", rec, "--log-file", filepath.Join(w.base, "bridge.log"),
				"--initialize-timeout", timeout.String(), "--", filepath.Join(s.bin, a.command[0])}, a.command[1:]...), " ")
			cmd := exec.Command(s.node, acpx, "--format", "json", "--approve-all", "--timeout", fmt.Sprint(int(timeout.Seconds())),
				"--cwd", w.ws, "--agent", agentCmd, "exec", "Say hello.")
			cmd.Dir = w.ws
			m := newMarker()
			cmd.Env = append([]string{"PATH=" + os.Getenv("PATH"), "HOME=" + w.home, "LANG=C.UTF-8", "TERM=dumb", marker + "=" + m}, a.env(model.URL())...)
			var stdout, stderr bytes.Buffer
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			done := make(chan error, 1)
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			go func() { done <- cmd.Wait() }()
			report := func() string {
				log, _ := os.ReadFile(filepath.Join(w.base, "bridge.log"))
				return fmt.Sprintf("--- acpx stdout (tail) ---\n%s\n--- acpx stderr (tail) ---\n%s\n--- bridge log (tail) ---\n%s",
					tail(stdout.String()), tail(stderr.String()), tail(string(log)))
			}
			select {
			case err := <-done:
				if err != nil {
					t.Fatalf("acpx (--timeout %v): %v\n%s", timeout, err, report())
				}
			case <-time.After(timeout + reportTime/2):
				cmd.Process.Kill()
				<-done
				t.Fatalf("acpx did not finish within %v of its own timeout (%v)\n%s", reportTime/2, timeout, report())
			}
			// acpx can keep a queue owner alive after a session; exec must not.
			noLeftovers(t, "acpx/"+a.name, m)
			if !strings.Contains(stdout.String(), "Hello from the fake model.") {
				t.Errorf("acpx never saw the reply:\n%s", tail(stdout.String()))
			}
			var seen []string
			for _, l := range strings.Split(stdout.String(), "\n") {
				if strings.TrimSpace(l) != "" {
					seen = append(seen, l)
				}
			}
			ls := readTranscript(t, rec)
			recorded := append(messages(ls, toAgent), messages(ls, toClient)...)
			slices.Sort(seen)
			slices.Sort(recorded)
			if d := cmp.Diff(recorded, seen); d != "" {
				t.Errorf("acpx's messages differ from the bridge's --record (-record +acpx):\n%s", d)
			}
		})
	}
}

func tail(s string) string {
	if len(s) > 3000 {
		return s[len(s)-3000:]
	}
	return s
}
