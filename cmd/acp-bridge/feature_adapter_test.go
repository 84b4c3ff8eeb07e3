package main

import (
	"context"
	"flag"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/acp-bridge/acp-bridge/internal/acpwire"
	"github.com/acp-bridge/acp-bridge/internal/adapter"
	"github.com/acp-bridge/acp-bridge/internal/governance"
)

func adapterTestSetup(t *testing.T, argv ...string) *bridgeSetup {
	t.Helper()
	dir := t.TempDir()
	file := filepath.Join(dir, "GOVERNANCE.md")
	policy := "---\nschema: governance.workspace/v1\nname: adapter-feature\ntitle: Adapter feature\ndescription: The adapter feature tests.\nversion: 1.0.0\nrules:\n  default: allow\n  deny: [Bash(rm:*), Read(**/.env)]\n---\n"
	if err := os.WriteFile(file, []byte(policy), 0o644); err != nil {
		t.Fatal(err)
	}
	p, err := governance.LoadPolicy(file)
	if err != nil {
		t.Fatal(err)
	}
	s := &bridgeSetup{
		Bridge:     acpwire.New(acpwire.Options{}),
		Agent:      &acpwire.AgentCommand{Path: argv[0], Args: argv[1:]},
		Logger:     slog.New(slog.DiscardHandler),
		Stderr:     io.Discard,
		Governance: &governance.Setup{Policy: p, Engine: governance.NewEngine(p, governance.EngineOptions{})},
	}
	t.Cleanup(func() {
		for i := len(s.cleanups) - 1; i >= 0; i-- {
			s.cleanups[i]()
		}
	})
	return s
}

// runAdapterSetup runs the adapters feature's setup on s with --adapter mode.
func runAdapterSetup(t *testing.T, s *bridgeSetup, mode string) error {
	t.Helper()
	ft := adapterFeature()
	fs := flag.NewFlagSet("acp-bridge", flag.ContinueOnError)
	ft.flags(fs)
	if err := fs.Parse([]string{"--adapter", mode}); err != nil {
		t.Fatal(err)
	}
	return ft.setup(context.Background(), s)
}

func TestAdapterFeatureGemini(t *testing.T) {
	for _, tt := range []struct {
		name, mode string
		argv       []string
	}{
		{"recognised", "auto", []string{"gemini", "--acp"}},
		{"forced through a wrapper", "gemini", []string{"./start-gemini.sh", "--acp"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			s := adapterTestSetup(t, tt.argv...)
			if err := runAdapterSetup(t, s, tt.mode); err != nil {
				t.Fatal(err)
			}
			i := slices.Index(s.Agent.Args, "--admin-policy")
			if i < 0 || i+1 >= len(s.Agent.Args) {
				t.Fatalf("agent args %q lack --admin-policy FILE", s.Agent.Args)
			}
			b, err := os.ReadFile(s.Agent.Args[i+1])
			if err != nil || !strings.Contains(string(b), "commandPrefix = 'rm'") {
				t.Errorf("policy file: %v\n%s", err, b)
			}
		})
	}
}

func TestAdapterFeatureClaude(t *testing.T) {
	s := adapterTestSetup(t, "npx", "@zed-industries/claude-agent-acp")
	s.Agent.Env = []string{"PATH=/usr/bin"}
	if err := runAdapterSetup(t, s, "auto"); err != nil {
		t.Fatal(err)
	}
	if len(s.Agent.Env) != 2 || !strings.HasPrefix(s.Agent.Env[1], adapter.HookSocketEnv+"=") {
		t.Fatalf("agent env = %q, want the hook socket added", s.Agent.Env)
	}
	sock := strings.TrimPrefix(s.Agent.Env[1], adapter.HookSocketEnv+"=")
	if st, err := os.Stat(sock); err != nil || st.Mode()&os.ModeSocket == 0 {
		t.Errorf("hook socket %s: %v", sock, err)
	}
	for i := len(s.cleanups) - 1; i >= 0; i-- {
		s.cleanups[i]()
	}
	s.cleanups = nil
	if _, err := os.Stat(sock); !os.IsNotExist(err) {
		t.Errorf("hook socket left after the bridge stopped: %v", err)
	}
}

func TestAdapterFeatureNoneAndUnknown(t *testing.T) {
	for _, tt := range []struct {
		name, mode string
		argv       []string
	}{
		{"disabled", "none", []string{"gemini", "--acp"}},
		{"unknown agent", "auto", []string{"codex-acp"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			s := adapterTestSetup(t, tt.argv...)
			before := slices.Clone(s.Agent.Args)
			if err := runAdapterSetup(t, s, tt.mode); err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(s.Agent.Args, before) || s.Agent.Env != nil {
				t.Errorf("agent command changed: %q %q", s.Agent.Args, s.Agent.Env)
			}
		})
	}
	s := adapterTestSetup(t, "gemini", "--acp")
	if err := runAdapterSetup(t, s, "codex"); err == nil {
		t.Error("--adapter codex was accepted")
	}
}
