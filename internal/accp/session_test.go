package accp

import (
	"fmt"
	"runtime"
	"strings"
	"testing"
	"time"
)

func frameWith(seq int, mid, extra string) string {
	return fmt.Sprintf("@a>req:fetch{q:x}[mid:%s,seq:%d,ts:1714000000%s]", mid, seq, extra)
}

func TestDelivery(t *testing.T) {
	type step struct {
		frame string
		code  Code // "" for accepted
		drop  bool // accepted silently without a message
	}
	tests := []struct {
		name  string
		steps []step
	}{
		{"in order", []step{{frameWith(1, "100000000001", ""), "", false}, {frameWith(2, "100000000002", ""), "", false}}},
		{"duplicate mid", []step{{frameWith(1, "100000000001", ""), "", false}, {frameWith(2, "100000000001", ""), CodeDuplicate, false}}},
		{"gap", []step{{frameWith(1, "100000000001", ""), "", false}, {frameWith(3, "100000000003", ""), CodeSequenceGap, false}}},
		{"gap then retransmit", []step{{frameWith(1, "100000000001", ""), "", false}, {frameWith(3, "100000000003", ""), CodeSequenceGap, false},
			{frameWith(2, "100000000002", ""), "", false}, {frameWith(3, "100000000003", ""), "", false}}},
		{"out of order", []step{{frameWith(5, "100000000005", ""), "", false}, {frameWith(4, "100000000004", ""), CodeSequenceGap, false}}},
		{"expired ttl dropped", []step{{frameWith(1, "100000000001", ",ttl:10"), "", true}}},
		{"live ttl", []step{{frameWith(1, "100000000001", ",ttl:1000"), "", false}}},
		{"cancel stops chain", []step{
			{frameWith(1, "100000000001", ",cid:job7"), "", false},
			{"@a>cancel:fetch{}[mid:100000000002,seq:2,ts:1714000000,cid:job7]", "", false},
			{frameWith(3, "100000000003", ",cid:job7"), "", true},
			{frameWith(4, "100000000004", ",cid:other"), "", false},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newTestSession(t, Options{Checkpoints: CheckpointManual})
			for i, st := range tt.steps {
				m, err := s.Decode(st.frame)
				if got := CodeOf(err); got != st.code {
					t.Fatalf("step %d: got error %v, want code %q", i, err, st.code)
				}
				if st.code == "" && (m == nil) != st.drop {
					t.Fatalf("step %d: message %v, want dropped=%v", i, m, st.drop)
				}
			}
		})
	}
}

func TestRefs(t *testing.T) {
	store := NewStore()
	now := fixedNow
	clock := func() time.Time { return now }
	a := NewSession("alpha", Options{Store: store, Clock: clock, Checkpoints: CheckpointManual})
	b := NewSession("beta", Options{Store: store, Clock: clock, Checkpoints: CheckpointManual})
	a.Put(Warm, "ckpt_1", Map(Field{"status", String("green")}), 0)
	a.Put(Cold, "log", String("raw tool output"), time.Minute)
	a.Put(Ctx, "sales_db", String("postgres://sales"), 0)
	b.Put(Cold, "secret", String("beta only"), 0)
	tests := []struct {
		name string
		ref  string
		want string
		code Code
	}{
		{"warm path", "$warm.ckpt_1.status", "green", ""},
		{"warm whole", "$warm.ckpt_1", "{status:green}", ""},
		{"cold", "$cold.log", "raw_tool_output", ""},
		{"ctx", "$ctx.sales_db", "postgres\\://sales", ""},
		{"missing", "$warm.nope", "", CodeRefNotFound},
		{"missing field", "$warm.ckpt_1.colour", "", CodeRefNotFound},
		{"cross session", "$cold.beta.secret", "", CodeUnauthorizedRef},
		{"opaque ref", "$42.30", "$42.30", ""},
	}
	for i, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			frame := fmt.Sprintf("@a>qry:lookup{src:%s}[mid:%d,seq:1,ts:1714000000]", tt.ref, 100000000000+i)
			s := NewSession("alpha", Options{Store: store, Clock: clock, Checkpoints: CheckpointManual})
			m, err := s.Decode(frame)
			if got := CodeOf(err); got != tt.code {
				t.Fatalf("got %v, want code %q", err, tt.code)
			}
			if tt.code != "" {
				return
			}
			v, _ := m.Field("source")
			if got := string(AppendValue(nil, v)); got != tt.want {
				t.Errorf("got %s, want %s", got, tt.want)
			}
		})
	}
	t.Run("expired", func(t *testing.T) {
		now = fixedNow.Add(2 * time.Minute)
		defer func() { now = fixedNow }()
		if _, err := a.Resolve("$cold.log"); CodeOf(err) != CodeRefExpired {
			t.Errorf("got %v, want E2002", err)
		}
	})
	t.Run("granted cross session", func(t *testing.T) {
		store.Grant("alpha", "beta")
		v, err := a.Resolve("$cold.beta.secret")
		if err != nil || v.Str != "beta only" {
			t.Errorf("got %v, %v", v, err)
		}
	})
}

