package governance

import (
	"fmt"
	"strings"

	"go.yaml.in/yaml/v3"
)

// rules loads the compact rule list: rules: {deny: [...], ask: [...],
// allow: [...], escalate: [...], default: ask}.
func (l *loader) rules(p *Policy, file string, off int, dir string, n *yaml.Node) {
	if n.Kind != yaml.MappingNode {
		l.errorf(file, n, off, "rules must be a mapping with deny, ask, allow (lists of rules) and default")
		return
	}
	fs := l.fields(file, off, n, "deny", "ask", "require-approval", "escalate", "allow", "default")
	if f := fs["default"]; f.key != nil {
		if s, ok := l.str(file, off, f, "rules.default"); ok {
			v, err := parseValue(s)
			if err != nil {
				l.errorf(file, f.value, off, "rules.default: %v", err)
			} else {
				p.Default, p.OnMutate, p.DefaultWhere = v, false, fmt.Sprintf("%s:%d", file, f.value.Line+off)
			}
		}
	}
	for _, key := range []string{"deny", "escalate", "ask", "require-approval", "allow"} {
		f := fs[key]
		if f.key == nil {
			continue
		}
		if f.value.Kind != yaml.SequenceNode {
			l.errorf(file, f.value, off, "rules.%s must be a list of rules like Bash(npm run test:*) or Read(./src/**)", key)
			continue
		}
		v, _ := parseValue(key)
		for i, item := range f.value.Content {
			if item.Kind != yaml.ScalarNode {
				l.errorf(file, item, off, "rules.%s[%d] must be a string", key, i)
				continue
			}
			r, err := parseRule(item.Value, dir, l.home)
			if err != nil {
				l.errorf(file, item, off, "%v", err)
				continue
			}
			r.value, r.compact = v, true
			r.where = fmt.Sprintf("%s:%d", file, item.Line+off)
			r.ref = fmt.Sprintf("rules-%s-%d", strings.TrimPrefix(string(v), "require-"), i+1)
			if v == RequireApproval {
				r.ref = fmt.Sprintf("rules-ask-%d", i+1)
			}
			p.rules = append(p.rules, r)
		}
	}
}
