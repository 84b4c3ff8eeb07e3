package aacp

import (
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"unicode"
)

// DefaultThreshold is the keyword score a rule or registry entry must reach
// for a pattern match when no threshold is configured: at least half of its
// keywords must occur in the instruction.
const DefaultThreshold = 0.5

// ErrNoMatch is returned by RuleEncoder.Encode when no rule reaches the
// threshold.
var ErrNoMatch = errors.New("no rule matches the instruction")

// A Rule is one known workflow step the RuleEncoder can encode without a model:
// when enough of its Keywords occur in an instruction, the packet is built from
// the rule's TASK, DOM and fixed fields plus values extracted from the text.
type Rule struct {
	Name   string // identifies the rule in results and logs, e.g. "payroll-fetch"
	Task   string // the packet's TASK
	Domain string // the packet's DOM
	// Keywords are compared with the instruction's keywords (see Keywords);
	// they are stored lower-case and stemmed the same way.
	Keywords []string
	// Return is the receiving agent; if empty, DefaultReturn(Domain).
	Return string
	// Priority is the p: value unless the instruction says otherwise; if
	// empty, "2".
	Priority string
	// Fields are fixed named fields placed right after aacp:, in order.
	Fields []Field
	// Extract lists the optional extractors the rule uses, in output order,
	// after the ones every rule uses (period, filter, fmt). Known names:
	// "sup", "amt" (adds amt: and ccy:), "match", "terms", "type".
	Extract []string
}

// DefaultRules are the built-in rules: the workflow steps of the draft's
// examples (payroll, budgets, invoices, contract review, IT provisioning,
// audit log) and a few common coordination steps of the other domains.
// Treat it as read-only; to change the rules, give a RuleEncoder its own.
var DefaultRules = []Rule{
	{Name: "payroll-fetch", Task: "FETCH", Domain: "HR", Priority: "1",
		Keywords: []string{"employee", "salary", "record", "retrieve", "payroll"},
		Fields:   []Field{{"res", "emp_salary"}}},
	{Name: "budget-fetch", Task: "FETCH", Domain: "FIN", Priority: "1",
		Keywords: []string{"budget", "cost", "centre", "allocation", "spend"},
		Fields:   []Field{{"res", "cc_budget"}}},
	{Name: "payroll-merge", Task: "MERGE", Domain: "HR", Priority: "1",
		Keywords: []string{"merge", "calculate", "payroll", "pension", "dataset"},
		Fields:   []Field{{"rules", "payroll_v2"}, {"validate", "budget_cc"}}},
	{Name: "payroll-report", Task: "REPORT", Domain: "HR", Priority: "2",
		Keywords: []string{"report", "generate", "summary", "payroll", "monthly"},
		Fields:   []Field{{"tmpl", "payroll_summary"}}},
	{Name: "invoice-process", Task: "PROC", Domain: "FIN", Priority: "2",
		Keywords: []string{"invoice", "supplier", "process", "payment", "purchase"},
		Fields:   []Field{{"res", "invoice"}},
		Extract:  []string{"sup", "amt", "match", "terms"}},
	{Name: "contract-flag", Task: "FLAG", Domain: "LEGAL", Priority: "1",
		Keywords: []string{"contract", "clause", "legal", "review", "risk", "nda"},
		Extract:  []string{"type"}},
	{Name: "account-build", Task: "BUILD", Domain: "IT", Priority: "1",
		Keywords: []string{"provision", "account", "user", "access", "directory", "build"},
		Fields:   []Field{{"res", "ad_account"}}},
	{Name: "audit-log", Task: "LOG", Domain: "HR", Priority: "2", Return: "AUD-Agent",
		Keywords: []string{"audit", "log", "record", "trail", "write"}},
	{Name: "complaint-resolve", Task: "RESOLVE", Domain: "CS", Priority: "1",
		Keywords: []string{"complaint", "customer", "resolve", "issue", "refund"}},
	{Name: "crm-sync", Task: "SYNC", Domain: "SALES", Priority: "2",
		Keywords: []string{"sync", "crm", "pipeline", "lead", "opportunity"}},
	{Name: "campaign-send", Task: "SEND", Domain: "MKT", Priority: "2",
		Keywords: []string{"send", "campaign", "email", "newsletter", "audience"}},
}

