package audit

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
	groups  map[targetKey]int       // target -> group
	targets map[int]map[string]bool // group -> its paths and commands
	count   map[string]int          // decision -> groups
	n       int
}

// targetKey is one thing a decision record is about, under one decision
// value: kind "call" (a tool call id), "path", "cmd" or "record".
type targetKey struct{ decision, kind, value string }

func newDecisionCounter() *decisionCounter {
	return &decisionCounter{groups: make(map[targetKey]int), targets: make(map[int]map[string]bool), count: make(map[string]int)}
}

// newTurn forgets paths and commands: the same file read in two turns is
// two decisions.
func (d *decisionCounter) newTurn() {
	for k := range d.groups {
		if k.kind != "call" {
			delete(d.groups, k)
		}
	}
}

// add counts e if it holds a decision that no earlier record of the same
// decision and target holds. A record joins the group of an earlier one
// through the tool call id only when it names none of its own paths and
// commands, or one the group's records named: the agent chooses tool call
// ids, and one id given to several calls must not make their decisions
// count as one.
func (d *decisionCounter) add(e *Entry) {
	dec := e.Decision()
	if dec == "" {
		return
	}
	keys := decisionTargets(e)
	var named []string
	for _, k := range keys {
		if k.kind == "path" || k.kind == "cmd" {
			named = append(named, k.kind+":"+k.value)
		}
	}
	group := -1
	for _, k := range keys {
		k.decision = dec
		g, ok := d.groups[k]
		if !ok {
			continue
		}
		if k.kind == "call" && len(named) > 0 && len(d.targets[g]) > 0 && !d.namesAny(g, named) {
			continue // another call under the same id
		}
		group = g
		break
	}
	if group < 0 {
		d.n++
		group = d.n
		d.count[dec]++
		d.targets[group] = make(map[string]bool)
	}
	for _, k := range keys {
		k.decision = dec
		d.groups[k] = group
	}
	for _, t := range named {
		d.targets[group][t] = true
	}
}

// namesAny reports whether group g's records named any of targets.
func (d *decisionCounter) namesAny(g int, targets []string) bool {
	for _, t := range targets {
		if d.targets[g][t] {
			return true
		}
	}
	return false
}

// decisionTargets lists what e decided about: its tool call, the paths
// and the command it names.
func decisionTargets(e *Entry) []targetKey {
	var keys []targetKey
	add := func(kind, value string) { keys = append(keys, targetKey{kind: kind, value: value}) }
	if tc := e.ToolCall; tc != nil && tc.ToolCallID != "" {
		add("call", tc.ToolCallID)
	}
	switch e.Subject.Kind {
	case "tool-call":
		if e.Subject.Ref != "" {
			add("call", e.Subject.Ref)
		}
		if e.Subject.Path != "" {
			add("path", e.Subject.Path)
		}
	case "terminal":
		if e.Subject.Ref != "" {
			add("cmd", e.Subject.Ref)
		}
	default:
		if e.Subject.Path != "" {
			add("path", e.Subject.Path)
		}
	}
	if a, err := e.Targets(); err == nil {
		for _, p := range []string{a.Path, a.FilePath, a.AbsPath} {
			if p != "" {
				add("path", p)
			}
		}
		if a.Command != "" {
			add("cmd", a.Command)
		}
	}
	if len(keys) == 0 {
		add("record", e.Hash)
	}
	return keys
}
