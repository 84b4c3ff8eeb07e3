package governance

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"go.yaml.in/yaml/v3"
)

func (l *loader) delegatedDefault(p *Policy, file string, off int, n *yaml.Node, slug string) {
	for _, r := range p.rules {
		if r.ref == slug {
			p.Default, p.OnMutate, p.DefaultWhere = r.value, false, fmt.Sprintf("%s:%d via policy %s", file, n.Line+off, slug)
			return
		}
	}
	l.errorf(file, n, off, "autonomy.defaultApproval names policy %q, which is not in the policies registry", slug)
}

// policies loads the AIP-7 policy registry. Entries replace earlier ones
// with the same id (a view overriding its parent).
func (l *loader) policies(p *Policy, file string, off int, dir string, n *yaml.Node) {
	if n.Kind != yaml.SequenceNode {
		l.errorf(file, n, off, "policies must be a list")
		return
	}
	for _, item := range n.Content {
		if item.Kind != yaml.MappingNode {
			l.errorf(file, item, off, "a policies entry must be a mapping with id and ref")
			continue
		}
		f := l.fields(file, off, item, "id", "ref", "appliesTo", "severity", "params")
		if f["id"].key == nil || f["ref"].key == nil {
			l.errorf(file, item, off, "a policies entry needs id and ref")
			continue
		}
		id, _ := l.str(file, off, f["id"], "id")
		if !idRE.MatchString(id) {
			l.errorf(file, f["id"].value, off, "policy id %q must be kebab-case", id)
		}
		ref, ok := l.str(file, off, f["ref"], "ref")
		if !ok {
			continue
		}
		var appliesTo string
		if s, ok := l.str(file, off, f["appliesTo"], "appliesTo"); ok {
			if s != "*" && !actionRE.MatchString(s) {
				l.errorf(file, f["appliesTo"].value, off, "appliesTo %q is not an action class", s)
			} else if err := checkAction(s); err != nil {
				l.errorf(file, f["appliesTo"].value, off, "appliesTo: %v", err)
			}
			appliesTo = s
		}
		advisory := false
		if s, ok := l.str(file, off, f["severity"], "severity"); ok {
			switch s {
			case "error":
			case "warn", "info":
				advisory = true
			default:
				l.errorf(file, f["severity"].value, off, "severity %q: want error, warn or info", s)
			}
		}
		pf := filepath.Join(dir, ref)
		if _, err := os.Stat(pf); err != nil {
			l.errorf(file, f["ref"].value, off, "policy %s: %v", id, err)
			continue
		}
		p.sources = append(p.sources, pf)
		r := l.policyFile(pf, id, dir)
		if r == nil {
			continue
		}
		r.advisory = advisory
		if appliesTo != "" && appliesTo != "*" {
			r.actions = append(r.actions, appliesTo)
			if len(r.actions) == 2 && !matchAction(r.actions[0], appliesTo) && !matchAction(appliesTo, r.actions[0]) {
				l.errorf(file, f["appliesTo"].value, off, "policy %s applies to %s but matches action %s: it can never fire", id, appliesTo, r.actions[0])
			}
		}
		// Merge by id: a later entry (the child view) replaces.
		replaced := false
		for i, old := range p.rules {
			if old.ref == id {
				p.rules[i], replaced = r, true
			}
		}
		if !replaced {
			p.rules = append(p.rules, r)
		}
	}
}

// policyFields are the keys of an AIP-7 POLICY.md frontmatter.
var policyFields = []string{"schema", "doctype", "slug", "version", "match", "decision", "signers", "quorum",
	"autonomy", "budget", "metadata"}

