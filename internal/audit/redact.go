package audit

import (
	"bytes"
	"regexp"
	"strings"
)

// Redaction happens before anything is written, on the decoded values of
// input, output and metadata:
//
//   - A member whose key names a secret (password, token, secret, api_key,
//     apiKey, private_key, authorization, cookie, credentials, FOO_KEY, ...)
//     has its value replaced by {"$redacted": true, "reason": "secret-key:<key>"},
//     and so does the "value" of a {"name": "GITHUB_TOKEN", "value": ...}
//     pair (the shape of ACP terminal env entries and HTTP headers).
//   - In every string, each secret a rule recognises is replaced by the
//     marker "[REDACTED:<reason>]", keeping the text around it so that a
//     reviewer still reads "curl -H 'Authorization: [REDACTED:authorization]'
//     https://...". A string that is nothing but the secret becomes
//     {"$redacted": true, "reason": "<reason>"}.
//   - A string longer than the cap (8 KiB by default) becomes
//     {"$truncated": true, "bytes": <length>, "sha256": <hex of the full
//     original string>, "head": <its first 1 KiB, already redacted>}.

// rule recognises one kind of secret inside a string.
type rule struct {
	reason string
	// triggers are lowercase substrings one of which must occur in the
	// lowercased text before re runs: a cheap filter, since most strings
	// hold no secret.
	triggers []string
	// re matches the secret. Its group 1, when present, is text before the
	// secret that stays (the "password=" of a pair), group 2 text after it.
	re *regexp.Regexp
	// needs, when set, holds bytes one of which the text must contain
	// (the ':' or '=' of a key=value pair).
	needs string
}

// Tokens with a distinctive prefix (ghp_, glpat-, xoxb-, AIza, AKIA, eyJ)
// match even inside a longer word, so that gluing text to a token does not
// hide it; sk- keys need a word boundary, or "task-" and "disk-" names would
// match.

// secretValue matches the value of a key=value pair: quoted, or up to the
// next separator. It does not start with '[', so a marker a previous rule
// spliced in is not redacted twice.
const secretValue = `("[^"]*"|'[^']*'|[^\s&;,'"\[][^\s&;,'"]*)`

var rules = []rule{
	{"private-key", []string{"-----begin"},
		regexp.MustCompile(`-----BEGIN[ A-Z0-9]*PRIVATE KEY-----(?s:.*?)(?:-----END[ A-Z0-9]*PRIVATE KEY-----|$)`), ""},
	{"aws-access-key", []string{"akia", "asia", "abia", "acca", "a3t"},
		regexp.MustCompile(`(?:AKIA|ASIA|ABIA|ACCA|A3T[A-Z0-9])[A-Z0-9]{16}`), ""},
	{"aws-secret-key", []string{"secret"},
		regexp.MustCompile(`(?i)(aws_?secret_?access_?key["']?\s*[:=]\s*["']?)[A-Za-z0-9/+=]{40}`), ":="},
	{"gcp-api-key", []string{"aiza"},
		regexp.MustCompile(`AIza[0-9A-Za-z_\-]{35}`), ""},
	{"azure-storage-key", []string{"accountkey"},
		regexp.MustCompile(`(?i)(AccountKey=)[A-Za-z0-9+/=]{20,}`), ""},
	{"azure-sas-signature", []string{"sig="},
		regexp.MustCompile(`(?i)([?&]sig=)[A-Za-z0-9%+/=]{20,}`), ""},
	{"azure-client-secret", []string{"q~"},
		regexp.MustCompile(`\b[A-Za-z0-9_~.]{3}\dQ~[A-Za-z0-9_~.\-]{31,34}`), ""},
	{"github-token", []string{"ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_"},
		regexp.MustCompile(`(?:gh[pousr]_[A-Za-z0-9]{36,255}|github_pat_[A-Za-z0-9_]{22,255})`), ""},
	{"gitlab-token", []string{"glpat-"},
		regexp.MustCompile(`glpat-[A-Za-z0-9_\-]{20,}`), ""},
	{"slack-token", []string{"xox"},
		regexp.MustCompile(`xox[abposr]-[A-Za-z0-9-]{10,}`), ""},
	{"api-key", []string{"sk-"},
		regexp.MustCompile(`\bsk-(?:ant-|proj-)?[A-Za-z0-9_\-]{20,}`), ""},
	{"jwt", []string{"eyj"},
		regexp.MustCompile(`eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}`), ""},
	{"authorization", []string{"authorization"},
		regexp.MustCompile(`(?i)(authorization["']?\s*[:=]\s*["']?)(?:(?:bearer|basic|token|digest|negotiate)\s+)?[^\s"',;\[][^\s"',;]*`), ":="},
	{"bearer-token", []string{"bearer"},
		regexp.MustCompile(`(?i)(\bbearer\s+)[A-Za-z0-9._~+/=-]{8,}`), ""},
	{"url-credentials", []string{"://"},
		regexp.MustCompile(`(://[^/\s:@\[]+:)[^/\s@\[]+(@)`), ""},
	{"secret-pair", []string{"pass", "pwd", "token", "secret", "key", "credential"},
		regexp.MustCompile(`(?i)(\b(?:[a-z0-9]+[_-])*(?:password|passwd|pwd|passphrase|token|secret|credentials?|api[_-]?key|apikey)["']?\s*[:=]\s*)` + secretValue +
			`|(\b(?:[a-z0-9]+[_-])+key["']?\s*[:=]\s*)` + secretValue), ":="},
}

