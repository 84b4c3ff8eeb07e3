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
// isSecretName before the cheap tests, and every byte that may separate a
// name from its value: it lists the values to replace, then splices.
func redactAssignmentsFull(s string) string {
	var values [][2]int // start and end of each value replaced
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c != '=' && c != ':' && c != ' ' && c != '\t' {
			continue
		}
		nameStart, nameEnd := assignedName(s, i)
		if nameEnd <= nameStart || len(values) > 0 && nameStart < values[len(values)-1][1] {
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
		} else if c == ':' && strings.HasPrefix(s[i+1:], "/") {
			continue
		}
		if vs, ve, ok := assignedSecret(s, i, flag); ok {
			values = append(values, [2]int{vs, ve})
			i = ve - 1
		}
	}
	var b strings.Builder
	last := 0
	for _, v := range values {
		b.WriteString(s[last:v[0]] + "[REDACTED:secret-pair]")
		last = v[1]
	}
	return b.String() + s[last:]
}

// FuzzRedactPrefilter: the prefilters (the trigger pair table of
// candidates, the cheap tests before isSecretName in redactAssignments)
// decide as the full tests do.
func FuzzRedactPrefilter(f *testing.F) {
	for _, s := range []string{"export GITHUB_TOKEN=ghp_0123456789abcdefghijklmnopqrstuvwxyzAB", "--password hunter2hunter2",
		"aws configure set aws_secret_access_key wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY", "Authorization: Bearer abc.def.ghi",
		"the bridge forwards each token as it came", "DB_PASS=x y", "curl -u user:pw https://x", "sk-ant-0123456789abcdefghijkl",
		"eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.sig_sig_sig", "https://u:p@host/", "Q~", "sG.", "-U", "a3T", "the password x9Kq2Lm8 was",
		"the tool reads files then my_var_token x9Kq2Lm8Zz and a_b:c\u00e9 END_KEY=abcdefgh", "q~", "xq~", "tok", "aiz", "words words words.\npwd=x"} {
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
		for i := range min(len(s), 9) {
			checkNextAssignByte(t, s, i)
		}
	})
}

// checkNextAssignByte checks nextAssignByte(s, i): it passes over no
// byte that may start an assignment, and stops at one or in the last
// seven bytes of s.
func checkNextAssignByte(t *testing.T, s string, i int) {
	t.Helper()
	j := nextAssignByte(s, i)
	if j < i || j > len(s) {
		t.Fatalf("nextAssignByte(%q, %d) = %d, out of range", s, i, j)
	}
	if k := strings.IndexAny(s[i:j], "_-.=:"); k >= 0 {
		t.Fatalf("nextAssignByte(%q, %d) = %d, passing over %q at %d", s, i, j, s[i+k], i+k)
	}
	if j+8 <= len(s) && !strings.ContainsRune("_-.=:", rune(s[j])) {
		t.Fatalf("nextAssignByte(%q, %d) = %d, at %q", s, i, j, s[j])
	}
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