// DefaultReturn returns the conventional receiving agent of a domain, as the
// draft's examples name them: "HR-Agent", "FIN-Agent", "LEG-Agent" for LEGAL,
// and "<DOM>-Agent" otherwise.
func DefaultReturn(domain string) string {
	if domain == "LEGAL" {
		return "LEG-Agent"
	}
	return domain + "-Agent"
}

// A RuleEncoder turns natural-language instructions into packets with fixed
// rules: no model, no randomness, no clock. The same instruction always
// yields the same bytes. The zero value uses DefaultRules and
// DefaultThreshold. A RuleEncoder is safe for concurrent use if its fields
// are not modified.
type RuleEncoder struct {
	Rules     []Rule  // optional; if nil, DefaultRules
	Threshold float64 // optional; if zero, DefaultThreshold
}

func (e *RuleEncoder) rules() []Rule {
	if e == nil || e.Rules == nil {
		return DefaultRules
	}
	return e.Rules
}

func (e *RuleEncoder) threshold() float64 {
	if e == nil || e.Threshold == 0 {
		return DefaultThreshold
	}
	return e.Threshold
}

// Match returns the rule whose keywords best match the instruction, its score
// (the share of the rule's keywords found in the instruction, 0 to 1), and
// whether the score reaches the threshold. Ties go to the earlier rule.
func (e *RuleEncoder) Match(instruction string) (Rule, float64, bool) {
	return e.match(Keywords(instruction))
}

func (e *RuleEncoder) match(kw []string) (Rule, float64, bool) {
	have := setOf(kw)
	var best Rule
	bestScore := 0.0
	for _, r := range e.rules() {
		if s := score(have, r.Keywords); s > bestScore {
			best, bestScore = r, s
		}
	}
	return best, bestScore, bestScore > 0 && bestScore >= e.threshold()
}

// score is the share of want found in have.
func score(have map[string]bool, want []string) float64 {
	if len(want) == 0 {
		return 0
	}
	n := 0
	for _, w := range want {
		if have[stem(strings.ToLower(w))] {
			n++
		}
	}
	return float64(n) / float64(len(want))
}

// Encode encodes the instruction with the best-matching rule. It returns an
// error wrapping ErrNoMatch when no rule reaches the threshold.
func (e *RuleEncoder) Encode(instruction string) (*Packet, error) {
	r, s, ok := e.Match(instruction)
	if !ok {
		return nil, &noMatchError{best: r.Name, score: s, threshold: e.threshold()}
	}
	return EncodeRule(instruction, r)
}

type noMatchError struct {
	best             string
	score, threshold float64
}

// Error names the closest rule and its score.
func (e *noMatchError) Error() string {
	if e.best == "" {
		return ErrNoMatch.Error()
	}
	return ErrNoMatch.Error() + " (best: " + e.best + " " + formatScore(e.score) + " < " + formatScore(e.threshold) + ")"
}

// Unwrap returns ErrNoMatch.
func (e *noMatchError) Unwrap() error { return ErrNoMatch }

func formatScore(f float64) string { return strconv.FormatFloat(f, 'f', 2, 64) }

// EncodeRule builds the packet of rule r for the instruction: TASK|DOM, then
// return:, p:, aacp:, the rule's fixed fields, then the values the extractors
// find in the text (period:, filter:, fmt:, and the rule's own extractors).
// A "return to X-Agent" phrase overrides the rule's receiver; words such as
// "urgent" or "low priority" override its priority. It fails if the rule names
// an unknown extractor or the packet it builds has errors (a malformed custom
// rule); the built-in rules always give valid packets.
func EncodeRule(instruction string, r Rule) (*Packet, error) {
	ret := r.Return
	if ret == "" {
		ret = DefaultReturn(r.Domain)
	}
	if m := reReturn.FindStringSubmatch(instruction); m != nil {
		ret = m[1]
	}
	prio := r.Priority
	if prio == "" {
		prio = "2"
	}
	if v := extractPriority(instruction); v != "" {
		prio = v
	}
	p := &Packet{Task: r.Task, Domain: r.Domain}
	p.Fields = append(p.Fields, Field{"return", ret}, Field{"p", prio}, Field{"aacp", Version})
	p.Fields = append(p.Fields, r.Fields...)
	for _, name := range append([]string{"period", "filter", "fmt"}, r.Extract...) {
		extract, ok := extractors[name]
		if !ok {
			return nil, fmt.Errorf("rule %s: unknown extractor %q", r.Name, name)
		}
		for _, f := range extract(instruction) {
			p.Set(f.Key, f.Value)
		}
	}
	if err := p.Validate().Err(); err != nil {
		return nil, fmt.Errorf("rule %s: %w", r.Name, err)
	}
	return p, nil
}

