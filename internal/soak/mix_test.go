package soak

import (
	"encoding/json"
	"testing"
)

// TestTurnMessages holds a turn to the mix its callers describe: every
// tenth message completes the tool call the one before opened, and with
// usageEvery set every usageEvery-th message is a usage_update.
func TestTurnMessages(t *testing.T) {
	const messages = 1000
	for _, tc := range []struct {
		usageEvery int
		wantUsage  int
	}{
		{0, 0},
		{50, messages / 50},
		{100, messages / 100},
	} {
		turn := newTurn(Prose, 1, tc.usageEvery)
		kinds := map[string]int{}
		for i := range messages {
			line := turn.message(nil, "s1", "/w", 1, i)
			var m struct {
				Params struct {
					Update struct {
						SessionUpdate string `json:"sessionUpdate"`
					} `json:"update"`
				} `json:"params"`
			}
			if err := json.Unmarshal(line, &m); err != nil {
				t.Fatalf("usageEvery %d: message %d is not JSON: %v\n%s", tc.usageEvery, i, err, line)
			}
			kinds[m.Params.Update.SessionUpdate]++
		}
		if kinds["usage_update"] != tc.wantUsage {
			t.Errorf("usageEvery %d: %d usage_update in %d messages, want %d (%v)", tc.usageEvery, kinds["usage_update"], messages, tc.wantUsage, kinds)
		}
		if kinds["tool_call"] != messages/10 || kinds["tool_call_update"] != messages/10 {
			t.Errorf("usageEvery %d: %d tool_call and %d tool_call_update in %d messages, want %d each", tc.usageEvery, kinds["tool_call"], kinds["tool_call_update"], messages, messages/10)
		}
		if got := kinds["agent_message_chunk"] + kinds["usage_update"]; got != messages*8/10 {
			t.Errorf("usageEvery %d: %d chunks and usage updates, want %d", tc.usageEvery, got, messages*8/10)
		}
	}
}
