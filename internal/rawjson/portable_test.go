package rawjson

import (
	"strings"
	"testing"
)

// TestPortable: a document every common reader reads passes; one nested
// past MaxPortableDepth or holding a number past a double's range is
// refused, with the reason; brackets and numbers inside strings count
// for nothing.
func TestPortable(t *testing.T) {
	nest := func(n int) string { return strings.Repeat("[", n) + strings.Repeat("]", n) }
	digits := func(n int) string { return "1" + strings.Repeat("0", n-1) }
	tests := []struct {
		name, doc, why string
	}{
		{"flat", `{"a":1,"b":[true,null,"x"]}`, ""},
		{"100 deep", nest(MaxPortableDepth), ""},
		{"101 deep", nest(MaxPortableDepth + 1), "nested more than 100"},
		{"101 deep in objects", strings.Repeat(`{"a":`, MaxPortableDepth+1) + "1" + strings.Repeat("}", MaxPortableDepth+1), "nested more than 100"},
		{"many siblings are not depth", "[" + strings.Repeat(nest(50)+",", 10) + "1]", ""},
		{"brackets in a string", `{"a":"` + strings.Repeat("[{", 200) + `\"]"}`, ""},
		{"largest double", `{"n":1.7976931348623157e308}`, ""},
		{"past a double", `{"n":1e400}`, "past a double's range"},
		{"negative past a double", `[-1E+400]`, "past a double's range"},
		{"past a double by its digits", `[` + digits(310) + `]`, "past a double's range"},
		{"308 digits", `[` + digits(308) + `]`, ""},
		{"fraction past a double", `[1797.7e305]`, "past a double's range"},
		{"underflow reads as 0", `[1e-400]`, ""},
		{"zero with a huge exponent", `[0e99999]`, ""},
		{"a number in a string", `{"n":"1e400"}`, ""},
		{"after an escaped quote", `{"s":"\"","n":1e400}`, "past a double's range"},
		{"a long string with escapes, then a number", `{"s":"` + strings.Repeat(`ab\\cd\"[{`, 40) + `","n":1e400}`, "past a double's range"},
		{"a long string ending in an escaped backslash", `{"s":"` + strings.Repeat("x", 100) + `\\","a":` + nest(MaxPortableDepth+1) + `}`, "nested more than 100"},
		{"brackets in a long string", `{"s":"` + strings.Repeat(`[{\"`, 300) + `"}`, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := Portable([]byte(tt.doc))
			switch {
			case tt.why == "" && err != nil:
				t.Fatalf("refused: %v", err)
			case tt.why != "" && err == nil:
				t.Fatal("accepted")
			case tt.why != "" && !strings.Contains(err.Error(), tt.why):
				t.Fatalf("refused with %q, want it to say %q", err, tt.why)
			}
		})
	}
}
