package manifest

import (
	"bytes"
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"
)

// Limits on what a frontmatter may expand to, so that a hostile file (an
// alias bomb, deep nesting) costs bounded time and memory.
const (
	maxDepth = 64
	maxNodes = 10000
)

// located is a value of the frontmatter with the YAML nodes it came from.
type located struct {
	key   *yaml.Node // the mapping key naming the value; nil for the root and list items
	value *yaml.Node
	field string // display path: metadata.aip44.mcp_servers[0].ref
}

// pos returns the position an error about this value points at: the value
// itself for scalars, the key that introduces it for mappings and lists
// (their own position is that of their first entry).
func (l located) pos() (line, col int) {
	n := l.value
	if l.key != nil && (n.Kind == yaml.MappingNode || n.Kind == yaml.SequenceNode) {
		n = l.key
	}
	return n.Line, n.Column
}

// tree is a frontmatter decoded into JSON-like Go values (map[string]any,
// []any, string, bool, int64, float64, nil) for schema validation, with the
// position of every value by its JSON pointer.
type tree struct {
	file   string
	offset int // file line of YAML line 1, minus one
	root   any
	at     map[string]located // by JSON pointer ("" is the root)
	nodes  int
	errs   ErrorList
}

// parseYAML parses the frontmatter of fm into a tree. Syntax errors and
// structures JSON cannot represent are reported in t.errs.
func parseYAML(file string, fm *frontmatter) *tree {
	t := &tree{file: file, offset: fm.line - 1, at: map[string]located{}}
	var doc yaml.Node
	if err := yaml.Unmarshal(fm.yaml, &doc); err != nil {
		line, msg := syntaxErrorLine(fm.yaml, err)
		t.errs.add(&Error{File: file, Line: line + t.offset, Column: 1, Msg: "YAML syntax error: " + msg})
		return t
	}
	if doc.Kind == 0 || len(doc.Content) == 0 {
		t.errs.add(&Error{File: file, Line: 1, Column: 1, Msg: "frontmatter is empty"})
		return t
	}
	root := doc.Content[0]
	if root.Kind != yaml.MappingNode {
		t.errorAt(root, "", fmt.Sprintf("frontmatter must be a YAML mapping of fields, not %s", describe(root)))
		return t
	}
	t.root = t.convert(nil, root, nil, "", 0)
	return t
}

// maxSyntaxScan bounds the frontmatter size, in lines, for which
// syntaxErrorLine searches for the failing line.
const maxSyntaxScan = 1000

// syntaxErrorLine returns the line of a YAML syntax error in src and its
// message. The YAML library reports a line but no column, and for parser
// (as opposed to scanner) errors its line is zero-based or that of the
// enclosing construct. So the line reported is the first line at which a
// prefix of src fails with the same message, which is where the document
// stops making sense; the library's line is the fallback.
func syntaxErrorLine(src []byte, err error) (int, string) {
	libLine, msg := yamlErrorLine(err)
	if libLine == 0 {
		libLine = 1
	}
	lines := bytes.SplitAfter(src, []byte("\n"))
	if len(lines) > maxSyntaxScan {
		return libLine, msg
	}
	var prefix []byte
	for i, l := range lines {
		prefix = append(prefix, l...)
		var n yaml.Node
		if err := yaml.Unmarshal(prefix, &n); err != nil {
			if _, m := yamlErrorLine(err); m == msg {
				return i + 1, msg
			}
		}
	}
	return libLine, msg
}

var yamlLineRE = regexp.MustCompile(`^yaml: line (\d+): (.*)$`)

// yamlErrorLine extracts the line from a YAML library error. The library
// reports a line, never a column.
func yamlErrorLine(err error) (int, string) {
	msg := err.Error()
	if m := yamlLineRE.FindStringSubmatch(msg); m != nil {
		n, _ := strconv.Atoi(m[1])
		return n, m[2]
	}
	return 0, strings.TrimPrefix(msg, "yaml: ")
}

// errorAt records a problem at node n.
func (t *tree) errorAt(n *yaml.Node, field, msg string) {
	t.errs.add(&Error{File: t.file, Line: n.Line + t.offset, Column: n.Column, Field: field, Msg: msg})
}

