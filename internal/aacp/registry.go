package aacp

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync"
)

// ErrNoEncoder is returned by Registry.Encode when an instruction misses the
// cache and every pattern, and no Encoder is plugged in for tier 3.
var ErrNoEncoder = errors.New("no encoder")

// An Encoder encodes instructions that neither the registry nor the rules
// cover: tier 3 of the fallback, typically a language model given the AACP
// specification as its system prompt. The registry validates what it returns
// and caches it, so each new instruction costs at most one call.
//
// An Encoder may be called from several goroutines at once. If it also has a
// method Name() string, the name is recorded as the source of cached packets.
type Encoder interface {
	Encode(ctx context.Context, instruction string) (*Packet, error)
}

// EncoderFunc adapts a function to the Encoder interface.
type EncoderFunc func(ctx context.Context, instruction string) (*Packet, error)

// Encode calls f.
func (f EncoderFunc) Encode(ctx context.Context, instruction string) (*Packet, error) {
	return f(ctx, instruction)
}

// Tier says which tier of the fallback produced a packet.
type Tier int

const (
	// TierCache is an exact hit: the normalised instruction's SHA-256 is in
	// the registry.
	TierCache Tier = 1
	// TierPattern is a keyword match above the threshold, against a registry
	// entry (its cached packet is returned) or a rule (the rule encodes).
	TierPattern Tier = 2
	// TierEncoder is the plugged-in Encoder; its packet is then cached.
	TierEncoder Tier = 3
)

// String returns "cache", "pattern" or "encoder".
func (t Tier) String() string {
	switch t {
	case TierCache:
		return "cache"
	case TierPattern:
		return "pattern"
	case TierEncoder:
		return "encoder"
	}
	return fmt.Sprintf("Tier(%d)", int(t))
}

// A Result is what Registry.Encode produced and how.
type Result struct {
	Packet *Packet
	Tier   Tier
	// Match names what matched: the entry's hash for a registry entry (tiers
	// 1 and 2), "rule:" and the rule's name for a rule, or the encoder's
	// source name (tier 3).
	Match string
	// Score is the keyword score of a tier-2 match, 1 for tier 1, and 0 for
	// tier 3.
	Score float64
	// Warnings are the packet's advisory diagnostics.
	Warnings Diagnostics
}

// An Entry is one cached instruction in the registry file.
type Entry struct {
	Hash        string   `json:"hash"`        // hex SHA-256 of Normalize(Instruction)
	Instruction string   `json:"instruction"` // as first seen
	Keywords    []string `json:"keywords"`    // Keywords(Instruction), for tier 2
	Packet      string   `json:"packet"`      // the packet, canonical form
	Source      string   `json:"source"`      // who produced the packet, e.g. the encoder's name
	TimesSeen   int      `json:"times_seen"`  // how often the instruction was encoded
}

// registryFile is the JSON document stored on disk.
type registryFile struct {
	Version int     `json:"version"`
	Entries []Entry `json:"entries"`
}

const registryVersion = 1

// RegistryOptions configures OpenRegistry. Every field is optional.
type RegistryOptions struct {
	// Path is the registry's JSON file. If empty, the registry lives in
	// memory only. The file is created with mode 0600 and always replaced
	// atomically (temporary file, then rename).
	Path string
	// Threshold is the tier-2 keyword score needed for a match; if zero,
	// DefaultThreshold.
	Threshold float64
	// Rules are the tier-2 built-in patterns; if nil, a RuleEncoder with
	// DefaultRules. The registry's Threshold applies to them, not theirs.
	Rules *RuleEncoder
	// Encoder is tier 3; if nil, tier 3 fails with ErrNoEncoder.
	Encoder Encoder
	// Logger receives one debug record per encoding and a warning when the
	// file is readable by others; if nil, logs are discarded.
	Logger *slog.Logger
}

// A Registry encodes instructions through the three tiers of draft section
// 6.3 and remembers what tier 3 produced. It is safe for concurrent use
// within one process; two processes sharing a file do not lock it, and the
// last to write wins.
type Registry struct {
	path      string
	threshold float64
	rules     *RuleEncoder
	enc       Encoder
	log       *slog.Logger

	mu       sync.Mutex // guards entries, inflight and the file
	entries  []Entry
	inflight map[string]chan struct{} // hash -> closed when its tier-3 call ends
}