func TestSchemaDefaultsAndAbbreviations(t *testing.T) {
	s := newTestSession(t, Options{Checkpoints: CheckpointManual})
	msg := NewMessage("planner", "req", "schedule",
		Field{"assignee", Value{Kind: KindAgent, Str: "dev"}},
		Field{"task", String("impl auth")},
		Field{"priority", String("medium")}, // the default: omitted
		Field{"deps", Array()},              // the default: omitted
		Field{"deadline", String("sprint 14")},
		Field{"source", String("jira")}, // 4.2 abbreviation
	)
	msg.Schema = "TA"
	lines, err := s.Encode(msg)
	if err != nil {
		t.Fatal(err)
	}
	want := "@planner>req:schedule{asgn:@dev|task:impl_auth|dead:sprint_14|src:jira|schema:TA}"
	if !strings.HasPrefix(lines[0], want+"[") {
		t.Errorf("got  %s\nwant %s[...]", lines[0], want)
	}
	d := newTestSession(t, Options{Checkpoints: CheckpointManual})
	m, err := d.Decode(lines[0])
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range msg.Fields {
		got, ok := m.Field(f.Key)
		if !ok || !got.Equal(f.Val) {
			t.Errorf("field %s: got %v, want %v", f.Key, got, f.Val)
		}
	}
	if m.Schema != "TA" {
		t.Errorf("schema %q", m.Schema)
	}
	bad := NewMessage("payments", "req", "transaction", Field{"amount", String("lots")})
	bad.Schema = "TX"
	if _, err := s.Encode(bad); CodeOf(err) != CodeInvalidType {
		t.Errorf("string amount: got %v, want E1004", err)
	}
	unknown := NewMessage("a", "req", "fetch")
	unknown.Schema = "QQ"
	if _, err := s.Encode(unknown); CodeOf(err) != CodeUnknownSchema {
		t.Errorf("unknown schema: got %v, want E1003", err)
	}
}

func TestRegisterSchema(t *testing.T) {
	reg := NewRegistry()
	sr := Schema{Code: "SR", Version: 1, Fields: []string{"period", "revenue", "growth_pct", "segments", "notes"},
		Defaults: map[string]Value{"period": String("quarterly"), "segments": Array()}}
	if err := RegisterSchema(reg, "sales_report", sr); err != nil {
		t.Fatal(err)
	}
	if err := reg.RegisterSchema("other", Schema{Code: "SR", Fields: []string{"x"}}); err == nil {
		t.Error("a second schema took code SR")
	}
	if err := reg.RegisterSchema("mine", Schema{Code: "TC", Fields: []string{"x"}}); err == nil {
		t.Error("a custom schema replaced built-in TC")
	}
	s := NewSession("s", Options{Registry: reg, Clock: func() time.Time { return fixedNow }, Checkpoints: CheckpointManual})
	m, err := s.Decode("@analyst>done:analyze{revenue:12.5|schema:SR}[mid:100000000001,seq:1,ts:1714000000]")
	if err != nil {
		t.Fatal(err)
	}
	if p, _ := m.Field("period"); p.Str != "quarterly" {
		t.Errorf("default period not filled: %+v", m.Fields)
	}
}

