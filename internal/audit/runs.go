package audit

import (
	"cmp"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"regexp"
	"strings"
	"time"
)

// runIDPattern is what a run id may be (the schema's runId).
var runIDPattern = regexp.MustCompile(`^[0-9A-Za-z][0-9A-Za-z._-]{0,63}$`)

// newRunID names a run by when it started, with 32 random bits so that
// two bridges started in the same second differ.
func newRunID(now time.Time) string {
	var b [4]byte
	rand.Read(b[:])
	return now.UTC().Format("20060102T150405Z") + "-" + hex.EncodeToString(b[:])
}

// AgentInfoAction is the action of the event that records what the agent
// said about itself in its initialize response (ACP agentInfo: name,
// title, version). Reviews name a run's agent from it.
const AgentInfoAction = "agent.info"

// RunInfo describes one bridge run (one Log: one runId) as its events
// tell it.
type RunInfo struct {
	// ID is the runId; empty for events written before run ids existed.
	ID         string
	Start, End time.Time
	// Agent names the agent: the agentInfo it reported (title or name,
	// and version), else the id of the actor acting as operator.
	Agent string
	// Reported is set when Agent comes from the agent's own agentInfo
	// (what the agent claims, not something the bridge checked); Name is
	// then its agentInfo.name.
	Reported bool
	Name     string
	// Command is the agent's command line from bridge.start.
	Command []string
}

// Runs describes the runs of entries, in order of first appearance.
func Runs(entries []Entry) []RunInfo {
	var out []RunInfo
	index := make(map[string]int)
	for i := range entries {
		e := &entries[i]
		k, ok := index[e.RunID]
		if !ok {
			k = len(out)
			index[e.RunID] = k
			out = append(out, RunInfo{ID: e.RunID, Start: e.Time})
		}
		out[k].learn(e)
	}
	return out
}

// learn takes what e says about its run.
func (r *RunInfo) learn(e *Entry) {
	if r.Start.IsZero() || e.Time.Before(r.Start) {
		r.Start = e.Time
	}
	if e.Time.After(r.End) {
		r.End = e.Time
	}
	switch {
	case e.Action == AgentInfoAction:
		var info struct {
			Name    string `json:"name"`
			Title   string `json:"title"`
			Version string `json:"version"`
		}
		if json.Unmarshal(e.Input, &info) == nil && (info.Name != "" || info.Title != "") {
			name := info.Name
			if info.Title != "" && info.Title != info.Name {
				name = info.Title + " (" + info.Name + ")"
			}
			r.Agent = strings.TrimSpace(name + " " + info.Version)
			r.Reported, r.Name = true, cmp.Or(info.Name, info.Title)
		}
	case e.Action == "bridge.start":
		var in struct {
			Agent []string `json:"agent"`
		}
		if json.Unmarshal(e.Input, &in) == nil {
			r.Command = in.Agent
		}
	case e.Actor.Role == "operator" && !r.Reported && r.Agent == "":
		r.Agent = e.Actor.ID
	}
}

// lifecycleActions are records of state changes rather than of anything
// the agent or a person did; reviews hide them unless asked, and show what
// they say in the run and session headings instead.
var lifecycleActions = map[string]bool{
	"operator.lifecycle": true,
	"session.start":      true,
	"session.end":        true,
	"bridge.start":       true,
	"bridge.stop":        true,
	AgentInfoAction:      true,
}

// IsLifecycle reports whether e only records a state change (an operator
// lifecycle transition, a session or bridge starting or ending, the
// agent's self-description) and holds no policy decision.
func (e *Entry) IsLifecycle() bool {
	return lifecycleActions[e.Action] && e.Decision() == ""
}
