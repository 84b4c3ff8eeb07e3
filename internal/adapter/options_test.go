package adapter

import (
	"slices"
	"testing"

	"github.com/acp-bridge/acp-bridge/internal/acpwire"
	"github.com/acp-bridge/acp-bridge/internal/governance"
)

func TestOptionsFrom(t *testing.T) {
	agent := &acpwire.AgentCommand{Path: "gemini", Args: []string{"--acp"}}
	t.Run("no governance, no compression", func(t *testing.T) {
		o := OptionsFrom(agent, nil, nil, nil)
		if o.Agent != agent || o.Engine != nil || !o.Config.Rules.Empty() || o.ReadLimit.Threshold != 0 || o.Events != nil {
			t.Errorf("OptionsFrom(nil, nil) = %+v, want only the agent", o)
		}
	})
	t.Run("policy", func(t *testing.T) {
		e, _ := loadTestEngine(t)
		g := &governance.Setup{Policy: e.Policy(), Engine: e, Operator: "agent:gemini", FailOpen: true}
		o := OptionsFrom(agent, g, nil, nil)
		if o.Engine == nil || o.Config.Protect == nil || o.Config.Operator != "agent:gemini" || !o.FailOpen {
			t.Errorf("engine %v, protect %v, operator %q, fail open %v: want the setup's", o.Engine != nil, o.Config.Protect != nil, o.Config.Operator, o.FailOpen)
		}
		if !slices.Contains(o.Config.Rules.Deny, "Bash(rm:*)") {
			t.Errorf("deny rules %q lack the policy's Bash(rm:*)", o.Config.Rules.Deny)
		}
		if len(o.Config.Rules.Deny) <= 2 {
			t.Errorf("deny rules %q lack the engine's implicit rules", o.Config.Rules.Deny)
		}
	})
}