// policyFile loads one POLICY.md into a rule whose ref is id. base is the
// directory of the GOVERNANCE.md that references it: "/x" paths in its
// subject are relative to that workspace directory.
func (l *loader) policyFile(file, id, base string) *rule {
	top, off, ok := l.parseYAML(file)
	if !ok {
		return nil
	}
	nerr := len(l.errs)
	fs := l.fields(file, off, top, policyFields...)
	l.require(file, fs, "schema", "doctype", "slug", "version", "match", "decision")
	if s, ok := l.str(file, off, fs["schema"], "schema"); ok && s != "agentgovernance/v1" {
		l.errorf(file, fs["schema"].value, off, "schema is %q; a policy must declare schema: agentgovernance/v1", s)
	}
	if s, ok := l.str(file, off, fs["doctype"], "doctype"); ok && s != "policy" {
		l.errorf(file, fs["doctype"].value, off, "doctype is %q; want policy", s)
	}
	slug, _ := l.str(file, off, fs["slug"], "slug")
	if slug != "" && !slugRE.MatchString(slug) {
		l.errorf(file, fs["slug"].value, off, "slug %q must be kebab-case", slug)
	}
	if s, ok := l.str(file, off, fs["version"], "version"); ok && !semverRE.MatchString(s) {
		l.errorf(file, fs["version"].value, off, "version %q is not a semantic version", s)
	}
	l.nested(file, off, fs, policyShapes)
	r := &rule{ref: id, where: fmt.Sprintf("%s:%d", file, 1+off), cat: catAny, all: true}
	if s, ok := l.str(file, off, fs["decision"], "decision"); ok {
		v, err := parseValue(s)
		if err != nil || s == "ask" {
			l.errorf(file, fs["decision"].value, off, "decision %q: want allow, deny, require-approval or escalate", s)
		}
		r.value = v
		r.where = fmt.Sprintf("%s:%d", file, fs["decision"].value.Line+off)
		if v == RequireApproval && fs["signers"].key == nil {
			l.errorf(file, fs["decision"].value, off, "decision require-approval needs signers (AIP-7)")
		}
	}
	subject := ""
	if m := fs["match"]; m.value != nil {
		if m.value.Kind != yaml.MappingNode {
			l.errorf(file, m.value, off, "match must be a mapping with action")
		} else {
			mf := l.fields(file, off, m.value, "action", "subject", "risk_level_min")
			if mf["action"].key == nil {
				l.errorf(file, m.value, off, "match needs action")
			}
			if a, ok := l.str(file, off, mf["action"], "match.action"); ok {
				if !actionRE.MatchString(a) {
					l.errorf(file, mf["action"].value, off, "match.action %q is not an action class", a)
				} else if err := checkAction(a); err != nil {
					l.errorf(file, mf["action"].value, off, "match.action: %v", err)
				}
				r.actions = []string{a}
			}
			if s, ok := l.str(file, off, mf["subject"], "match.subject"); ok {
				subject = s
				if err := compileSubject(r, s, base, l.home); err != nil {
					l.errorf(file, mf["subject"].value, off, "match.subject: %v", err)
				}
			}
		}
	}
	r.text = fmt.Sprintf("policy %s", id)
	if subject != "" {
		r.text = fmt.Sprintf("policy %s (%s %s)", id, strings.Join(r.actions, ","), subject)
	} else if len(r.actions) > 0 {
		r.text = fmt.Sprintf("policy %s (%s)", id, r.actions[0])
	}
	if len(l.errs) > nerr {
		return nil
	}
	return r
}

// compileSubject reads an AIP-7 match.subject into r: "*" (everything),
// "workspace:/GLOB" or "path:GLOB" (paths), "command:PATTERN" (commands,
// Bash syntax), "domain:HOST", a Claude Code rule ("Read(./src/**)"), or a
// tool name glob.
func compileSubject(r *rule, s, base, home string) error {
	actions := r.actions
	if err := checkRuleText("subject", s); err != nil {
		return err
	}
	for _, prefix := range []string{"workspace:", "path:", "command:", "domain:", "tool:"} {
		if rest, ok := strings.CutPrefix(s, prefix); ok {
			if err := checkRuleText("the pattern after "+prefix, rest); err != nil {
				return err
			}
		}
	}
	switch {
	case s == "*" || s == "**":
		r.cat, r.all = catAny, true
	case strings.HasPrefix(s, "workspace:"):
		g := strings.TrimPrefix(strings.TrimPrefix(s, "workspace:"), "/")
		if g == "" {
			g = "**"
		}
		pp, err := compilePathPattern("./"+g, base, home)
		if err != nil {
			return err
		}
		r.cat, r.all, r.path = catPath, pp.all, pp
	case strings.HasPrefix(s, "path:"):
		pp, err := compilePathPattern(strings.TrimPrefix(s, "path:"), base, home)
		if err != nil {
			return err
		}
		r.cat, r.all, r.path = catPath, pp.all, pp
	case strings.HasPrefix(s, "command:"):
		cp, err := compileCommandPattern(strings.TrimPrefix(s, "command:"))
		if err != nil {
			return err
		}
		r.cat, r.all, r.cmd = catCommand, cp.all, cp
	case strings.HasPrefix(s, "domain:"):
		if err := checkDomain(strings.TrimPrefix(s, "domain:")); err != nil {
			return err
		}
		r.cat, r.all, r.domain = catFetch, false, strings.ToLower(strings.TrimPrefix(s, "domain:"))
	case strings.Contains(s, "("):
		c, err := parseRule(s, base, home)
		if err != nil {
			return err
		}
		c.value, c.ref, c.where, c.text = r.value, r.ref, r.where, r.text
		*r = *c
	default:
		if !validToolName(strings.TrimPrefix(s, "tool:")) {
			return fmt.Errorf("%q is not a tool name", s)
		}
		if !strings.HasPrefix(s, "tool:") {
			// "tool:NAME" states that NAME is an agent's own tool; a bare
			// name must be one the bridge knows.
			if err := checkToolName(s); err != nil {
				return fmt.Errorf("%v (write tool:%s for a tool of your own agent)", err, s)
			}
		}
		r.cat, r.all, r.tool = catTool, false, strings.TrimPrefix(s, "tool:")
	}
	r.actions = actions
	if r.path != nil && r.path.all {
		r.path = nil
	}
	return nil
}

