package e2e

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/acp-bridge/acp-bridge/internal/e2e/fakemodel"
)

// TestCrash kills the agent (SIGKILL) while a turn is in flight, through the
// bridge: the fake model holds the turn open, so the agent is mid-turn when
// it dies. The client must get an error for its
// pending prompt, and no process of the run may be left, including the
// agent's own children (Claude Code's native binary under claude-agent-acp,
// the relaunched gemini process under the gemini launcher, which keeps the
// stdout and stderr pipes it inherited open after its parent died).
// crashGrace is how long the client may wait for an error after the kill; in
// passing runs it came within 100 ms.
const crashGrace = 15 * time.Second

func TestCrash(t *testing.T) {
	s := needSuite(t)
	// Two ways to die: the bridge's own child (the launcher: the node
	// process of claude-agent-acp, or the gemini launcher that relaunched
	// itself in a child process), or the deepest process under it (Claude
	// Code's native binary, the relaunched Gemini worker that runs the turn).
	targets := []struct {
		name string
		pick func(agentPID int) int
	}{
		{"child", func(p int) int { return p }},
		{"deepest", func(p int) int {
			d := descendants(p)
			if len(d) == 0 {
				return p
			}
			return d[len(d)-1]
		}},
	}
	for _, a := range agents {
		for _, target := range targets {
			t.Run(a.name+"/"+target.name, func(t *testing.T) {
				w := newWorkspace(t)
				r := start(t, s, a, w, runOptions{
					name:   "bridge",
					bridge: true,
					script: fakemodel.Script{Steps: []fakemodel.Step{{Hang: true}}},
					client: clientScript{Prompts: textPrompts("Start something long.")},
				})
				r.waitFor("the agent's first model request", func() bool {
					return len(r.model.MainRequests()) > 0
				})
				bridgePID := childWith(r.cmd.Process.Pid, filepath.Base(s.bridge))
				if bridgePID == 0 {
					t.Fatalf("bridge process not found under the client (pid %d)", r.cmd.Process.Pid)
				}
				kids := children(bridgePID)
				if len(kids) != 1 {
					t.Fatalf("bridge has %d children %v, want 1 (the agent)", len(kids), kids)
				}
				victim := target.pick(kids[0])
				t.Logf("agent pid %d with descendants %v; killing %d (%s)", kids[0], descendants(kids[0]), victim, cmdline(victim))
				if err := syscall.Kill(victim, syscall.SIGKILL); err != nil {
					t.Fatal(err)
				}
				killed := time.Now()
				select {
				case <-r.done:
					sum := r.wait()
					if sum.OK || sum.Error == nil || *sum.Error == "" {
						t.Errorf("client summary %+v: want an error for the pending prompt", sum)
					} else {
						t.Logf("client error after %v: %s", time.Since(killed).Round(time.Millisecond), *sum.Error)
					}
					if len(sum.StopReasons) != 0 {
						t.Errorf("prompt completed with %v although the agent died mid-turn", sum.StopReasons)
					}
				case <-time.After(crashGrace):
					t.Errorf("the client got no answer to its prompt within %v of the kill", crashGrace)
					// Stop the client as an IDE would be stopped (it kills
					// its child, the bridge), so that the leftover check
					// below shows what that leaves behind.
					r.cmd.Process.Signal(syscall.SIGTERM)
					<-r.done
				}
				r.noLeftovers()
			})
		}
	}
}

// procPPID returns the parent pid of pid from /proc/pid/stat, or 0.
func procPPID(pid int) int {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0
	}
	// The command name is in parentheses and may contain spaces.
	i := bytes.LastIndexByte(b, ')')
	if i < 0 {
		return 0
	}
	f := strings.Fields(string(b[i+1:]))
	if len(f) < 2 {
		return 0
	}
	ppid, _ := strconv.Atoi(f[1])
	return ppid
}

// children lists the live children of pid.
func children(pid int) []int {
	ents, _ := os.ReadDir("/proc")
	var out []int
	for _, e := range ents {
		p, err := strconv.Atoi(e.Name())
		if err == nil && procPPID(p) == pid {
			out = append(out, p)
		}
	}
	return out
}

// descendants lists every live descendant of pid.
func descendants(pid int) []int {
	var out []int
	for _, c := range children(pid) {
		out = append(out, c)
		out = append(out, descendants(c)...)
	}
	return out
}

func cmdline(pid int) string {
	b, _ := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", pid))
	return strings.TrimSpace(string(bytes.ReplaceAll(b, []byte{0}, []byte{' '})))
}

// childWith returns the child of pid whose command line contains s, or 0.
func childWith(pid int, s string) int {
	for _, c := range children(pid) {
		if strings.Contains(cmdline(c), s) {
			return c
		}
	}
	return 0
}
