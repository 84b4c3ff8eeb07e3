package audit

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/gowebpki/jcs"

	"github.com/acp-bridge/acp-bridge/internal/acpwire/acpwiretest"
)

// fixedClock returns a Now func that starts at a fixed instant and advances
// by step on each call.
func fixedClock(step time.Duration) func() time.Time {
	var mu sync.Mutex
	t := time.Date(2026, 11, 21, 20, 0, 0, 0, time.UTC)
	return func() time.Time {
		mu.Lock()
		defer mu.Unlock()
		t = t.Add(step)
		return t
	}
}

// sampleEvents is a small but varied session: every field, markers,
// wrapped values, a slugged policy ref, the tool-call mirror.
func sampleEvents() []Event {
	agent := Actor{ID: "agent:claude-code", Role: "operator"}
	bridge := Actor{ID: "acp-bridge", Role: "system"}
	return []Event{
		{Actor: bridge, Action: "bridge.start", Subject: Subject{Kind: "bridge", Ref: "acp-bridge"}, Input: map[string]any{"agent": "claude-agent-acp", "pid": 4242}},
		{Actor: Actor{ID: "user:ide", Role: "user"}, Action: "session.new", Subject: Subject{Kind: "session", Ref: "sess-1", Path: "/work/project"},
			Metadata: map[string]any{"session": "sess-1"}},
		{Actor: Actor{ID: "user:ide", Role: "user"}, Action: "session.prompt", Subject: Subject{Kind: "session", Ref: "sess-1"},
			Input: "Run the tests and fix the failing one", Metadata: map[string]any{"session": "sess-1"}},
		{Actor: agent, Action: "tool.call", Subject: Subject{Kind: "tool-call", Ref: "toolu_01"},
			Input:  json.RawMessage(`{"command":"npm run test","env":[{"name":"NPM_TOKEN","value":"npm_abcdefghijklmnopqrstuvwxyz0123456789"}]}`),
			Policy: &Policy{Ref: "Bash(npm run test:*)", Decision: DecisionAllow},
			Metadata: map[string]any{"session": "sess-1", "toolCall": ToolCall{Kind: "tool-call", Operator: "claude-code", Session: "sess-1", ToolCallID: "toolu_01",
				Tool: "Bash", Arguments: map[string]any{"command": "npm run test"}, Approval: "auto"}}},
		{Actor: agent, Action: "tool.call", Subject: Subject{Kind: "tool-call", Ref: "toolu_01"},
			Output: map[string]any{"exitCode": 1, "stdout": "FAIL src/sum.test.js\n  expected 3, got 4"},
			Metadata: map[string]any{"session": "sess-1", "toolCall": map[string]any{"kind": "tool-call", "session": "sess-1", "toolCallId": "toolu_01",
				"tool": "Bash", "result": map[string]any{"exitCode": 1}, "approval": "auto"}}},
		{Actor: agent, Action: "fs.read", Subject: Subject{Kind: "file", Path: "/work/project/.env"},
			Policy:   &Policy{Ref: "deny-dotenv", Decision: DecisionDeny},
			Metadata: map[string]any{"session": "sess-1", "rule": "Read(**/.env)", "reason": "secrets stay on this machine"}},
		{Actor: Actor{ID: "user:alice", Role: "approver"}, Action: "permission.decision", Subject: Subject{Kind: "tool-call", Ref: "toolu_02"},
			Input:  map[string]any{"title": "Edit src/sum.js"},
			Output: map[string]any{"outcome": "selected", "optionId": "allow-once"},
			Policy: &Policy{Ref: "ask-edits", Decision: DecisionRequireApproval},
			Metadata: map[string]any{"session": "sess-1", "toolCall": ToolCall{Kind: "tool-call", Session: "sess-1", ToolCallID: "toolu_02", Tool: "Edit",
				Arguments: map[string]any{"path": "src/sum.js"}, Approval: "user:alice"}}},
		{Actor: bridge, Action: "bridge.stop", Subject: Subject{Kind: "bridge", Ref: "acp-bridge"}, Output: []any{"clean", 0}},
	}
}

