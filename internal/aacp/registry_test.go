package aacp

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"testing/synctest"
)

// countingEncoder is a tier-3 encoder that returns a fixed packet and counts
// its calls, standing in for a language model.
type countingEncoder struct {
	packet string
	calls  atomic.Int32
}

func (c *countingEncoder) Encode(_ context.Context, _ string) (*Packet, error) {
	c.calls.Add(1)
	p, ds := Parse(c.packet)
	if p == nil {
		return &Packet{Task: "BROKEN"}, nil // let the registry's validation catch it
	}
	_ = ds
	return p, nil
}

func (c *countingEncoder) Name() string { return "test-llm" }

const novel = "Kindly acknowledge receipt of the quarterly vendor attestation bundle"

func TestRegistryTiers(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "registry.json")
	enc := &countingEncoder{packet: "ACK|FIN|return:FIN-Agent|p:2|aacp:1.1|res:vendor_attestation"}
	r, err := OpenRegistry(RegistryOptions{Path: path, Encoder: enc})
	if err != nil {
		t.Fatal(err)
	}

	// Tier 2, rule: a known workflow never reaches the encoder.
	res, err := r.Encode(ctx, "Retrieve the employee salary records for August 2024")
	if err != nil {
		t.Fatal(err)
	}
	if res.Tier != TierPattern || res.Match != "rule:payroll-fetch" || res.Score != 0.8 {
		t.Errorf("known workflow: tier %v match %q score %v, want pattern rule:payroll-fetch 0.8", res.Tier, res.Match, res.Score)
	}
	if _, err := os.Stat(path); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a rule match wrote the registry file (stat: %v)", err)
	}

	// Tier 3: a novel instruction calls the encoder once and is cached.
	res, err = r.Encode(ctx, novel)
	if err != nil {
		t.Fatal(err)
	}
	if res.Tier != TierEncoder || res.Match != "test-llm" || res.Packet.String() != enc.packet {
		t.Errorf("novel instruction: %+v", res)
	}

	// Tier 1: the same instruction, differently spaced and cased, is a hit.
	res, err = r.Encode(ctx, "  kindly ACKNOWLEDGE receipt of the   quarterly vendor attestation bundle ")
	if err != nil {
		t.Fatal(err)
	}
	if res.Tier != TierCache || res.Match != Hash(novel) || res.Packet.String() != enc.packet {
		t.Errorf("repeated instruction: %+v", res)
	}

	// Tier 2, registry entry: a similar instruction gets the cached packet.
	res, err = r.Encode(ctx, "Please acknowledge the vendor attestation bundle for this quarter")
	if err != nil {
		t.Fatal(err)
	}
	if res.Tier != TierPattern || res.Match != Hash(novel) || res.Packet.String() != enc.packet {
		t.Errorf("similar instruction: %+v", res)
	}
	if n := enc.calls.Load(); n != 1 {
		t.Errorf("encoder called %d times, want once for one novel instruction", n)
	}

	// The file is 0600, holds one entry seen twice, and a reopened registry
	// serves it from tier 1 without an encoder.
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if fi.Mode().Perm() != 0o600 {
		t.Errorf("registry file mode = %v, want 0600", fi.Mode().Perm())
	}
	var f registryFile
	data, _ := os.ReadFile(path)
	if err := json.Unmarshal(data, &f); err != nil {
		t.Fatal(err)
	}
	if len(f.Entries) != 1 || f.Entries[0].TimesSeen != 2 || f.Entries[0].Source != "test-llm" || f.Entries[0].Hash != Hash(novel) {
		t.Errorf("registry file = %s", data)
	}
	r2, err := OpenRegistry(RegistryOptions{Path: path})
	if err != nil {
		t.Fatal(err)
	}
	if res, err := r2.Encode(ctx, novel); err != nil || res.Tier != TierCache {
		t.Errorf("reopened registry: %+v, %v", res, err)
	}
	entries, _ := filepath.Glob(filepath.Join(filepath.Dir(path), "*"))
	if len(entries) != 1 {
		t.Errorf("directory holds %v, want only the registry (no temporary files left)", entries)
	}
}

func TestRegistryNoEncoder(t *testing.T) {
	r, err := OpenRegistry(RegistryOptions{})
	if err != nil {
		t.Fatal(err)
	}
	_, err = r.Encode(context.Background(), novel)
	if !errors.Is(err, ErrNoEncoder) {
		t.Errorf("Encode without encoder: %v, want ErrNoEncoder", err)
	}
}

func TestRegistryRejectsInvalidTier3(t *testing.T) {
	enc := &countingEncoder{packet: "FETCH|HR|p:1"} // no return:, no aacp:
	r, _ := OpenRegistry(RegistryOptions{Encoder: enc})
	_, err := r.Encode(context.Background(), novel)
	var pe *PacketError
	if !errors.As(err, &pe) {
		t.Fatalf("Encode with an encoder returning an invalid packet: %v, want a *PacketError", err)
	}
	if len(r.Entries()) != 0 {
		t.Errorf("invalid packet was cached: %+v", r.Entries())
	}
}

