package governance

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"

	"go.yaml.in/yaml/v3"
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

// maxExtends is AIP-7's limit on extends chains.
const maxExtends = 8

// LoadPolicy loads the GOVERNANCE.md at file with everything it references.
// Any problem is an error (an ErrorList with file:line positions): a bridge
// must not run under a policy it only partly understood.
func LoadPolicy(file string) (*Policy, error) {
	l := &loader{home: homeDir(), visited: map[string]bool{}}
	p := &Policy{File: file, Default: RequireApproval, DefaultWhere: "built-in"}
	l.workspace(p, file, 0)
	if len(l.errs) > 0 {
		return nil, l.sorted()
	}
	return p, nil
}

// CheckPolicyFile checks one AIP-7 POLICY.md on its own, as LoadPolicy
// would when a GOVERNANCE.md references it; "/x" subjects are relative to
// its directory. It returns every problem as an ErrorList, or nil.
func CheckPolicyFile(file string) error {
	l := &loader{home: homeDir(), visited: map[string]bool{}}
	l.policyFile(file, "policy-file", filepath.Dir(file))
	if len(l.errs) > 0 {
		return l.sorted()
	}
	return nil
}

// sorted returns the errors grouped by file, in the order files were
// read, then by position.
func (l *loader) sorted() ErrorList {
	order := map[string]int{}
	for _, e := range l.errs {
		if _, ok := order[e.File]; !ok {
			order[e.File] = len(order)
		}
	}
	sort.SliceStable(l.errs, func(i, j int) bool {
		a, b := l.errs[i], l.errs[j]
		if a.File != b.File {
			return order[a.File] < order[b.File]
		}
		if a.Line != b.Line {
			return a.Line < b.Line
		}
		return a.Col < b.Col
	})
	return l.errs
}

type loader struct {
	home    string
	errs    ErrorList
	visited map[string]bool
}

func (l *loader) errorf(file string, n *yaml.Node, lineOff int, format string, args ...any) {
	e := &Error{File: file, Msg: fmt.Sprintf(format, args...)}
	if n != nil {
		e.Line, e.Col = n.Line+lineOff, n.Column
	}
	l.errs = append(l.errs, e)
}

// frontmatter splits a Markdown file's YAML frontmatter off. It returns the
// YAML and the number of lines before it (1: the opening "---").
func frontmatter(data []byte) ([]byte, int, error) {
	data = bytes.TrimPrefix(data, []byte("\ufeff"))
	if !bytes.HasPrefix(data, []byte("---\n")) && !bytes.HasPrefix(data, []byte("---\r\n")) {
		return nil, 0, errors.New("no YAML frontmatter: the file must start with a \"---\" line")
	}
	rest := data[bytes.IndexByte(data, '\n')+1:]
	for off := 0; off <= len(rest); {
		nl := bytes.IndexByte(rest[off:], '\n')
		line := rest[off:]
		if nl >= 0 {
			line = rest[off : off+nl]
		}
		if string(bytes.TrimRight(line, " \t\r")) == "---" {
			return rest[:off], 1, nil
		}
		if nl < 0 {
			break
		}
		off += nl + 1
	}
	return nil, 0, errors.New("frontmatter is not closed by a \"---\" line")
}

// parseYAML reads a file's frontmatter into a mapping node.
func (l *loader) parseYAML(file string) (*yaml.Node, int, bool) {
	data, err := os.ReadFile(file)
	if err != nil {
		l.errs = append(l.errs, &Error{File: file, Msg: fmt.Sprintf("reading policy: %v", err)})
		return nil, 0, false
	}
	fm, off, err := frontmatter(data)
	if err != nil {
		l.errs = append(l.errs, &Error{File: file, Line: 1, Msg: err.Error()})
		return nil, 0, false
	}
	var doc yaml.Node
	if err := yaml.Unmarshal(fm, &doc); err != nil {
		l.errs = append(l.errs, yamlError(file, off, err))
		return nil, 0, false
	}
	if len(doc.Content) == 0 || doc.Content[0].Kind != yaml.MappingNode {
		l.errs = append(l.errs, &Error{File: file, Line: 1 + off, Msg: "frontmatter must be a YAML mapping"})
		return nil, 0, false
	}
	return doc.Content[0], off, true
}

var yamlLineRE = regexp.MustCompile(`line (\d+): (.*)`)

