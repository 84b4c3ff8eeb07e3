package audit

import (
	"errors"
	"strings"
	"testing"
)

// TestSniffLog tells audit logs from other files by their first line.
func TestSniffLog(t *testing.T) {
	event := `{"$schema":"` + SchemaTag + `","doctype":"` + Doctype + `","seq":0}`
	long := `{"$schema":"` + SchemaTag + `","input":"` + strings.Repeat("a", 5000) + `"}`
	for _, c := range []struct {
		name, text string
		log        bool
	}{
		{"empty", "", true},
		{"an audit event", event + "\nanything\n", true},
		{"an audit event without a newline", event, true},
		{"a first line past the sample, marked", long + "\n", true},
		{"a first line past the sample, unmarked", `{"x":"` + strings.Repeat("a", 5000) + "\"}\n", false},
		{"not JSON", "hello\n", false},
		{"another doctype", `{"doctype":"wire"}` + "\n", false},
	} {
		err := SniffLog(strings.NewReader(c.text))
		if c.log && err != nil || !c.log && !errors.Is(err, ErrNotAuditLog) {
			t.Errorf("%s: SniffLog = %v, want an audit log: %v", c.name, err, c.log)
		}
	}
}
