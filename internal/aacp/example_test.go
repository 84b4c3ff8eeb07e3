package aacp_test

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/acp-bridge/acp-bridge/internal/aacp"
)

func ExampleParse() {
	p, ds := aacp.Parse("FETCH|HR|res:emp_salary|return:HR-Agent|aacp:1.1|org_cc:7")
	for _, d := range ds {
		fmt.Println(d)
	}
	fmt.Println(p.Task, p.Domain, "->", p.Return(), "res:", p.Value("res"), "priority:", p.Priority())
	// Output:
	// 1: W003: missing p: field (priority defaults to 2)
	// 50: W006: unknown key "org_cc"; accepted as an extension
	// FETCH HR -> HR-Agent res: emp_salary priority: 2
}

func ExampleParse_rejected() {
	_, ds := aacp.Parse("FETCH|HR|p:1|res:emp_salary")
	fmt.Println(ds.Err())
	// Output:
	// invalid AACP packet: column 1: E011: missing return: field (the agent that receives the result); column 1: E013: missing aacp: field (the protocol version, "1.1")
}

func ExamplePacket_String() {
	p := &aacp.Packet{Task: "SEND", Domain: "CS", Fields: []aacp.Field{
		{Key: "return", Value: "CS-Agent"}, {Key: "p", Value: "2"}, {Key: "aacp", Value: "1.1"},
		{Key: "subj", Value: "Order 7 | refund at 10:30"},
	}}
	s := p.String()
	fmt.Println(s)
	q, _ := aacp.Parse(s)
	fmt.Println(q.Value("subj"))
	// Output:
	// SEND|CS|return:CS-Agent|p:2|aacp:1.1|subj:Order 7 \| refund at 10:30
	// Order 7 | refund at 10:30
}

func ExampleRuleEncoder() {
	var e aacp.RuleEncoder
	p, err := e.Encode("Please retrieve the employee salary records for the period ending 31 August 2024. " +
		"I need all active employees. Return as JSON array.")
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(p)
	// Output:
	// FETCH|HR|return:HR-Agent|p:1|aacp:1.1|res:emp_salary|period:2024-08|filter:status=active|fmt:json
}

func ExampleRegistry() {
	// A stand-in for a model: tier 3 is only reached by novel instructions.
	llm := aacp.EncoderFunc(func(_ context.Context, instruction string) (*aacp.Packet, error) {
		return &aacp.Packet{Task: "ACK", Domain: "FIN", Fields: []aacp.Field{
			{Key: "return", Value: "FIN-Agent"}, {Key: "p", Value: "2"}, {Key: "aacp", Value: "1.1"}}}, nil
	})
	r, _ := aacp.OpenRegistry(aacp.RegistryOptions{Encoder: llm}) // no Path: in memory
	for _, in := range []string{
		"Retrieve the employee salary records for August 2024",
		"Acknowledge receipt of the vendor attestation",
		"acknowledge receipt of the   vendor attestation",
	} {
		res, err := r.Encode(context.Background(), in)
		if err != nil {
			fmt.Println(err)
			continue
		}
		fmt.Printf("tier %d (%s): %s\n", res.Tier, res.Tier, res.Packet)
	}
	none, _ := aacp.OpenRegistry(aacp.RegistryOptions{})
	_, err := none.Encode(context.Background(), "Tell me a joke")
	fmt.Println(errors.Is(err, aacp.ErrNoEncoder), strings.SplitN(err.Error(), ":", 2)[0])
	// Output:
	// tier 2 (pattern): FETCH|HR|return:HR-Agent|p:1|aacp:1.1|res:emp_salary|period:2024-08
	// tier 3 (encoder): ACK|FIN|return:FIN-Agent|p:2|aacp:1.1
	// tier 1 (cache): ACK|FIN|return:FIN-Agent|p:2|aacp:1.1
	// true no encoder
}
