package aacp

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

func TestCommandEncoder(t *testing.T) {
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Skip("no sh:", err)
	}
	ctx := context.Background()
	tests := []struct {
		name, script, want, wantErr string
	}{
		{"packet", `read x; printf '\nACK|IT|return:IT-Agent|p:2|aacp:1.1|subj:%s\n' "$x"`, "ACK|IT|return:IT-Agent|p:2|aacp:1.1|subj:hello there", ""},
		{"invalid packet", `echo 'ACK|IT|p:2'`, "", "E011"},
		{"nothing printed", `true`, "", "printed no packet"},
		{"failure", `echo model down >&2; exit 3`, "", "model down"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := &CommandEncoder{Path: sh, Args: []string{"-c", tt.script}}
			p, err := c.Encode(ctx, "hello there")
			switch {
			case tt.wantErr != "":
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Errorf("Encode error = %v, want one containing %q", err, tt.wantErr)
				}
			case err != nil:
				t.Fatal(err)
			case p.String() != tt.want:
				t.Errorf("Encode = %s, want %s", p, tt.want)
			}
		})
	}
}

// TestCommandEncoderInRegistry: the plug-in is called once, then the cache
// serves the instruction, and the registry records the plug-in's name.
func TestCommandEncoderInRegistry(t *testing.T) {
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Skip("no sh:", err)
	}
	dir := t.TempDir()
	counter := filepath.Join(dir, "calls")
	c := &CommandEncoder{Path: sh, Args: []string{"-c", `echo x >> "$0"; echo 'ACK|FIN|return:FIN-Agent|p:2|aacp:1.1'`, counter}}
	r, err := OpenRegistry(RegistryOptions{Path: filepath.Join(dir, "r.json"), Encoder: c})
	if err != nil {
		t.Fatal(err)
	}
	for i, want := range []Tier{TierEncoder, TierCache, TierCache} {
		res, err := r.Encode(context.Background(), novel)
		if err != nil {
			t.Fatal(err)
		}
		if res.Tier != want {
			t.Errorf("call %d: tier %v, want %v", i, res.Tier, want)
		}
	}
	if e := r.Entries(); len(e) != 1 || e[0].Source != "command:sh" {
		t.Errorf("entries = %+v", e)
	}
	calls, err := os.ReadFile(counter)
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(calls), "\n"); n != 1 {
		t.Errorf("plug-in ran %d times, want 1", n)
	}
}
