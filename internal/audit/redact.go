package audit

import (
	"bytes"
	"regexp"
	"strings"
	"sync"
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
	// triggers are lowercase substrings, one of which every match
	// contains: a cheap filter, since most strings hold no secret.
	triggers []string
	// re returns the regexp that matches the secret. Its group 1, when
	// present, is text before the secret that stays (the "password=" of a
	// pair), group 2 text after it. It is compiled the first time a
	// string holds one of the triggers: most runs never need most rules,
	// and a bridge does not compile them all at start.
	re func() *regexp.Regexp
	// needs, when set, holds bytes one of which the text must contain
	// (the ':' or '=' of a key=value pair).
	needs string
	// anchored rules run re (which starts with ^) only where a trigger
	// occurs, back bytes before it, and where at (if set) accepts the
	// position. Rules that start with a case-insensitive word are
	// anchored: Go's regexp cannot skip ahead to such a word, and
	// scanning a long string with them costs milliseconds.
	anchored bool
	back     int
	at       func(s string, i int, trigger string) bool
	// byFirst lists the triggers by their first byte, in both cases
	// (filled in by init).
	byFirst *[256][]string
}

func init() {
	for i := range rules {
		idx := new([256][]string)
		for _, t := range rules[i].triggers {
			c := t[0]
			idx[c] = append(idx[c], t)
			if c >= 'a' && c <= 'z' {
				idx[c-'a'+'A'] = append(idx[c-'a'+'A'], t)
			}
		}
		rules[i].byFirst = idx
	}
}

// secretValue matches the value of a key=value pair: quoted, or up to the
// next separator. It does not start with '[', so a marker a previous rule
// spliced in is not redacted twice.
const secretValue = `(?:"[^"]+"|'[^']+'|[^\s&;,'"\[][^\s&;,'"]*)`