// triggerIndex lists, for each byte, the triggers that start with it and
// the rule each belongs to, so that one pass over a string finds which
// rules can match it.
var triggerIndex = func() (idx [256][]trigger) {
	for i, r := range rules {
		for _, t := range r.triggers {
			idx[t[0]] = append(idx[t[0]], trigger{t, i})
			if c := t[0]; c >= 'a' && c <= 'z' {
				idx[c-'a'+'A'] = append(idx[c-'a'+'A'], trigger{t, i})
			}
		}
	}
	return idx
}()

type trigger struct {
	text string // lowercase
	rule int
}

// candidates returns a bit per rule whose triggers occur in s, compared
// without regard to ASCII case.
func candidates(s string) uint64 {
	var m uint64
	for i := 0; i < len(s); i++ {
		for _, t := range triggerIndex[s[i]] {
			if m&(1<<t.rule) == 0 && hasPrefixFold(s[i:], t.text) {
				m |= 1 << t.rule
			}
		}
	}
	return m
}

// hasPrefixFold reports whether s starts with lower, a lowercase ASCII
// string, ignoring ASCII case in s.
func hasPrefixFold(s, lower string) bool {
	if len(s) < len(lower) {
		return false
	}
	for i := 0; i < len(lower); i++ {
		c := s[i]
		if c >= 'A' && c <= 'Z' {
			c += 'a' - 'A'
		}
		if c != lower[i] {
			return false
		}
	}
	return true
}

// redactString applies every rule to s and returns the result with the
// reason of the first secret found ("" when none was).
func redactString(s string) (string, string) {
	if len(s) < 8 {
		return s, ""
	}
	m := candidates(s)
	if m == 0 {
		return s, ""
	}
	first := ""
	for i := range rules {
		r := &rules[i]
		if m&(1<<i) == 0 || (r.needs != "" && !strings.ContainsAny(s, r.needs)) {
			continue
		}
		out := replaceAll(r, s)
		if out != s {
			if first == "" {
				first = r.reason
			}
			s = out
		}
	}
	return s, first
}

// replaceAll replaces each match of r in s by its kept prefix and suffix
// around the marker.
func replaceAll(r *rule, s string) string {
	marker := "[REDACTED:" + r.reason + "]"
	idx := r.re.FindAllStringSubmatchIndex(s, -1)
	if idx == nil {
		return s
	}
	var b strings.Builder
	last := 0
	for _, m := range idx {
		b.WriteString(s[last:m[0]])
		// The kept prefix and suffix are the first and second
		// participating groups (secret-pair has two alternatives).
		var kept [][2]int
		for g := 1; 2*g+1 < len(m); g++ {
			if m[2*g] >= 0 && len(kept) < 2 && !isValueGroup(r, g) {
				kept = append(kept, [2]int{m[2*g], m[2*g+1]})
			}
		}
		start, end := m[0], m[1]
		if len(kept) > 0 && kept[0][0] == start {
			b.WriteString(s[kept[0][0]:kept[0][1]])
			kept = kept[1:]
		}
		b.WriteString(marker)
		if len(kept) > 0 && kept[0][1] == end {
			b.WriteString(s[kept[0][0]:kept[0][1]])
		}
		last = end
	}
	b.WriteString(s[last:])
	return b.String()
}

// isValueGroup reports whether group g of r's pattern is the secret value
// itself rather than text to keep.
func isValueGroup(r *rule, g int) bool {
	return r.reason == "secret-pair" && (g == 2 || g == 4)
}

// secretKeySuffixes are what a key ends with, lowercased and without '_' and
// '-', when its value is a secret.
var secretKeySuffixes = []string{
	"password", "passwd", "passphrase", "secret", "token", "apikey",
	"privatekey", "secretkey", "accesskey", "authorization", "credential",
	"credentials", "cookie", "setcookie", "sessionid", "signingkey", "encryptionkey",
}

