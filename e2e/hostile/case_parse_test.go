package hostile

import (
	"reflect"
	"strings"
	"testing"
)

// TestDirectives: each directive sets what it names in the case, a second
// use of a list directive adds to the list, and a directive that lacks its
// argument, or that does not exist, is an error.
func TestDirectives(t *testing.T) {
	for _, tt := range []struct {
		directives string
		got        func(c hostileCase) any
		want       any
	}{
		{"@approve", func(c hostileCase) any { return c.approve }, true},
		{"@no-refusal", func(c hostileCase) any { return c.noRefuse }, true},
		{"@told", func(c hostileCase) any { return c.told }, true},
		{"@control", func(c hostileCase) any { return c.control }, true},
		{"@agent-name  evil agent ", func(c hostileCase) any { return c.agent }, "evil agent"},
		{"@audit tool.call\n@audit deny", func(c hostileCase) any { return c.audits }, []string{"tool.call", "deny"}},
		{"@secret ghp_x", func(c hostileCase) any { return c.secrets }, []string{"ghp_x"}},
		{"@forged FORGED row", func(c hostileCase) any { return c.forged }, []string{"FORGED row"}},
		{"@asked rm -rf", func(c hostileCase) any { return c.asked }, []string{"rm -rf"}},
		{"@want-agent \"error\"", func(c hostileCase) any { return c.wants }, []string{`"error"`}},
		{"@rss 64", func(c hostileCase) any { return c.rssMB }, 64},
		{"@ide go, sh", func(c hostileCase) any { return c.ides }, []string{"go", "sh"}},
	} {
		c, err := parseCase("inline", "directives", []byte(tt.directives+"\n{}\n"))
		if err != nil {
			t.Errorf("%q: %v", tt.directives, err)
			continue
		}
		if got := tt.got(c); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("%q: got %#v, want %#v", tt.directives, got, tt.want)
		}
	}
	for _, d := range []string{"@agent-name", "@audit", "@secret ", "@forged", "@asked", "@want-agent", "@rss", "@approvals allow x", "@nope"} {
		_, err := parseCase("inline", "directives", []byte(d+"\n{}\n"))
		if err == nil || !strings.Contains(err.Error(), strings.Fields(d)[0]) {
			t.Errorf("%q: error %v, want one naming the directive", d, err)
		}
	}
}

// TestExpand: each placeholder stands for its value, and a malformed or
// unknown one is an error.
func TestExpand(t *testing.T) {
	p := placeholders{ws: "/w", out: "/o", sid: "s", bin: "/b", audit: "/a", policy: "/p", secret: "ghp_x", markers: "/m"}
	line := "{{WS}}|{{OUT}}|{{SID}}|{{BIN}}|{{AUDIT}}|{{POLICY}}|{{SECRET}}|{{SECRETBODY}}|{{MARKERS}}|" +
		"{{CR}}{{LF}}{{TAB}}{{BOM}}{{ESC}}|{{x:ff}}|{{u:2028}}|{{BIG:3}}|{{BIG:1k}}"
	want := "/w|/o|s|/b|/a|/p|ghp_x|x|/m|\r\n\t\uFEFF\x1b|\xff|\u2028|aaa|" + strings.Repeat("a", 1024)
	if got, err := expand(line, p); err != nil || string(got) != want {
		t.Errorf("expand = %q, %v; want %q", got, err, want)
	}
	for _, bad := range []string{"{{WS", "{{NOPE}}", "{{ws}}", "{{x:f}}", "{{u:110000}}", "{{BIG:65M}}", "{{y:1}}"} {
		if got, err := expand(bad, p); err == nil {
			t.Errorf("expand(%q) = %q, want an error", bad, got)
		}
	}
}
