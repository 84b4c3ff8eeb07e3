package acpparams

import (
	"errors"
	"testing"
)

// TestConfigMode: the mode is the option of the category "mode" (or the
// id "mode" with no category), read strictly; what may show the mode more
// than one way is an error, and says whether a mode may be shown.
func TestConfigMode(t *testing.T) {
	tests := []struct {
		doc         string
		mode        string
		shown, fail bool
	}{
		{`{"configOptions":[{"id":"model","category":"model","currentValue":"x"},{"id":"m","category":"mode","currentValue":"plan"}]}`, "plan", true, false},
		{`{"configOptions":[{"id":"mode","currentValue":"auto"}]}`, "auto", true, false},
		{`{"configOptions":[{"id":"mode","category":"model","currentValue":"auto"}]}`, "", false, false},
		{`{"sessionId":"s1"}`, "", false, false},
		{`{"configOptions":[{"id":"mode","currentValue":"auto"},{"id":"m","category":"mode","currentValue":"plan"}]}`, "", true, true},
		{`{"configOptions":[{"id":"x","category":7,"currentValue":"auto"}]}`, "", true, true},
		{`{"configOptions":[{"id":"mode","currentValue":true}]}`, "", true, true},
		{`{"configOptions":[],"configOptions":[]}`, "", true, true},
		{`{"Configoptions":[{"id":"mode","currentValue":"auto"}]}`, "", false, false},
		{``, "", false, true},
	}
	for _, tt := range tests {
		mode, shown, err := ConfigMode([]byte(tt.doc))
		if mode != tt.mode || shown != tt.shown || (err != nil) != tt.fail {
			t.Errorf("ConfigMode(%s) = %q, %v, %v; want %q, %v, error %v", tt.doc, mode, shown, err, tt.mode, tt.shown, tt.fail)
		}
		if err != nil && tt.shown && tt.doc != `{"configOptions":[],"configOptions":[]}` && !errors.Is(err, ErrModeUnclear) {
			t.Errorf("ConfigMode(%s): error %v, want ErrModeUnclear", tt.doc, err)
		}
	}
}