// readLog reads the entries of the log at path (ReadEntries), failing
// the test if it cannot.
func readLog(t testing.TB, path string) []Entry {
	t.Helper()
	entries, err := ReadEntries(path)
	if err != nil {
		t.Fatal(err)
	}
	return entries
}

// writeLog appends evs to a new log in dir and closes it.
func writeLog(t testing.TB, path string, opts Options, evs []Event) {
	t.Helper()
	l, err := Open(path, opts)
	if err != nil {
		t.Fatal(err)
	}
	for i, ev := range evs {
		if err := l.Append(ev); err != nil {
			t.Fatalf("Append %d: %v", i, err)
		}
	}
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	// Every line any test writes validates against the schema.
	for i, line := range readLines(t, path) {
		if err := validate(line); err != nil {
			t.Fatalf("%s:%d: %v", path, i+1, err)
		}
	}
}

func readLines(t testing.TB, path string) [][]byte {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return bytes.Split(bytes.TrimSuffix(data, []byte("\n")), []byte("\n"))
}

func TestAppendWritesVerifiableChain(t *testing.T) {
	path := filepath.Join(t.TempDir(), "audit.jsonl")
	writeLog(t, path, Options{Now: fixedClock(time.Millisecond)}, sampleEvents())
	sum, err := Verify(path)
	if err != nil {
		t.Fatal(err)
	}
	if sum.Records != len(sampleEvents()) || !sum.Genesis || sum.FirstSeq != 0 || sum.LastSeq != int64(len(sampleEvents())-1) {
		t.Errorf("summary = %+v", sum)
	}
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if perm := fi.Mode().Perm(); perm != 0o600 {
		t.Errorf("file mode = %v, want 0600", perm)
	}
}

// TestHashIsIndependentlyComputable recomputes every hash the way a third
// party following AIP-7 would: the RFC 8785 form of the event without hash,
// hashAlg and metadata, through the reference jcs package.
func TestHashIsIndependentlyComputable(t *testing.T) {
	path := filepath.Join(t.TempDir(), "audit.jsonl")
	writeLog(t, path, Options{Now: fixedClock(time.Millisecond)}, sampleEvents())
	prev := Genesis
	for i, line := range readLines(t, path) {
		var m map[string]any
		if err := json.Unmarshal(line, &m); err != nil {
			t.Fatalf("line %d: %v", i+1, err)
		}
		canon, err := jcs.Transform(line)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(canon, line) {
			t.Errorf("line %d is not canonical:\n got %s\nwant %s", i+1, line, canon)
		}
		if m["prevHash"] != prev {
			t.Errorf("line %d: prevHash = %v, want %v", i+1, m["prevHash"], prev)
		}
		if m["seq"] != float64(i) {
			t.Errorf("line %d: seq = %v, want %d", i+1, m["seq"], i)
		}
		hash := m["hash"].(string)
		meta, hasMeta := m["metadata"]
		delete(m, "hash")
		delete(m, "hashAlg")
		delete(m, "metadata")
		raw, _ := json.Marshal(m)
		canon, err = jcs.Transform(raw)
		if err != nil {
			t.Fatal(err)
		}
		if got := hashHex(canon); got != hash {
			t.Errorf("line %d: hash = %s, recomputed %s", i+1, hash, got)
		}
		if hasMeta {
			raw, _ := json.Marshal(meta)
			canon, _ := jcs.Transform(raw)
			if got := hashHex(canon); got != m["metadataHash"] {
				t.Errorf("line %d: metadataHash = %v, recomputed %s", i+1, m["metadataHash"], got)
			}
		} else if _, ok := m["metadataHash"]; ok {
			t.Errorf("line %d: metadataHash without metadata", i+1)
		}
		prev = hash
	}
}

