package otelexport

import (
	"strings"
	"testing"
	"time"

	"github.com/acp-bridge/acp-bridge/internal/acpwire"
	"github.com/acp-bridge/acp-bridge/internal/otelexport/otelcoltest"
)

// ideParent is a well-formed W3C traceparent an IDE could send.
const ideParent = "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01"

// newTestTracer returns a Tracer exporting to a port nothing listens on.
func newTestTracer(t *testing.T) *Tracer {
	t.Helper()
	tr, err := NewTracer(t.Context(), TraceConfig{Endpoint: otelcoltest.RefusingEndpoint(t), Agent: "probe", Timeout: 200 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	tr.Start()
	t.Cleanup(func() { tr.Close(100 * time.Millisecond) })
	return tr
}

// TestPromptTraceparent: the turn's traceparent is written into
// params._meta only where that is unambiguous, replacing a well-formed one
// in place (same trace) and adding one where none is; every other prompt
// leaves byte-identical, and every other byte of a rewritten one is kept.
func TestPromptTraceparent(t *testing.T) {
	const head = `{"jsonrpc":"2.0","id":7,"method":"session/prompt","params":{"sessionId":"s1","prompt":[{"type":"text","text":"hi"}]`
	cases := []struct {
		name string
		rest string // after head: the rest of params, then "}}"
		// want is the rewritten line with TP for the turn's traceparent;
		// empty means the line leaves as it came.
		want      string
		sameTrace bool // the turn continues the IDE's trace
	}{
		{"no _meta", `}}`, head + `,"_meta":{"traceparent":"TP"}}}`, false},
		{"empty _meta", `,"_meta":{}}}`, head + `,"_meta":{"traceparent":"TP"}}}`, false},
		{"other _meta members kept", `,"_meta":{"x":1, "y" : [2]}}}`, head + `,"_meta":{"x":1, "y" : [2],"traceparent":"TP"}}}`, false},
		{"IDE traceparent replaced in place", `,"_meta":{"traceparent":"` + ideParent + `","x":1}}}`, head + `,"_meta":{"traceparent":"TP","x":1}}}`, true},
		{"IDE traceparent and tracestate", `,"_meta":{"tracestate":"k=v","traceparent":"` + ideParent + `"}}}`, head + `,"_meta":{"tracestate":"k=v","traceparent":"TP"}}}`, true},
		{"escaped name read as traceparent", `,"_meta":{"trace\u0070arent":"` + ideParent + `"}}}`, head + `,"_meta":{"trace\u0070arent":"TP"}}}`, true},
		{"malformed: upper-case hex", `,"_meta":{"traceparent":"` + strings.ToUpper(ideParent) + `"}}}`, "", false},
		{"malformed: version ff", `,"_meta":{"traceparent":"ff` + ideParent[2:] + `"}}}`, "", false},
		{"malformed: zero trace id", `,"_meta":{"traceparent":"00-00000000000000000000000000000000-b7ad6b7169203331-01"}}}`, "", false},
		{"malformed: version 00 with more", `,"_meta":{"traceparent":"` + ideParent + `-00"}}}`, "", false},
		{"malformed: not a string", `,"_meta":{"traceparent":1}}}`, "", false},
		{"malformed: empty", `,"_meta":{"traceparent":""}}}`, "", false},
		{"repeated traceparent", `,"_meta":{"traceparent":"` + ideParent + `","traceparent":"` + ideParent + `"}}}`, "", false},
		{"name differing in case", `,"_meta":{"TraceParent":"` + ideParent + `"}}}`, "", false},
		{"name differing in case, Kelvin sign", `,"_meta":{"tracestate":"a=b","traceparent":"` + ideParent + `","TRACEſTATE":"c=d"}}}`, "", false},
		{"tracestate alone", `,"_meta":{"tracestate":"k=v"}}}`, "", false},
		{"malformed tracestate", `,"_meta":{"traceparent":"` + ideParent + `","tracestate":"=,=,"}}}`, "", false},
		{"_meta null", `,"_meta":null}}`, "", false},
		{"_meta a string", `,"_meta":"traceparent"}}`, "", false},
		{"_meta an array", `,"_meta":[]}}`, "", false},
		{"_meta repeated", `,"_meta":{},"_meta":{}}}`, "", false},
	}
	tr := newTestTracer(t)
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			line := head + c.rest
			m, err := acpwire.Parse(acpwire.ClientToAgent, []byte(line))
			if err != nil {
				t.Fatal(err)
			}
			out := tr.prompt(m)
			got := string(out.Raw)
			if c.want == "" {
				if got != line {
					t.Fatalf("rewritten:\n got %s\nwant %s (as it came)", got, line)
				}
				return
			}
			tp, ok := out.GetString("params", "_meta", "traceparent")
			if !ok {
				t.Fatalf("no traceparent in %s", got)
			}
			if want := strings.Replace(c.want, "TP", tp, 1); got != want {
				t.Fatalf("rewritten:\n got %s\nwant %s", got, want)
			}
			sc, ok := ParseTraceparent(tp, "")
			if !ok {
				t.Fatalf("the bridge wrote a malformed traceparent %q", tp)
			}
			ide, _ := ParseTraceparent(ideParent, "")
			root := tr.root.SpanContext()
			switch {
			case c.sameTrace && (sc.TraceID() != ide.TraceID() || sc.SpanID() == ide.SpanID()):
				t.Errorf("traceparent %s: want the IDE's trace %s with the turn's span", tp, ide.TraceID())
			case !c.sameTrace && sc.TraceID() != root.TraceID():
				t.Errorf("traceparent %s: want the run's trace %s", tp, root.TraceID())
			}
		})
	}
}

