package audit

import "strings"

// One decision often leaves several records: a tool call is recorded when
// its input is known and again when it completes; a blocked read is a
// policy.violation of the agent's tool call and an fs.read refused when
// the agent asks the IDE for the file; an approval is a tool.call, an
// approval.recorded and the write it covers. Summaries count decisions,
// not records: records of one session and one decision value are one
// decision when they share a target, the tool call id, or, within one
// prompt turn, a path or a command.

// decisionCounter groups decision records by what they decided about.
type decisionCounter struct {
	groups map[string]int // target key -> group
	count  map[string]int // decision -> groups
	n      int
}

func newDecisionCounter() *decisionCounter {
	return &decisionCounter{groups: make(map[string]int), count: make(map[string]int)}
}

// newTurn forgets paths and commands: the same file read in two turns is
// two decisions.
func (d *decisionCounter) newTurn() {
	for k := range d.groups {
		if !strings.Contains(k, "\x00call:") {
			delete(d.groups, k)
		}
	}
}

// add counts e if it holds a decision that no earlier record of the same
// decision and target holds.
func (d *decisionCounter) add(e *Entry) {
	dec := e.Decision()
	if dec == "" {
		return
	}
	keys := decisionTargets(e)
	group := -1
	for _, k := range keys {
		if g, ok := d.groups[dec+"\x00"+k]; ok {
			group = g
			break
		}
	}
	if group < 0 {
		d.n++
		group = d.n
		d.count[dec]++
	}
	for _, k := range keys {
		d.groups[dec+"\x00"+k] = group
	}
}

// decisionTargets lists what e decided about: its tool call, the paths
// and the command it names.
func decisionTargets(e *Entry) []string {
	var keys []string
	if tc := e.ToolCall; tc != nil && tc.ToolCallID != "" {
		keys = append(keys, "call:"+tc.ToolCallID)
	}
	switch e.Subject.Kind {
	case "tool-call":
		if e.Subject.Ref != "" {
			keys = append(keys, "call:"+e.Subject.Ref)
		}
		if e.Subject.Path != "" {
			keys = append(keys, "path:"+e.Subject.Path)
		}
	case "terminal":
		if e.Subject.Ref != "" {
			keys = append(keys, "cmd:"+e.Subject.Ref)
		}
	default:
		if e.Subject.Path != "" {
			keys = append(keys, "path:"+e.Subject.Path)
		}
	}
	if a, err := e.Targets(); err == nil {
		for _, p := range []string{a.Path, a.FilePath, a.AbsPath} {
			if p != "" {
				keys = append(keys, "path:"+p)
			}
		}
		if a.Command != "" {
			keys = append(keys, "cmd:"+a.Command)
		}
	}
	if len(keys) == 0 {
		keys = append(keys, "record:"+e.Hash)
	}
	return keys
}
