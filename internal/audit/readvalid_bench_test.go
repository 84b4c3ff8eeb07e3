package audit

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/acp-bridge/acp-bridge/internal/soak"
)

// soakOutputs are the contents of the soak's tool_call_updates of mix m
// (internal/soak: 100 B to 20 KiB of text), as JSON.
func soakOutputs(m soak.Mix) [][]byte {
	r := rand.New(rand.NewPCG(1, 20))
	outs := make([][]byte, 61)
	for i := range outs {
		outs[i] = []byte(`[{"type":"content","content":{"type":"text","text":"` + m.Text(r, 100+r.IntN(20480-100+1)) + `"}}]`)
	}
	return outs
}

// BenchmarkReadValidToolOutput is what governance's forwarding path pays
// for a soak tool call's output (Enforcer.toolOutput): reading it with
// ReadValidToolOutput, the SHA-256 of its text and its redacted preview.
func BenchmarkReadValidToolOutput(b *testing.B) {
	for _, m := range []soak.Mix{soak.Prose, soak.Runs} {
		b.Run(m.String(), func(b *testing.B) {
			outs := soakOutputs(m)
			l := openBenchWith(b, Options{})
			defer l.Close()
			b.ReportAllocs()
			i := 0
			for b.Loop() {
				if _, ok := l.ReadValidToolOutput(outs[i%len(outs)]).(*ReadOutput); !ok {
					b.Fatal("not read")
				}
				i++
			}
		})
	}
}

// BenchmarkScanSecretsPreview is the redaction of a soak output's
// preview: scanSecrets over the decoded text a preview is cut from
// (PreviewBytes+previewSlack bytes, up to its last space).
func BenchmarkScanSecretsPreview(b *testing.B) {
	var texts []string
	for _, raw := range soakOutputs(soak.Prose) {
		lit := raw[strings.Index(string(raw), `"text":"`)+7 : len(raw)-3]
		text := unquote(lit)
		if len(text) > PreviewBytes+previewSlack {
			text = text[:PreviewBytes+previewSlack]
			text = text[:lastSpace(text, len(text))]
		}
		texts = append(texts, text)
	}
	b.ReportAllocs()
	i, n := 0, 0
	for b.Loop() {
		s := texts[i%len(texts)]
		scanSecrets(s)
		n += len(s)
		i++
	}
	b.ReportMetric(float64(n)/float64(i), "text-bytes/op")
}