func TestRegistryNegotiation(t *testing.T) {
	a, b := NewRegistry(), NewRegistry()
	if a.Hash() != b.Hash() {
		t.Fatal("fresh registries differ")
	}
	if reply, err := b.HandleSync("b", a.SyncFrame("a")); err != nil || reply != nil {
		t.Fatalf("matching hashes: reply %v, err %v", reply, err)
	}
	if err := a.RegisterSchema("sales_report", Schema{Code: "SR", Fields: []string{"period", "revenue"},
		Defaults: map[string]Value{"period": String("quarterly")}, Abbrev: map[string]string{"revenue": "rev"}}); err != nil {
		t.Fatal(err)
	}
	if err := a.RegisterOperation("forecast"); err != nil {
		t.Fatal(err)
	}
	// b hears a's hash, sees a mismatch and asks for... no: the side that
	// holds the custom schemas answers a mismatching hash with its delta.
	delta, err := a.HandleSync("a", b.SyncFrame("b"))
	if err != nil || delta == nil {
		t.Fatalf("mismatch: delta %v, err %v", delta, err)
	}
	text, err := Format(delta)
	if err != nil {
		t.Fatal(err)
	}
	parsed, err := ParseFrame(text)
	if err != nil {
		t.Fatalf("delta frame %s: %v", text, err)
	}
	if reply, err := b.HandleSync("b", parsed); err != nil || reply != nil {
		t.Fatalf("applying delta: %v %v", reply, err)
	}
	if a.Hash() != b.Hash() {
		t.Errorf("hashes differ after the delta: %s %s", a.Hash(), b.Hash())
	}
	if sc, ok := b.Schema("SR"); !ok || sc.Abbrev["revenue"] != "rev" {
		t.Errorf("schema not cached: %+v", sc)
	}
}

func TestCheckpointAndDelta(t *testing.T) {
	store := NewStore()
	enc := NewSession("s1", Options{Store: store, Clock: func() time.Time { return fixedNow }, NewMID: DeterministicMID("s1"), Checkpoints: CheckpointManual})
	dec := NewSession("s1", Options{Store: store, Clock: func() time.Time { return fixedNow }, Checkpoints: CheckpointManual})
	send := func(m Message) {
		t.Helper()
		lines, err := enc.Encode(m)
		if err != nil {
			t.Fatal(err)
		}
		for _, l := range lines {
			if _, err := dec.Decode(l); err != nil {
				t.Fatalf("%s: %v", l, err)
			}
		}
	}
	for i := range 6 {
		send(NewMessage("worker", "req", "fetch", Field{"query", String(fmt.Sprintf("page %d of the sales report", i))}))
	}
	enc.SetState("task_3", String("done"))
	enc.SetState("task_4", String("wip"))
	if b := enc.GetBudget(); b.HotFrames != 6 || b.HotUsed == 0 || b.HotMax != HotBudgetTokens {
		t.Errorf("budget before checkpoint: %+v", b)
	}
	res := enc.Checkpoint()
	if res.ID != "ckpt_1" || res.Frames != 6 || len(res.Facts) == 0 {
		t.Errorf("checkpoint: %+v", res)
	}
	if res.SummaryTokens > SummaryMaxTokens || CountTokens(res.Summary) != res.SummaryTokens {
		t.Errorf("summary of %d tokens: %s", res.SummaryTokens, res.Summary)
	}
	if res.WarmTokens > WarmCheckpointTokens {
		t.Errorf("warm entry of %d tokens", res.WarmTokens)
	}
	summary, err := enc.Resolve("$warm.ckpt_1.summary")
	if err != nil || summary.Str != res.Summary {
		t.Errorf("warm summary: %v %v", summary, err)
	}
	raw, err := enc.Resolve("$cold.ckpt_1.frames")
	if err != nil || len(raw.List) != 6 {
		t.Errorf("cold frames: %d, %v", len(raw.List), err)
	}
	if b := enc.GetBudget(); b.HotFrames != 0 || b.Checkpoints != 1 {
		t.Errorf("hot state not reset: %+v", b)
	}
	// 5.4: after the checkpoint, only deltas.
	enc.SetState("task_4", String("done"))
	enc.SetState("task_5", String("wip"))
	enc.DeleteState("task_3")
	d := enc.StateDelta("worker")
	if d == nil {
		t.Fatal("no delta")
	}
	line, err := enc.EncodeFrame(*d)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(line, "sync:state{v:1|delta:{task_3:~,task_4:done,task_5:wip}}") {
		t.Errorf("delta frame %s", line)
	}
	// The decoder had no state; it reconstructs from the deltas.
	dec2 := NewSession("s1", Options{Store: store, Clock: func() time.Time { return fixedNow }, Checkpoints: CheckpointManual})
	if _, err := dec2.Decode(line); err != nil {
		t.Fatal(err)
	}
	got := dec2.State()
	if len(got) != 2 || got["task_4"].Str != "done" || got["task_5"].Str != "wip" {
		t.Errorf("reconstructed state %v", got)
	}
	if enc.StateDelta("worker") != nil {
		t.Error("delta with nothing changed")
	}
}