// OpenRegistry loads the registry file named in opts, if it exists, and
// returns a Registry. A missing file is an empty registry; it is created on
// the first write.
func OpenRegistry(opts RegistryOptions) (*Registry, error) {
	r := &Registry{path: opts.Path, threshold: opts.Threshold, rules: opts.Rules, enc: opts.Encoder, log: opts.Logger}
	if r.threshold == 0 {
		r.threshold = DefaultThreshold
	}
	if r.rules == nil {
		r.rules = &RuleEncoder{Threshold: r.threshold}
	}
	if r.log == nil {
		r.log = slog.New(slog.DiscardHandler)
	}
	if r.path == "" {
		return r, nil
	}
	data, err := os.ReadFile(r.path)
	if errors.Is(err, fs.ErrNotExist) {
		return r, nil
	}
	if err != nil {
		return nil, fmt.Errorf("reading registry: %w", err)
	}
	if fi, err := os.Stat(r.path); err == nil && fi.Mode().Perm()&0o077 != 0 {
		r.log.Warn("aacp registry file is accessible to other users; it is rewritten with mode 0600 on the next change",
			"path", r.path, "mode", fi.Mode().Perm().String())
	}
	var f registryFile
	if err := json.Unmarshal(data, &f); err != nil {
		return nil, fmt.Errorf("reading registry %s: %v", r.path, err)
	}
	if f.Version != registryVersion {
		return nil, fmt.Errorf("reading registry %s: unsupported version %d (want %d)", r.path, f.Version, registryVersion)
	}
	for i, e := range f.Entries {
		if e.Hash != Hash(e.Instruction) {
			return nil, fmt.Errorf("reading registry %s: entry %d: hash does not match its instruction (edited by hand?)", r.path, i+1)
		}
		if _, ds := Parse(e.Packet); ds.HasErrors() {
			return nil, fmt.Errorf("reading registry %s: entry %d: %w", r.path, i+1, ds.Err())
		}
	}
	r.entries = f.Entries
	return r, nil
}

// Normalize returns the form of an instruction that is hashed for tier 1:
// lower-cased, with runs of white space collapsed to one space and none at
// either end.
func Normalize(instruction string) string {
	return strings.Join(strings.Fields(strings.ToLower(instruction)), " ")
}

// Hash returns the hex SHA-256 of Normalize(instruction), the tier-1 key.
func Hash(instruction string) string {
	sum := sha256.Sum256([]byte(Normalize(instruction)))
	return hex.EncodeToString(sum[:])
}

// Entries returns a copy of the registry's entries, in insertion order.
func (r *Registry) Entries() []Entry {
	r.mu.Lock()
	defer r.mu.Unlock()
	out := make([]Entry, len(r.entries))
	for i, e := range r.entries {
		e.Keywords = append([]string(nil), e.Keywords...)
		out[i] = e
	}
	return out
}