// convert turns node n, reached through key at pointer path, into a Go value.
func (t *tree) convert(key, n *yaml.Node, path []string, field string, depth int) any {
	t.nodes++
	if t.nodes > maxNodes || depth > maxDepth {
		if t.nodes == maxNodes+1 || depth == maxDepth+1 {
			t.errorAt(n, "", "frontmatter is too large or too deeply nested (aliases expand too far)")
		}
		return nil
	}
	t.at[pointer(path)] = located{key: key, value: n, field: field}
	switch n.Kind {
	case yaml.AliasNode:
		if n.Alias == nil {
			return nil
		}
		v := t.convert(key, n.Alias, path, field, depth+1)
		// Errors about the value point at the alias, where the user used it.
		t.at[pointer(path)] = located{key: key, value: n, field: field}
		return v
	case yaml.DocumentNode:
		if len(n.Content) == 0 {
			return nil
		}
		return t.convert(key, n.Content[0], path, field, depth+1)
	case yaml.MappingNode:
		m := t.merged(key, n, path, field, depth)
		first := map[string]*yaml.Node{}
		for i := 0; i+1 < len(n.Content); i += 2 {
			k, v := n.Content[i], n.Content[i+1]
			if isMerge(k) {
				continue
			}
			if k.Kind != yaml.ScalarNode {
				t.errorAt(k, field, "mapping keys must be plain strings")
				continue
			}
			name := k.Value
			sub := name
			if field != "" {
				sub = field + "." + name
			}
			if prev, dup := first[name]; dup {
				t.errorAt(k, sub, fmt.Sprintf("duplicate key (first defined at line %d)", prev.Line+t.offset))
				continue
			}
			first[name] = k
			m[name] = t.convert(k, v, append(path[:len(path):len(path)], name), sub, depth+1)
		}
		return m
	case yaml.SequenceNode:
		l := make([]any, 0, len(n.Content))
		for i, v := range n.Content {
			l = append(l, t.convert(nil, v, append(path[:len(path):len(path)], strconv.Itoa(i)), fmt.Sprintf("%s[%d]", field, i), depth+1))
		}
		return l
	case yaml.ScalarNode:
		return scalar(n)
	}
	return nil
}

// isMerge reports whether k is the YAML merge key "<<".
func isMerge(k *yaml.Node) bool {
	return k.Kind == yaml.ScalarNode && k.ShortTag() == "!!merge"
}

// merged returns the keys that the merge keys ("<<: *anchor", or a list of
// anchors) of mapping n bring in, earlier sources first, as a map for n's
// own keys to be added to: n's own keys win, as in YAML. Merged values are
// positioned where their anchor defines them.
func (t *tree) merged(key, n *yaml.Node, path []string, field string, depth int) map[string]any {
	m := make(map[string]any, len(n.Content)/2)
	self := t.at[pointer(path)]
	for i := 0; i+1 < len(n.Content); i += 2 {
		if !isMerge(n.Content[i]) {
			continue
		}
		src := n.Content[i+1]
		sources := []*yaml.Node{src}
		if src.Kind == yaml.SequenceNode {
			sources = src.Content
		}
		for _, s := range sources {
			target := s
			if target.Kind == yaml.AliasNode && target.Alias != nil {
				target = target.Alias
			}
			if target.Kind != yaml.MappingNode {
				t.errorAt(s, field, "a merge key (<<) must name a mapping or a list of mappings")
				continue
			}
			sub, _ := t.convert(key, target, path, field, depth+1).(map[string]any)
			for k, v := range sub {
				if _, ok := m[k]; !ok {
					m[k] = v
				}
			}
		}
	}
	t.at[pointer(path)] = self
	return m
}

// scalar returns the JSON value of a YAML scalar as YAML 1.2 resolves it.
// Timestamps, binary and custom tags stay strings: a manifest has no use
// for them, and JSON has no such types.
func scalar(n *yaml.Node) any {
	switch n.ShortTag() {
	case "!!null":
		return nil
	case "!!bool":
		var b bool
		if n.Decode(&b) == nil {
			return b
		}
	case "!!int":
		var i int64
		if n.Decode(&i) == nil {
			return i
		}
		var u uint64
		if n.Decode(&u) == nil {
			return u
		}
	case "!!float":
		var f float64
		if n.Decode(&f) == nil && !math.IsNaN(f) && !math.IsInf(f, 0) {
			return f
		}
	}
	return n.Value
}

// describe names the kind of a node for messages.
func describe(n *yaml.Node) string {
	switch n.Kind {
	case yaml.MappingNode:
		return "a mapping"
	case yaml.SequenceNode:
		return "a list"
	case yaml.AliasNode:
		return "an alias"
	}
	switch scalar(n).(type) {
	case nil:
		return "null"
	case bool:
		return "a boolean"
	case int64, uint64, float64:
		return "a number"
	}
	return "a string"
}

// lookup returns the value at the JSON pointer tokens path, or the nearest
// ancestor that exists.
func (t *tree) lookup(path []string) located {
	for i := len(path); i >= 0; i-- {
		if l, ok := t.at[pointer(path[:i])]; ok {
			return l
		}
	}
	return t.at[""]
}

// errorAtPath records a problem at the value at path (or its nearest
// existing ancestor); field overrides the located field when not empty.
func (t *tree) errorAtPath(path []string, field, msg string) {
	l := t.lookup(path)
	if l.value == nil {
		t.errs.add(&Error{File: t.file, Line: 1, Column: 1, Field: field, Msg: msg})
		return
	}
	if field == "" {
		field = l.field
	}
	line, col := l.pos()
	t.errs.add(&Error{File: t.file, Line: line + t.offset, Column: col, Field: field, Msg: msg})
}

var pointerEscaper = strings.NewReplacer("~", "~0", "/", "~1")

// pointer joins tokens into a JSON pointer (RFC 6901).
func pointer(tokens []string) string {
	var b strings.Builder
	for _, tok := range tokens {
		b.WriteByte('/')
		b.WriteString(pointerEscaper.Replace(tok))
	}
	return b.String()
}