func TestAutoCheckpointTriggers(t *testing.T) {
	for _, intent := range []string{"done", "esc", "comp"} {
		t.Run(intent, func(t *testing.T) {
			s := newTestSession(t, Options{})
			if _, err := s.Encode(NewMessage("a", "req", "analyze")); err != nil {
				t.Fatal(err)
			}
			if s.GetBudget().Checkpoints != 0 {
				t.Fatal("req triggered a checkpoint")
			}
			if _, err := s.Encode(NewMessage("a", intent, "analyze")); err != nil {
				t.Fatal(err)
			}
			if s.GetBudget().Checkpoints != 1 {
				t.Errorf("%s did not trigger a checkpoint", intent)
			}
		})
	}
	t.Run("hot over 400 tokens", func(t *testing.T) {
		s := newTestSession(t, Options{Inline: true})
		for i := 0; s.GetBudget().Checkpoints == 0; i++ {
			if i > 100 {
				t.Fatal("no checkpoint after 100 frames")
			}
			if _, err := s.Encode(NewMessage("a", "req", "fetch", Field{"query", String("revenue by region and quarter")})); err != nil {
				t.Fatal(err)
			}
		}
	})
}

func TestBudgetExternalizeAndSplit(t *testing.T) {
	var sb strings.Builder
	for i := range 60 {
		fmt.Fprintf(&sb, "r%d=%x;", i, i*7919+13)
	}
	long := sb.String()
	store := NewStore()
	t.Run("externalize", func(t *testing.T) {
		enc := NewSession("s", Options{Store: store, Clock: func() time.Time { return fixedNow }, Checkpoints: CheckpointManual})
		dec := NewSession("s", Options{Store: store, Clock: func() time.Time { return fixedNow }, Checkpoints: CheckpointManual})
		lines, err := enc.Encode(NewMessage("a", "done", "analyze", Field{"findings", String(long)}))
		if err != nil {
			t.Fatal(err)
		}
		if len(lines) != 1 || !strings.Contains(lines[0], "f:$cold.") {
			t.Fatalf("not externalized: %v", lines)
		}
		if ft := MeasureFrame(lines[0]); ft.Exceeds() {
			t.Errorf("still over budget: %+v", ft)
		}
		m, err := dec.Decode(lines[0])
		if err != nil {
			t.Fatal(err)
		}
		if f, _ := m.Field("findings"); f.Str != long {
			t.Errorf("resolved value differs")
		}
	})
	t.Run("split", func(t *testing.T) {
		enc := NewSession("s2", Options{Store: store, Clock: func() time.Time { return fixedNow }, Inline: true, Checkpoints: CheckpointManual})
		dec := NewSession("s2", Options{Store: store, Clock: func() time.Time { return fixedNow }, Checkpoints: CheckpointManual})
		lines, err := enc.Encode(NewMessage("a", "done", "analyze", Field{"findings", String(long)}))
		if err != nil {
			t.Fatal(err)
		}
		if len(lines) < 2 {
			t.Fatalf("not split: %v", lines)
		}
		var got *Message
		for i, l := range lines {
			if ft := MeasureFrame(l); ft.Exceeds() {
				t.Errorf("chunk %d over budget: %+v", i, ft)
			}
			m, err := dec.Decode(l)
			if err != nil {
				t.Fatalf("chunk %d: %v", i, err)
			}
			if (m != nil) != (i == len(lines)-1) {
				t.Fatalf("chunk %d: message %v", i, m)
			}
			got = m
		}
		if f, _ := got.Field("findings"); f.Str != long || got.Intent != "done" {
			t.Errorf("reassembled %+v", got)
		}
	})
	t.Run("no split", func(t *testing.T) {
		enc := NewSession("s3", Options{Store: store, Inline: true, Budget: BudgetReject, Checkpoints: CheckpointManual})
		if _, err := enc.Encode(NewMessage("a", "done", "analyze", Field{"findings", String(long)})); CodeOf(err) != CodeBudgetExceeded {
			t.Errorf("got %v, want E2003", err)
		}
	})
}

