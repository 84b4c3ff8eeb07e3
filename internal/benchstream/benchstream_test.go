package benchstream

import (
	"encoding/json"
	"slices"
	"testing"
	"time"
)

// TestMessages: the stream is the same every time, each message a
// session/update notification, in the documented mix of sizes.
func TestMessages(t *testing.T) {
	const n = 2000
	msgs := Messages(n)
	if len(msgs) != n {
		t.Fatalf("%d messages, want %d", len(msgs), n)
	}
	if !slices.EqualFunc(msgs, Messages(n), func(a, b []byte) bool { return string(a) == string(b) }) {
		t.Error("two calls gave different streams")
	}
	var small, medium, large int
	for i, m := range msgs {
		var v struct {
			Method string `json:"method"`
		}
		if err := json.Unmarshal(m, &v); err != nil || v.Method != "session/update" {
			t.Fatalf("message %d is not a session/update notification (%v): %.100s", i, err, m)
		}
		switch l := len(m); {
		case l < 500:
			small++
		case l >= 1000 && l < 5000:
			medium++
		case l >= 10000 && l < 20000:
			large++
		default:
			t.Errorf("message %d is %d bytes, outside the mix", i, l)
		}
	}
	// 70%, 25%, 5% of 2,000, give or take what chance does.
	if small < 1300 || small > 1500 || medium < 400 || medium > 600 || large < 50 || large > 150 {
		t.Errorf("%d small, %d medium, %d large messages; want about 1400, 500, 100", small, medium, large)
	}
}

// TestCPUTime: the CPU time grows while the process computes.
func TestCPUTime(t *testing.T) {
	start, deadline := CPUTime(), time.Now().Add(20*time.Second)
	x := 0
	for CPUTime()-start < 20*time.Millisecond {
		if time.Now().After(deadline) {
			t.Fatalf("CPUTime went from %v to %v in 20 s of computing", start, CPUTime())
		}
		for i := range 100000 {
			x += i * i
		}
	}
	_ = x
}
