package audit

import (
	"testing"
)

// soakRecords are the records governance appends for the soak's tool
// calls (see internal/governance/enforce_toolcall.go, finish): each call's
// completion, a tool.call carrying the output as output and in the
// mirror, and, for the calls the policy wants approved, a policy.violation
// whose mirror carries the same output again.
func soakRecords(text string, violation bool) []Event {
	content := ToolOutput(`[{"type":"content","content":{"type":"text","text":"` + text + `"}}]`)
	subj := Subject{Kind: "tool-call", Ref: "call_1_7", Path: "/tmp/acp-soak-4075691282/policy+audit-1729375709/src/file7.go"}
	actor := Actor{ID: "agent:acp-soak", Role: "operator"}
	rule := "allow Read (/work/main/GOVERNANCE.md:75)"
	pol := &Policy{Ref: "allow-read-work-main-governance-md-75", Decision: DecisionAllow}
	if violation {
		rule = "default on-mutate: require-approval (/work/main/GOVERNANCE.md:15)"
		pol = &Policy{Ref: "default-on-mutate", Decision: DecisionRequireApproval}
	}
	mir := ToolCall{Kind: "tool-call", Operator: actor.ID, Session: "soak-1", ToolCallID: "call_1_7", Tool: "execute", Result: content}
	evs := []Event{{Actor: actor, Action: "tool.call", Subject: subj, Output: content, Policy: pol,
		Metadata: map[string]any{"session": "soak-1", "toolCall": mir, "status": "completed", "rule": rule}}}
	if violation {
		evs = append(evs, Event{Actor: actor, Action: "policy.violation", Subject: subj, Policy: pol,
			Metadata: map[string]any{"rule": rule, "reason": "running a command on " + subj.Path + ": no rule matches, so the default applies",
				"session": "soak-1", "toolCall": mir, "violation": "the tool ran without the approval the policy requires"}})
	}
	return evs
}

// BenchmarkAppendSoakRecords is the audit log's share of a soak run with
// policy+audit: Append of the records of one tool call (1.5 records on
// average, with 100 B to 20 KiB of output each), written and fsynced at
// Close.
func BenchmarkAppendSoakRecords(b *testing.B) {
	for _, mix := range []string{"prose", "runs"} {
		b.Run(mix, func(b *testing.B) {
			r := newSoakRand()
			calls := make([][]Event, 64)
			for i := range calls {
				calls[i] = soakRecords(soakText(r, 100+r.IntN(20480-100+1), mix == "runs"), i%2 == 1)
			}
			appendRounds(b, func(_ *Log, i int) []Event { return calls[i%len(calls)] })
		})
	}
}

// appendRounds opens a log in a new directory and, in each round i of b's
// loop, appends the records round(l, i) gives; the log is closed (written
// and fsynced) after the loop.
func appendRounds(b *testing.B, round func(l *Log, i int) []Event) {
	l := openBenchWith(b, Options{})
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		for _, ev := range round(l, i) {
			if err := l.Append(ev); err != nil {
				b.Fatal(err)
			}
		}
		i++
	}
	if err := l.Close(); err != nil {
		b.Fatal(err)
	}
}
