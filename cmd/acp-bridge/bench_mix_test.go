package main

import (
	"fmt"
	"os"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/acp-bridge/acp-bridge/internal/soak"
)

// Environment of the soak agent (ACP_BRIDGE_TEST_AGENT=soak).
const (
	soakMixEnv        = "SOAK_MIX"         // prose or runs
	soakMessagesEnv   = "SOAK_MESSAGES"    // messages per turn
	soakUsageEveryEnv = "SOAK_USAGE_EVERY" // a usage_update every N messages
)

// soakAgent serves the soak benchmark's fake agent (soak.ServeAgent) on
// stdin and stdout, configured from the environment.
func soakAgent() {
	mix, err := soak.ParseMix(os.Getenv(soakMixEnv))
	if err != nil {
		fmt.Fprintln(os.Stderr, "soak agent:", err)
		os.Exit(2)
	}
	n, _ := strconv.Atoi(os.Getenv(soakMessagesEnv))
	every, _ := strconv.Atoi(os.Getenv(soakUsageEveryEnv))
	if err := soak.ServeAgent(os.Stdin, os.Stdout, soak.AgentConfig{Mix: mix, Messages: n, UsageEvery: every}); err != nil {
		fmt.Fprintln(os.Stderr, "soak agent:", err)
		os.Exit(1)
	}
}

// BenchmarkStreamMix streams realistic mixed traffic from a fake agent to
// the benchmark playing the IDE, directly and through acp-bridge in its
// default configuration (the embedded ACP.md, no policy, no compression),
// in turns, each run with processes of its own: one turn of 200,000
// session/update notifications of the soak benchmark's mix
// (internal/soak): agent_message_chunk of 1 B to 1 KiB, every tenth message
// a tool_call opening a call and the next a tool_call_update completing it
// with 100 B to 20 KiB of output, and every 50th a usage_update, as prose
// or as runs without spaces. Per iteration it measures the turn's wall
// time directly, through relayPeer's read-and-write relay (relay-rw: a
// process that passes the bytes on through a 64 KiB buffer and nothing
// else, the least any relay that sees the bytes pays) and bridged, and the
// bridge's CPU time (utime+stime) per message; it reports the median
// ratios of wall times (bridged and relayed against direct, bridged
// against relayed) and the median CPU per message.
//
//	go test -run '^$' -bench StreamMix -benchtime 10x ./cmd/acp-bridge
func BenchmarkStreamMix(b *testing.B) {
	for _, mix := range []soak.Mix{soak.Prose, soak.Runs} {
		b.Run(mix.String(), func(b *testing.B) { benchStreamMix(b, mix) })
	}
}

func benchStreamMix(b *testing.B, mix soak.Mix) {
	const messages = 200000
	exe, err := os.Executable()
	if err != nil {
		b.Fatal(err)
	}
	// The bridge is this binary run as acp-bridge; the agent is this
	// binary too, without that variable.
	b.Setenv("ACP_BRIDGE_TEST_MAIN", "1")
	cfg := soak.Config{
		Bridge: exe,
		Agent: []string{"env", "-u", "ACP_BRIDGE_TEST_MAIN", "ACP_BRIDGE_TEST_AGENT=soak",
			soakMixEnv + "=" + mix.String(), soakMessagesEnv + "=" + strconv.Itoa(messages), soakUsageEveryEnv + "=50", exe},
		Dir:     b.TempDir(),
		Timeout: 5 * time.Minute,
	}
	relayed := cfg
	relayed.Agent = append([]string{"env", "-u", "ACP_BRIDGE_TEST_MAIN", "ACP_BRIDGE_TEST_AGENT=relay-rw", exe}, cfg.Agent...)
	var ratios, relayRatios, overRelay, cpuPerMsg []float64
	var direct, relay, bridged time.Duration
	for b.Loop() {
		d, err := soak.Direct(cfg)
		if err != nil {
			b.Fatalf("direct: %v", err)
		}
		rl, err := soak.Direct(relayed)
		if err != nil {
			b.Fatalf("relayed: %v", err)
		}
		r, err := soak.Bridged(cfg, soak.None)
		if err != nil {
			b.Fatalf("bridged: %v", err)
		}
		if r.Messages != d.Messages || rl.Messages != d.Messages {
			b.Fatalf("bridged: %d messages, relayed %d, direct %d", r.Messages, rl.Messages, d.Messages)
		}
		direct += d.Wall
		relay += rl.Wall
		bridged += r.Wall
		ratios = append(ratios, r.Wall.Seconds()/d.Wall.Seconds())
		relayRatios = append(relayRatios, rl.Wall.Seconds()/d.Wall.Seconds())
		overRelay = append(overRelay, r.Wall.Seconds()/rl.Wall.Seconds())
		cpuPerMsg = append(cpuPerMsg, float64(r.CPU.Nanoseconds())/1e3/float64(r.Messages))
	}
	median := func(v []float64) float64 {
		s := slices.Clone(v)
		slices.Sort(s)
		if n := len(s); n%2 == 0 {
			return (s[n/2-1] + s[n/2]) / 2
		}
		return s[len(s)/2]
	}
	b.ReportMetric(median(ratios), "median-bridged/direct")
	b.ReportMetric(median(relayRatios), "median-relay-rw/direct")
	b.ReportMetric(median(overRelay), "median-bridged/relay-rw")
	b.ReportMetric(median(cpuPerMsg), "bridge-cpu-us/msg")
	b.ReportMetric(float64(direct.Milliseconds())/float64(len(ratios)), "direct-ms/turn")
	b.ReportMetric(float64(relay.Milliseconds())/float64(len(ratios)), "relay-rw-ms/turn")
	b.ReportMetric(float64(bridged.Milliseconds())/float64(len(ratios)), "bridged-ms/turn")
	b.Logf("bridged/direct %.2f; relay-rw/direct %.2f; bridge CPU us/message %.2f", ratios, relayRatios, cpuPerMsg)
}