// shape is the keys AIP-7 allows in a nested mapping, or in each mapping
// of a list.
type shape struct {
	list bool
	keys []string
	sub  map[string]shape // nested shapes by key
}

// workspaceShapes and policyShapes are the nested parts of a GOVERNANCE.md
// and a POLICY.md that the loader does not otherwise read, from AIP-7's
// schema (additionalProperties false), so a misspelt key is an error
// rather than a setting that silently does nothing. metadata and
// policies[].params are open by design.
var (
	workspaceShapes = map[string]shape{
		"signing":   {keys: []string{"algo", "keyring", "required"}},
		"audit":     {keys: []string{"retention", "hashAlgo", "appendOnly", "storage", "headPointerSign"}},
		"approvers": {list: true, keys: []string{"id", "role", "canApprove", "quorum"}},
		"display":   {keys: []string{"defaultDashboard", "showRetentionWarnings"}},
		"autonomy": {keys: []string{"level", "defaultApproval", "approvalEscalation"},
			sub: map[string]shape{"approvalEscalation": {keys: []string{"from", "to"}}}},
	}
	policyShapes = map[string]shape{
		"signers": {list: true, keys: []string{"role", "userId"}},
		"budget":  {keys: []string{"max_per_hour", "max_per_day", "max_amount_cents", "currency"}},
	}
)

// nested checks the shapes of fs's nested mappings: each must be a
// mapping (or a list of mappings) with only the keys its shape allows.
// Keys the loader reads itself are reported once: by it, for the
// mappings it reads, and here only for the parts it does not.
func (l *loader) nested(file string, off int, fs map[string]field, shapes map[string]shape) {
	for name, sh := range shapes {
		f := fs[name]
		if f.value == nil {
			continue
		}
		l.checkShape(file, off, name, f.value, sh)
	}
}

func (l *loader) checkShape(file string, off int, name string, n *yaml.Node, sh shape) {
	items := []*yaml.Node{n}
	if sh.list {
		if n.Kind != yaml.SequenceNode {
			l.errorf(file, n, off, "%s must be a list", name)
			return
		}
		items = n.Content
	}
	for _, item := range items {
		if item.Kind != yaml.MappingNode {
			if name != "autonomy" { // the loader says so itself
				l.errorf(file, item, off, "%s must be a mapping with %s", name, strings.Join(sh.keys, ", "))
			}
			continue
		}
		if name == "audit" || name == "signing" || name == "autonomy" {
			// Read by the loader, which reports their unknown keys.
			for i := 0; i+1 < len(item.Content); i += 2 {
				if s, ok := sh.sub[item.Content[i].Value]; ok {
					l.checkShape(file, off, name+"."+item.Content[i].Value, item.Content[i+1], s)
				}
			}
			continue
		}
		fs := l.fields(file, off, item, sh.keys...)
		for k, s := range sh.sub {
			if f := fs[k]; f.value != nil {
				l.checkShape(file, off, name+"."+k, f.value, s)
			}
		}
	}
}
