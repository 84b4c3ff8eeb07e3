package aacp

import (
	"fmt"
	"reflect"
	"strings"
	"testing"
)

// diag is the comparable part of a Diagnostic: the message wording may change,
// the code, field and column may not.
type diag struct {
	Code  Code
	Field string
	Col   int
}

func diagsOf(ds Diagnostics) []diag {
	out := []diag{}
	for _, d := range ds {
		out = append(out, diag{d.Code, d.Field, d.Column})
	}
	return out
}

// ok is the tail every valid test packet shares, so each case shows only what
// it is about. "FETCH|HR"+ok is 37 bytes: a field appended to it starts at
// column 39.
const ok = "|return:HR-Agent|p:1|aacp:1.1"

func TestParseDiagnostics(t *testing.T) {
	tests := []struct {
		name   string
		packet string
		want   []diag
	}{
		// Valid, no diagnostics at all.
		{"minimal", "FETCH|HR" + ok, nil},
		{"return last", "FETCH|HR|p:1|aacp:1.1|res:x|return:HR-Agent", nil},

		// Errors.
		{"E001 empty", "", []diag{{CodeEmptyPacket, "", 1}}},
		{"E001 blank", "   ", []diag{{CodeEmptyPacket, "", 1}}},
		{"E002 empty TASK", "|HR" + ok, []diag{{CodeMissingTask, "TASK", 1}}},
		{"E002 named field in slot 0", "return:HR-Agent|p:1|aacp:1.1",
			[]diag{{CodeMissingTask, "TASK", 1}, {CodeMissingDomain, "DOM", 1}}},
		{"E003 lower-case TASK", "fetch|HR" + ok, []diag{{CodeMalformedTask, "TASK", 1}}},
		{"E003 TASK with space", "FETCH |HR" + ok, []diag{{CodeMalformedTask, "TASK", 1}}},
		{"E003 TASK with escape", `FE\|TCH|HR` + ok, []diag{{CodeMalformedTask, "TASK", 1}}},
		{"E004 DOM absent", "FETCH", []diag{
			{CodeMissingReturn, "return", 1}, {CodeMissingVersion, "aacp", 1}, {CodeMissingPriority, "p", 1},
			{CodeMissingDomain, "DOM", 6}}},
		{"E004 DOM empty", "FETCH|" + ok, []diag{{CodeMissingDomain, "DOM", 7}}},
		{"E004 named field in slot 1", "FETCH" + ok, []diag{{CodeMissingDomain, "DOM", 7}}},
		{"E005 malformed DOM", "FETCH|H R" + ok, []diag{{CodeMalformedDomain, "DOM", 7}}},
		{"E006 empty slot", "FETCH|HR||res:x" + ok, []diag{{CodeEmptyField, "", 10}}},
		{"E006 trailing pipe", "FETCH|HR" + ok + "|", []diag{{CodeEmptyField, "", 39}}},
		{"E007 not key:value", "FETCH|HR|emp_salary" + ok, []diag{{CodeNotNamed, "", 10}}},
		{"E008 empty key", "FETCH|HR|:x" + ok, []diag{{CodeInvalidKey, "", 10}}},
		{"E008 key with space", "FETCH|HR|re s:x" + ok, []diag{{CodeInvalidKey, "re s", 10}}},
		{"E008 key with escape", `FETCH|HR|a\:b:x` + ok, []diag{{CodeInvalidKey, `a\:b`, 10}}},
		{"E009 duplicate key", "FETCH|HR|res:a|res:b" + ok, []diag{{CodeDuplicateKey, "res", 16}}},
		{"E009 duplicate return", "FETCH|HR" + ok + "|return:X", []diag{{CodeDuplicateKey, "return", 39}}},
		{"E010 unknown escape", `FETCH|HR|res:a\nb` + ok, []diag{{CodeInvalidEscape, "res", 15}}},
		{"E010 trailing backslash", `FETCH|HR` + ok + `|res:a\`, []diag{{CodeInvalidEscape, "res", 44}}},
		{"E011 missing return", "FETCH|HR|p:1|aacp:1.1", []diag{{CodeMissingReturn, "return", 1}}},
		{"E012 empty return", "FETCH|HR|return:|p:1|aacp:1.1", []diag{{CodeEmptyReturn, "return", 10}}},
		{"E013 missing aacp", "FETCH|HR|return:HR-Agent|p:1", []diag{{CodeMissingVersion, "aacp", 1}}},
		{"E014 empty aacp", "FETCH|HR|return:HR-Agent|p:1|aacp:", []diag{{CodeEmptyVersion, "aacp", 30}}},
		{"E015 too long", "FETCH|HR" + ok + "|res:" + strings.Repeat("x", MaxPacketBytes), []diag{{CodeTooLarge, "", 1}}},
		{"E015 too many fields", "FETCH|HR" + ok + strings.Repeat("|k:v", MaxFields), []diag{{CodeTooLarge, "", 1042}}},
		{"E016 control character", "FETCH|HR" + ok + "|res:a\tb", []diag{{CodeInvalidChar, "", 44}}},
		{"E016 invalid UTF-8", "FETCH|HR" + ok + "|res:\xff", []diag{{CodeInvalidChar, "", 43}}},

		// Warnings: the packet is still returned.
		{"W001 unknown TASK", "ARCHIVE|HR" + ok, []diag{{CodeUnknownTask, "TASK", 1}}},
		{"W002 unknown DOM", "FETCH|OPS" + ok, []diag{{CodeUnknownDomain, "DOM", 7}}},
		{"W003 missing p", "FETCH|HR|return:HR-Agent|aacp:1.1", []diag{{CodeMissingPriority, "p", 1}}},
		{"W004 priority 4", "FETCH|HR|return:HR-Agent|p:4|aacp:1.1", []diag{{CodeInvalidPriority, "p", 26}}},
		{"W004 empty priority", "FETCH|HR|return:HR-Agent|p:|aacp:1.1", []diag{{CodeInvalidPriority, "p", 26}}},
		{"W005 version 1.0", "FETCH|HR|return:HR-Agent|p:1|aacp:1.0", []diag{{CodeVersionMismatch, "aacp", 30}}},
		{"W005 version 2", "FETCH|HR|return:HR-Agent|p:1|aacp:2", []diag{{CodeVersionMismatch, "aacp", 30}}},
		{"W006 unknown key", "FETCH|HR" + ok + "|org_cost:7", []diag{{CodeUnknownKey, "org_cost", 39}}},
		{"W006 wrong case", "FETCH|HR" + ok + "|Res:x", []diag{{CodeUnknownKey, "Res", 39}}},
		{"W007 sentiment without tone", "RESOLVE|CS" + ok + "|sentiment:negative", []diag{{CodeSentimentNoTone, "sentiment", 41}}},
		{"W007 silent with tone", "RESOLVE|CS" + ok + "|sentiment:negative|tone:empathetic", nil},
		{"W008 ltv without ccy", "SYNC|SALES" + ok + "|ltv:5000", []diag{{CodeLTVNoCurrency, "ltv", 41}}},
		{"W008 silent with ccy", "SYNC|SALES" + ok + "|ltv:5000|ccy:EUR", nil},
		{"W009 empty value", "FETCH|HR" + ok + "|res:", []diag{{CodeEmptyValue, "res", 39}}},

		// Several problems at once, in column order.
		{"everything wrong", "fetch||res:a|res:b|x", []diag{
			{CodeMalformedTask, "TASK", 1}, {CodeMissingReturn, "return", 1}, {CodeMissingVersion, "aacp", 1},
			{CodeMissingPriority, "p", 1}, {CodeMissingDomain, "DOM", 7}, {CodeDuplicateKey, "res", 14}, {CodeNotNamed, "", 20}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, ds := Parse(tt.packet)
			got := diagsOf(ds)
			want := tt.want
			if want == nil {
				want = []diag{}
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("Parse(%.80q) diagnostics:\n got %v\nwant %v\n%v", tt.packet, got, want, ds)
			}
			if ds.HasErrors() != (p == nil) {
				t.Errorf("Parse returned packet %v with HasErrors %v", p, ds.HasErrors())
			}
			if (ds.Err() == nil) == ds.HasErrors() {
				t.Errorf("Err() = %v, HasErrors() = %v", ds.Err(), ds.HasErrors())
			}
			for _, d := range ds {
				if d.Message == "" || d.Column < 1 {
					t.Errorf("diagnostic %+v lacks a message or column", d)
				}
			}
		})
	}
}

// TestEveryCodeTested keeps the table above complete: a new code without a
// case fails here.
func TestEveryCodeTested(t *testing.T) {
	all := []Code{CodeEmptyPacket, CodeMissingTask, CodeMalformedTask, CodeMissingDomain, CodeMalformedDomain,
		CodeEmptyField, CodeNotNamed, CodeInvalidKey, CodeDuplicateKey, CodeInvalidEscape, CodeMissingReturn,
		CodeEmptyReturn, CodeMissingVersion, CodeEmptyVersion, CodeTooLarge, CodeInvalidChar,
		CodeUnknownTask, CodeUnknownDomain, CodeMissingPriority, CodeInvalidPriority, CodeVersionMismatch,
		CodeUnknownKey, CodeSentimentNoTone, CodeLTVNoCurrency, CodeEmptyValue}
	for _, c := range all {
		t.Run(string(c), func(t *testing.T) {
			want := Warning
			if c[0] == 'E' {
				want = Error
			}
			if c.Severity() != want {
				t.Errorf("%s.Severity() = %v, want %v", c, c.Severity(), want)
			}
		})
	}
}

func TestDecodeByName(t *testing.T) {
	// The reference implementation reads field 7 as return: and field 2 as
	// res:. In v1.1 packets, return: is field 2: a positional decoder would
	// call "HR-Agent" the resource. Named decoding must not care about order.
	for _, s := range []string{
		"FETCH|HR|return:HR-Agent|p:1|aacp:1.1|res:emp_salary|period:2024-08",
		"FETCH|HR|res:emp_salary|period:2024-08|aacp:1.1|p:1|return:HR-Agent",
	} {
		p, ds := Parse(s)
		if p == nil {
			t.Fatalf("Parse(%q): %v", s, ds)
		}
		got := fmt.Sprintf("task=%s dom=%s return=%s res=%s period=%s p=%s aacp=%s",
			p.Task, p.Domain, p.Return(), p.Value("res"), p.Value("period"), p.Priority(), p.Version())
		want := "task=FETCH dom=HR return=HR-Agent res=emp_salary period=2024-08 p=1 aacp=1.1"
		if got != want {
			t.Errorf("Parse(%q):\n got %s\nwant %s", s, got, want)
		}
	}
}

func TestPriorityDefault(t *testing.T) {
	p, _ := Parse("FETCH|HR|return:HR-Agent|aacp:1.1")
	if got := p.Priority(); got != "2" {
		t.Errorf("Priority() without p: = %q, want 2 (the draft's default)", got)
	}
}

func TestUnmarshalText(t *testing.T) {
	var p Packet
	if err := p.UnmarshalText([]byte("FETCH|HR|p:1|aacp:1.1")); err == nil {
		t.Errorf("UnmarshalText accepted a packet without return:")
	}
	if err := p.UnmarshalText([]byte("FETCH|HR|return:X|aacp:1.1")); err != nil {
		t.Errorf("UnmarshalText rejected a packet with only warnings: %v", err)
	}
	b, _ := p.MarshalText()
	if string(b) != "FETCH|HR|return:X|aacp:1.1" {
		t.Errorf("MarshalText = %q", b)
	}
}

// TestParseBounded parses adversarial packets of the maximum size: the work
// stays linear, the diagnostics few, and the memory a small multiple of the
// input.
func TestParseBounded(t *testing.T) {
	fill := func(prefix, unit string) string {
		n := (MaxPacketBytes - len(prefix)) / len(unit)
		return prefix + strings.Repeat(unit, n)
	}
	tests := []struct {
		name     string
		packet   string
		maxDiags int
	}{
		{"escaped pipes", fill("SEND|CS"+ok+"|subj:", `\|`), 0},
		{"bad escapes", fill("SEND|CS"+ok+"|subj:", `\a`), 1},
		{"pipes", fill("", "|"), 1},
		{"colons", fill("SEND|CS"+ok+"|subj:", ":"), 0},
		{"max fields of bad keys", "A|B" + strings.Repeat("|"+strings.Repeat("?", 200)+":v", MaxFields-3), MaxFields + 8},
		{"max fields of bad escapes", "A|B" + strings.Repeat("|k:"+strings.Repeat(`\a`, 100), MaxFields-3), MaxFields + 8},
		{"multi-byte", fill("SEND|CS"+ok+"|subj:", "€"), 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if len(tt.packet) > MaxPacketBytes {
				t.Fatalf("test packet is %d bytes, over the limit", len(tt.packet))
			}
			var ds Diagnostics
			allocs := testing.AllocsPerRun(3, func() { _, ds = Parse(tt.packet) })
			if len(ds) > tt.maxDiags {
				t.Errorf("%d diagnostics, want at most %d", len(ds), tt.maxDiags)
			}
			// Fields, their values and one message per diagnostic: a few
			// allocations per field, never per byte.
			if max := float64(4*MaxFields + 64); allocs > max {
				t.Errorf("%.0f allocations, want at most %.0f", allocs, max)
			}
		})
	}
}
