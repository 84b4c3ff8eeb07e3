package acpwire_test

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/acp-bridge/acp-bridge/internal/acpwire"
	"github.com/acp-bridge/acp-bridge/internal/acpwire/acpwiretest"
)

var update = flag.Bool("update", false, "rewrite the want sections of testdata/scenarios from what the bridge does")

// scenarioMarker is the notification each peer sends after its lines: once
// the other peer has it, the bridge has settled everything before it.
const scenarioMarker = `{"jsonrpc":"2.0","method":"_test/scenario_marker"}`

// TestScenarios runs the wire transcripts under testdata/scenarios. Each is
// a txtar archive: the comment says what it shows; -- ide -- holds the lines
// the IDE sends, -- agent -- those the agent sends (after the IDE's have
// all been handled), one message a line; -- want/ide -- and -- want/agent --
// the exact lines each then receives, and -- want/refused -- (optional) a
// part of the reason of each refusal the bridge reports, in order. Run
// with -update to rewrite the want sections from what the bridge does.
func TestScenarios(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("testdata", "scenarios", "*.txtar"))
	if err != nil {
		t.Fatal(err)
	}
	if len(files) == 0 {
		t.Fatal("no scenarios under testdata/scenarios")
	}
	for _, file := range files {
		t.Run(strings.TrimSuffix(filepath.Base(file), ".txtar"), func(t *testing.T) {
			data, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			a := parseTxtar(data)
			got := runScenario(t, a.lines("ide"), a.lines("agent"))
			if *update {
				a.set("want/ide", got.ide)
				a.set("want/agent", got.agent)
				a.set("want/refused", got.refused)
				if err := os.WriteFile(file, a.format(), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			for _, w := range []struct {
				section string
				got     []string
			}{{"want/ide", got.ide}, {"want/agent", got.agent}} {
				if want := a.lines(w.section); !equalLines(w.got, want) {
					t.Errorf("%s:\ngot:\n%s\nwant:\n%s", w.section, strings.Join(w.got, "\n"), strings.Join(want, "\n"))
				}
			}
			want := a.lines("want/refused")
			if len(got.refused) != len(want) {
				t.Fatalf("%d refusals %q, want %d", len(got.refused), got.refused, len(want))
			}
			for i, r := range got.refused {
				if !strings.Contains(r, want[i]) {
					t.Errorf("refusal %d: reason %q, want it to say %q", i, r, want[i])
				}
			}
		})
	}
}

// scenarioResult is what each peer received and the reasons of the
// refusals the bridge reported.
type scenarioResult struct {
	ide, agent, refused []string
}

// runScenario plays ide's lines and then agent's through a bridge over
// pipes and collects what each peer receives. Each peer's lines are
// followed by scenarioMarker, and the next step waits for the other peer
// to receive it, so the outcome does not depend on scheduling.
func runScenario(t *testing.T, ide, agent []string) scenarioResult {
	t.Helper()
	var (
		mu      sync.Mutex
		refused []string
	)
	h := acpwiretest.Start(t, acpwire.New(acpwire.Options{OnRefused: func(r acpwire.Refusal) {
		mu.Lock()
		refused = append(refused, r.Reason)
		mu.Unlock()
	}}))
	var res scenarioResult
	for _, l := range ide {
		h.FromClient(l)
	}
	h.FromClient(scenarioMarker)
	res.agent = readUntilMarker(h.AgentGets)
	for _, l := range agent {
		h.FromAgent(l)
	}
	h.FromAgent(scenarioMarker)
	res.ide = readUntilMarker(h.ClientGets)
	// The bridge's answers to the agent's lines were written before the
	// agent's marker reached the IDE; the IDE's marker flushes them out.
	h.FromClient(scenarioMarker)
	res.agent = append(res.agent, readUntilMarker(h.AgentGets)...)
	// Every refusal is reported on its direction's loop before the marker
	// behind it is written.
	mu.Lock()
	res.refused = refused
	mu.Unlock()
	return res
}

func readUntilMarker(next func() string) []string {
	var got []string
	for {
		l := next()
		if l == scenarioMarker {
			return got
		}
		got = append(got, l)
	}
}

func equalLines(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// txtar is a txtar archive (golang.org/x/tools/txtar's format): a comment,
// then files, each a "-- name --" line and its content.
type txtar struct {
	comment []byte
	names   []string
	files   map[string][]byte
}

func parseTxtar(data []byte) *txtar {
	a := &txtar{files: map[string][]byte{}}
	name := "" // "" is the comment
	for len(data) > 0 {
		line := data
		if i := bytes.IndexByte(data, '\n'); i >= 0 {
			line, data = data[:i+1], data[i+1:]
		} else {
			data = nil
		}
		s := strings.TrimSuffix(string(line), "\n")
		if n, ok := strings.CutPrefix(s, "-- "); ok && strings.HasSuffix(n, " --") {
			name = strings.TrimSpace(strings.TrimSuffix(n, " --"))
			a.names = append(a.names, name)
			a.files[name] = []byte{}
			continue
		}
		if name == "" {
			a.comment = append(a.comment, line...)
		} else {
			a.files[name] = append(a.files[name], line...)
		}
	}
	return a
}

// lines returns the non-empty lines of file name.
func (a *txtar) lines(name string) []string {
	var out []string
	for _, l := range strings.Split(string(a.files[name]), "\n") {
		if l != "" {
			out = append(out, l)
		}
	}
	return out
}

// set replaces file name's content with lines, adding the file if needed.
func (a *txtar) set(name string, lines []string) {
	if _, ok := a.files[name]; !ok {
		a.names = append(a.names, name)
	}
	var b []byte
	for _, l := range lines {
		b = append(b, l...)
		b = append(b, '\n')
	}
	a.files[name] = b
}

// format returns the archive's bytes.
func (a *txtar) format() []byte {
	out := append([]byte(nil), a.comment...)
	for _, n := range a.names {
		out = append(out, "-- "+n+" --\n"...)
		out = append(out, a.files[n]...)
	}
	return out
}
