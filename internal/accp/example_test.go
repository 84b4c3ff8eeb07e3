package accp_test

import (
	"fmt"
	"time"

	"github.com/acp-bridge/acp-bridge/internal/accp"
)

func ExampleParseFrame() {
	f, err := accp.ParseFrame(`@research>done:analyze{d:q3_sales|f:[rev:-12%QoQ,churn:+3.2%]|nx:@strategy:plan}[mid:493027715563,seq:3,ts:1714000000]`)
	if err != nil {
		fmt.Println(err)
		return
	}
	d, _ := f.Param("d")
	nx, _ := f.Param("nx")
	fmt.Println(f.Intent, f.Op, d.Str, nx.Kind, nx.Str)
	// Output: done analyze q3 sales agent strategy:plan
}

func ExampleParseFrame_rejected() {
	_, err := accp.ParseFrame(`@a>req:fetch{q:hello world}[mid:493027715563,seq:1,ts:1714000000]`)
	fmt.Println(err)
	fmt.Println(accp.CodeOf(err).Retryable())
	// Output:
	// E1001 PARSE_ERROR at byte 20: whitespace is not allowed in a frame
	// false
}

func ExampleSession_Encode() {
	s := accp.NewSession("demo", accp.Options{
		Clock:       func() time.Time { return time.Unix(1714000000, 0) },
		NewMID:      accp.DeterministicMID("demo"),
		Checkpoints: accp.CheckpointManual,
	})
	m := accp.NewMessage("planner", "req", "schedule",
		accp.Field{Key: "assignee", Val: accp.String("dev team")},
		accp.Field{Key: "task", Val: accp.String("impl_auth")},
		accp.Field{Key: "priority", Val: accp.String("medium")}, // TA default: omitted
	)
	m.Schema = "TA"
	lines, err := s.Encode(m)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(lines[0])
	// Output: @planner>req:schedule{asgn:dev_team|task:\'impl_auth|schema:TA}[mid:333666876362,seq:1,ts:1714000000,sid:demo]
}

func ExampleSession_Checkpoint() {
	s := accp.NewSession("demo", accp.Options{Checkpoints: accp.CheckpointManual})
	for _, q := range []string{"revenue by region", "churn by segment"} {
		if _, err := s.Encode(accp.NewMessage("analyst", "qry", "lookup", accp.Field{Key: "query", Val: accp.String(q)})); err != nil {
			fmt.Println(err)
			return
		}
	}
	res := s.Checkpoint()
	summary, _ := s.Resolve("$warm." + res.ID + ".summary")
	fmt.Println(res.ID, res.Frames, res.SummaryTokens <= accp.SummaryMaxTokens)
	fmt.Println(summary.Str)
	// Output:
	// ckpt_1 2 true
	// ckpt_1:2_frames;analyst.qry:lookup.query=revenue_by_region;analyst.qry:lookup.query=churn_by_segment
}

func ExampleRender() {
	f, _ := accp.ParseFrame(`@agent>fail:error{code:E3001|msg:connection_timed_out|retry:true|schema:ER}[mid:493027715563,seq:4,ts:1714000001]`)
	fmt.Print(accp.Render(f, nil))
	// Output:
	// from agent: fail (Failure) error
	//   schema ER (error v1: code, message, retryable)
	//   code = "E3001"
	//   message = "connection timed out"
	//   retryable = true
	//   [msg_id = 493027715563]
	//   [sequence = 4]
	//   [timestamp = 1714000001]
}

func ExampleMessageFromJSON() {
	s := accp.NewSession("bridge", accp.Options{
		Clock:       func() time.Time { return time.Unix(1714000000, 0) },
		NewMID:      accp.DeterministicMID("bridge"),
		Checkpoints: accp.CheckpointManual,
	})
	m, err := accp.MessageFromJSON("bridge", "sync", "state", map[string]any{
		"files":   []any{"cart.go", "cart_test.go"},
		"failing": "TestEmptyCart",
		"turns":   3,
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	lines, _ := s.Encode(m)
	fmt.Println(lines[0])
	d := accp.NewSession("bridge", accp.Options{Checkpoints: accp.CheckpointManual})
	back, err := d.Decode(lines[0])
	if err != nil {
		fmt.Println(err)
		return
	}
	files, _ := back.Field("files")
	fmt.Println(files.List[1].Str)
	// Output:
	// @bridge>sync:state{failing:TestEmptyCart|files:[cart.go,\'cart_test.go]|turns:3}[mid:981597422016,seq:1,ts:1714000000,sid:bridge]
	// cart_test.go
}
