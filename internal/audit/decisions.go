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
	groups map[targetKey]int    // target -> group
	named  map[groupTarget]bool // the paths and commands each group named
	names  []int                // group -> how many paths and commands it named
	count  map[string]int       // decision -> groups
	n      int
}

// groupTarget is a path or command a group's records named.
type groupTarget struct {
	group       int
	kind, value string
}

// targetKey is one thing a decision record is about, under one decision
// value: kind "call" (a tool call id), "path", "cmd" or "record".
type targetKey struct{ decision, kind, value string }

func newDecisionCounter() *decisionCounter {
	return &decisionCounter{groups: make(map[targetKey]int), named: make(map[groupTarget]bool), names: []int{0}, count: make(map[string]int)}
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
func (d *decisionCounter) add(e *Entry, args *Targets) {
	dec := e.Decision()
	if dec == "" {
		return
	}
	keys := decisionTargets(e, args)
	names := false
	for _, k := range keys {
		names = names || isNamed(k)
	}
	group := -1
	for _, k := range keys {
		k.decision = dec
		g, ok := d.groups[k]
		if !ok {
			continue
		}
		if k.kind == "call" && names && d.names[g] > 0 && !d.namesAny(g, keys) {
			continue // another call under the same id
		}
		group = g
		break
	}
	if group < 0 {
		d.n++
		group = d.n
		d.count[dec]++
		d.names = append(d.names, 0)
	}
	for _, k := range keys {
		k.decision = dec
		d.groups[k] = group
		if t := (groupTarget{group, k.kind, k.value}); isNamed(k) && !d.named[t] {
			d.named[t] = true
			d.names[group]++
		}
	}
}

// isNamed reports whether k is a path or a command.
func isNamed(k targetKey) bool { return k.kind == "path" || k.kind == "cmd" }

// namesAny reports whether group g's records named any path or command of
// keys.
func (d *decisionCounter) namesAny(g int, keys []targetKey) bool {
	for _, k := range keys {
		if isNamed(k) && d.named[groupTarget{g, k.kind, k.value}] {
			return true
		}
	}
	return false
}

// decisionTargets lists what e decided about: its tool call, the paths
// and the command it names, and those its arguments name (args, nil when
// they do not decode).
func decisionTargets(e *Entry, args *Targets) []targetKey {
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
	if a := args; a != nil {
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