// yamlError turns a yaml error into a positioned Error.
func yamlError(file string, off int, err error) *Error {
	msg := strings.TrimPrefix(err.Error(), "yaml: ")
	if m := yamlLineRE.FindStringSubmatch(msg); m != nil {
		var n int
		fmt.Sscanf(m[1], "%d", &n)
		if !scannerProblem(m[2]) {
			// yaml reports parser errors at the 0-based line where the
			// construct it could not finish starts.
			n++
		}
		return &Error{File: file, Line: n + off, Msg: "invalid YAML: " + m[2]}
	}
	// No position from the library: point at the frontmatter's start.
	return &Error{File: file, Line: off + 1, Msg: "invalid YAML: " + msg}
}

// scannerProblem reports whether a yaml message comes from its scanner,
// whose line numbers are 1-based (its parser's are 0-based).
func scannerProblem(msg string) bool {
	for _, p := range []string{"found ", "mapping values are not allowed", "mapping keys are not allowed",
		"block sequence entries are not allowed", "could not find expected", "did not find expected alphabetic",
		"did not find expected comment", "did not find expected digit", "did not find expected hexdecimal",
		"did not find expected version", "did not find expected whitespace", "did not find the expected '>'", "exceeded max depth"} {
		if strings.HasPrefix(msg, p) {
			return true
		}
	}
	return false
}

// field is one key of a mapping with its value node.
type field struct {
	key   *yaml.Node
	value *yaml.Node
}

// fields returns a mapping's keys, reporting unknown and duplicate keys.
func (l *loader) fields(file string, off int, m *yaml.Node, allowed ...string) map[string]field {
	out := map[string]field{}
	ok := map[string]bool{}
	for _, a := range allowed {
		ok[a] = true
	}
	for i := 0; i+1 < len(m.Content); i += 2 {
		k, v := m.Content[i], m.Content[i+1]
		switch {
		case !ok[k.Value]:
			sort.Strings(allowed)
			l.errorf(file, k, off, "unknown field %q (known: %s)", k.Value, strings.Join(allowed, ", "))
		case out[k.Value].key != nil:
			l.errorf(file, k, off, "duplicate field %q", k.Value)
		default:
			out[k.Value] = field{k, v}
		}
	}
	return out
}

// str returns a scalar string value, reporting other kinds.
func (l *loader) str(file string, off int, f field, name string) (string, bool) {
	if f.value == nil {
		return "", false
	}
	if f.value.Kind != yaml.ScalarNode || f.value.Tag == "!!null" {
		l.errorf(file, f.value, off, "%s must be a string", name)
		return "", false
	}
	return f.value.Value, true
}

func (l *loader) require(file string, fs map[string]field, names ...string) {
	for _, n := range names {
		if fs[n].key == nil {
			l.errs = append(l.errs, &Error{File: file, Line: 1, Msg: fmt.Sprintf("missing required field %q", n)})
		}
	}
}

var (
	slugRE    = regexp.MustCompile(`^[a-z][a-z0-9-]*[a-z0-9]$`)
	idRE      = regexp.MustCompile(`^[a-z][a-z0-9-]*$`)
	semverRE  = regexp.MustCompile(`^[0-9]+\.[0-9]+\.[0-9]+(?:[-+][A-Za-z0-9.-]+)?$`)
	actionRE  = regexp.MustCompile(`^[a-z][a-z0-9._*-]*$`)
	approvalR = regexp.MustCompile(`^(auto|always|on-mutate|policy:[a-z][a-z0-9-]*)$`)
)

// workspaceFields are the keys of a governance.workspace/v1 frontmatter
// (AIP-7), plus "rules", this bridge's compact rule list.
var workspaceFields = []string{"schema", "name", "title", "description", "version", "extends", "appliesTo",
	"autonomy", "signing", "audit", "policies", "approvers", "executor", "escalateTo", "work", "knowledge",
	"display", "metadata", "rules"}