// TestTraceparentEnvFromParent: the run's root span continues the
// bridge's own TRACEPARENT, and a malformed one is ignored.
func TestTraceparentEnvFromParent(t *testing.T) {
	for _, c := range []struct {
		name, parent string
		same         bool
	}{
		{"well-formed", ideParent, true},
		{"malformed", "00-xyz", false},
		{"none", "", false},
	} {
		t.Run(c.name, func(t *testing.T) {
			tr, err := NewTracer(t.Context(), TraceConfig{Endpoint: "http://127.0.0.1:1", Parent: c.parent})
			if err != nil {
				t.Fatal(err)
			}
			tr.Start()
			defer tr.Close(10 * time.Millisecond)
			sc, ok := ParseTraceparent(tr.Traceparent(), "")
			if !ok {
				t.Fatalf("Traceparent() = %q, malformed", tr.Traceparent())
			}
			ide, _ := ParseTraceparent(ideParent, "")
			if got := sc.TraceID() == ide.TraceID(); got != c.same {
				t.Errorf("root trace %s, parent %q: same trace = %v, want %v", sc.TraceID(), c.parent, got, c.same)
			}
		})
	}
}

// FuzzPromptTraceparent: whatever the params, a prompt leaves either as it
// came or with exactly one well-formed traceparent in _meta, every other
// byte kept; nothing panics.
func FuzzPromptTraceparent(f *testing.F) {
	for _, s := range []string{`{}`, `{"_meta":{}}`, `{"_meta":{"traceparent":"` + ideParent + `"}}`,
		`{"_meta":{"TraceParent":"x"}}`, `{"_meta":null}`, `{"_meta":{"traceparent":1},"_meta":{}}`} {
		f.Add(s)
	}
	tr, err := NewTracer(f.Context(), TraceConfig{Endpoint: "http://127.0.0.1:1"})
	if err != nil {
		f.Fatal(err)
	}
	tr.Start()
	defer tr.Close(10 * time.Millisecond)
	f.Fuzz(func(t *testing.T, params string) {
		line := `{"jsonrpc":"2.0","id":1,"method":"session/prompt","params":` + params + `}`
		m, err := acpwire.Parse(acpwire.ClientToAgent, []byte(line))
		if err != nil || m.Kind != acpwire.KindRequest {
			return
		}
		out := tr.prompt(m)
		tr.mu.Lock()
		clear(tr.turns)
		tr.mu.Unlock()
		if string(out.Raw) == line {
			return
		}
		tp, ok := out.GetString("params", "_meta", "traceparent")
		if _, valid := ParseTraceparent(tp, ""); !ok || !valid {
			t.Fatalf("rewritten without a well-formed traceparent: %s", out.Raw)
		}
		if i := strings.Index(string(out.Raw), tp); i < 0 || strings.Count(string(out.Raw), tp) != 1 {
			t.Fatalf("traceparent not written exactly once: %s", out.Raw)
		}
		if _, ok := incomingContext(out.Params); !ok {
			t.Fatalf("the rewritten prompt is itself ambiguous: %s", out.Raw)
		}
	})
}

// TestAgentText: what the agent chose reaches a span redacted as the
// audit log redacts it, and cut.
func TestAgentText(t *testing.T) {
	const token = "ghp_A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8"
	for _, c := range []struct{ in, want string }{
		{"end_turn", "end_turn"},
		{"s-" + token, "s-[REDACTED:github-token]"},
		{"push failed: PGPASSWORD=hunter2hunter2 psql", "push failed: PGPASSWORD=[REDACTED:secret-pair] psql"},
		{strings.Repeat("é", 3000), strings.Repeat("é", maxAttrLen/2) + "…"},
	} {
		got := agentText(c.in)
		if got != c.want {
			t.Errorf("agentText(%.40q) = %.60q, want %.60q", c.in, got, c.want)
		}
	}
}
