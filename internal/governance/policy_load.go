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
	// Every decision names its rule: say it once. The rules do not
	// change after loading.
	for _, r := range p.rules {
		r.desc, r.tail = r.describe(), r.verdictTail()
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
			l.errorf(file, fs["name"].value, off, "name %q must be kebab-case: a lower-case letter, then a-z, 0-9 or -, ending in a letter or digit (two characters at least)", s)
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
