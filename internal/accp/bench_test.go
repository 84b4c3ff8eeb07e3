package accp

import (
	"testing"

	"github.com/acp-bridge/acp-bridge/internal/benchstream"
)

// typical200B is a representative frame of about 200 bytes: a tool request
// with a nested argument map, a list, a ref and a full envelope.
const typical200B = `@orchestrator>req:tool{tool:web_search|args:{max:5,q:ACCP_frame_grammar,lang:en}|tags:[spec,draft,v0]|ctx:$warm.ckpt_3.summary|pri:high|schema:TC}[mid:493027715563,seq:42,ts:1714000000,cid:m41,sid:research-7]`

// BenchmarkEncodeDecode200B measures encode (Format) plus decode (strict
// parse) of one typical 200-byte frame; frames/s is the number to compare
// with the 500,000 target.
func BenchmarkEncodeDecode200B(b *testing.B) {
	f, err := ParseFrame(typical200B)
	if err != nil {
		b.Fatal(err)
	}
	buf := make([]byte, 0, 512)
	b.SetBytes(int64(len(typical200B)))
	b.ReportAllocs()
	cpu0 := benchstream.CPUTime()
	for b.Loop() {
		buf = AppendFrame(buf[:0], f)
		if _, err := ParseFrame(string(buf)); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "frames/s")
	if cpu := benchstream.CPUTime() - cpu0; cpu > 0 {
		b.ReportMetric(float64(b.N)/cpu.Seconds(), "frames/cpu-s")
	}
}

// BenchmarkSessionEncodeDecode200B measures the whole pipeline of section 7
// on the same frame: Session.Encode (abbreviation, schema, envelope, token
// budget check with o200k) and Session.Decode (parse, delivery checks,
// expansion, defaults).
func BenchmarkSessionEncodeDecode200B(b *testing.B) {
	dec0 := NewSession("bench", Options{Checkpoints: CheckpointManual, LenientEnvelope: true})
	dec0.Put(Warm, "ckpt_3", Map(Field{"summary", String("three findings")}), 0)
	m, err := dec0.Decode(typical200B)
	if err != nil {
		b.Fatal(err)
	}
	m.Env = Envelope{}
	enc := NewSession("bench", Options{Checkpoints: CheckpointManual})
	dec := NewSession("bench", Options{Checkpoints: CheckpointManual, Store: enc.store})
	b.ReportAllocs()
	for b.Loop() {
		lines, err := enc.Encode(*m)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := dec.Decode(lines[0]); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "frames/s")
}