func TestStreamReorder(t *testing.T) {
	chunks := []string{
		"@streamer>stream:infer{idx:2|tot:3|d:!|done:true|schema:ST}[mid:100000000003,seq:1,ts:1714000000,cid:stream_abc]",
		"@streamer>stream:infer{idx:0|tot:3|d:Hello|schema:ST}[mid:100000000001,seq:2,ts:1714000000,cid:stream_abc]",
		"@streamer>stream:infer{idx:1|tot:3|d:_world|schema:ST}[mid:100000000002,seq:3,ts:1714000000,cid:stream_abc]",
	}
	s := newTestSession(t, Options{Checkpoints: CheckpointManual})
	for i, c := range chunks {
		m, err := s.Decode(c)
		if err != nil {
			t.Fatalf("chunk %d: %v", i, err)
		}
		if i < 2 && m.Stream != nil {
			t.Fatalf("stream complete after %d chunks", i+1)
		}
		if i == 2 {
			if m.Stream == nil || m.Stream.Data != "Hello world!" || m.Stream.Chunks != 3 {
				t.Errorf("stream %+v", m.Stream)
			}
		}
	}
}

func TestDraftExamplesDecode(t *testing.T) {
	for _, ex := range readDraftExamples(t) {
		s := newTestSession(t, Options{LenientEnvelope: true, Checkpoints: CheckpointManual})
		s.Put(Ctx, "sales_db", String("postgres://sales"), 0)
		f, err := ParseFrame(ex.frame)
		if err != nil {
			t.Fatal(err)
		}
		if _, ok := f.MetaValue("mid"); !ok {
			continue // 3.2, 5.4, 6.3, 6.4 show bodies without an envelope
		}
		if _, err := s.Decode(ex.frame); err != nil {
			t.Errorf("section %s: %v\n%s", ex.section, err, ex.frame)
		}
	}
}

func TestErrorFrame(t *testing.T) {
	for _, c := range Codes() {
		f := ErrorFrame("agent", &Error{Code: c, Offset: -1, Msg: "boom"})
		s := newTestSession(t, Options{Checkpoints: CheckpointManual})
		line, err := s.Seal(f, Envelope{})
		if err != nil {
			t.Fatal(err)
		}
		m, err := newTestSession(t, Options{Checkpoints: CheckpointManual}).Decode(line)
		if err != nil {
			t.Fatalf("%s: %v", line, err)
		}
		code, _ := m.Field("code")
		retry, _ := m.Field("retryable")
		if code.Str != string(c) || retry.Bool != c.Retryable() || m.Schema != "ER" || c.Name() == "" {
			t.Errorf("%s: %+v", line, m.Fields)
		}
	}
}

func TestStreamEnd(t *testing.T) {
	tests := []struct {
		name   string
		frames []string
		data   string
		code   Code
	}{
		{"end closes", []string{
			"@s>stream:infer{idx:1|d:b|schema:ST}[mid:100000000001,seq:1,ts:1714000000,cid:x]",
			"@s>stream:infer{idx:0|d:a|schema:ST}[mid:100000000002,seq:2,ts:1714000000,cid:x]",
			"@s>end:infer{}[mid:100000000003,seq:3,ts:1714000000,cid:x]",
		}, "ab", ""},
		{"end with a hole", []string{
			"@s>stream:infer{idx:0|d:a|schema:ST}[mid:100000000001,seq:1,ts:1714000000,cid:x]",
			"@s>stream:infer{idx:2|d:c|schema:ST}[mid:100000000002,seq:2,ts:1714000000,cid:x]",
			"@s>end:infer{}[mid:100000000003,seq:3,ts:1714000000,cid:x]",
		}, "", CodeSequenceGap},
		{"cancel drops the stream", []string{
			"@s>stream:infer{idx:0|d:a|schema:ST}[mid:100000000001,seq:1,ts:1714000000,cid:x]",
			"@s>cancel:infer{}[mid:100000000002,seq:2,ts:1714000000,cid:x]",
			"@s>end:infer{}[mid:100000000003,seq:3,ts:1714000000,cid:x]",
		}, "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newTestSession(t, Options{Checkpoints: CheckpointManual})
			var last *Message
			var err error
			for _, f := range tt.frames {
				if last, err = s.Decode(f); err != nil {
					break
				}
			}
			if CodeOf(err) != tt.code {
				t.Fatalf("got %v, want code %q", err, tt.code)
			}
			if tt.code != "" {
				return
			}
			got := ""
			if last != nil && last.Stream != nil {
				got = last.Stream.Data
			}
			if got != tt.data {
				t.Errorf("stream data %q, want %q", got, tt.data)
			}
		})
	}
}

