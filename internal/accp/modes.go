package accp

// Budget says what a Session's Encode does with the frame token limits of
// section 3.4. The zero value is what the draft asks for.
type Budget int

const (
	// BudgetSplit sends a frame over the limits as a frame sequence
	// (section 3.4).
	BudgetSplit Budget = iota
	// BudgetReject makes a frame over the limits an E2003 error.
	BudgetReject
	// BudgetIgnore does not check the limits: for frames the bridge builds
	// itself, whose size the ACP message they carry decides.
	BudgetIgnore
)

// Checkpoints says how much of section 5's checkpointing a Session does.
// The zero value is what the draft asks for.
type Checkpoints int

const (
	// CheckpointAuto keeps hot state and checkpoints when a trigger of
	// section 5.2 fires.
	CheckpointAuto Checkpoints = iota
	// CheckpointManual keeps hot state but checkpoints only when
	// Checkpoint is called.
	CheckpointManual
	// CheckpointNone keeps no hot state: the frames a session encodes,
	// seals or receives are not held for a checkpoint, so a long session's
	// memory does not grow with its frames, and a checkpoint covers no
	// frames. For sessions that never checkpoint.
	CheckpointNone
)
