package audit

import (
	"encoding/json"
	"path/filepath"
	"testing"
)

// benchEvent is a typical tool-call record: arguments, a short result,
// the mirror and a decision.
func benchEvent() Event {
	args := json.RawMessage(`{"command":"npm run test -- --watch=false","cwd":"/work/project","timeout":120000}`)
	return Event{
		Actor:   Actor{ID: "agent:claude-code", Role: "operator"},
		Action:  "tool.call",
		Subject: Subject{Kind: "tool-call", Ref: "toolu_01ABCDEF", Path: "/work/project"},
		Input:   args,
		Output:  map[string]any{"exitCode": 0, "stdout": "PASS src/sum.test.js (3 tests)"},
		Policy:  &Policy{Ref: "allow-tests", Decision: DecisionAllow},
		Metadata: map[string]any{"session": "sess-1", "toolCall": ToolCall{Kind: "tool-call", Operator: "claude-code", Session: "sess-1",
			ToolCallID: "toolu_01ABCDEF", Tool: "Bash", Arguments: args, Approval: "auto"}},
	}
}

// openBench opens a new log for a benchmark.
func openBench(b *testing.B) *Log {
	return openBenchWith(b, Options{})
}

// openBenchWith opens a new log with opts for a benchmark that closes it
// when it ends.
func openBenchWith(b *testing.B, opts Options) *Log {
	l, err := Open(filepath.Join(b.TempDir(), "audit.jsonl"), opts)
	if err != nil {
		b.Fatal(err)
	}
	return l
}

// BenchmarkAppend measures buffered appends from one goroutine, including
// the final flush and fsync at Close.
func BenchmarkAppend(b *testing.B) {
	b.ReportAllocs()
	benchAppends(b, (*Log).Append, 0)
}

// BenchmarkAppendParallel measures buffered appends from GOMAXPROCS
// goroutines.
func BenchmarkAppendParallel(b *testing.B) {
	benchAppends(b, (*Log).Append, 1)
}

// BenchmarkAppendSync measures durable appends one after another: one
// fsync each.
func BenchmarkAppendSync(b *testing.B) {
	benchAppends(b, (*Log).AppendSync, 0)
}

// BenchmarkAppendSyncGroup measures durable appends from 64 concurrent
// callers, which share fsyncs.
func BenchmarkAppendSyncGroup(b *testing.B) {
	benchAppends(b, (*Log).AppendSync, 64)
}

// benchAppends measures add (Append or AppendSync) of benchEvent to a new
// log through its Close, in events/s: from one goroutine when parallelism
// is 0, else from parallelism*GOMAXPROCS goroutines.
func benchAppends(b *testing.B, add func(*Log, Event) error, parallelism int) {
	l := openBench(b)
	ev := benchEvent()
	if parallelism == 0 {
		for b.Loop() {
			if err := add(l, ev); err != nil {
				b.Fatal(err)
			}
		}
	} else {
		b.SetParallelism(parallelism)
		b.RunParallel(func(pb *testing.PB) {
			for pb.Next() {
				if err := add(l, ev); err != nil {
					b.Error(err)
				}
			}
		})
	}
	if err := l.Close(); err != nil {
		b.Fatal(err)
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "events/s")
}

// BenchmarkVerify measures the verifier per line.
func BenchmarkVerify(b *testing.B) {
	path := filepath.Join(b.TempDir(), "audit.jsonl")
	evs := make([]Event, 1000)
	for i := range evs {
		evs[i] = benchEvent()
	}
	writeLog(b, path, Options{}, evs)
	for b.Loop() {
		if _, err := Verify(path); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.N*len(evs))/b.Elapsed().Seconds(), "lines/s")
}

// BenchmarkWatch measures the live file check done before each write and
// after each group commit (an fstat and an lstat).
func BenchmarkWatch(b *testing.B) {
	l := openBench(b)
	defer l.Close()
	if err := l.AppendSync(Event{Actor: Actor{ID: "a"}, Action: "tool.call", Subject: Subject{Kind: "k"}}); err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for b.Loop() {
		l.mu.Lock()
		if err := l.watchLocked(); err != nil {
			b.Fatal(err)
		}
		l.mu.Unlock()
	}
}
