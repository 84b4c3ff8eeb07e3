package compress

import (
	"fmt"
	"strconv"
	"sync"
	"time"

	"github.com/acp-bridge/acp-bridge/internal/accp"
)

// warmState keeps a session's compact state with the ACCP codec (ACCP
// section 5): the pipeline sets key/value state as it observes the session
// (intent, artifacts, plan, facts, level), each turn end encodes the delta
// since the last checkpoint as a sync:state frame, and each tier-3
// checkpoint runs accp.Checkpoint, which moves the frames to cold state and
// leaves a summary of at most 100 tokens in warm state. The full Markdown
// Session Summary of the last verified checkpoint is kept in cold state
// under "summary", so a rejected summary falls back to it.
type warmState struct {
	mu     sync.Mutex // guards frames, last, lastID
	sess   *accp.Session
	frames []string // checkpoint and delta frames, in order
	last   string   // last verified Session Summary (Markdown)
	lastID string   // its checkpoint id
}

func newWarmState(id string, store *accp.Store, clock func() time.Time) *warmState {
	return &warmState{sess: accp.NewSession(id, accp.Options{Store: store, Clock: clock, Checkpoints: accp.CheckpointManual, Inline: true, Budget: accp.BudgetIgnore})}
}

// observe sets the state keys describing r.
func (w *warmState) observe(r *Recorder, level Level) {
	s := w.sess
	s.SetState("intent", accp.String(oneLine(r.Intent(), 200)))
	s.SetState("msgs", accp.Int(int64(r.UserCount())))
	arts := make([]accp.Value, 0, len(r.artifacts))
	for _, a := range r.artifacts {
		arts = append(arts, accp.Map(accp.Field{Key: "p", Val: accp.String(a.Path)}, accp.Field{Key: "st", Val: accp.String(a.Status)}))
	}
	s.SetState("arts", accp.Array(arts...))
	var plan []accp.Value
	for _, e := range r.plan {
		plan = append(plan, accp.String(e.Status+" "+oneLine(e.Content, 80)))
	}
	s.SetState("plan", accp.Array(plan...))
	facts := make([]accp.Value, 0, len(r.facts))
	for _, f := range r.facts {
		facts = append(facts, accp.String(f))
	}
	s.SetState("facts", accp.Array(facts...))
	s.SetState("lvl", accp.String(level.String()))
}

// delta encodes what changed since the last checkpoint or delta as a
// sync:state frame and keeps it; it returns the frame, or "" if nothing
// changed.
func (w *warmState) delta() (string, error) {
	m := w.sess.StateDelta("acp-bridge")
	if m == nil {
		return "", nil
	}
	frames, err := w.sess.Encode(*m)
	if err != nil {
		return "", fmt.Errorf("encoding state delta: %v", err)
	}
	w.mu.Lock()
	w.keep(frames...)
	w.mu.Unlock()
	if len(frames) == 0 {
		return "", nil
	}
	return frames[len(frames)-1], nil
}

// checkpoint stores a verified Session Summary and runs an ACCP checkpoint;
// it returns the checkpoint id ("ckpt_N").
func (w *warmState) checkpoint(markdown string) (accp.CheckpointResult, error) {
	if _, err := w.delta(); err != nil {
		return accp.CheckpointResult{}, err
	}
	res := w.sess.Checkpoint()
	w.sess.Put(accp.Cold, "summary_"+strconv.Itoa(res.N), accp.String(markdown), 0)
	w.sess.Put(accp.Cold, "summary", accp.String(markdown), 0)
	w.mu.Lock()
	w.keep("$warm." + res.ID + " " + res.Summary)
	w.last, w.lastID = markdown, res.ID
	w.mu.Unlock()
	return res, nil
}

// maxWarmFrames bounds the frames a warmState keeps (one delta a turn);
// the oldest go first.
const maxWarmFrames = 256

// keep appends frames to w.frames within maxWarmFrames; w.mu is held.
func (w *warmState) keep(frames ...string) {
	w.frames = append(w.frames, frames...)
	if n := len(w.frames) - maxWarmFrames; n > 0 {
		w.frames = append(w.frames[:0], w.frames[n:]...)
	}
}

// previous returns the last verified Session Summary and its checkpoint id.
func (w *warmState) previous() (string, string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.last, w.lastID
}

// Frames returns the ACCP frames kept so far.
func (w *warmState) Frames() []string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return append([]string(nil), w.frames...)
}

// budget returns the ACCP token budget of the session.
func (w *warmState) budget() accp.TokenBudget { return w.sess.GetBudget() }