func TestEventFieldsAsWritten(t *testing.T) {
	path := filepath.Join(t.TempDir(), "audit.jsonl")
	writeLog(t, path, Options{Now: fixedClock(time.Millisecond)}, sampleEvents())
	lines := readLines(t, path)
	var recs []Record
	for _, line := range lines {
		var r Record
		if err := json.Unmarshal(line, &r); err != nil {
			t.Fatal(err)
		}
		recs = append(recs, r)
	}
	tests := []struct {
		name string
		got  string
		want string
	}{
		{"first ts", recs[0].TS, "2026-11-21T20:00:00.001Z"},
		{"schema tag", recs[0].Schema, "agentgovernance/v1"},
		{"doctype", recs[0].Doctype, "audit-event"},
		{"hashAlg", recs[0].HashAlg, "sha256"},
		{"string input wrapped", string(recs[2].Input), `{"value":"Run the tests and fix the failing one"}`},
		{"array output wrapped", string(recs[7].Output), `{"value":["clean",0]}`},
		{"slug ref kept", recs[5].Policy.Ref, "deny-dotenv"},
		{"non-slug ref slugged", recs[3].Policy.Ref, "bash-npm-run-test"},
		{"original rule kept", gjson(t, recs[3].Metadata, "policyRule"), "Bash(npm run test:*)"},
		{"decision", recs[6].Policy.Decision, "require-approval"},
		{"env secret redacted", string(recs[3].Input), `{"command":"npm run test","env":[{"name":"NPM_TOKEN","value":{"$redacted":true,"reason":"secret-key:NPM_TOKEN"}}]}`},
		{"approver", gjson(t, recs[6].Metadata, "toolCall", "approval"), "user:alice"},
		{"subject path", recs[5].Subject.Path, "/work/project/.env"},
	}
	for _, tt := range tests {
		if tt.got != tt.want {
			t.Errorf("%s: got %s, want %s", tt.name, tt.got, tt.want)
		}
	}
}

// gjson returns the string at path in raw JSON ("" if absent).
func gjson(t testing.TB, raw json.RawMessage, path ...string) string {
	t.Helper()
	var v any
	if err := json.Unmarshal(raw, &v); err != nil {
		t.Fatalf("%s: %v", raw, err)
	}
	s, _ := acpwiretest.At(v, path...).(string)
	return s
}

func TestInvalidEventsAreRefused(t *testing.T) {
	ok := Event{Actor: Actor{ID: "a"}, Action: "tool.call", Subject: Subject{Kind: "tool-call"}}
	tests := []struct {
		name string
		edit func(*Event)
	}{
		{"no actor", func(e *Event) { e.Actor.ID = "" }},
		{"upper-case action", func(e *Event) { e.Action = "Tool.Call" }},
		{"empty action", func(e *Event) { e.Action = "" }},
		{"no subject kind", func(e *Event) { e.Subject.Kind = "" }},
		{"unknown decision", func(e *Event) { e.Policy = &Policy{Ref: "x1", Decision: "maybe"} }},
		{"empty policy ref", func(e *Event) { e.Policy = &Policy{Decision: "allow"} }},
		{"unencodable input", func(e *Event) { e.Input = map[string]any{"f": func() {}} }},
		{"invalid raw input", func(e *Event) { e.Input = json.RawMessage(`{"a":`) }},
	}
	path := filepath.Join(t.TempDir(), "audit.jsonl")
	l, err := Open(path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ev := ok
			tt.edit(&ev)
			if err := l.Append(ev); !errors.Is(err, ErrInvalidEvent) {
				t.Errorf("Append = %v, want ErrInvalidEvent", err)
			}
			if err := l.Healthy(); err != nil {
				t.Errorf("Healthy after an invalid event = %v", err)
			}
		})
	}
	if err := l.AppendSync(ok); err != nil {
		t.Fatal(err)
	}
	// Each invalid event left an audit.unrecorded record in its place.
	if sum, err := Verify(path); err != nil || sum.Records != len(tests)+1 {
		t.Fatalf("Verify = %+v, %v; want %d records", sum, err, len(tests)+1)
	}
	for i, line := range readLines(t, path)[:len(tests)] {
		if !bytes.Contains(line, []byte(`"action":"`+ActionUnrecorded+`"`)) {
			t.Errorf("line %d = %s, want an %s record", i+1, line, ActionUnrecorded)
		}
	}
}

