package governance

import (
	"fmt"
	"strings"
)

// Policy is a loaded governance policy: the compiled rules of a
// GOVERNANCE.md, of the POLICY.md files it references and of the files it
// extends, with the default decision.
type Policy struct {
	// File is the GOVERNANCE.md the policy was loaded from.
	File string
	// Name is the workspace manifest's name.
	Name string
	// Default is the decision for subjects no rule matches.
	Default Value
	// OnMutate, from autonomy.defaultApproval "on-mutate", makes the
	// default allow for reads and require-approval for everything else.
	OnMutate bool
	// DefaultWhere says where the default was set ("GOVERNANCE.md:9").
	DefaultWhere string
	// Chain lists the files consumed, the workspace root first.
	Chain []string
	// Warnings are problems that do not stop loading (a missing or
	// cyclic extends parent), as file:line messages.
	Warnings []string
	// AuditFile is where the workspace keeps its audit log: audit.storage
	// when it is a file:// URI (resolved against the GOVERNANCE.md that
	// declares it), else AIP-7's default <dir>/audit/audit-log.jsonl.
	AuditFile string

	rules   []*rule
	sources []string // POLICY.md files referenced, in load order
}

// Files returns every file the policy was read from: the GOVERNANCE.md
// chain, the POLICY.md files its registries reference, and an extends
// parent that is missing now. Changing or creating any of them changes
// what the next run obeys.
func (p *Policy) Files() []string {
	return append(append([]string(nil), p.Chain...), p.sources...)
}

// CompactRules returns the rules of the compact rules list as written
// (Claude Code syntax), by decision, for agents that take such rules
// natively. Rules from POLICY.md files are not included.
func (p *Policy) CompactRules() (deny, ask, allow []string) {
	for _, r := range p.rules {
		if !r.compact {
			continue
		}
		switch r.value {
		case Deny:
			deny = append(deny, r.text)
		case Allow:
			allow = append(allow, r.text)
		default:
			ask = append(ask, r.text)
		}
	}
	return deny, ask, allow
}

// Rules returns the policy's rules, one line each, in evaluation order.
func (p *Policy) Rules() []string {
	var out []string
	for _, r := range p.rules {
		s := r.describe()
		if r.advisory {
			s += " [advisory]"
		}
		out = append(out, s)
	}
	return out
}

// Error is one problem in a policy file, with its position.
type Error struct {
	File string
	Line int // 1-based; 0 if unknown
	Col  int // 1-based; 0 if unknown
	Msg  string
}

// Error formats the problem as "file:line:col: message".
func (e *Error) Error() string {
	switch {
	case e.Line > 0 && e.Col > 0:
		return fmt.Sprintf("%s:%d:%d: %s", e.File, e.Line, e.Col, e.Msg)
	case e.Line > 0:
		return fmt.Sprintf("%s:%d: %s", e.File, e.Line, e.Msg)
	}
	return fmt.Sprintf("%s: %s", e.File, e.Msg)
}

// ErrorList is every problem found while loading a policy, in file order.
type ErrorList []*Error

// Error returns the problems one per line.
func (l ErrorList) Error() string {
	var b strings.Builder
	for i, e := range l {
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(e.Error())
	}
	return b.String()
}
