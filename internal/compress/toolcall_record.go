package compress

import (
	"github.com/acp-bridge/acp-bridge/internal/acpparams"
	"github.com/acp-bridge/acp-bridge/internal/acpwire"
)

// recordToolCall records a tool call update that reached the IDE in the
// session's record (the archive and the summary a rollover seeds the
// fresh session with), in the goal-drift watch and, for a completed call
// whose write or edit bodies are large at lvl (the level before the
// update's own text was counted), as TIER_2 events. An update the
// middleware nearer the IDE dropped (governance blocking the call) is
// not recorded: the record says what the IDE was shown, and no event says
// a body the bridge refused was written.
func (p *Pipeline) recordToolCall(s *session, m *acpwire.Message, u *acpparams.Update, lvl Level) {
	s.mu.Lock()
	arts := s.rec.artifactsSeen
	tc := s.rec.toolCall(m.Received, &u.ToolCall)
	newArts := s.rec.artifactsSeen - arts
	var bodies []Artifact
	if u.Status == "completed" {
		for _, path := range tc.paths {
			if a := s.rec.byPath[path]; a != nil && a.Bytes > 0 {
				bodies = append(bodies, *a)
			}
		}
	}
	if w := s.watch; w != nil {
		if u.SessionUpdate == "tool_call" {
			w.obs.ToolCalls++
		}
		for _, path := range tc.paths {
			if !contains(w.obs.Touched, path) {
				w.obs.Touched = append(w.obs.Touched, path)
			}
		}
		w.obs.Edits += newArts
	}
	s.mu.Unlock()
	for _, a := range bodies {
		p.tier2(s, lvl, a.Path, a.Bytes)
	}
}