// stopwords are left out of keywords: they carry no workflow meaning.
var stopwords = setOf(strings.Fields(`a about all also an and any are as at be been being both but by can
could did do does each every few for from had has have i in into is it its just like may me might more
most my need no not of on or other our please should some than that the their them then these they this
those through to up was we were what when which will with would you your`))

// Keywords returns the words of an instruction that matter for pattern
// matching: lower-cased, split at anything but letters and digits, stop words
// removed, plurals reduced ("salaries" -> "salary", "records" -> "record"),
// duplicates removed, in order of first appearance.
func Keywords(instruction string) []string {
	words := strings.FieldsFunc(strings.ToLower(instruction), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r)
	})
	seen := make(map[string]bool, len(words))
	var out []string
	for _, w := range words {
		if stopwords[w] {
			continue
		}
		w = stem(w)
		if !seen[w] {
			seen[w] = true
			out = append(out, w)
		}
	}
	return out
}

// stem reduces a plural to its singular with two rules only; enough for the
// nouns of coordination instructions and fully predictable.
func stem(w string) string {
	switch {
	case len(w) > 4 && strings.HasSuffix(w, "ies"):
		return w[:len(w)-3] + "y"
	case len(w) > 3 && strings.HasSuffix(w, "s") && !strings.HasSuffix(w, "ss") && !strings.HasSuffix(w, "us"):
		return w[:len(w)-1]
	}
	return w
}

var (
	reReturn  = regexp.MustCompile(`(?i)\b(?:return|send|reply|report)\s+(?:the\s+)?(?:results?\s+|it\s+|them\s+)?to\s+([a-z][a-z0-9_]*(?:-[a-z0-9_]+)*-agent)\b`)
	reUrgent  = regexp.MustCompile(`(?i)\b(?:urgent|urgently|critical|asap|immediately|high priority)\b`)
	reLow     = regexp.MustCompile(`(?i)\b(?:low priority|no rush|when convenient|when you can)\b`)
	reMedium  = regexp.MustCompile(`(?i)\b(?:medium|normal) priority\b`)
	months    = []string{"january", "february", "march", "april", "may", "june", "july", "august", "september", "october", "november", "december"}
	monthAlt  = `(january|february|march|april|may|june|july|august|september|october|november|december|jan|feb|mar|apr|jun|jul|aug|sep|sept|oct|nov|dec)`
	rePeriods = []*regexp.Regexp{
		regexp.MustCompile(`\b(\d{4})-(0[1-9]|1[0-2])\b`),
		regexp.MustCompile(`(?i)\b(?:\d{1,2}(?:st|nd|rd|th)?\s+)?` + monthAlt + `,?\s+(\d{4})\b`),
		regexp.MustCompile(`(?i)\bQ([1-4])\s+(FY\s?)?(\d{4})\b`),
	}
	reUser    = regexp.MustCompile(`(?i)\buser\s+([a-z0-9]+(?:[._-][a-z0-9]+)+)\b`)
	reStatus  = regexp.MustCompile(`(?i)\b(active|inactive|pending|overdue|open|closed)\b`)
	reFormat  = regexp.MustCompile(`(?i)\b(json|csv|pdf|xlsx|excel|xml)\b`)
	reSup     = regexp.MustCompile(`\b(?:[Ss]upplier|from)\s+([A-Z][A-Za-z0-9&]*(?:[ -][A-Z][A-Za-z0-9&]*)*)`)
	reAmtSym  = regexp.MustCompile(`([£$€])\s?(\d[\d,]*(?:\.\d+)?)`)
	reAmtCode = regexp.MustCompile(`\b(\d[\d,]*(?:\.\d+)?)\s?(GBP|USD|EUR)\b`)
	rePO      = regexp.MustCompile(`(?i)\b(?:PO|purchase order)[\s#-]*(\d+)\b`)
	reTerms   = regexp.MustCompile(`(?i)\bnet\s?(\d{1,3})\b`)
	reDocType = regexp.MustCompile(`(?i)\b(NDA|MSA|SOW|DPA|SLA)\b`)
)

