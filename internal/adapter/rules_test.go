package adapter

import (
	"testing"
)

func TestParseRule(t *testing.T) {
	tests := []struct {
		in      string
		want    Rule
		wantErr bool
	}{
		{in: "Bash", want: Rule{Tool: "Bash"}},
		{in: "Bash(*)", want: Rule{Tool: "Bash"}},
		{in: "Bash(npm run test:*)", want: Rule{Tool: "Bash", Specifier: "npm run test:*"}},
		{in: " Read(**/.env) ", want: Rule{Tool: "Read", Specifier: "**/.env"}},
		{in: "Bash(echo (x))", want: Rule{Tool: "Bash", Specifier: "echo (x)"}},
		{in: "WebFetch(domain:example.com)", want: Rule{Tool: "WebFetch", Specifier: "domain:example.com"}},
		{in: "mcp__github__create_issue", want: Rule{Tool: "mcp__github__create_issue"}},
		{in: "", wantErr: true},
		{in: "Bash(ls", wantErr: true},
		{in: "Bash)", wantErr: true},
		{in: "(ls)", wantErr: true},
		{in: "Rm -rf", wantErr: true},
		{in: "9Bash", wantErr: true},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			got, err := ParseRule(tt.in)
			if (err != nil) != tt.wantErr {
				t.Fatalf("ParseRule(%q) error = %v, wantErr %v", tt.in, err, tt.wantErr)
			}
			if err == nil && got != tt.want {
				t.Errorf("ParseRule(%q) = %+v, want %+v", tt.in, got, tt.want)
			}
		})
	}
}

func TestClaudeRule(t *testing.T) {
	tests := []struct {
		in, want string
		ok       bool
	}{
		{"Read(/etc/**)", "Read(//etc/**)", true},
		{"Read(//etc/**)", "Read(//etc/**)", true},
		{"Read(./src/**)", "Read(./src/**)", true},
		{"Bash(/usr/bin/rm:*)", "Bash(/usr/bin/rm:*)", true},
		{"mcp__x__y", "mcp__x__y", true},
		{"read_file", "", false},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			r, err := ParseRule(tt.in)
			if err != nil {
				t.Fatal(err)
			}
			got, ok := claudeRule(r)
			if got != tt.want || ok != tt.ok {
				t.Errorf("claudeRule(%q) = %q, %v; want %q, %v", tt.in, got, ok, tt.want, tt.ok)
			}
		})
	}
}

func FuzzParseRule(f *testing.F) {
	for _, s := range []string{"Bash(npm run test:*)", "Read(./src/**)", "Read(**/.env)", "Edit(**/*.go)",
		"WebFetch(domain:example.com)", "Bash", "Bash(echo (x))", "Bash(", "mcp__a__b", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		r, err := ParseRule(s)
		if err != nil {
			return
		}
		// A parsed rule prints back to a rule that parses to itself.
		again, err := ParseRule(r.String())
		if err != nil {
			t.Fatalf("ParseRule(%q) = %+v, whose String %q does not parse: %v", s, r, r.String(), err)
		}
		if again != r {
			t.Fatalf("round trip of %q: %+v then %+v", s, r, again)
		}
	})
}