// isSecretKey reports whether an object key (or an env/header name) names a
// secret: password, GITHUB_TOKEN, apiKey, x-api-key, STRIPE_KEY,
// client_secret, Authorization, ... Counts such as max_tokens or
// inputTokens do not.
func isSecretKey(k string) bool {
	if len(k) < 3 || len(k) > 128 {
		return false
	}
	var buf [128]byte
	norm := buf[:0]
	for i := 0; i < len(k); i++ {
		c := k[i]
		switch {
		case c >= 'A' && c <= 'Z':
			norm = append(norm, c+'a'-'A')
		case c == '_' || c == '-' || c == '.':
		default:
			norm = append(norm, c)
		}
	}
	if n := string(norm); n == "pwd" || n == "auth" {
		return true
	}
	for _, suf := range secretKeySuffixes {
		if bytes.HasSuffix(norm, []byte(suf)) {
			return true
		}
	}
	// FOO_KEY, foo-key: a key with a separator before "key".
	if len(k) < 4 {
		return false
	}
	return hasPrefixFold(k[len(k)-4:], "_key") || hasPrefixFold(k[len(k)-4:], "-key")
}

// redactor redacts and caps decoded JSON trees.
type redactor struct {
	maxValue int // strings longer than this are capped
	headLen  int // bytes of a capped string kept as its head
}

// redacted returns the marker object that replaces a secret value.
func redacted(reason string) map[string]any {
	return map[string]any{"$redacted": true, "reason": reason}
}

// tree returns v with every secret replaced and every long string capped.
// It modifies v, which must be the caller's private copy (toTree makes
// one).
func (r *redactor) tree(v any) any {
	switch v := v.(type) {
	case string:
		return r.str(v)
	case []any:
		for i, e := range v {
			v[i] = r.tree(e)
		}
		return v
	case map[string]any:
		// {"name": "GITHUB_TOKEN", "value": "..."}: env entries, headers.
		pairSecret := false
		if name, ok := v["name"].(string); ok && isSecretKey(name) {
			if val, ok := v["value"]; ok && hasContent(val) {
				pairSecret = true
			}
		}
		// The tree is the caller's private copy (toTree): change it in
		// place, renaming keys after the loop.
		type rename struct{ from, to string }
		var renames []rename
		for k, e := range v {
			// A key can hold a secret too (a map of tokens); the
			// shortest secret a rule finds in a key is longer than 16.
			k2 := k
			if len(k) > 16 {
				k2, _ = redactString(k)
			}
			k2 = escapeMarkerKey(k2)
			if k2 != k {
				renames = append(renames, rename{k, k2})
			}
			switch {
			case pairSecret && k == "value":
				name := v["name"].(string)
				if len(name) > 16 {
					name, _ = redactString(name)
				}
				v[k] = redacted("secret-key:" + shorten(name, 64))
			case isSecretKey(k) && hasContent(e):
				v[k] = redacted("secret-key:" + shorten(k2, 64))
			default:
				v[k] = r.tree(e)
			}
		}
		for _, rn := range renames {
			v[rn.to] = v[rn.from]
			delete(v, rn.from)
		}
		return v
	default:
		return v
	}
}

// escapeMarkerKey keeps caller data from passing for a marker: a key
// "$redacted" or "$truncated" (with any number of leading '$') gets one
// more '$', so {"$redacted": true} sent by an agent is written as
// {"$$redacted": true}. The mapping is one-to-one.
func escapeMarkerKey(k string) string {
	if len(k) < 2 || k[0] != '$' {
		return k
	}
	rest := strings.TrimLeft(k, "$")
	if rest == "redacted" || rest == "truncated" {
		return "$" + k
	}
	return k
}

// hasContent reports whether a value under a secret-named key could hold a
// secret (so {"password": null} or {"token": false} stay readable).
func hasContent(v any) bool {
	switch v := v.(type) {
	case nil, bool:
		return false
	case string:
		return v != ""
	}
	return true
}

func (r *redactor) str(s string) any {
	if len(s) > r.maxValue {
		// Only the head is kept, so only a window a little longer than
		// the head is redacted: a secret that starts in the head ends in
		// the window (the longest token is 255 bytes; PEM keys and pairs
		// match up to the end of the window). Redacting megabytes of tool
		// output here would stall the bridge.
		out, _ := redactString(validPrefix(s, r.headLen+512))
		return map[string]any{
			"$truncated": true,
			"bytes":      jsonInt(len(s)),
			"sha256":     hashHex([]byte(s)),
			"head":       validPrefix(out, r.headLen),
		}
	}
	out, reason := redactString(s)
	if reason != "" {
		if t := strings.TrimSpace(out); strings.HasPrefix(t, "[REDACTED:") && strings.Count(t, "[REDACTED:") == 1 && strings.HasSuffix(t, "]") {
			return redacted(reason)
		}
	}
	return out
}
