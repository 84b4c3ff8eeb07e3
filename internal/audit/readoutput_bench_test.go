package audit

import "testing"

// BenchmarkSoakCallOutput is what the records of one soak tool call cost
// the bridge from the message on, as governance hands its output to the
// log: "copy" copies the output's bytes out of the message (a ToolOutput)
// and appends the records, which read it; "read" reads it while the
// message is there (ReadToolOutput) and appends the records, which take
// that reading; "valid" is "read" for an output known to be valid JSON
// (ReadValidToolOutput), as governance's are. The records are the same
// (FuzzReadToolOutput, FuzzReadValidToolOutput).
func BenchmarkSoakCallOutput(b *testing.B) {
	for _, how := range []string{"copy", "read", "valid"} {
		for _, mix := range []string{"prose", "runs"} {
			b.Run(how+"/"+mix, func(b *testing.B) {
				r := newSoakRand()
				outputs := make([][]byte, 64)
				for i := range outputs {
					outputs[i] = []byte(`[{"type":"content","content":{"type":"text","text":"` + soakText(r, 100+r.IntN(20480-100+1), mix == "runs") + `"}}]`)
				}
				appendRounds(b, func(l *Log, i int) []Event {
					raw := outputs[i%len(outputs)]
					var out any
					switch how {
					case "copy":
						out = ToolOutput(append([]byte(nil), raw...))
					case "read":
						out = l.ReadToolOutput(raw)
					default:
						out = l.ReadValidToolOutput(raw)
					}
					return soakCallRecords(out, i%2 == 1)
				})
			})
		}
	}
}

// soakCallRecords are soakRecords with the output given as out.
func soakCallRecords(out any, violation bool) []Event {
	evs := soakRecords("x", violation)
	for i := range evs {
		if evs[i].Output != nil {
			evs[i].Output = out
		}
		tc := evs[i].Metadata["toolCall"].(ToolCall)
		tc.Result = out
		md := make(map[string]any, len(evs[i].Metadata))
		for k, v := range evs[i].Metadata {
			md[k] = v
		}
		md["toolCall"] = tc
		evs[i].Metadata = md
	}
	return evs
}