func TestRegistryFileMode(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "reg.json")
	// A pre-existing file readable by everyone is replaced by a 0600 one.
	if err := os.WriteFile(path, []byte(`{"version":1,"entries":[]}`), 0o644); err != nil {
		t.Fatal(err)
	}
	r, err := OpenRegistry(RegistryOptions{Path: path})
	if err != nil {
		t.Fatal(err)
	}
	p, _ := Parse("ACK|IT|return:IT-Agent|p:2|aacp:1.1")
	if err := r.Add("acknowledge the ticket", p, "manual"); err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if fi.Mode().Perm() != 0o600 {
		t.Errorf("mode after write = %v, want 0600", fi.Mode().Perm())
	}
}

func TestOpenRegistryErrors(t *testing.T) {
	dir := t.TempDir()
	tests := []struct{ name, content, wantErr string }{
		{"garbage", "not json", "invalid character"},
		{"version", `{"version":9,"entries":[]}`, "unsupported version 9"},
		{"stale hash", `{"version":1,"entries":[{"hash":"00","instruction":"x","packet":"ACK|IT|return:A|aacp:1.1"}]}`, "entry 1: hash does not match"},
		{"bad packet", `{"version":1,"entries":[{"hash":"` + Hash("x") + `","instruction":"x","packet":"ACK|IT"}]}`, "entry 1: invalid AACP packet"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(dir, tt.name)
			if err := os.WriteFile(path, []byte(tt.content), 0o600); err != nil {
				t.Fatal(err)
			}
			_, err := OpenRegistry(RegistryOptions{Path: path})
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Errorf("OpenRegistry error = %v, want one containing %q", err, tt.wantErr)
			}
		})
	}
	if _, err := OpenRegistry(RegistryOptions{Path: filepath.Join(dir, "missing.json")}); err != nil {
		t.Errorf("OpenRegistry of a missing file: %v, want an empty registry", err)
	}
}

// gatedEncoder blocks every call until gate is closed.
type gatedEncoder struct {
	countingEncoder
	gate chan struct{}
}

func (g *gatedEncoder) Encode(ctx context.Context, s string) (*Packet, error) {
	<-g.gate
	return g.countingEncoder.Encode(ctx, s)
}

// TestRegistryOneCallPerInstruction: eight goroutines ask for the same novel
// instruction while the encoder is busy; it is called once, and the seven
// others are served from the cache.
func TestRegistryOneCallPerInstruction(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		enc := &gatedEncoder{countingEncoder{packet: "ACK|FIN|return:FIN-Agent|p:2|aacp:1.1"}, make(chan struct{})}
		r, _ := OpenRegistry(RegistryOptions{Encoder: enc})
		tiers := make(chan Tier, 8)
		for range 8 {
			go func() {
				res, err := r.Encode(context.Background(), novel)
				if err != nil {
					t.Error(err)
				}
				tiers <- res.Tier
			}()
		}
		synctest.Wait() // all eight are blocked: one in the encoder, seven waiting for it
		close(enc.gate)
		count := map[Tier]int{}
		for range 8 {
			count[<-tiers]++
		}
		if n := enc.calls.Load(); n != 1 {
			t.Errorf("encoder called %d times, want 1", n)
		}
		if count[TierEncoder] != 1 || count[TierCache] != 7 {
			t.Errorf("tiers served: %v, want 1 encoder and 7 cache", count)
		}
		if e := r.Entries(); len(e) != 1 || e[0].TimesSeen != 8 {
			t.Errorf("entries: %+v, want one seen 8 times", e)
		}
	})
}

// TestRegistryReadOnlyCacheHit: when the file cannot be rewritten, a cache
// hit is still served (only the times_seen counter is lost).
func TestRegistryReadOnlyCacheHit(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "gone")
	if err := os.Mkdir(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	r, err := OpenRegistry(RegistryOptions{Path: filepath.Join(dir, "r.json")})
	if err != nil {
		t.Fatal(err)
	}
	p, _ := Parse("ACK|IT|return:IT-Agent|p:2|aacp:1.1")
	if err := r.Add(novel, p, "manual"); err != nil {
		t.Fatal(err)
	}
	if err := os.RemoveAll(dir); err != nil { // no directory: every write fails, even as root
		t.Fatal(err)
	}
	res, err := r.Encode(context.Background(), novel)
	if err != nil || res.Tier != TierCache || res.Packet.String() != p.String() {
		t.Errorf("cache hit on an unwritable registry: %+v, %v", res, err)
	}
	if err := r.Add("another instruction", p, "manual"); err == nil {
		t.Error("Add on an unwritable registry succeeded")
	}
	if n := len(r.Entries()); n != 1 {
		t.Errorf("%d entries after a failed Add, want 1", n)
	}
	// A tier-3 packet is served, and kept in memory, though it cannot be saved.
	r2, _ := OpenRegistry(RegistryOptions{Path: filepath.Join(dir, "r.json"), Encoder: &countingEncoder{packet: p.String()}})
	for _, want := range []Tier{TierEncoder, TierCache} {
		if res, err := r2.Encode(context.Background(), "a brand new instruction"); err != nil || res.Tier != want {
			t.Errorf("unwritable registry, tier 3 then cache: %+v, %v (want tier %v)", res, err, want)
		}
	}
}