// workspace loads one GOVERNANCE.md into p; parents first, so their rules
// come first and the child's default wins.
func (l *loader) workspace(p *Policy, file string, depth int) (appendOnly, signing *bool) {
	abs, _ := filepath.Abs(file)
	l.visited[abs] = true
	top, off, ok := l.parseYAML(file)
	if !ok {
		return nil, nil
	}
	fs := l.fields(file, off, top, workspaceFields...)
	l.require(file, fs, "schema", "name", "title", "description", "version")
	if s, ok := l.str(file, off, fs["schema"], "schema"); ok && s != "governance.workspace/v1" {
		l.errorf(file, fs["schema"].value, off, "schema is %q; a GOVERNANCE.md must declare schema: governance.workspace/v1", s)
	}
	if s, ok := l.str(file, off, fs["name"], "name"); ok {
		p.Name = s
		if !slugRE.MatchString(s) {
			l.errorf(file, fs["name"].value, off, "name %q must be kebab-case (a-z, 0-9, -)", s)
		}
	}
	l.str(file, off, fs["title"], "title")
	l.str(file, off, fs["description"], "description")
	if s, ok := l.str(file, off, fs["version"], "version"); ok && !semverRE.MatchString(s) {
		l.errorf(file, fs["version"].value, off, "version %q is not a semantic version", s)
	}
	dir := filepath.Dir(file)
	if depth == 0 {
		p.AuditFile = filepath.Join(dir, "audit", "audit-log.jsonl")
	}

	// Parent first.
	if f := fs["extends"]; f.key != nil {
		if ext, ok := l.str(file, off, f, "extends"); ok {
			parent := filepath.Join(dir, ext)
			pabs, _ := filepath.Abs(parent)
			line := fmt.Sprintf("%s:%d", file, f.value.Line+off)
			switch _, statErr := os.Stat(parent); {
			case l.visited[pabs]:
				p.Warnings = append(p.Warnings, line+": governance_extends_cycle: "+ext+" is already in the chain; ignored")
			case depth+1 >= maxExtends:
				p.Warnings = append(p.Warnings, line+": governance_extends_depth_exceeded: chain longer than 8; "+ext+" ignored")
			case statErr != nil:
				p.Warnings = append(p.Warnings, line+": governance_extends_missing: "+ext+" not found; ignored")
				// An agent that created it would change what the next
				// run obeys.
				p.sources = append(p.sources, parent)
			default:
				appendOnly, signing = l.workspace(p, parent, depth+1)
			}
		}
	}
	p.Chain = append(p.Chain, file)

	// One-way switches: a view may not relax its parent's locks.
	if a := fs["audit"]; a.value != nil && a.value.Kind == yaml.MappingNode {
		af := l.fields(file, off, a.value, "retention", "hashAlgo", "appendOnly", "storage", "headPointerSign")
		if st, ok := l.str(file, off, af["storage"], "audit.storage"); ok {
			if path, isFile := strings.CutPrefix(st, "file://"); isFile {
				if !filepath.IsAbs(path) {
					path = filepath.Join(dir, path)
				}
				p.AuditFile = path
			}
		}
		if v := af["appendOnly"]; v.value != nil {
			b := v.value.Value == "true"
			if appendOnly != nil && *appendOnly && !b {
				l.errorf(file, v.value, off, "governance_append_only_relaxation: the parent locks audit.appendOnly to true")
			}
			appendOnly = &b
		}
	}
	if s := fs["signing"]; s.value != nil && s.value.Kind == yaml.MappingNode {
		sf := l.fields(file, off, s.value, "algo", "keyring", "required")
		if v := sf["required"]; v.value != nil {
			b := v.value.Value == "true"
			if signing != nil && *signing && !b {
				l.errorf(file, v.value, off, "governance_signing_downgrade: the parent requires signing")
			}
			signing = &b
		}
	}

	if a := fs["autonomy"]; a.value != nil {
		if a.value.Kind != yaml.MappingNode {
			l.errorf(file, a.value, off, "autonomy must be a mapping")
		} else {
			af := l.fields(file, off, a.value, "level", "defaultApproval", "approvalEscalation")
			if s, ok := l.str(file, off, af["defaultApproval"], "autonomy.defaultApproval"); ok {
				where := fmt.Sprintf("%s:%d", file, af["defaultApproval"].value.Line+off)
				switch {
				case !approvalR.MatchString(s):
					l.errorf(file, af["defaultApproval"].value, off, "autonomy.defaultApproval %q: want auto, always, on-mutate or policy:<slug>", s)
				case s == "auto":
					p.Default, p.OnMutate, p.DefaultWhere = Allow, false, where
				case s == "always":
					p.Default, p.OnMutate, p.DefaultWhere = RequireApproval, false, where
				case s == "on-mutate":
					p.Default, p.OnMutate, p.DefaultWhere = RequireApproval, true, where
				default:
					// policy:<slug>: the named policy's decision, resolved
					// once the registry is loaded.
					defer l.delegatedDefault(p, file, off, af["defaultApproval"].value, strings.TrimPrefix(s, "policy:"))
				}
			}
		}
	}

	l.nested(file, off, fs, workspaceShapes)
	if f := fs["policies"]; f.value != nil {
		l.policies(p, file, off, dir, f.value)
	}
	if f := fs["rules"]; f.value != nil {
		l.rules(p, file, off, dir, f.value)
	}
	return appendOnly, signing
}

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
