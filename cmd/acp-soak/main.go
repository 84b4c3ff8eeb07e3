// Command acp-soak drives long turns of mixed agent traffic through a built
// acp-bridge and prints what the bridge cost: peak RSS, CPU per message and
// the stream's wall time against a direct pipe (see internal/soak).
//
//	acp-soak -bridge ./acp-bridge -mix runs -messages 200000 -features none,all
//	acp-soak agent -mix runs -messages 200000   (the fake agent, run by the above)
package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/acp-bridge/acp-bridge/internal/soak"
)

func main() {
	if err := run(os.Args[1:], os.Stdin, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "acp-soak:", err)
		os.Exit(1)
	}
}

func run(args []string, stdin io.Reader, stdout io.Writer) error {
	if len(args) > 0 && args[0] == "agent" {
		return runAgent(args[1:], stdin, stdout)
	}
	fs := flag.NewFlagSet("acp-soak", flag.ContinueOnError)
	bridge := fs.String("bridge", "", "built acp-bridge `binary` (required)")
	mixName := fs.String("mix", "prose", "the turns' text: prose or runs")
	messages := fs.Int("messages", 10000, "session/update messages per turn")
	turns := fs.Int("turns", 1, "turns per session")
	sessions := fs.Int("sessions", 1, "sessions, one after another, over the same bridge")
	features := fs.String("features", "none,policy+audit,compress,all", "comma-separated feature sets to run: none, policy+audit, compress, all")
	policy := fs.String("policy", "GOVERNANCE.md", "GOVERNANCE.md `file` for policy+audit and all")
	sample := fs.Int("sample", 0, "print the bridge's RSS every `N` messages (0: never)")
	timeout := fs.Duration("timeout", 30*time.Minute, "bound on each run")
	dir := fs.String("dir", "", "working `directory` for the audit log and cache (default: a new temporary one)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	mix, err := soak.ParseMix(*mixName)
	if err != nil {
		return err
	}
	var sets []soak.Features
	for _, name := range strings.Split(*features, ",") {
		f, err := soak.ParseFeatures(strings.TrimSpace(name))
		if err != nil {
			return err
		}
		sets = append(sets, f)
	}
	if *bridge == "" {
		return fmt.Errorf("-bridge is required")
	}
	// Each run's bridge starts in a directory of its own: a path given
	// relative to this one is made absolute (a bare -bridge name is looked
	// up in PATH).
	if *policy, err = filepath.Abs(*policy); err != nil {
		return err
	}
	if strings.ContainsRune(*bridge, filepath.Separator) {
		if *bridge, err = filepath.Abs(*bridge); err != nil {
			return err
		}
	}
	self, err := os.Executable()
	if err != nil {
		return err
	}
	work := *dir
	if work == "" {
		if work, err = os.MkdirTemp("", "acp-soak-"); err != nil {
			return err
		}
		defer os.RemoveAll(work)
	}
	cfg := soak.Config{
		Bridge: *bridge, Policy: *policy, Sessions: *sessions, Turns: *turns, SampleEvery: *sample, Timeout: *timeout,
		Agent: []string{self, "agent", "-mix", mix.String(), "-messages", fmt.Sprint(*messages)},
	}
	fmt.Fprintf(stdout, "mix=%s messages/turn=%d turns=%d sessions=%d\n", mix, *messages, *turns, *sessions)
	fmt.Fprintf(stdout, "%-13s %10s %10s %10s %7s %9s %11s %9s\n", "features", "messages", "direct-s", "bridged-s", "ratio", "cpu-s", "cpu-us/msg", "peak-MB")
	for _, f := range sets {
		cfg.Dir, err = os.MkdirTemp(work, f.String()+"-")
		if err != nil {
			return err
		}
		direct, err := soak.Direct(cfg)
		if err != nil {
			return fmt.Errorf("direct: %v", err)
		}
		res, err := soak.Bridged(cfg, f)
		for _, s := range res.Samples {
			fmt.Fprintf(stdout, "rss %s messages=%d rss-mb=%.1f\n", f, s.Messages, float64(s.RSSKB)/1024)
		}
		if err != nil {
			fmt.Fprintf(stdout, "%-13s FAILED after %d messages: %v\n", f, res.Messages, err)
			continue
		}
		fmt.Fprintf(stdout, "%-13s %10d %10.2f %10.2f %7.2f %9.2f %11.2f %9.1f\n", f, res.Messages,
			direct.Wall.Seconds(), res.Wall.Seconds(), res.Wall.Seconds()/direct.Wall.Seconds(),
			res.CPU.Seconds(), float64(res.CPU.Microseconds())/float64(res.Messages), float64(res.PeakRSSKB)/1024)
		_ = os.RemoveAll(cfg.Dir)
	}
	return nil
}

func runAgent(args []string, stdin io.Reader, stdout io.Writer) error {
	fs := flag.NewFlagSet("acp-soak agent", flag.ContinueOnError)
	mixName := fs.String("mix", "prose", "the turns' text: prose or runs")
	messages := fs.Int("messages", 10000, "session/update messages per turn")
	usageEvery := fs.Int("usage-every", 0, "make every `N`th message a usage_update (0: none)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	mix, err := soak.ParseMix(*mixName)
	if err != nil {
		return err
	}
	return soak.ServeAgent(stdin, stdout, soak.AgentConfig{Mix: mix, Messages: *messages, UsageEvery: *usageEvery})
}
