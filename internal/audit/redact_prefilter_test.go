package audit

import (
	"strings"
	"testing"
)

// triggerIndex lists, for each byte, the triggers that start with it and
// the rule each belongs to.
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

// candidatesFull is candidates without the pair table: every byte's
// triggers tried.
func candidatesFull(s string) uint64 {
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

// redactAssignmentsFull is redactAssignments testing every name with
// isSecretName before the cheap tests.
func redactAssignmentsFull(s string) string {
	var b strings.Builder
	last := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c != '=' && c != ':' && c != ' ' && c != '\t' {
			continue
		}
		nameStart, nameEnd := assignedName(s, i)
		if nameStart < last || nameEnd <= nameStart {
			continue
		}
		name := s[nameStart:nameEnd]
		flag := strings.HasPrefix(name, "-")
		bare := strings.TrimLeft(name, "-")
		if !isSecretName(bare) {
			continue
		}
		if c == ' ' || c == '\t' {
			if nameEnd != i || !(flag || strings.ContainsAny(bare, "_-.")) {
				continue
			}
		} else if c == ':' && i+1 < len(s) && s[i+1] == '/' {
			continue
		}
		vs, ve := assignedValue(s, i+1, c == ' ' || c == '\t')
		if ve <= vs || (!flag && (c == ' ' || c == '\t') && !looksRandom(s[vs:ve])) {
			continue
		}
		b.WriteString(s[last:vs])
		b.WriteString("[REDACTED:secret-pair]")
		last = ve
		i = ve - 1
	}
	if last == 0 {
		return s
	}
	b.WriteString(s[last:])
	return b.String()
}

// FuzzRedactPrefilter: the prefilters (the trigger pair table of
// candidates, the cheap tests before isSecretName in redactAssignments)
// decide as the full tests do.
func FuzzRedactPrefilter(f *testing.F) {
	for _, s := range []string{"export GITHUB_TOKEN=ghp_0123456789abcdefghijklmnopqrstuvwxyzAB", "--password hunter2hunter2",
		"aws configure set aws_secret_access_key wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY", "Authorization: Bearer abc.def.ghi",
		"the bridge forwards each token as it came", "DB_PASS=x y", "curl -u user:pw https://x", "sk-ant-0123456789abcdefghijkl",
		"eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.sig_sig_sig", "https://u:p@host/", "Q~", "sG.", "-U", "a3T"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := candidates(s), candidatesFull(s); got != want {
			t.Fatalf("candidates(%q) = %b, want %b", s, got, want)
		}
		if got, _ := redactAssignments(s); got != redactAssignmentsFull(s) {
			want := redactAssignmentsFull(s)
			t.Fatalf("redactAssignments(%q) = %q, want %q", s, got, want)
		}
	})
}

// TestRedactPrefilterSoakText runs the comparison on the soak's text.
func TestRedactPrefilterSoakText(t *testing.T) {
	r := newSoakRand()
	for i := 0; i < 50; i++ {
		s := soakText(r, 4096, i%2 == 1) + " api_key=" + soakText(r, 20, true) + " --token abcdef0123456789"
		if got, want := candidates(s), candidatesFull(s); got != want {
			t.Fatalf("candidates: %b, want %b", got, want)
		}
		if got, _ := redactAssignments(s); got != redactAssignmentsFull(s) || !strings.Contains(got, "[REDACTED:") {
			want := redactAssignmentsFull(s)
			t.Fatalf("redactAssignments: %q, want %q (with a marker)", got, want)
		}
	}
}

// TestContainsAnyByte: containsAnyByte is strings.ContainsAny for the
// rules' sets of needed bytes.
func TestContainsAnyByte(t *testing.T) {
	for _, r := range rules {
		if r.needs == "" {
			continue
		}
		for _, s := range []string{"", "plain words", "a:b", "a=b", "x" + strings.Repeat("y", 100) + ":", "=", "é:", "\xff="} {
			if got, want := containsAnyByte(s, r.needs), strings.ContainsAny(s, r.needs); got != want {
				t.Errorf("containsAnyByte(%q, %q) = %v, want %v", s, r.needs, got, want)
			}
		}
		for i := 0; i < len(r.needs); i++ {
			if r.needs[i] >= 0x80 {
				t.Errorf("rule %s needs a byte that is not ASCII: %q", r.reason, r.needs)
			}
		}
	}
}