// Tokens with a distinctive prefix (ghp_, glpat-, xoxb-, AIza, AKIA, eyJ)
// match even inside a longer word, so that gluing text to a token does not
// hide it; a plain sk- key needs a word boundary, or "task-" and "disk-"
// names would match (sk-ant- and sk-proj- do not).
var rules = []rule{
	{reason: "private-key", triggers: []string{"-----begin"},
		re: lazyRegexp(`-----BEGIN[ A-Z0-9]*PRIVATE KEY-----(?s:.*?)(?:-----END[ A-Z0-9]*PRIVATE KEY-----|$)`)},
	{reason: "aws-access-key", triggers: []string{"akia", "asia", "abia", "acca", "a3t"},
		re: lazyRegexp(`(?:AKIA|ASIA|ABIA|ACCA|A3T[A-Z0-9])[A-Z0-9]{16}`)},
	{reason: "aws-secret-key", triggers: []string{"aws"}, needs: ":=", anchored: true,
		re: lazyRegexp(`^(?i)(aws_?secret_?access_?key["']?\s*[:=]\s*["']?)[A-Za-z0-9/+=]{40}`)},
	{reason: "gcp-api-key", triggers: []string{"aiza"},
		re: lazyRegexp(`AIza[0-9A-Za-z_\-]{35}`)},
	{reason: "azure-storage-key", triggers: []string{"accountkey="}, anchored: true,
		re: lazyRegexp(`^(?i)(AccountKey=)[A-Za-z0-9+/=]{20,}`)},
	{reason: "azure-sas-signature", triggers: []string{"sig="}, anchored: true,
		at: func(s string, i int, _ string) bool { return i > 0 && (s[i-1] == '?' || s[i-1] == '&') },
		re: lazyRegexp(`^(?i)(sig=)[A-Za-z0-9%+/=]{20,}`)},
	{reason: "azure-client-secret", triggers: []string{"q~"}, anchored: true, back: 4,
		re: lazyRegexp(`^[A-Za-z0-9_~.]{3}\dQ~[A-Za-z0-9_~.\-]{31,34}`)},
	{reason: "github-token", triggers: []string{"ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_"},
		re: lazyRegexp(`(?:gh[pousr]_[A-Za-z0-9]{36,255}|github_pat_[A-Za-z0-9_]{22,255})`)},
	{reason: "gitlab-token", triggers: []string{"glpat-"},
		re: lazyRegexp(`glpat-[A-Za-z0-9_\-]{20,}`)},
	{reason: "slack-token", triggers: []string{"xox"},
		re: lazyRegexp(`xox[abposr]-[A-Za-z0-9-]{10,}`)},
	{reason: "slack-webhook", triggers: []string{"hooks.slack.com/"},
		re: lazyRegexp(`(hooks\.slack\.com/(?:services|workflows|triggers)/)[A-Za-z0-9_/\-]{8,}`)},
	{reason: "service-token", triggers: []string{"hf_", "ya29.", "pypi-", "sg.", "dop_v1_", "shpat_", "shpss_", "glptt-", "gldt-", "glrt-", "xapp-"},
		re: lazyRegexp(`(?:hf_[A-Za-z0-9]{30,}|ya29\.[0-9A-Za-z_-]{20,}|pypi-[A-Za-z0-9_-]{50,}|SG\.[A-Za-z0-9_-]{16,}\.[A-Za-z0-9_-]{16,}|dop_v1_[a-f0-9]{64}|shp(?:at|ss)_[a-fA-F0-9]{32}|gl(?:ptt|dt|rt)-[A-Za-z0-9_-]{20,}|xapp-[0-9]-[A-Za-z0-9-]{10,})`)},
	{reason: "npm-token", triggers: []string{"npm_"},
		re: lazyRegexp(`npm_[A-Za-z0-9]{36}`)},
	{reason: "stripe-key", triggers: []string{"_live_", "_test_"},
		re: lazyRegexp(`(?:sk|rk)_(?:live|test)_[A-Za-z0-9]{16,}`)},
	{reason: "basic-auth", triggers: []string{"-u", "--user"},
		re: lazyRegexp(`((?:^|\s)(?:-u|--user)(?:\s+|=)['"]?[^\s:'"\[]+:)[^\s'"\[]+`)},
	{reason: "api-key", triggers: []string{"sk-"}, anchored: true,
		at: func(s string, i int, _ string) bool {
			return i == 0 || !isWordByte(s[i-1]) || strings.HasPrefix(s[i:], "sk-ant-") || strings.HasPrefix(s[i:], "sk-proj-")
		},
		re: lazyRegexp(`^sk-(?:ant-|proj-)?[A-Za-z0-9_\-]{20,}`)},
	{reason: "jwt", triggers: []string{"eyj"},
		re: lazyRegexp(`eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}`)},
	{reason: "authorization", triggers: []string{"authorization"}, needs: ":=", anchored: true,
		re: lazyRegexp(`^(?i)(authorization["']?\s*[:=]\s*["']?)(?:(?:bearer|basic|token|digest|negotiate)\s+)?[^\s"',;\[][^\s"',;]*`)},
	{reason: "bearer-token", triggers: []string{"bearer"}, anchored: true,
		at: func(s string, i int, _ string) bool { return i == 0 || !isWordByte(s[i-1]) },
		re: lazyRegexp(`^(?i)(bearer\s+)[A-Za-z0-9._~+/=-]{8,}`)},
	{reason: "url-credentials", triggers: []string{"://"},
		re: lazyRegexp(`(://[^/\s:@\[]+:)[^/\s@\[]+(@)`)},
	// password=..., GITHUB_TOKEN=..., api-key: ..., STRIPE_KEY=...: the
	// word starts the string or follows a non-alphanumeric byte (so
	// csrf_token counts and mytoken does not); a bare "key" needs a name
	// before it (foo_key, foo-key).
	{reason: "secret-pair", needs: ":=", anchored: true,
		triggers: []string{"password", "passwd", "pwd", "passphrase", "token", "secret", "credential", "api_key", "api-key", "apikey", "key"},
		at: func(s string, i int, trigger string) bool {
			if trigger == "key" {
				return i >= 2 && (s[i-1] == '_' || s[i-1] == '-') && isAlnum(s[i-2])
			}
			if strings.HasPrefix(s[i:], "PWD") && (i == 0 || s[i-1] != '_') {
				return false // the shell's working directory
			}
			return i == 0 || !isAlnum(s[i-1])
		},
		re: lazyRegexp(`^(?i)((?:password|passwd|pwd|passphrase|token|secret|credentials?|api[_-]?key|apikey|key)["']?\s*[:=]\s*)` + secretValue)},
}

// lazyRegexp returns a function that compiles expr on its first call and
// returns the same regexp on every call. TestRedactRulesCompile compiles
// every rule's, so a bad expression still fails the tests.
func lazyRegexp(expr string) func() *regexp.Regexp {
	return sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(expr) })
}