// TestTamperAnyByte flips every byte of every line of a small log, in
// several ways, and checks that Verify notices each change.
func TestTamperAnyByte(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "audit.jsonl")
	evs := sampleEvents()
	writeLog(t, path, Options{Now: fixedClock(time.Millisecond)}, []Event{evs[0], evs[3], evs[6]})
	orig, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Verify(path); err != nil {
		t.Fatal(err)
	}
	bad := filepath.Join(dir, "tampered.jsonl")
	mutations := []struct {
		name string
		f    func(byte) byte
	}{
		{"xor 0x01", func(b byte) byte { return b ^ 0x01 }},
		{"xor 0x20", func(b byte) byte { return b ^ 0x20 }},
		{"space", func(b byte) byte {
			if b == ' ' {
				return '\t'
			}
			return ' '
		}},
	}
	if testing.Short() {
		mutations = mutations[:1]
	}
	for _, m := range mutations {
		for i := range orig {
			data := bytes.Clone(orig)
			data[i] = m.f(data[i])
			var c Checker
			if err := c.read("tampered", bytes.NewReader(data), true); err == nil {
				t.Fatalf("%s at byte %d (%q -> %q) was not detected", m.name, i, orig[i], data[i])
			}
		}
	}
	// Removing, duplicating or swapping whole lines breaks the chain too.
	lines := bytes.SplitAfter(orig, []byte("\n"))[:3]
	for name, data := range map[string][]byte{
		"drop first":  bytes.Join(lines[1:], nil),
		"drop middle": bytes.Join([][]byte{lines[0], lines[2]}, nil),
		"duplicate":   bytes.Join([][]byte{lines[0], lines[1], lines[1], lines[2]}, nil),
		"swap":        bytes.Join([][]byte{lines[0], lines[2], lines[1]}, nil),
	} {
		os.WriteFile(bad, data, 0o600)
		sum, err := Verify(bad)
		if name == "drop first" {
			// A chain may start after GENESIS (older rotated files
			// not given); Verify says so.
			if err != nil || sum.Genesis {
				t.Errorf("%s: Verify = %+v, %v; want ok without genesis", name, sum, err)
			}
			continue
		}
		if err == nil {
			t.Errorf("%s: not detected", name)
		}
	}
}

func TestRotationKeepsChain(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "audit.jsonl")
	opts := Options{MaxBytes: 2048, Now: fixedClock(time.Millisecond)}
	var evs []Event
	for range 10 {
		evs = append(evs, sampleEvents()...)
	}
	writeLog(t, path, opts, evs[:40])
	// Reopening continues the chain and the numbering.
	writeLog(t, path, opts, evs[40:])
	rot, err := rotatedFiles(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(rot) < 5 {
		t.Fatalf("%d rotated files, want several", len(rot))
	}
	files := []string{path}
	for i, r := range rot {
		if r.name != fmt.Sprintf("%s.%06d", path, i+1) {
			t.Errorf("rotated file %d is %s", i, r.name)
		}
		files = append(files, r.name)
		fi, _ := os.Stat(r.name)
		if fi.Size() > opts.MaxBytes {
			t.Errorf("%s has %d bytes, more than MaxBytes", r.name, fi.Size())
		}
		if fi.Mode().Perm() != 0o600 {
			t.Errorf("%s mode %v", r.name, fi.Mode().Perm())
		}
	}
	// Files given in any order are put in chain order.
	sum, err := Verify(files...)
	if err != nil {
		t.Fatal(err)
	}
	if sum.Records != len(evs) || !sum.Genesis || sum.Files[len(sum.Files)-1] != path {
		t.Errorf("summary = %+v", sum)
	}
	// The first event of each file links to the last of the previous.
	for i := 1; i < len(rot); i++ {
		prevLines := readLines(t, rot[i-1].name)
		var last, first Record
		json.Unmarshal(prevLines[len(prevLines)-1], &last)
		json.Unmarshal(readLines(t, rot[i].name)[0], &first)
		if first.PrevHash != last.Hash || first.Seq != last.Seq+1 {
			t.Errorf("%s does not continue %s", rot[i].name, rot[i-1].name)
		}
	}
	// A missing middle file is a broken chain.
	if _, err := Verify(append(files[:2:2], files[3:]...)...); err == nil {
		t.Error("Verify with a rotated file missing succeeded")
	}
}

