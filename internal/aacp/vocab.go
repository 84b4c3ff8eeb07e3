package aacp

// Version is the AACP protocol version this package implements. Packets whose
// aacp: field names another version are accepted with a warning (draft
// section 14).
const Version = "1.1"

// Tasks lists the TASK values defined by AACP v1.1 (draft section 5.1), in the
// draft's order. Other well-formed values are accepted with a warning. The
// list is informative: changing it does not change what Parse accepts.
var Tasks = []string{"FETCH", "PROC", "FLAG", "RESOLVE", "LOG", "SEND", "BUILD", "MERGE", "CALC", "REPORT", "ACK", "SYNC"}

// Domains lists the DOM values defined by AACP v1.1 (draft section 5.2), in the
// draft's order. Other well-formed values are accepted with a warning. The
// list is informative: changing it does not change what Parse accepts.
var Domains = []string{"HR", "FIN", "SALES", "LEGAL", "IT", "CS", "MKT"}

// CoreKeys lists the named fields of draft section 4.2: the two required ones
// (return, aacp) and the recommended ones.
var CoreKeys = []string{"return", "aacp", "p", "res", "period", "filter", "fields", "fmt"}

// ExtendedKeys lists the extended field keys defined in draft section 4.3.
// Any other key is accepted with a warning. Like CoreKeys, the list is
// informative: changing it does not change what Parse accepts.
var ExtendedKeys = []string{
	"src", "src_prev", "rules", "validate", "tmpl", "data_ptr", "amt", "ccy", "sup", "match", "terms",
	"type", "party", "clause", "issue", "risk", "block", "flags", "req", "highlight", "status", "to",
	"subj", "att", "flag_msg", "tone", "sentiment", "actor", "chain", "prog", "ltv", "loyalty", "urgency",
}

// Priorities lists the values of the p: field (draft section 5.3):
// 1 critical, 2 medium (the default), 3 low.
var Priorities = []string{"1", "2", "3"}

var (
	knownTasks   = setOf(Tasks)
	knownDomains = setOf(Domains)
	knownKeys    = setOf(append(append([]string(nil), CoreKeys...), ExtendedKeys...))
	knownPrio    = setOf(Priorities)
)

func setOf(xs []string) map[string]bool {
	m := make(map[string]bool, len(xs))
	for _, x := range xs {
		m[x] = true
	}
	return m
}

// isToken reports whether s has the syntax of a TASK or DOM value: an ASCII
// upper-case letter followed by upper-case letters, digits, '_' or '-'.
func isToken(s string) bool {
	if s == "" || s[0] < 'A' || s[0] > 'Z' {
		return false
	}
	for i := 1; i < len(s); i++ {
		c := s[i]
		if !(c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-') {
			return false
		}
	}
	return true
}

// isKey reports whether s has the syntax of a named-field key: an ASCII letter
// followed by letters, digits, '_', '-' or '.'.
func isKey(s string) bool {
	if s == "" || !(s[0] >= 'a' && s[0] <= 'z' || s[0] >= 'A' && s[0] <= 'Z') {
		return false
	}
	for i := 1; i < len(s); i++ {
		c := s[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-' || c == '.') {
			return false
		}
	}
	return true
}
