package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/acp-bridge/acp-bridge/internal/e2e/fakemodel"
	"github.com/google/go-cmp/cmp"
)

// basicSession is the scripted session of the transparency scenario: a text
// reply, then a file read through the agent's own Read tool, then text.
func basicSession(a *agentSpec, w *workspace) runOptions {
	return runOptions{
		files: map[string]string{"notes.txt": "The secret word is pineapple.\n"},
		script: fakemodel.Script{Steps: []fakemodel.Step{
			fakemodel.Text("Hello from the fake model."),
			a.read(w.path("notes.txt")),
			fakemodel.Text("The file says the secret word is pineapple."),
		}},
		client: clientScript{Prompts: textPrompts("Say hello.", "Read notes.txt and tell me the secret word."), AwaitToolResponses: true},
	}
}

// TestTransparency runs one scripted session directly and through the bridge
// with no policy, and checks that the client sees the same messages (see
// normalize_test.go for what is allowed to differ), that the bridge's
// --record equals what the client saw byte for byte, and that the recording
// matches the one kept in testdata/transcripts.
func TestTransparency(t *testing.T) {
	s := needSuite(t)
	for _, a := range agents {
		t.Run(a.name, func(t *testing.T) {
			w := newWorkspace(t)

			o := basicSession(a, w)
			o.name = "direct"
			direct := start(t, s, a, w, o)
			dsum := direct.mustSucceed()
			direct.noLeftovers()
			checkBasic(t, a, direct, dsum)

			o = basicSession(a, w)
			o.name, o.bridge = "bridge", true
			bridged := start(t, s, a, w, o)
			bsum := bridged.mustSucceed()
			bridged.noLeftovers()
			checkBasic(t, a, bridged, bsum)

			dl := readTranscript(t, direct.transcript)
			bl := readTranscript(t, bridged.transcript)
			for _, dir := range []string{toAgent, toClient} {
				bn, ok := withoutIdentity(normalized(bl, dir, nil))
				if !ok {
					t.Errorf("%s: malformed bridge identity in the initialize response", dir)
				}
				if d := cmp.Diff(hookUpdatesLast(normalized(dl, dir, nil)), hookUpdatesLast(bn)); d != "" {
					t.Errorf("%s: direct vs through the bridge differ (-direct +bridge):\n%s", dir, d)
				}
			}

			// The bridge's recording against the client's own transcript
			// of the same run: no normalisation at all.
			rec := readTranscript(t, bridged.record)
			for _, dir := range []string{toAgent, toClient} {
				if d := cmp.Diff(messages(bl, dir), messages(rec, dir)); d != "" {
					t.Errorf("%s: --record differs from what the client saw (-client +record):\n%s", dir, d)
				}
			}

			checkGoldenTranscript(t, filepath.Join("..", "testdata", "transcripts", a.name+"-basic.jsonl"), bridged.record, w)
		})
	}
}

// checkBasic checks the outcome of basicSession.
func checkBasic(t *testing.T, a *agentSpec, r *run, sum clientSummary) {
	t.Helper()
	if d := cmp.Diff([]string{"end_turn", "end_turn"}, sum.StopReasons); d != "" {
		t.Errorf("%s/%s: stop reasons (-want +got):\n%s", a.name, r.opts.name, d)
	}
	if got := r.model.StepsServed(); got != 3 {
		t.Errorf("%s/%s: fake model served %d script steps, want 3", a.name, r.opts.name, got)
	}
	// The file's content reached the model in the tool result.
	main := r.model.MainRequests()
	if len(main) == 0 {
		t.Fatalf("%s/%s: no main-conversation request reached the model", a.name, r.opts.name)
	}
	last, err := main[len(main)-1].ContextText()
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(last, "The secret word is pineapple.") {
		t.Errorf("%s/%s: the file content did not reach the model in the last request", a.name, r.opts.name)
	}
	text := strings.Join(messages(readTranscript(t, r.transcript), toClient), "\n")
	for _, want := range []string{"Hello from the fake model.", "The file says the secret word is pineapple."} {
		if !strings.Contains(text, want) {
			t.Errorf("%s/%s: client never saw %q", a.name, r.opts.name, want)
		}
	}
}

// checkGoldenTranscript compares a recording, normalised, with the stored
// one, both without the bridge's identity; with -update it stores the
// recording instead (as recorded, so the replay command can use it). The
// stored recordings were made before the bridge announced itself, so their
// agent side is exactly what the agents sent.
func checkGoldenTranscript(t *testing.T, golden, recorded string, w *workspace) {
	t.Helper()
	if *update {
		b, err := os.ReadFile(recorded)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.MkdirAll(filepath.Dir(golden), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(golden, b, 0o644); err != nil {
			t.Fatal(err)
		}
		t.Logf("wrote %s", golden)
		return
	}
	if _, err := os.Stat(golden); err != nil {
		t.Fatalf("%v (run scripts/e2e.sh -update to create it)", err)
	}
	want := readTranscript(t, golden)
	got := readTranscript(t, recorded)
	// The stored recording was made in another temporary directory.
	wantBase := recordedBase(want)
	for _, dir := range []string{toAgent, toClient} {
		wn, _ := withoutIdentity(normalized(want, dir, map[string]string{wantBase: "<base>"}))
		gn, _ := withoutIdentity(normalized(got, dir, map[string]string{w.base: "<base>"}))
		d := cmp.Diff(hookUpdatesLast(wn), hookUpdatesLast(gn))
		if d != "" {
			t.Errorf("%s: this run differs from %s (-stored +now); if an agent changed on purpose, rerun with -update:\n%s", dir, golden, d)
		}
	}
}

// recordedBase finds the workspace base directory of a stored recording from
// the cwd of its session/new request (the base is the cwd's parent).
func recordedBase(ls []line) string {
	const key = `"cwd":"`
	for _, l := range ls {
		s := string(l.Msg)
		if l.Dir != toAgent || !strings.Contains(s, `"session/new"`) {
			continue
		}
		i := strings.Index(s, key)
		if i < 0 {
			continue
		}
		rest := s[i+len(key):]
		if j := strings.IndexByte(rest, '"'); j >= 0 {
			return filepath.Dir(rest[:j])
		}
	}
	return "\x00no-base"
}
