package governance

import (
	"path/filepath"
	"strconv"
	"testing"

	"github.com/acp-bridge/acp-bridge/internal/benchstream"
)

// soakCalls returns the requests the bridge decides for the soak
// benchmark's tool calls (internal/soak): one of each kind the fake agent
// cycles through, titled "<kind> src/fileN.go" with that file under cwd as
// its one location and no rawInput, built as the enforcer builds them
// (ToolCallRequest, the session's cwd as its root).
func soakCalls(cwd string) map[string]Request {
	out := map[string]Request{}
	for i, kind := range []string{"read", "execute", "search", "fetch"} {
		file := "src/file" + strconv.Itoa(i) + ".go"
		req := ToolCallRequest(ToolCall{Kind: kind, Title: kind + " " + file, Locations: []string{cwd + "/" + file}}, cwd)
		req.Roots = []string{cwd}
		out[kind] = req
	}
	return out
}

// soakCallList returns soakCalls' requests in the order the fake agent
// cycles through their kinds: read, execute, search, fetch.
func soakCallList(cwd string) []Request {
	calls := soakCalls(cwd)
	var out []Request
	for _, kind := range []string{"read", "execute", "search", "fetch"} {
		out = append(out, calls[kind])
	}
	return out
}

// soakEngine returns an engine as the bridge builds one for the soak:
// the repository's GOVERNANCE.md, its files and the audit log in dir
// protected.
func soakEngine(tb testing.TB, dir string) *Engine {
	p, err := LoadPolicy("../../GOVERNANCE.md")
	if err != nil {
		tb.Fatal(err)
	}
	prot := append(SelfProtected(p, nil), AuditProtected(filepath.Join(dir, "audit.jsonl")))
	return NewEngine(p, EngineOptions{Protected: prot})
}

// BenchmarkDecideSoak decides the soak benchmark's four tool calls under
// the repository's GOVERNANCE.md, in a workspace where the files do not
// exist (as in the soak's scratch directory). Compare cpu-ns/op.
func BenchmarkDecideSoak(b *testing.B) {
	cwd := b.TempDir()
	e := soakEngine(b, cwd)
	calls := soakCalls(cwd)
	for _, kind := range []string{"read", "execute", "search", "fetch"} {
		req := calls[kind]
		b.Run(kind, func(b *testing.B) {
			b.ReportAllocs()
			cpu0 := benchstream.CPUTime()
			for i := 0; i < b.N; i++ {
				e.Decide(req)
			}
			// CPU time: on a shared machine wall time says more about
			// the other processes than about Decide.
			b.ReportMetric(float64((benchstream.CPUTime()-cpu0).Nanoseconds())/float64(b.N), "cpu-ns/op")
		})
	}
}