func isAlnum(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

func isWordByte(c byte) bool { return isAlnum(c) || c == '_' }

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

// RedactText returns s with every secret the log recognises in text (by
// its shape, or as the value assigned to a secret's name) replaced in
// place by its [REDACTED:kind] marker, as the log writes an actor or a
// subject. Telemetry sent elsewhere than the log uses it on what the
// agent chose, so that no secret the log redacts leaves the bridge there.
func RedactText(s string) string {
	out, _ := redactString(s)
	return out
}

// redactString applies every rule to s and returns the result with the
// reason of the first secret found ("" when none was).
func redactString(s string) (string, string) {
	out, reason, _ := redactCount(s)
	return out, reason
}

// redactCount is redactString that also returns how many secrets it
// replaced.
func redactCount(s string) (out, first string, n int) {
	if len(s) < 8 {
		return s, "", 0
	}
	if clean.has(s) {
		return s, "", 0
	}
	out, first, n = scanSecrets(s)
	if n == 0 {
		clean.add(s)
	}
	return out, first, n
}

// scanSecrets is redactCount without the memory of clean strings.
func scanSecrets(s string) (out, first string, n int) {
	m := candidates(s)
	for i := range rules {
		r := &rules[i]
		if m&(1<<i) == 0 || (r.needs != "" && !containsAnyByte(s, r.needs)) {
			continue
		}
		out, k := replaceAll(r, s)
		if k > 0 {
			if first == "" {
				first = r.reason
			}
			s, n = out, n+k
		}
	}
	if out, k := redactAssignments(s); k > 0 {
		if first == "" {
			first = "secret-pair"
		}
		s, n = out, n+k
	}
	return s, first, n
}

// containsAnyByte is strings.ContainsAny for a set of ASCII bytes: a
// search per byte of the set, each many bytes a step, rather than one
// pass that tests every byte of s against the set.
func containsAnyByte(s, set string) bool {
	for i := 0; i < len(set); i++ {
		if strings.IndexByte(s, set[i]) >= 0 {
			return true
		}
	}
	return false
}

// replaceAll replaces each match of r in s by its kept prefix and suffix
// around the marker, and says how many it replaced.
func replaceAll(r *rule, s string) (string, int) {
	if r.anchored {
		return replaceAnchored(r, s)
	}
	idx := r.re().FindAllStringSubmatchIndex(s, -1)
	if idx == nil {
		return s, 0
	}
	var b strings.Builder
	last := 0
	for _, m := range idx {
		b.WriteString(s[last:m[0]])
		writeMatch(&b, r, s, m)
		last = m[1]
	}
	b.WriteString(s[last:])
	return b.String(), len(idx)
}

// replaceAnchored is replaceAll for an anchored rule: it tries re only at
// the trigger occurrences.
func replaceAnchored(r *rule, s string) (string, int) {
	var b strings.Builder
	last, n := 0, 0
	for i := 0; i < len(s); i++ {
		trig := ""
		for _, t := range r.byFirst[s[i]] {
			if hasPrefixFold(s[i:], t) {
				trig = t
				break
			}
		}
		start := i - r.back
		if trig == "" || start < last || (r.at != nil && !r.at(s, i, trig)) {
			continue
		}
		m := r.re().FindStringSubmatchIndex(s[start:])
		if m == nil {
			continue
		}
		for k := range m {
			if m[k] >= 0 {
				m[k] += start
			}
		}
		b.WriteString(s[last:m[0]])
		writeMatch(&b, r, s, m)
		last = m[1]
		i = last - 1
		n++
	}
	if n == 0 {
		return s, 0
	}
	b.WriteString(s[last:])
	return b.String(), n
}

// writeMatch writes the marker for the match m (absolute submatch
// indexes), keeping group 1 when it starts the match and group 2 when it
// ends it.
func writeMatch(b *strings.Builder, r *rule, s string, m []int) {
	start, end := m[0], m[1]
	if len(m) > 2 && m[2] == start && m[3] >= 0 {
		b.WriteString(s[m[2]:m[3]])
	}
	b.WriteString("[REDACTED:" + r.reason + "]")
	if len(m) > 4 && m[5] == end && m[4] >= 0 {
		b.WriteString(s[m[4]:m[5]])
	}
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
	if commonKey(k) {
		return false
	}
	return secretName(k)
}

// secretName is isSecretKey without the common names' short cut.
func secretName(k string) bool {
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
	orig := v
	switch v := v.(type) {
	case string:
		if out, changed := r.str(v); changed {
			return out
		}
		// Unchanged: return the value as it came (boxing the string
		// again would allocate).
		return orig
	case []any:
		for i, e := range v {
			v[i] = r.tree(e)
		}
		return v
	case *sharedTree:
		return v // redacted when it was made
	case numberMarker:
		return r.numberMark(string(v))
	case *digestText:
		return r.digest(v.raw)
	case diffText:
		if out, changed := r.whole(string(v)); changed {
			return out
		}
		return string(v)
	case map[string]any:
		// {"name": "GITHUB_TOKEN", "value": "..."}: env entries, headers.
		// The name as it came: the loop below may have replaced it (by a
		// marker, when the name is itself a token) before it meets the
		// value.
		pairSecret, pairName := false, ""
		if name, ok := v["name"].(string); ok && isSecretKey(name) {
			if val, ok := v["value"]; ok && hasContent(val) {
				pairSecret, pairName = true, name
			}
		}
		// The tree is the caller's private copy (toTree): change it in
		// place, renaming keys after the loop.
		type rename struct{ from, to string }
		var renames []rename
		for k, e := range v {
			// A key can hold a secret too (a map of tokens, a
			// name=value pair as short as "pwd=Hunt3rXy").
			k2, _ := redactString(k)
			k2 = escapeMarkerKey(k2)
			if k2 != k {
				renames = append(renames, rename{k, k2})
			}
			switch {
			case pairSecret && k == "value":
				v[k] = pairValueMarker(pairName)
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

// pairValueMarker is the marker that stands for the value of a
// name/value pair whose name is the secret name name: the name, itself
// redacted when long enough to hold a secret.
func pairValueMarker(name string) map[string]any {
	name, _ = redactString(name)
	return redacted("secret-key:" + shorten(name, 64))
}

// keyRenamed reports whether the redactor writes the key k under another
// name (see redactor.tree): a secret in it replaced, or a marker name
// escaped.
func keyRenamed(k string) bool {
	return !commonKey(k) && renamedName(k)
}

// renamedName is keyRenamed without the common names' short cut.
func renamedName(k string) bool {
	if escapeMarkerKey(k) != k {
		return true
	}
	k2, _ := redactString(k)
	return k2 != k
}

// escapeMarkerKey keeps caller data from passing for a marker: a key
// "$redacted", "$truncated", "$digest" or "$number" (with any number of
// leading '$') gets one more '$', so {"$redacted": true} sent by an agent is written as
// {"$$redacted": true}. The mapping is one-to-one.
func escapeMarkerKey(k string) string {
	if len(k) < 2 || k[0] != '$' {
		return k
	}
	rest := strings.TrimLeft(k, "$")
	if rest == "redacted" || rest == "truncated" || rest == "digest" || rest == "number" {
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

// str redacts and caps one string, reporting whether it changed.
func (r *redactor) str(s string) (any, bool) {
	if len(s) > r.maxValue {
		// Only the head is kept, so only a window a little longer than
		// the head is redacted: a secret that starts in the head ends in
		// the window (the longest token is 255 bytes; PEM keys and pairs
		// match up to the end of the window). Redacting megabytes of tool
		// output here would stall the bridge. The head ends at a word's
		// end, as a digest's preview does, so no part of a token is kept.
		head, _ := previewOf(validPrefix(s, r.headLen+previewSlack), len(s) <= r.headLen+previewSlack, r.headLen)
		return map[string]any{
			"$truncated": true,
			"bytes":      jsonInt(len(s)),
			"sha256":     hashHex([]byte(s)),
			"head":       head,
		}, true
	}
	return r.whole(s)
}

// whole redacts one string without a cap, reporting whether it changed.
func (r *redactor) whole(s string) (any, bool) {
	out, reason := redactString(s)
	if reason == "" {
		return nil, false
	}
	if t := strings.TrimSpace(out); strings.HasPrefix(t, "[REDACTED:") && strings.Count(t, "[REDACTED:") == 1 && strings.HasSuffix(t, "]") {
		return redacted(reason), true
	}
	return out, true
}