func extractPriority(s string) string {
	switch {
	case reUrgent.MatchString(s):
		return "1"
	case reLow.MatchString(s):
		return "3"
	case reMedium.MatchString(s):
		return "2"
	}
	return ""
}

// extractors find named-field values in an instruction. Each returns nothing
// when the text holds no such value.
var extractors = map[string]func(string) []Field{
	"period": extractPeriod,
	"filter": func(s string) []Field {
		if m := reUser.FindStringSubmatch(s); m != nil {
			return []Field{{"filter", "usr=" + strings.ToLower(m[1])}}
		}
		if m := reStatus.FindStringSubmatch(s); m != nil {
			return []Field{{"filter", "status=" + strings.ToLower(m[1])}}
		}
		return nil
	},
	"fmt": func(s string) []Field {
		if m := reFormat.FindStringSubmatch(s); m != nil {
			f := strings.ToLower(m[1])
			if f == "excel" {
				f = "xlsx"
			}
			return []Field{{"fmt", f}}
		}
		return nil
	},
	"sup": func(s string) []Field {
		if m := reSup.FindStringSubmatch(s); m != nil {
			return []Field{{"sup", strings.ReplaceAll(m[1], " ", "-")}}
		}
		return nil
	},
	"amt": func(s string) []Field {
		ccy := map[string]string{"£": "GBP", "$": "USD", "€": "EUR"}
		i, j := reAmtSym.FindStringSubmatchIndex(s), reAmtCode.FindStringSubmatchIndex(s)
		switch {
		case i != nil && (j == nil || i[0] <= j[0]):
			return []Field{{"amt", strings.ReplaceAll(s[i[4]:i[5]], ",", "")}, {"ccy", ccy[s[i[2]:i[3]]]}}
		case j != nil:
			return []Field{{"amt", strings.ReplaceAll(s[j[2]:j[3]], ",", "")}, {"ccy", s[j[4]:j[5]]}}
		}
		return nil
	},
	"match": func(s string) []Field {
		if m := rePO.FindStringSubmatch(s); m != nil {
			return []Field{{"match", "PO-" + m[1]}}
		}
		return nil
	},
	"terms": func(s string) []Field {
		if m := reTerms.FindStringSubmatch(s); m != nil {
			return []Field{{"terms", "net" + m[1]}}
		}
		return nil
	},
	"type": func(s string) []Field {
		if m := reDocType.FindStringSubmatch(s); m != nil {
			return []Field{{"type", strings.ToUpper(m[1])}}
		}
		return nil
	},
}

// extractPeriod finds the leftmost period in the text: "2024-08", "31 August
// 2024" or "August 2024" give "2024-08"; "Q1 FY2026" gives "FY2026-Q1" and
// "Q3 2025" gives "2025-Q3".
func extractPeriod(s string) []Field {
	best, which := []int(nil), -1
	for k, re := range rePeriods {
		if m := re.FindStringSubmatchIndex(s); m != nil && (best == nil || m[0] < best[0]) {
			best, which = m, k
		}
	}
	sub := func(n int) string {
		if best[2*n] < 0 {
			return ""
		}
		return s[best[2*n]:best[2*n+1]]
	}
	var v string
	switch which {
	case -1:
		return nil
	case 0:
		v = sub(1) + "-" + sub(2)
	case 1:
		v = sub(2) + "-" + monthNumber(sub(1))
	case 2:
		if sub(2) != "" {
			v = "FY" + sub(3) + "-Q" + sub(1)
		} else {
			v = sub(3) + "-Q" + sub(1)
		}
	}
	return []Field{{"period", v}}
}

func monthNumber(name string) string {
	name = strings.ToLower(name)
	for i, m := range months {
		if strings.HasPrefix(m, name[:3]) {
			return string([]byte{byte('0' + (i+1)/10), byte('0' + (i+1)%10)})
		}
	}
	return "00"
}
