package governance

import (
	"os"
	"strconv"
	"testing"

	"github.com/acp-bridge/acp-bridge/internal/benchstream"
)

// BenchmarkJudgeSoak judges the soak benchmark's four tool calls as the
// enforcer does when their tool_call arrives (judgeCall: the decision,
// the call's fingerprint and what an approval would cover), in a session
// whose cwd is a workspace where the files do not exist, named as the
// soak names its scratch directory (in lower case, as folding finds it),
// under the repository's GOVERNANCE.md. Compare cpu-ns/op.
func BenchmarkJudgeSoak(b *testing.B) {
	cwd, err := os.MkdirTemp("", "acp-soak-")
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { os.RemoveAll(cwd) })
	x := NewEnforcer(EnforceOptions{Engine: soakEngine(b, cwd)})
	x.mu.Lock()
	x.sessionLocked("s1").cwd = cwd
	x.mu.Unlock()
	for i, kind := range []string{"read", "execute", "search", "fetch"} {
		file := "src/file" + strconv.Itoa(i) + ".go"
		call := ToolCall{Kind: kind, Title: kind + " " + file, Locations: []string{cwd + "/" + file}}
		b.Run(kind, func(b *testing.B) {
			b.ReportAllocs()
			cpu0 := benchstream.CPUTime()
			for i := 0; i < b.N; i++ {
				x.judgeCall("s1", call)
			}
			b.ReportMetric(float64((benchstream.CPUTime()-cpu0).Nanoseconds())/float64(b.N), "cpu-ns/op")
		})
	}
}
