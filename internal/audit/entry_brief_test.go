package audit

import (
	"reflect"
	"testing"
)

// FuzzParseEntryBrief checks that ParseEntryBrief agrees with ParseEntry
// on every line, Output and Raw aside.
func FuzzParseEntryBrief(f *testing.F) {
	f.Add([]byte(`{"doctype":"` + Doctype + `","seq":3,"ts":"2026-01-02T03:04:05.123Z","actor":{"id":"agent:x","role":"operator"},"action":"tool.call","subject":{"kind":"tool-call","ref":"t1"},"input":{"a":1},"output":{"stdout":"ok"},"policy":{"ref":"r","decision":"allow"},"prevHash":"p","hash":"h","metadata":{"session":"s1","toolCall":{"tool":"Bash","approval":"auto"},"reason":"why"}}`))
	f.Add([]byte(`{"doctype":"` + Doctype + `","output":[1,2,{"x":null}],"subject":{"kind":"session","ref":"s2"}}`))
	f.Add([]byte(`{"doctype":"` + Doctype + `","OUTPUT":"x","seq":"not a number"}`))
	f.Add([]byte(`{"doctype":"` + Doctype + `","output":null,"metadata":{"session":5}}`))
	f.Add([]byte(`{"doctype":"other","output":1}`))
	f.Add([]byte(`not json`))
	f.Fuzz(func(t *testing.T, line []byte) {
		want, wok := ParseEntry(line)
		got, gok := ParseEntryBrief(line)
		if wok != gok {
			t.Fatalf("ok: ParseEntry %v, ParseEntryBrief %v", wok, gok)
		}
		if !wok {
			return
		}
		want.Output, want.Raw = nil, nil
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("ParseEntryBrief:\n%+v\nParseEntry:\n%+v", got, want)
		}
	})
}
