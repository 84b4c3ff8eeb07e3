package accp

import (
	"context"
	"log/slog"
	"strings"
	"time"
)

// Decode runs the decoding pipeline of section 7.3 on one frame, with the
// delivery checks of 3.7. It returns (nil, nil) for frames dropped
// silently: expired TTL, a cancelled correlation id, or a chunk of a frame
// sequence that is not complete yet.
func (s *Session) Decode(line string) (*Message, error) {
	f, err := s.opt.Limits.Parse(line, s.reg)
	if err != nil {
		return nil, err
	}
	return s.DecodeFrame(f)
}

// DecodeFrame is Decode for an already parsed frame.
func (s *Session) DecodeFrame(f *Frame) (*Message, error) {
	env, err := s.envelope(f)
	if err != nil {
		return nil, err
	}
	now := s.opt.Clock()
	s.mu.Lock()
	defer s.mu.Unlock()
	drop, err := s.deliverLocked(f, env, now)
	if drop || err != nil {
		return nil, err
	}
	cidKey := ""
	if env.CID.Kind != KindNull {
		cidKey = string(AppendValue(nil, env.CID))
	}
	m, err := s.expand(f, env, now)
	if err != nil {
		return nil, err
	}
	if m.Schema == "ST" {
		done, err := s.addChunk(cidKey, m)
		if err != nil {
			return nil, err
		}
		if f.Op == "frame" {
			if done == nil {
				return nil, nil
			}
			inner, err := s.opt.Limits.Parse(done.Data, s.reg)
			if err != nil {
				return nil, err
			}
			m, err = s.expand(inner, env, now)
			if err != nil {
				return nil, err
			}
		} else {
			m.Stream = done
		}
	}
	if f.Intent == "end" && cidKey != "" && m.Schema != "ST" {
		done, err := s.endStream(cidKey)
		if err != nil {
			return nil, err
		}
		m.Stream = done
	}
	if f.Intent == "sync" {
		if err := s.applySync(f); err != nil {
			return nil, err
		}
	}
	line := string(AppendFrame(nil, f))
	s.addHot(line, m)
	if s.log.Enabled(context.Background(), slog.LevelDebug) {
		s.log.Debug("accp: decoded frame", "text", Render(f, s.reg))
	}
	if s.opt.Checkpoints == CheckpointAuto && s.triggersLocked(m.Intent) {
		s.checkpointLocked()
	}
	return m, nil
}

// deliverLocked applies the delivery rules of section 3.7 to a frame: it
// reports drop for expired frames and frames of a cancelled chain, rejects
// duplicates (E3002) and sequence gaps (E3003), and records cancel intents.
func (s *Session) deliverLocked(f *Frame, env Envelope, now time.Time) (drop bool, err error) {
	if !s.opt.AllowUnknownOps && !s.reg.HasOperation(f.Op) {
		return false, errorf(CodeInvalidIntent, -1, "unknown operation %q", f.Op)
	}
	if s.seen[env.MID] {
		return false, errorf(CodeDuplicate, -1, "msg id %s already seen in session %s", env.MID, s.id)
	}
	if s.lastSeq != 0 && env.Seq != s.lastSeq+1 {
		if env.Seq <= s.lastSeq {
			return false, errorf(CodeSequenceGap, -1, "seq %d after %d is out of order", env.Seq, s.lastSeq)
		}
		return false, errorf(CodeSequenceGap, -1, "seq %d after %d: %d frame(s) missing", env.Seq, s.lastSeq, env.Seq-s.lastSeq-1)
	}
	s.seen[strings.Clone(env.MID)] = true // not the line it is part of
	s.lastSeq = env.Seq
	// Dropped frames still take their place in the sequence.
	if env.TTL > 0 && env.TS > 0 && now.Unix() > env.TS+env.TTL {
		s.log.Debug("accp: dropped expired frame", "mid", env.MID)
		return true, nil
	}
	cidKey := ""
	if env.CID.Kind != KindNull {
		cidKey = string(AppendValue(nil, env.CID))
	}
	if cidKey != "" && s.cancelled[cidKey] && f.Intent != "cancel" {
		return true, nil
	}
	if f.Intent == "cancel" && cidKey != "" {
		s.cancelled[cidKey] = true
		delete(s.streams, cidKey)
	}
	return false, nil
}

// Receive parses a frame and applies the envelope and delivery checks of
// sections 3.5 and 3.7 without expanding it: for layers (such as the ACP
// mapping) that read frames with their own keys. It returns (nil, env, nil)
// for a frame dropped silently.
func (s *Session) Receive(line string) (*Frame, Envelope, error) {
	f, err := s.opt.Limits.Parse(line, s.reg)
	if err != nil {
		return nil, Envelope{}, err
	}
	env, drop, err := s.ReceiveFrame(f, line)
	if drop || err != nil {
		return nil, env, err
	}
	return f, env, nil
}

// ReceiveFrame is Receive for a frame already parsed from line (with the
// session's Limits and Registry). drop reports a frame the delivery rules
// drop silently: it was accepted in the sequence but must not be acted on.
func (s *Session) ReceiveFrame(f *Frame, line string) (env Envelope, drop bool, err error) {
	env, err = s.envelope(f)
	if err != nil {
		return env, false, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	drop, err = s.deliverLocked(f, env, s.opt.Clock())
	if drop || err != nil {
		return env, drop, err
	}
	s.addHot(line, nil)
	return env, false, nil
}
