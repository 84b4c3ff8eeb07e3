package aacp

import (
	"errors"
	"reflect"
	"testing"
)

func TestRuleEncoder(t *testing.T) {
	tests := []struct {
		name, instruction, want string
	}{
		// The English instruction of draft section 1 gives the draft's packet.
		{"draft section 1", "Please retrieve the employee salary records for the period ending 31 August 2024. " +
			"I need all active employees, their departments, cost centres, base salary, any changes made this month, " +
			"and pension contribution rates. Return as JSON array.",
			"FETCH|HR|return:HR-Agent|p:1|aacp:1.1|res:emp_salary|period:2024-08|filter:status=active|fmt:json"},
		{"invoice", "Process the invoice from supplier ABC Ltd for £4,200, match it against PO 441, payment terms net 30.",
			"PROC|FIN|return:FIN-Agent|p:2|aacp:1.1|res:invoice|sup:ABC-Ltd|amt:4200|ccy:GBP|match:PO-441|terms:net30"},
		{"merge", "Merge the HR and budget datasets and calculate payroll including pension deductions.",
			"MERGE|HR|return:HR-Agent|p:1|aacp:1.1|rules:payroll_v2|validate:budget_cc"},
		{"contract", "Review the NDA with Acme Ltd: the contract has a clause with legal risk.",
			"FLAG|LEGAL|return:LEG-Agent|p:1|aacp:1.1|type:NDA"},
		{"account", "Provision a directory account for user j.smith with email access.",
			"BUILD|IT|return:IT-Agent|p:1|aacp:1.1|res:ad_account|filter:usr=j.smith"},
		{"budget, quarter, excel", "Fetch the budget allocation and spend per cost centre for Q1 FY2026 as Excel.",
			"FETCH|FIN|return:FIN-Agent|p:1|aacp:1.1|res:cc_budget|period:FY2026-Q1|fmt:xlsx"},
		{"return override, low priority", "Generate the monthly payroll summary report for 2025-11, low priority, and return it to REP-Agent.",
			"REPORT|HR|return:REP-Agent|p:3|aacp:1.1|tmpl:payroll_summary|period:2025-11"},
		{"urgent raises priority", "Urgent: resolve the customer complaint about a missing refund.",
			"RESOLVE|CS|return:CS-Agent|p:1|aacp:1.1"},
		{"dollar amount", "Process supplier invoice for $1,250.50 against purchase order 7.",
			"PROC|FIN|return:FIN-Agent|p:2|aacp:1.1|res:invoice|amt:1250.50|ccy:USD|match:PO-7"},
	}
	var e RuleEncoder
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := e.Encode(tt.instruction)
			if err != nil {
				t.Fatal(err)
			}
			if got := p.String(); got != tt.want {
				t.Errorf("Encode:\n got %s\nwant %s", got, tt.want)
			}
			if ds := p.Validate(); len(ds) != 0 {
				t.Errorf("encoded packet draws diagnostics: %v", ds)
			}
		})
	}
}

func TestRuleEncoderNoMatch(t *testing.T) {
	var e RuleEncoder
	for _, s := range []string{"", "What is the weather like?", "retrieve the salary"} {
		_, err := e.Encode(s)
		if !errors.Is(err, ErrNoMatch) {
			t.Errorf("Encode(%q) error = %v, want ErrNoMatch", s, err)
		}
	}
}

// TestRuleEncoderDeterministic encodes every test instruction many times, each
// time with a fresh encoder: the bytes must never change.
func TestRuleEncoderDeterministic(t *testing.T) {
	inputs := []string{
		"Please retrieve the employee salary records for August 2024 as JSON.",
		"Process the invoice from supplier ABC Ltd for £4,200, PO 441, net 30.",
		"Review the NDA contract clause for legal risk.",
	}
	for _, in := range inputs {
		first, err := (&RuleEncoder{}).Encode(in)
		if err != nil {
			t.Fatal(err)
		}
		for range 200 {
			p, err := (&RuleEncoder{}).Encode(in)
			if err != nil || p.String() != first.String() {
				t.Fatalf("Encode(%q) changed: %v %v, first %v", in, p, err, first)
			}
		}
	}
}

func TestKeywords(t *testing.T) {
	got := Keywords("Please retrieve the Employee salaries, records and the records' status!")
	want := []string{"retrieve", "employee", "salary", "record", "status"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Keywords = %q, want %q", got, want)
	}
}

func TestMatchThreshold(t *testing.T) {
	in := "retrieve employee records" // 3 of payroll-fetch's 5 keywords
	if r, s, ok := (&RuleEncoder{}).Match(in); !ok || r.Name != "payroll-fetch" || s != 0.6 {
		t.Errorf("Match at default threshold = %s %v %v, want payroll-fetch 0.6 true", r.Name, s, ok)
	}
	if _, s, ok := (&RuleEncoder{Threshold: 0.7}).Match(in); ok {
		t.Errorf("Match at threshold 0.7 matched with score %v", s)
	}
}

func TestBrokenCustomRules(t *testing.T) {
	tests := []struct {
		name string
		rule Rule
	}{
		{"unknown extractor", Rule{Name: "x", Task: "ACK", Domain: "IT", Keywords: []string{"ping"}, Extract: []string{"nope"}}},
		{"malformed TASK", Rule{Name: "y", Task: "ack", Domain: "IT", Keywords: []string{"ping"}}},
		{"delimiter in a key", Rule{Name: "z", Task: "ACK", Domain: "IT", Keywords: []string{"ping"}, Fields: []Field{{"a|b", "c"}}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := &RuleEncoder{Rules: []Rule{tt.rule}}
			if p, err := e.Encode("ping"); err == nil {
				t.Errorf("Encode with a broken rule = %v, want an error", p)
			}
			r, _ := OpenRegistry(RegistryOptions{Rules: e})
			if res, err := r.Encode(t.Context(), "ping"); err == nil {
				t.Errorf("Registry.Encode with a broken rule = %+v, want an error", res)
			}
		})
	}
}
