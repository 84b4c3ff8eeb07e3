package governance

import (
	"fmt"
	"net/url"
	"path"
	"slices"
	"strings"

	whatwg "github.com/nlnwa/whatwg-url/url"
)

// category says which subjects of a request a rule looks at.
type category uint8

const (
	catTool    category = iota // the tool itself, by name
	catRead                    // paths a read touches
	catWrite                   // paths an edit, write, delete or move touches
	catCommand                 // shell commands
	catFetch                   // the domain a fetch reaches
	catPath                    // any path (AIP-7 "workspace:" subjects)
	catAny                     // every request of the rule's actions
	catEnv                     // environment variables a command sets (env.go)
)

// rule is one compiled rule, from the compact rules list or a POLICY.md.
type rule struct {
	value    Value
	text     string   // as written: "Read(**/.env)" or "policy no-secrets"
	where    string   // "GOVERNANCE.md:12"
	ref      string   // slug for audit records
	advisory bool     // warn/info severity: reported, never decides
	compact  bool     // from the compact rules list
	actions  []string // action patterns ("tool.call", "fs.*"); empty = any
	cat      category
	all      bool   // no argument: every subject of cat
	tool     string // catTool: name glob
	path     *pathPattern
	cmd      *commandPattern
	domain   string
	desc     string // describe's result, set once the policy is loaded
	tail     string // verdictTail's result, set once the policy is loaded
}

// verdictTail returns what a verdict of r adds after its subject:
// ": denied by Read(**/.env)".
func (r *rule) verdictTail() string {
	if r.tail != "" {
		return r.tail
	}
	return ": " + pastTense(r.value) + " by " + r.text
}

// describe returns "deny Read(**/.env) (GOVERNANCE.md:12)".
func (r *rule) describe() string {
	if r.desc != "" {
		return r.desc
	}
	return string(r.value) + " " + r.text + " (" + r.where + ")"
}

// ruleCategories maps the tool names of Claude Code's permission syntax to
// the subject their argument names.
var ruleCategories = map[string]category{
	"Bash":         catCommand,
	"Read":         catRead,
	"Edit":         catWrite,
	"Write":        catWrite,
	"MultiEdit":    catWrite,
	"NotebookEdit": catWrite,
	"WebFetch":     catFetch,
	"Env":          catEnv,
}

// parseRule compiles a rule in Claude Code's permission syntax: a tool name
// ("WebSearch", "mcp__github__*"), optionally with an argument in
// parentheses: Bash(npm run test:*), Read(./src/**), Edit(**/*.go),
// WebFetch(domain:example.com).
func parseRule(text, base, home string) (*rule, error) {
	r := &rule{text: text}
	if err := checkRuleText("rule", text); err != nil {
		return nil, err
	}
	name, arg, hasArg := text, "", false
	if open := strings.IndexByte(text, '('); open >= 0 {
		if !strings.HasSuffix(text, ")") {
			return nil, fmt.Errorf("rule %q: missing closing parenthesis", text)
		}
		name, arg, hasArg = text[:open], text[open+1:len(text)-1], true
		if strings.TrimSpace(arg) == "" {
			return nil, fmt.Errorf("rule %q: empty argument (write %s to match every use)", text, name)
		}
		if err := checkRuleText("the argument", arg); err != nil {
			return nil, fmt.Errorf("rule %q: %v", text, err)
		}
	}
	if !validToolName(name) {
		return nil, fmt.Errorf("rule %q: %q is not a tool name", text, name)
	}
	cat, known := ruleCategories[name]
	if !known {
		cat = catTool
		if err := checkToolName(name); err != nil {
			return nil, fmt.Errorf("rule %q: %v", text, err)
		}
	}
	r.cat = cat
	if !hasArg {
		r.all = cat != catTool
		r.tool = name
		return r, nil
	}
	var err error
	switch cat {
	case catCommand:
		r.cmd, err = compileCommandPattern(arg)
	case catRead, catWrite:
		r.path, err = compilePathPattern(arg, base, home)
	case catEnv:
		r.tool, err = arg, envPatternError(arg)
	case catFetch:
		d, ok := strings.CutPrefix(arg, "domain:")
		if !ok || d == "" {
			err = fmt.Errorf("want domain:HOST")
		} else {
			err = checkDomain(d)
		}
		r.domain = strings.ToLower(d)
	default:
		err = fmt.Errorf("tool %s takes no argument in rules (only Bash, Read, Edit, Write, MultiEdit, NotebookEdit and WebFetch do)", name)
	}
	if err != nil {
		return nil, fmt.Errorf("rule %q: %v", text, err)
	}
	if r.path != nil && r.path.all || r.cmd != nil && r.cmd.all {
		r.all, r.path, r.cmd = true, nil, nil
	}
	return r, nil
}

func validToolName(s string) bool {
	if s == "" {
		return false
	}
	for i, c := range s {
		ok := c == '_' || c == '*' || c == '-' || c == '.' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || i > 0 && c >= '0' && c <= '9'
		if !ok {
			return false
		}
	}
	_, err := path.Match(s, "")
	return err == nil
}

