package governance

import (
	"reflect"
	"strings"
	"testing"
	"unsafe"
)

// released is what poisonDecision writes into every string of a released
// decision.
const released = "\x00released decision"

// poisonDecision overwrites everything d holds, at any depth inside it
// (not behind its pointers, which lead to what it does not own): strings
// with released, numbers with -1, booleans with true, pointers, slices,
// maps and interfaces with nil. A decision's facts, forms and verdicts
// live in it, so whatever kept one of them, or a slice of its buffers,
// past Decide finds this instead.
func poisonDecision(d *decision) {
	poison(reflect.ValueOf(d).Elem())
}

func poison(v reflect.Value) {
	if !v.CanSet() {
		v = reflect.NewAt(v.Type(), unsafe.Pointer(v.UnsafeAddr())).Elem()
	}
	switch v.Kind() {
	case reflect.String:
		v.SetString(released)
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		v.SetInt(-1)
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		v.SetUint(1<<v.Type().Bits() - 1)
	case reflect.Bool:
		v.SetBool(true)
	case reflect.Array:
		for i := 0; i < v.Len(); i++ {
			poison(v.Index(i))
		}
	case reflect.Struct:
		for i := 0; i < v.NumField(); i++ {
			poison(v.Field(i))
		}
	default: // pointers, slices, maps, interfaces, funcs, channels
		v.SetZero()
	}
}

// TestReleasedDecisionPoisoned holds the poisoning TestMain turns on to
// what it must do: a decision Decide is done with has none of its strings
// left, down to its facts' buffers, and the next decision starts clear.
func TestReleasedDecisionPoisoned(t *testing.T) {
	if poisonReleased == nil { // benchmarks run without it
		poisonReleased = poisonDecision
		t.Cleanup(func() { poisonReleased = nil })
	}
	cwd := t.TempDir()
	e := soakEngine(t, cwd)
	req := soakCalls(cwd)["execute"]
	d := e.newDecision(req)
	f := d.info.newFacts()
	f.p = cwd + "/x"
	f.forms = append(f.formsBuf[:0], f.p)
	forms := f.forms
	release(d)
	if forms[0] != released || f.p != released || d.info.req.Command != released {
		t.Errorf("after release: form %q, path %q, command %q; want each %q", forms[0], f.p, d.info.req.Command, released)
	}
	d = takeDecision()
	defer release(d)
	if !reflect.DeepEqual(*d, decision{}) {
		t.Error("takeDecision returned a decision that is not cleared")
	}
}

// TestDecideFromReleasedSame decides the soak's calls and a spread of
// others over and over on one engine, each decision reusing what the one
// before released, and holds every decision to the one a fresh engine
// makes of the same request, so that nothing of a released decision
// reaches the next.
func TestDecideFromReleasedSame(t *testing.T) {
	cwd := t.TempDir()
	e := soakEngine(t, cwd)
	reqs := soakCallList(cwd)
	reqs = append(reqs,
		Request{Action: ActionFSRead, Paths: []string{cwd + "/.env", cwd + "/a", cwd + "/b", "/etc/passwd"}, Cwd: cwd},
		Request{Action: ActionTerminalCreate, Command: "cat a b c d e f && rm -rf " + cwd + "/x", Cwd: cwd},
		Request{Action: ActionToolCall, Kind: "other", Paths: []string{cwd + "/p", cwd + "/q", cwd + "/r"}, Cwd: cwd},
		Request{Action: ActionFSWrite, Paths: []string{cwd + "/GOVERNANCE.md"}, Cwd: cwd},
	)
	var want []Decision
	for _, r := range reqs {
		want = append(want, soakEngine(t, cwd).Decide(r))
	}
	for round := 0; round < 3; round++ {
		for i, r := range reqs {
			if got := e.Decide(r); !reflect.DeepEqual(got, want[i]) {
				t.Fatalf("round %d, request %d: Decide = %+v, want %+v", round, i, got, want[i])
			}
			if got := e.Decide(r); strings.Contains(got.Reason, released) {
				t.Fatalf("round %d, request %d: reason %q holds a released decision's text", round, i, got.Reason)
			}
		}
	}
}