// TestConcurrentEncode checks that one Session numbers frames from many
// goroutines without repeating a seq or mid (run with -race).
func TestConcurrentEncode(t *testing.T) {
	s := NewSession("c", Options{Checkpoints: CheckpointManual, Inline: true})
	const workers, each = 8, 50
	out := make(chan string, workers*each)
	done := make(chan struct{})
	for w := range workers {
		go func() {
			defer func() { done <- struct{}{} }()
			for i := range each {
				lines, err := s.Encode(NewMessage("w", "req", "fetch", Field{"query", String(fmt.Sprintf("w%d-%d", w, i))}))
				if err != nil {
					t.Error(err)
					return
				}
				out <- lines[0]
			}
		}()
	}
	for range workers {
		<-done
	}
	close(out)
	seqs, mids := map[string]bool{}, map[string]bool{}
	for line := range out {
		f, err := ParseFrame(line)
		if err != nil {
			t.Fatal(err)
		}
		seq, _ := f.MetaValue("seq")
		mid, _ := f.MetaValue("mid")
		if seqs[seq.Str] || mids[mid.Str] {
			t.Fatalf("repeated seq %s or mid %s", seq.Str, mid.Str)
		}
		seqs[seq.Str], mids[mid.Str] = true, true
	}
	if len(seqs) != workers*each {
		t.Errorf("%d frames", len(seqs))
	}
}

// TestNoHot checks that a session with CheckpointNone does not keep the
// frames it seals or receives: the live heap after a GC does not grow with
// them, as it does when hot state keeps them for the next checkpoint.
func TestNoHot(t *testing.T) {
	const frames, size = 40, 100 << 10
	tests := []struct {
		name     string
		cp       Checkpoints
		minGrow  uint64 // live heap growth at least
		maxGrown uint64 // and at most
	}{
		{"hot state kept", CheckpointManual, 2 * frames * size, 1 << 40},
		{"CheckpointNone", CheckpointNone, 0, 1 << 20},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			opt := Options{Checkpoints: tt.cp}
			send, recv := newTestSession(t, opt), newTestSession(t, opt)
			var before, after runtime.MemStats
			runtime.GC()
			runtime.ReadMemStats(&before)
			for i := range frames {
				f := &Frame{Agent: "a", Intent: "req", Op: "fetch",
					Params: []Field{{Key: "q", Val: String(strings.Repeat("x", size) + fmt.Sprint(i))}}}
				line, err := send.Seal(f, Envelope{})
				if err != nil {
					t.Fatal(err)
				}
				if _, _, err := recv.Receive(strings.Clone(line)); err != nil { // as if read
					t.Fatal(err)
				}
			}
			runtime.GC()
			runtime.ReadMemStats(&after)
			grown := uint64(max(int64(after.HeapAlloc)-int64(before.HeapAlloc), 0))
			t.Logf("live heap grew by %d KiB", grown>>10)
			if grown < tt.minGrow || grown > tt.maxGrown {
				t.Errorf("live heap grew by %d KiB after %d frames of %d KiB, want %d to %d KiB",
					grown>>10, frames, size>>10, tt.minGrow>>10, tt.maxGrown>>10)
			}
			// (GetBudget would count the tokens of what is kept: seconds.)
			if tt.cp == CheckpointNone {
				if h := send.GetBudget().HotFrames + recv.GetBudget().HotFrames; h != 0 {
					t.Errorf("%d hot frames, want none", h)
				}
			}
			runtime.KeepAlive(send)
			runtime.KeepAlive(recv)
		})
	}
}