func TestTornLastLine(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "audit.jsonl")
	evs := sampleEvents()
	writeLog(t, path, Options{}, evs[:4])
	good, _ := os.ReadFile(path)
	lines := bytes.SplitAfter(good, []byte("\n"))

	t.Run("cut short", func(t *testing.T) {
		torn := append(bytes.Clone(good), lines[1][:57]...)
		os.WriteFile(path, torn, 0o600)
		_, err := Verify(path)
		var p *Problem
		if !errors.As(err, &p) || !p.Torn || p.Line != 5 {
			t.Fatalf("Verify = %v, want a torn line 5", err)
		}
		res, err := Repair(path)
		if err != nil || !res.Torn || res.Completed || len(res.Removed) != 57 {
			t.Fatalf("Repair = %+v, %v", res, err)
		}
		if got, _ := os.ReadFile(path); !bytes.Equal(got, good) {
			t.Fatal("Repair changed more than the torn line")
		}
		if res, _ := Repair(path); res.Torn {
			t.Error("second Repair found a torn line")
		}
	})
	t.Run("only the newline missing", func(t *testing.T) {
		os.WriteFile(path, good[:len(good)-1], 0o600)
		res, err := Repair(path)
		if err != nil || !res.Completed {
			t.Fatalf("Repair = %+v, %v; want the event kept", res, err)
		}
		if got, _ := os.ReadFile(path); !bytes.Equal(got, good) {
			t.Fatal("Repair did not restore the newline")
		}
	})
	t.Run("complete lines are never touched", func(t *testing.T) {
		bad := bytes.Replace(good, []byte(`"seq":1`), []byte(`"seq":7`), 1)
		os.WriteFile(path, bad, 0o600)
		if res, err := Repair(path); err != nil || res.Torn {
			t.Fatalf("Repair = %+v, %v", res, err)
		}
		if got, _ := os.ReadFile(path); !bytes.Equal(got, bad) {
			t.Fatal("Repair changed a complete line")
		}
	})
	t.Run("open repairs and records it", func(t *testing.T) {
		os.WriteFile(path, append(bytes.Clone(good), `{"$schema":"agentgov`...), 0o600)
		l, err := Open(path, Options{})
		if err != nil {
			t.Fatal(err)
		}
		l.Append(evs[4])
		if err := l.Close(); err != nil {
			t.Fatal(err)
		}
		sum, err := Verify(path)
		if err != nil || sum.Records != 6 {
			t.Fatalf("Verify = %+v, %v", sum, err)
		}
		last := readLines(t, path)
		if !bytes.Contains(last[4], []byte(`"action":"audit.repair"`)) {
			t.Errorf("line 5 = %s, want the audit.repair event", last[4])
		}
	})
}