// Add caches packet p for the instruction (replacing an earlier entry for the
// same normalised instruction) and saves the file. It rejects a packet with
// error-severity diagnostics, and leaves the registry unchanged when the file
// cannot be written.
func (r *Registry) Add(instruction string, p *Packet, source string) error {
	if Normalize(instruction) == "" {
		return errors.New("adding to registry: empty instruction")
	}
	if err := p.Validate().Err(); err != nil {
		return fmt.Errorf("adding to registry: %w", err)
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	before := append([]Entry(nil), r.entries...)
	r.put(instruction, p, source)
	if err := r.save(); err != nil {
		r.entries = before
		return err
	}
	return nil
}

// put adds or replaces the entry for instruction. r.mu must be held.
func (r *Registry) put(instruction string, p *Packet, source string) {
	e := Entry{Hash: Hash(instruction), Instruction: instruction, Keywords: Keywords(instruction),
		Packet: p.String(), Source: source, TimesSeen: 1}
	for i := range r.entries {
		if r.entries[i].Hash == e.Hash {
			r.entries[i] = e
			return
		}
	}
	r.entries = append(r.entries, e)
}

// Encode encodes an instruction through the three tiers: (1) the cached
// packet of the same normalised instruction, counting the hit; (2) the best
// keyword match at or above the threshold among registry entries and rules,
// registry entries winning ties; (3) the plugged-in Encoder, whose packet is
// validated and cached. Without an Encoder, tier 3 returns an error wrapping
// ErrNoEncoder.
func (r *Registry) Encode(ctx context.Context, instruction string) (Result, error) {
	if Normalize(instruction) == "" {
		return Result{}, errors.New("empty instruction")
	}
	hash := Hash(instruction)
	kw := Keywords(instruction)

	r.mu.Lock()
	for {
		res, ok, err := r.lookup(hash, kw, instruction)
		if err != nil || ok {
			r.mu.Unlock()
			if ok {
				r.log.Debug("aacp encode", "tier", res.Tier.String(), "match", res.Match, "score", res.Score)
			}
			return res, err
		}
		if r.enc == nil {
			_, s, _ := r.best(kw)
			r.mu.Unlock()
			return Result{}, fmt.Errorf("%w: instruction not cached and no pattern reaches the threshold (best score %s < %s)",
				ErrNoEncoder, formatScore(s), formatScore(r.threshold))
		}
		// One tier-3 call per instruction: others asking for the same one
		// wait for it and then find it in the cache.
		wait, busy := r.inflight[hash]
		if !busy {
			break
		}
		r.mu.Unlock()
		select {
		case <-wait:
		case <-ctx.Done():
			return Result{}, ctx.Err()
		}
		r.mu.Lock()
	}
	if r.inflight == nil {
		r.inflight = make(map[string]chan struct{})
	}
	done := make(chan struct{})
	r.inflight[hash] = done
	r.mu.Unlock()
	defer func() {
		r.mu.Lock()
		delete(r.inflight, hash)
		r.mu.Unlock()
		close(done)
	}()

	// Tier 3, without holding the lock: a model call can take seconds.
	p, err := r.enc.Encode(ctx, instruction)
	if err != nil {
		return Result{}, fmt.Errorf("tier-3 encoder: %w", err)
	}
	if p == nil {
		return Result{}, errors.New("tier-3 encoder returned no packet")
	}
	ds := p.Validate()
	if err := ds.Err(); err != nil {
		return Result{}, fmt.Errorf("tier-3 encoder: %w", err)
	}
	source := "encoder"
	if n, ok := r.enc.(interface{ Name() string }); ok {
		source = n.Name()
	}
	r.mu.Lock()
	r.put(instruction, p, source)
	if err := r.save(); err != nil {
		// The packet cost a call: serve it and keep it in memory even if
		// the file cannot take it.
		r.log.Warn("aacp registry: cannot save a tier-3 packet", "err", err)
	}
	r.mu.Unlock()
	r.log.Debug("aacp encode", "tier", TierEncoder.String(), "match", source)
	return Result{Packet: p, Tier: TierEncoder, Match: source, Warnings: ds}, nil
}

// lookup runs tiers 1 and 2. r.mu must be held.
func (r *Registry) lookup(hash string, kw []string, instruction string) (Result, bool, error) {
	for i := range r.entries {
		e := &r.entries[i]
		if e.Hash != hash {
			continue
		}
		p, ds := Parse(e.Packet)
		if err := ds.Err(); err != nil {
			return Result{}, false, fmt.Errorf("registry entry %s: %w", e.Hash, err)
		}
		e.TimesSeen++
		if err := r.save(); err != nil {
			// The counter is bookkeeping: a registry that cannot be written
			// (read-only, disk full) still serves its cache.
			r.log.Warn("aacp registry: cannot record a cache hit", "err", err)
		}
		return Result{Packet: p, Tier: TierCache, Match: e.Hash, Score: 1, Warnings: ds}, true, nil
	}
	entry, s, rule := r.best(kw)
	if s == 0 || s < r.threshold {
		return Result{}, false, nil
	}
	if entry != nil {
		p, ds := Parse(entry.Packet)
		if err := ds.Err(); err != nil {
			return Result{}, false, fmt.Errorf("registry entry %s: %w", entry.Hash, err)
		}
		return Result{Packet: p, Tier: TierPattern, Match: entry.Hash, Score: s, Warnings: ds}, true, nil
	}
	p, err := EncodeRule(instruction, rule)
	if err != nil {
		return Result{}, false, err
	}
	return Result{Packet: p, Tier: TierPattern, Match: "rule:" + rule.Name, Score: s, Warnings: p.Validate()}, true, nil
}

// best returns the best tier-2 candidate, a registry entry (non-nil) or else
// a rule, and its score. r.mu must be held.
func (r *Registry) best(kw []string) (*Entry, float64, Rule) {
	have := setOf(kw)
	var entry *Entry
	bestScore := 0.0
	for i := range r.entries {
		if s := score(have, r.entries[i].Keywords); s > bestScore {
			entry, bestScore = &r.entries[i], s
		}
	}
	rule, rs, _ := r.rules.match(kw)
	if rs > bestScore {
		return nil, rs, rule
	}
	return entry, bestScore, rule
}

// save writes the registry file atomically with mode 0600. r.mu must be held.
func (r *Registry) save() error {
	if r.path == "" {
		return nil
	}
	data, err := json.MarshalIndent(registryFile{Version: registryVersion, Entries: r.entries}, "", "  ")
	if err != nil {
		return fmt.Errorf("writing registry: %v", err)
	}
	data = append(data, '\n')
	return writeFileAtomic(r.path, data)
}

// writeFileAtomic writes data to a temporary file with mode 0600 next to path,
// syncs it and renames it over path, so readers see the old or the new file,
// never a partial one, and the file is never readable by others.
func writeFileAtomic(path string, data []byte) (err error) {
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return fmt.Errorf("writing registry: %w", err)
	}
	defer func() {
		if err != nil {
			tmp.Close()
			os.Remove(tmp.Name())
		}
	}()
	if err := tmp.Chmod(0o600); err != nil {
		return fmt.Errorf("writing registry: %w", err)
	}
	if _, err := tmp.Write(data); err != nil {
		return fmt.Errorf("writing registry: %w", err)
	}
	if err := tmp.Sync(); err != nil {
		return fmt.Errorf("writing registry: %w", err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("writing registry: %w", err)
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return fmt.Errorf("writing registry: %w", err)
	}
	return nil
}
