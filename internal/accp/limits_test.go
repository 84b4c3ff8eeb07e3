package accp

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/acp-bridge/acp-bridge/internal/cputime"
)

// bigMap returns an unsorted map of n keys k<n-1> ... k0, with extra
// appended inside the braces.
func bigMap(n int, extra string) string {
	var b strings.Builder
	b.WriteByte('{')
	for i := n - 1; i >= 0; i-- {
		fmt.Fprintf(&b, "k%d:%d,", i, i)
	}
	s := strings.TrimSuffix(b.String(), ",") + extra + "}"
	return s
}

// TestLimits parses frames under limits: each is accepted or refused with
// E1001 as ok says, in bounded CPU time, and Check of the frame (parsed
// under loose limits) agrees with the parser.
func TestLimits(t *testing.T) {
	meta := "[mid:123456789012,seq:1,ts:1714000000]"
	tests := []struct {
		name  string
		frame string
		lim   Limits
		ok    bool
	}{
		{"large unsorted maps", "@a>req:fetch{m:" + bigMap(4000, "") + "|n:" + bigMap(4000, "") + "}" + meta, Limits{MaxElements: 20000}, true},
		{"duplicate after many keys", "@a>req:fetch{m:" + bigMap(4000, ",k17:1") + "}" + meta, Limits{MaxElements: 20000}, false},
		{"too many values", "@a>req:fetch{m:" + bigMap(4000, "") + "}" + meta, Limits{MaxElements: 1000}, false},
		{"too long", "@a>req:fetch{q:" + strings.Repeat("x", 2000) + "}" + meta, Limits{MaxFrameBytes: 1000}, false},
		{"deeper limit", "@a>req:fetch{x:[[[[[[[1]]]]]]]}" + meta, Limits{MaxDepth: 7}, true},
		{"default depth", "@a>req:fetch{x:[[[[[[1]]]]]]}" + meta, Limits{}, false},
		{"deep enough", "@a>req:fetch{x:[[[[[1]]]]]}" + meta, Limits{}, true},
		{"pair in a deep run", "@a>sync:run{m:[a_b:{x:[[[1]]]},c_d:{}]}" + meta, Limits{}, true},
		{"pair one level less", "@a>sync:run{m:[a_b:{x:[[1]]},c_d:{}]}" + meta, Limits{}, true},
		{"elements at the limit", "@a>req:fetch{m:" + bigMap(100, "") + "}" + meta, Limits{MaxElements: 104}, true},
		{"elements over", "@a>req:fetch{m:" + bigMap(100, "") + "}" + meta, Limits{MaxElements: 103}, false},
		{"pairs count twice", "@a>req:fetch{m:[k:1,j:2]}" + meta, Limits{MaxElements: 8}, true},
		{"pairs over", "@a>req:fetch{m:[k:1,j:2]}" + meta, Limits{MaxElements: 7}, false},
		{"bytes under the limit", "@a>req:fetch{q:" + strings.Repeat("x", 100) + "}" + meta, Limits{MaxFrameBytes: 155}, true},
		{"bytes at the limit", "@a>req:fetch{q:" + strings.Repeat("x", 100) + "}" + meta, Limits{MaxFrameBytes: 154}, true},
		{"bytes over", "@a>req:fetch{q:" + strings.Repeat("x", 100) + "}" + meta, Limits{MaxFrameBytes: 153}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var err error
			d := cputime.Of(func() { _, err = tt.lim.Parse(tt.frame, nil) })
			if (err == nil) != tt.ok {
				t.Fatalf("err = %v, want ok=%v", err, tt.ok)
			}
			if err != nil && CodeOf(err) != CodeParse {
				t.Errorf("code %s, want E1001", CodeOf(err))
			}
			if d > 2*time.Second {
				t.Errorf("took %v of CPU", d)
			}
			f, ferr := Limits{MaxDepth: 100, MaxElements: 1 << 20, MaxFrameBytes: 1 << 20}.Parse(tt.frame, nil)
			if ferr != nil {
				return // not a frame at all (a duplicate key): nothing to check
			}
			if cerr := tt.lim.Check(f); (err == nil) != (cerr == nil) || CodeOf(cerr) != CodeOf(err) {
				t.Errorf("Check: %v, Parse: %v", cerr, err)
			}
		})
	}
}