func TestOpenRefusesSecondWriter(t *testing.T) {
	path := filepath.Join(t.TempDir(), "audit.jsonl")
	l, err := Open(path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if l2, err := Open(path, Options{}); !errors.Is(err, ErrInUse) {
		if l2 != nil {
			l2.Close()
		}
		t.Fatalf("second Open = %v, want ErrInUse", err)
	}
	l.Close()
	l2, err := Open(path, Options{})
	if err != nil {
		t.Fatalf("Open after Close = %v", err)
	}
	l2.Close()
}

func TestOpenRefusesUnreadableChain(t *testing.T) {
	path := filepath.Join(t.TempDir(), "audit.jsonl")
	os.WriteFile(path, []byte("hello\n"), 0o600)
	if l, err := Open(path, Options{}); err == nil {
		l.Close()
		t.Fatal("Open continued a chain whose last line is not an event")
	}
}

// flakyFile fails writes and syncs while failing is set.
type flakyFile struct {
	f       *os.File
	failing *atomic.Bool
	syncs   *atomic.Int64
	delay   time.Duration
}

func (f *flakyFile) Write(p []byte) (int, error) {
	if f.failing.Load() {
		// A partial write, as a full disk gives.
		n, _ := f.f.Write(p[:len(p)/3])
		return n, errors.New("no space left on device")
	}
	return f.f.Write(p)
}

func (f *flakyFile) Sync() error {
	if f.failing.Load() {
		return errors.New("input/output error")
	}
	f.syncs.Add(1)
	time.Sleep(f.delay)
	return f.f.Sync()
}

func (f *flakyFile) Close() error { return f.f.Close() }

func (f *flakyFile) Stat() (os.FileInfo, error) { return f.f.Stat() }

func flakyOpener(failing *atomic.Bool, syncs *atomic.Int64, delay time.Duration) func(string) (file, error) {
	return func(name string) (file, error) {
		if failing.Load() {
			return nil, errors.New("read-only file system")
		}
		f, err := os.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o600)
		if err != nil {
			return nil, err
		}
		return &flakyFile{f: f, failing: failing, syncs: syncs, delay: delay}, nil
	}
}

func TestWriteFailureAndRecovery(t *testing.T) {
	path := filepath.Join(t.TempDir(), "audit.jsonl")
	var failing atomic.Bool
	var syncs atomic.Int64
	l, err := Open(path, Options{openFile: flakyOpener(&failing, &syncs, 0)})
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	evs := sampleEvents()
	if err := l.AppendSync(evs[0]); err != nil {
		t.Fatal(err)
	}
	failing.Store(true)
	if err := l.AppendSync(evs[1]); err == nil {
		t.Fatal("AppendSync succeeded while the file failed")
	}
	if err := l.Healthy(); err == nil {
		t.Fatal("Healthy = nil while the file fails")
	}
	// Appends are accepted and kept while failing.
	for _, ev := range evs[2:5] {
		if err := l.Append(ev); err != nil {
			t.Fatal(err)
		}
	}
	if err := l.Healthy(); err == nil {
		t.Fatal("Healthy = nil while the file fails")
	}
	failing.Store(false)
	if err := l.Healthy(); err != nil {
		t.Fatalf("Healthy after the file works again = %v", err)
	}
	if err := l.AppendSync(evs[5]); err != nil {
		t.Fatal(err)
	}
	sum, err := Verify(path)
	if err != nil || sum.Records != 6 {
		t.Fatalf("Verify = %+v, %v; want all 6 events after recovery", sum, err)
	}
}

