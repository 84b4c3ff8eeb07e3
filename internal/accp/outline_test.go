package accp

import (
	"strings"
	"testing"
)

func TestParseOutline(t *testing.T) {
	tests := []struct {
		name, frame, body string
		wantErr           bool
	}{
		{"body and metadata", `@a>qry:q{x:[1,{k:\}}]|y:2}[mid:m1,seq:1]`, `x:[1,{k:\}}]|y:2`, false},
		{"empty body", `@a>qry:q{}`, ``, false},
		{"escape before the closer", `@a>qry:q{x:a\\}`, `x:a\\`, false},
		{"mismatched closer", `@a>qry:q{x:[1}]}`, ``, true},
		{"unclosed body", `@a>qry:q{x:[1]`, ``, true},
		{"text after the metadata", `@a>qry:q{}[mid:m1]x`, ``, true},
		{"too deep", `@a>qry:q{x:` + strings.Repeat("[", 6) + strings.Repeat("]", 6) + `}`, ``, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f, body, err := Limits{}.ParseOutline(tt.frame, nil)
			if (err != nil) != tt.wantErr {
				t.Fatalf("err = %v, want error %v", err, tt.wantErr)
			}
			if err == nil && (body != tt.body || f.Params != nil) {
				t.Errorf("body %q, params %v; want %q, none", body, f.Params, tt.body)
			}
		})
	}
}

// FuzzParseOutline checks that ParseOutline accepts what Parse accepts,
// with the same header and metadata and the body's text.
func FuzzParseOutline(f *testing.F) {
	seedFrames(f)
	f.Fuzz(func(t *testing.T, s string) {
		full, err := ParseFrame(s)
		if err != nil {
			return
		}
		head, body, err := Limits{}.ParseOutline(s, nil)
		if err != nil {
			t.Fatalf("Parse accepts, ParseOutline says %v", err)
		}
		if head.Agent != full.Agent || head.Intent != full.Intent || head.Op != full.Op ||
			string(AppendFrame(nil, &Frame{Meta: head.Meta})) != string(AppendFrame(nil, &Frame{Meta: full.Meta})) {
			t.Fatalf("outline %+v differs from %+v", head, full)
		}
		if !strings.Contains(s, "{"+body+"}") {
			t.Fatalf("body %q is not the text between the braces", body)
		}
	})
}