// commandPattern matches simple commands.
type commandPattern struct {
	text   string
	words  []string
	prefix bool // "npm run test:*": the command starts with these words
	glob   bool // contains "*": matched against the command text
	all    bool
	// meaning is what a prefix rule's words after the program mean, for
	// a restricting rule (command_meaning.go); nil for a rule naming the
	// program alone.
	meaning *ruleMeaning
}

func compileCommandPattern(spec string) (*commandPattern, error) {
	p := &commandPattern{text: spec}
	s := strings.TrimSpace(spec)
	for _, op := range []string{"|", ";", "&&", "\n", "`", "$("} {
		if strings.Contains(s, op) {
			return nil, fmt.Errorf("%q: a rule matches one simple command, and command lines are split on operators before matching, so a pattern with %q can never match; write a rule for each command", spec, op)
		}
	}
	if s == "*" || s == ":*" {
		p.all = true
		return p, nil
	}
	if i := strings.Index(s, ":*"); i >= 0 && i != len(s)-2 {
		return nil, fmt.Errorf("%q: \":*\" means \"followed by anything\" only at the end of a pattern", spec)
	}
	if rest, ok := strings.CutSuffix(s, ":*"); ok {
		p.prefix = true
		s = rest
	} else if rest, ok := strings.CutSuffix(s, " *"); ok && !strings.Contains(rest, "*") {
		p.prefix = true
		s = rest
	}
	p.words = strings.Fields(s)
	if len(p.words) == 0 {
		return nil, fmt.Errorf("empty command pattern")
	}
	p.glob = strings.Contains(s, "*")
	if p.prefix && !p.glob {
		p.meaning = newRuleMeaning(p.words)
	}
	return p, nil
}

// match reports whether the command words match.
func (p *commandPattern) match(words []string, fold bool) bool {
	if p.all {
		return true
	}
	eq := func(a, b string) bool {
		if fold {
			return strings.EqualFold(a, b)
		}
		return a == b
	}
	if p.glob {
		text, pat := strings.Join(words, " "), strings.Join(p.words, " ")
		if fold {
			text, pat = strings.ToLower(text), strings.ToLower(pat)
		}
		if p.prefix {
			pat += "*"
		}
		return wildcard(pat, text)
	}
	if len(words) < len(p.words) || !p.prefix && len(words) != len(p.words) {
		return false
	}
	for i, w := range p.words {
		if !eq(w, words[i]) {
			return false
		}
	}
	return true
}

// wildcard matches s against pat, where "*" matches any run of characters
// (spaces and slashes included).
func wildcard(pat, s string) bool {
	// Greedy with backtracking to the last star: linear in practice.
	pi, si, star, mark := 0, 0, -1, 0
	for si < len(s) {
		switch {
		case pi < len(pat) && pat[pi] == '*':
			star, mark = pi, si
			pi++
		case pi < len(pat) && pat[pi] == s[si]:
			pi++
			si++
		case star >= 0:
			pi = star + 1
			mark++
			si = mark
		default:
			return false
		}
	}
	for pi < len(pat) && pat[pi] == '*' {
		pi++
	}
	return pi == len(pat)
}

// matchDomain reports whether host is domain d or beneath it; "*.d"
// matches only beneath.
func matchDomain(d, host string) bool {
	host = strings.ToLower(strings.TrimSuffix(host, "."))
	if sub, ok := strings.CutPrefix(d, "*."); ok {
		return strings.HasSuffix(host, "."+sub)
	}
	return host == d || strings.HasSuffix(host, "."+d)
}

// urlHosts returns the hosts a fetch of u may reach: the one the WHATWG
// URL Standard's parser reads, as node's URL (Claude Code's WebFetch,
// Gemini CLI's web_fetch) and browsers read it, and the one Go's net/url
// reads, where either reads one; else u as a bare host. The two differ
// where a fetch would go elsewhere than a plain reading says:
// "https:evil.com", "https://evil.com\@good.com/" and "https://evil%2ecom/"
// all reach evil.com.
func urlHosts(u string) []string {
	var hosts []string
	add := func(h string) {
		h = strings.ToLower(h)
		if h != "" && !slices.Contains(hosts, h) {
			hosts = append(hosts, h)
		}
	}
	if p, err := whatwg.Parse(u); err == nil {
		add(p.Hostname())
	}
	if p, err := url.Parse(u); err == nil {
		add(p.Hostname())
	}
	if len(hosts) == 0 {
		if p, err := whatwg.Parse("https://" + u); err == nil {
			add(p.Hostname())
		}
		if p, err := url.Parse("https://" + u); err == nil {
			add(p.Hostname())
		}
	}
	if len(hosts) == 0 {
		hosts = append(hosts, u)
	}
	return hosts
}

// matchAction reports whether action matches an AIP-7 action pattern,
// where "*" stands for one or more dot-separated segments.
func matchAction(pattern, action string) bool {
	if pattern == "*" || pattern == action {
		return true
	}
	return wildcard(pattern, action)
}