func TestAppendSyncGroupCommit(t *testing.T) {
	path := filepath.Join(t.TempDir(), "audit.jsonl")
	var failing atomic.Bool
	var syncs atomic.Int64
	// A slow fsync lets AppendSyncs queue behind it.
	l, err := Open(path, Options{openFile: flakyOpener(&failing, &syncs, 2*time.Millisecond)})
	if err != nil {
		t.Fatal(err)
	}
	const n = 64
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			ev := Event{Actor: Actor{ID: "g"}, Action: "policy.decision", Subject: Subject{Kind: "tool-call", Ref: fmt.Sprint("call-", i)}}
			if err := l.AppendSync(ev); err != nil {
				t.Error(err)
			}
			// Returned means on disk: the line is in the file now.
			data, _ := os.ReadFile(path)
			if !bytes.Contains(data, []byte(fmt.Sprintf(`"ref":"call-%d"`, i))) {
				t.Errorf("call-%d not in the file after AppendSync returned", i)
			}
		})
	}
	wg.Wait()
	if got := syncs.Load(); got >= n {
		t.Errorf("%d fsyncs for %d concurrent AppendSyncs; want them grouped", got, n)
	} else {
		t.Logf("%d fsyncs for %d concurrent AppendSyncs", got, n)
	}
	l.Close()
	if _, err := Verify(path); err != nil {
		t.Fatal(err)
	}
}

// TestAppendIsFlushedWithinInterval checks that the flusher writes a
// record appended with Append within DefaultFlushInterval, on the fake
// clock of testing/synctest (a bound on wall time raced the scheduler).
func TestAppendIsFlushedWithinInterval(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		path := filepath.Join(t.TempDir(), "audit.jsonl")
		l, err := Open(path, Options{})
		if err != nil {
			t.Fatal(err)
		}
		defer l.Close()
		if err := l.Append(sampleEvents()[0]); err != nil {
			t.Fatal(err)
		}
		time.Sleep(DefaultFlushInterval)
		synctest.Wait() // the flusher is idle again
		if fi, err := os.Stat(path); err != nil || fi.Size() == 0 {
			t.Fatalf("appended event not written within %v: %v", DefaultFlushInterval, err)
		}
	})
}

func TestAppendAfterClose(t *testing.T) {
	l, err := Open(filepath.Join(t.TempDir(), "audit.jsonl"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	l.Close()
	if err := l.Append(sampleEvents()[0]); !errors.Is(err, ErrClosed) {
		t.Errorf("Append after Close = %v", err)
	}
	if err := l.Close(); err != nil {
		t.Errorf("second Close = %v", err)
	}
}

func TestLargeValuesAreCapped(t *testing.T) {
	path := filepath.Join(t.TempDir(), "audit.jsonl")
	big := strings.Repeat("0123456789abcdef", 1024) // 16 KiB
	huge := make(map[string]any)
	for i := range 200 {
		huge[fmt.Sprint("k", i)] = strings.Repeat("x", 1000)
	}
	writeLog(t, path, Options{}, []Event{
		{Actor: Actor{ID: "a"}, Action: "fs.read", Subject: Subject{Kind: "file"}, Output: map[string]any{"content": big}},
		{Actor: Actor{ID: "a"}, Action: "fs.read", Subject: Subject{Kind: "file"}, Output: huge},
	})
	lines := readLines(t, path)
	var r1, r2 struct {
		Output struct {
			Content   map[string]any `json:"content"`
			Truncated bool           `json:"$truncated"`
			Bytes     int            `json:"bytes"`
			SHA256    string         `json:"sha256"`
		} `json:"output"`
	}
	json.Unmarshal(lines[0], &r1)
	json.Unmarshal(lines[1], &r2)
	c := r1.Output.Content
	if c["$truncated"] != true || c["bytes"] != float64(len(big)) || c["sha256"] != hashHex([]byte(big)) || c["head"] != "" {
		// big has no white space: its head would be part of one word.
		t.Errorf("capped string = %v", c)
	}
	if !r2.Output.Truncated || r2.Output.Bytes < 200_000 || len(r2.Output.SHA256) != 64 {
		t.Errorf("capped object = %+v", r2.Output)
	}
	if len(lines[1]) > 2048 {
		t.Errorf("line with a capped object has %d bytes", len(lines[1]))
	}
	if _, err := Verify(path); err != nil {
		t.Fatal(err)
	}
}
