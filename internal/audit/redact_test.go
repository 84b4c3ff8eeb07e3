package audit

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"

	"github.com/acp-bridge/acp-bridge/internal/cputime"
)

// Test secrets: realistic shapes, not real credentials. Built by
// concatenation so that secret scanners do not flag this file.
var (
	awsKeyID     = "AKIA" + "IOSFODNN7EXAMPLE"
	awsSecret    = "wJalrXUtnFEMI/K7MDENG/bPxRfiCY" + "EXAMPLEKEY"
	gcpKey       = "AIza" + "SyD-9tSrke72PouQMnMX-a7eZSW0jkFMBWY"
	azureKey     = "Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw=="
	azureSecret  = "abc8Q~" + "jkdiDKw8-Ql2q_eEDf4O7h9.dSFi-aaa"
	ghpToken     = "ghp_" + "wWPw5k4aXcaT4fNP0UcnZwJUVFk6LO0pINUx"
	ghoToken     = "gho_" + "16C7e42F292c6912E7710c838347Ae178B4a"
	githubPAT    = "github_pat_" + "11ABCDEFG0123456789_abcdefghijklmnopqrstuvwxyzABCDEFGHIJ"
	gitlabToken  = "glpat-" + "xxxxXXXXxxxxXXXXxxxx"
	slackToken   = "xoxb-" + "2345678901-2345678901234-AbCdEfGhIjKlMnOpQrStUvWx"
	openAIKey    = "sk-" + "proj-Abcdefghijklmnopqrstuvwxyz0123456789ABCD"
	anthropicKey = "sk-ant-" + "api03-Abcdefghijklmnopqrstuvwxyz0123456789_-ABCDEFGH"
	jwtToken     = "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9" + ".eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4ifQ.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c"
	pemKey       = "-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEA0Z3VS5JJcds3xfn/ygWyF8PbnGy0AHB7MhgHcTz6sE2I2yPB\naFDrBz9vFqU4yQ==\n-----END RSA PRIVATE KEY-----"
	password     = "hunter2-Correct-Horse"
)

func TestRedactStrings(t *testing.T) {
	r := redactor{maxValue: DefaultMaxValueBytes, headLen: 1024}
	tests := []struct {
		name   string
		in     any
		want   any
		secret string
	}{
		{"aws access key id alone", awsKeyID, redacted("aws-access-key"), awsKeyID},
		{"aws secret in config", "aws_secret_access_key = " + awsSecret, "aws_secret_access_key = [REDACTED:aws-secret-key]", awsSecret},
		{"gcp api key in url", "https://maps.googleapis.com/maps/api?key=" + gcpKey, "https://maps.googleapis.com/maps/api?key=[REDACTED:gcp-api-key]", gcpKey},
		{"azure connection string", "DefaultEndpointsProtocol=https;AccountName=x;AccountKey=" + azureKey + ";EndpointSuffix=core.windows.net",
			"DefaultEndpointsProtocol=https;AccountName=x;AccountKey=[REDACTED:azure-storage-key];EndpointSuffix=core.windows.net", azureKey},
		{"azure client secret", "client: " + azureSecret, "client: [REDACTED:azure-client-secret]", azureSecret},
		{"github ghp", ghpToken, redacted("github-token"), ghpToken},
		{"github gho in command", "gh auth login --with-token " + ghoToken, "gh auth login --with-token [REDACTED:github-token]", ghoToken},
		{"github fine-grained pat", "GH=" + githubPAT, "GH=[REDACTED:github-token]", githubPAT},
		{"gitlab", "git clone https://oauth2:" + gitlabToken + "@gitlab.com/x/y.git", "git clone https://oauth2:[REDACTED:gitlab-token]@gitlab.com/x/y.git", gitlabToken},
		{"slack", "curl -d token=" + slackToken + " https://slack.com/api", "curl -d token=[REDACTED:slack-token] https://slack.com/api", slackToken},
		{"openai sk-", openAIKey, redacted("api-key"), openAIKey},
		{"anthropic sk-ant-", "export ANTHROPIC_API_KEY=" + anthropicKey, "export ANTHROPIC_API_KEY=[REDACTED:api-key]", anthropicKey},
		{"jwt", "cookie session=" + jwtToken + "; path=/", "cookie session=[REDACTED:jwt]; path=/", jwtToken},
		{"pem private key", "key:\n" + pemKey + "\nend", "key:\n[REDACTED:private-key]\nend", "MIIEowIBAAKCAQEA0Z3VS5JJcds3xfn"},
		{"pem key cut short", "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAABG5vbmU", redacted("private-key"), "b3BlbnNzaC1rZXktdjEAAAAABG5vbmU"},
		{"authorization header", "curl -H 'Authorization: Bearer abc.def-123456789' https://api", "curl -H 'Authorization: [REDACTED:authorization]' https://api", "abc.def-123456789"},
		{"basic auth", "Authorization: Basic dXNlcjpwYXNzd29yZA==", "Authorization: [REDACTED:authorization]", "dXNlcjpwYXNzd29yZA=="},
		{"bearer alone", "bearer q8w7e6r5t4y3u2i1", "bearer [REDACTED:bearer-token]", "q8w7e6r5t4y3u2i1"},
		{"password pair", "mysql -u root --password=" + password + " db", "mysql -u root --password=[REDACTED:secret-pair] db", password},
		{"quoted password pair", `{"password": "` + password + `"}`, `{"password": [REDACTED:secret-pair]}`, password},
		{"token pair in query", "https://x.test/cb?code=1&token=abcdef123456&x=2", "https://x.test/cb?code=1&token=[REDACTED:secret-pair]&x=2", "abcdef123456"},
		{"env var *_TOKEN", "NPM_TOKEN=npm_abcdefghij0123456789 npm publish", "NPM_TOKEN=[REDACTED:secret-pair] npm publish", "npm_abcdefghij0123456789"},
		{"env var *_KEY", "STRIPE_KEY=rk_live_0123456789abcdef ./deploy", "STRIPE_KEY=[REDACTED:stripe-key] ./deploy", "rk_live_0123456789abcdef"},
		{"url credentials", "postgres://admin:s3cr3tpass@db:5432/app", "postgres://admin:[REDACTED:url-credentials]@db:5432/app", "s3cr3tpass"},
		{"flag with a word after a space", "mysql --password hunter2 db", "mysql --password [REDACTED:secret-pair] db", "hunter2"},
		{"nothing secret", "npm run test -- --max_tokens: 5 keyboard", "npm run test -- --max_tokens: 5 keyboard", ""},
		{"task id is not an sk- key", "task-0123456789abcdefghijklmnop", "task-0123456789abcdefghijklmnop", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := r.tree(tt.in)
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("redact(%q) (-want +got):\n%s", tt.in, diff)
			}
			if tt.secret != "" {
				b, _ := json.Marshal(got)
				if bytes.Contains(b, []byte(tt.secret)) {
					t.Errorf("secret survived: %s", b)
				}
			}
		})
	}
}

// TestRedactLongStrings checks the head of a capped string: a secret that
// starts in the head is redacted, and the cost does not grow with the
// length of the string.
func TestRedactLongStrings(t *testing.T) {
	r := redactor{maxValue: DefaultMaxValueBytes, headLen: 1024}
	tests := []struct {
		name, s, secret string
	}{
		{"token across the head boundary", strings.Repeat("x ", 505) + ghpToken + strings.Repeat(" y", 5000), ghpToken[:20]},
		{"pem key longer than the cap", pemKey[:40] + strings.Repeat("QUJD", 3000), "QUJDQUJD"},
		{"pair at the head boundary", strings.Repeat("z", 1015) + " password=" + password + strings.Repeat("!", 9000), password[:4]},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := r.tree(tt.s).(map[string]any)
			if !ok || got["$truncated"] != true || got["sha256"] != hashHex([]byte(tt.s)) {
				t.Fatalf("got %v, want a truncation marker", got)
			}
			if head := got["head"].(string); strings.Contains(head, tt.secret) || len(head) > 1024 {
				t.Errorf("head (%d bytes) holds the secret: %q", len(head), head)
			}
		})
	}
	huge := strings.Repeat("password=x token=y ", 1<<20) // 19 MiB
	if d := cputime.Of(func() { r.tree(huge) }); d > time.Second {
		t.Errorf("redacting a 19 MiB string took %v of CPU", d)
	}
}

func TestRedactKeys(t *testing.T) {
	r := redactor{maxValue: DefaultMaxValueBytes, headLen: 1024}
	in := map[string]any{
		"password":              "x-" + password,
		"apiKey":                "abc",
		"x-api-key":             "abc",
		"client_secret":         map[string]any{"v": 1},
		"Authorization":         "Bearer " + jwtToken,
		"GITHUB_TOKEN":          ghpToken,
		"AWS_SECRET_ACCESS_KEY": awsSecret,
		"max_tokens":            json.Number("1000"),
		"inputTokens":           json.Number("12"),
		"token":                 nil,
		"keyboard":              "qwerty",
		"env": []any{
			map[string]any{"name": "OPENAI_API_KEY", "value": "zzz-not-a-known-shape"},
			map[string]any{"name": "PATH", "value": "/usr/bin"},
		},
		ghpToken:    "a secret used as a key",
		"$redacted": true,
	}
	want := map[string]any{
		"password":              redacted("secret-key:password"),
		"apiKey":                redacted("secret-key:apiKey"),
		"x-api-key":             redacted("secret-key:x-api-key"),
		"client_secret":         redacted("secret-key:client_secret"),
		"Authorization":         redacted("secret-key:Authorization"),
		"GITHUB_TOKEN":          redacted("secret-key:GITHUB_TOKEN"),
		"AWS_SECRET_ACCESS_KEY": redacted("secret-key:AWS_SECRET_ACCESS_KEY"),
		"max_tokens":            json.Number("1000"),
		"inputTokens":           json.Number("12"),
		"token":                 nil,
		"keyboard":              "qwerty",
		"env": []any{
			map[string]any{"name": "OPENAI_API_KEY", "value": redacted("secret-key:OPENAI_API_KEY")},
			map[string]any{"name": "PATH", "value": "/usr/bin"},
		},
		"[REDACTED:github-token]": "a secret used as a key",
		"$$redacted":              true,
	}
	if diff := cmp.Diff(want, r.tree(in)); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

// TestSecretNeverInFile writes every kind of secret through every field
// and greps the file for each. Secrets with a recognisable shape are
// written bare; the others (an AWS secret key, an Azure storage key, a
// password: random text) only in the context that names them, since
// nothing tells them apart from other text when they stand alone.
func TestSecretNeverInFile(t *testing.T) {
	cases := []struct{ secret, text string }{
		{awsKeyID, awsKeyID},
		{awsSecret, "aws_secret_access_key=" + awsSecret},
		{gcpKey, gcpKey},
		{azureKey, "AccountKey=" + azureKey},
		{azureSecret, azureSecret},
		{ghpToken, ghpToken},
		{ghoToken, ghoToken},
		{githubPAT, githubPAT},
		{gitlabToken, gitlabToken},
		{slackToken, slackToken},
		{openAIKey, openAIKey},
		{anthropicKey, anthropicKey},
		{jwtToken, jwtToken},
		{pemKey, pemKey},
		{"MIIEowIBAAKCAQEA0Z3VS5JJcds3xfn", pemKey},
		{password, "password: " + password},
	}
	var evs []Event
	for _, c := range cases {
		cmd := "run: deploy --password=" + password + " with " + c.text + " done"
		evs = append(evs, Event{
			Actor:   Actor{ID: "agent:x"},
			Action:  "tool.call",
			Subject: Subject{Kind: "tool-call", Ref: "call-1"},
			Input:   map[string]any{"command": cmd, "headers": map[string]any{"Authorization": "Bearer " + c.secret}, "list": []any{c.text}},
			Output:  c.text,
			Metadata: map[string]any{"toolCall": ToolCall{Kind: "tool-call", Tool: "Bash", Arguments: map[string]any{"command": cmd},
				Result: map[string]any{"stdout": strings.Repeat("log line\n", 1200) + c.text}}},
		})
	}
	data := writeVerified(t, evs)
	for _, c := range cases {
		s := c.secret
		if bytes.Contains(data, []byte(s)) {
			t.Errorf("secret %.12s... found in the file", s)
		}
		// Escaped forms count too (the PEM key's newlines).
		esc, _ := json.Marshal(s)
		if bytes.Contains(data, esc[1:len(esc)-1]) {
			t.Errorf("escaped secret %.12s... found in the file", s)
		}
	}
	if !bytes.Contains(data, []byte("[REDACTED:")) || !bytes.Contains(data, []byte(`"$redacted":true`)) {
		t.Error("no redaction markers in the file")
	}
}

// writeVerified writes evs to a new log, checks that it verifies, and
// returns the file's bytes, for the tests that look for secrets in them.
func writeVerified(t *testing.T, evs []Event) []byte {
	t.Helper()
	path := filepath.Join(t.TempDir(), "audit.jsonl")
	writeLog(t, path, Options{}, evs)
	if _, err := Verify(path); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// secretTexts are command lines, headers and config lines an agent
// produces, each holding one secret. A reviewer must never find the secret
// in the file, whichever field of the record the text lands in.
var secretTexts = []struct {
	name, text, secret string
}{
	{"github token in push url", "git push https://user:" + ghpToken + "@github.com/acme/app.git main", ghpToken},
	{"basic-auth url", "git clone https://deploy:Zq8-hunter2-Xy@git.internal.example/app.git", "Zq8-hunter2-Xy"},
	{"bearer header", "curl -H 'Authorization: Bearer q8w7e6r5t4y3u2i1o0p9' https://api.example.com", "q8w7e6r5t4y3u2i1o0p9"},
	{"bare bearer", "Bearer q8w7e6r5t4y3u2i1o0p9", "q8w7e6r5t4y3u2i1o0p9"},
	{"aws key id", "aws sts get-caller-identity # " + awsKeyID, awsKeyID},
	{"aws secret env", "AWS_SECRET_ACCESS_KEY=" + awsSecret + " aws s3 ls", awsSecret},
	{"aws secret configure", "aws configure set aws_secret_access_key " + awsSecret, awsSecret},
	{"slack token", "SLACK=" + slackToken, slackToken},
	{"slack webhook", "curl -X POST https://hooks.slack.com/services/T0A1B2C3D/B0A1B2C3D/" + "k9L8m7N6o5P4q3R2s1T0u9V8", "k9L8m7N6o5P4q3R2s1T0u9V8"},
	{"jwt", "session=" + jwtToken, jwtToken},
	{"private key", "printf '" + pemKey + "' > id_rsa", "MIIEowIBAAKCAQEA0Z3VS5JJcds3xfn"},
	{"password pair", "mysql --password=" + password + " app", password},
	{"password flag with space", "mysql --password " + password + " app", password},
	{"env api key", "API_KEY=Vq2Zt8Lm4Rp6Wx0Yc3 node server.js", "Vq2Zt8Lm4Rp6Wx0Yc3"},
	{"env prefixed password", "PGPASSWORD=" + password + " psql -h db", password},
	{"env db pass", "DB_PASS=" + password + " ./migrate", password},
	{"env secret key base", "SECRET_KEY_BASE=9f8e7d6c5b4a39281706f5e4 rails s", "9f8e7d6c5b4a39281706f5e4"},
	{"npm auth token", "//registry.npmjs.org/:_authToken=npm_" + "abcdefghijklmnopqrstuvwxyz0123456789", "abcdefghijklmnopqrstuvwxyz0123456789"},
	{"npm token alone", "echo npm_" + "abcdefghijklmnopqrstuvwxyz0123456789", "abcdefghijklmnopqrstuvwxyz0123456789"},
	{"curl basic user", "curl -u admin:" + password + " https://ci.example.com", password},
	{"stripe live key", "STRIPE=sk_live_" + "51Habcdefghijklmnopqrstu", "51Habcdefghijklmnopqrstu"},
	{"anthropic key", "export ANTHROPIC_API_KEY=" + anthropicKey, anthropicKey},
	{"cookie header", "curl -H 'Cookie: sid=Qw3rTy7uIo9pAs2dFg4h' https://x", "Qw3rTy7uIo9pAs2dFg4h"},
	{"hugging face token", "huggingface-cli login --token hf_" + "AbCdEfGhIjKlMnOpQrStUvWxYz01234567", "AbCdEfGhIjKlMnOpQrStUvWxYz01234567"},
	{"google oauth token", "curl -H 'X-Goog: ya29." + "a0AfH6SMBx3kQ9zR8Lm2Np4Qr6St8Uv' https://x", "a0AfH6SMBx3kQ9zR8Lm2Np4Qr6St8Uv"},
	{"sendgrid key", "SENDGRID=SG." + "ngeVfQFYQlKU0ufo8x5d1A.TwL2iGABf9DHoTf-09kqeF8tAmbihYzrnopKc-1s5cr", "TwL2iGABf9DHoTf-09kqeF8tAmbihYzrnopKc-1s5cr"},
	{"api key header", `curl -H "X-API-Key: Zq8r7t6y5u4i3o2p1a0s" https://x`, "Zq8r7t6y5u4i3o2p1a0s"},
	{"private-token header", `curl --header "PRIVATE-TOKEN: Zq8r7t6y5u4i3o2p1a0s" https://gitlab`, "Zq8r7t6y5u4i3o2p1a0s"},
	{"auth token flag", "deploy --auth-token Zq8r7t6y5u4i3o2p1a0s --env prod", "Zq8r7t6y5u4i3o2p1a0s"},
	{"git extraheader", `git -c http.extraheader="AUTHORIZATION: basic Zq8r7t6y5u4i3o2p1a0s" clone x`, "Zq8r7t6y5u4i3o2p1a0s"},
}

// TestEveryFieldRedacted writes each secret text through every field of a
// record (actor, subject, policy, input, output, metadata) and looks for
// the secret in the file.
func TestEveryFieldRedacted(t *testing.T) {
	for _, tt := range secretTexts {
		t.Run(tt.name, func(t *testing.T) {
			evs := []Event{
				{Actor: Actor{ID: "agent:" + tt.text}, Action: "tool.call", Subject: Subject{Kind: "terminal"}},
				{Actor: Actor{ID: "agent:x"}, Action: "terminal.create", Subject: Subject{Kind: "terminal", Ref: tt.text}},
				{Actor: Actor{ID: "agent:x"}, Action: "terminal.create", Subject: Subject{Kind: "terminal", Path: tt.text}},
				{Actor: Actor{ID: "agent:x"}, Action: "tool.call", Subject: Subject{Kind: "terminal"}, Policy: &Policy{Ref: "Bash(" + tt.text + ")", Decision: DecisionDeny}},
				{Actor: Actor{ID: "agent:x"}, Action: "tool.call", Subject: Subject{Kind: "terminal"}, Policy: &Policy{Ref: tt.text, Decision: DecisionDeny}},
				{Actor: Actor{ID: "agent:x"}, Action: "tool.call", Subject: Subject{Kind: "terminal"}, Input: tt.text, Output: []any{tt.text}},
				{Actor: Actor{ID: "agent:x"}, Action: "tool.call", Subject: Subject{Kind: "terminal"},
					Metadata: map[string]any{"title": tt.text, "session": tt.text, "toolCall": ToolCall{Kind: "tool-call", Tool: tt.text, ToolCallID: tt.text, Arguments: map[string]any{"command": tt.text}}}},
			}
			// Kind and role have short limits: the text goes there when
			// it fits.
			if len(tt.text) <= 32 {
				evs = append(evs, Event{Actor: Actor{ID: "agent:x"}, Action: "tool.call", Subject: Subject{Kind: tt.text}})
			}
			if len(tt.text) <= 64 {
				evs = append(evs, Event{Actor: Actor{ID: "agent:x", Role: tt.text}, Action: "tool.call", Subject: Subject{Kind: "terminal"}})
			}
			data := writeVerified(t, evs)
			esc, _ := json.Marshal(tt.secret)
			for i, line := range bytes.Split(data, []byte("\n")) {
				if bytes.Contains(line, []byte(tt.secret)) || bytes.Contains(line, esc[1:len(esc)-1]) ||
					bytes.Contains(line, []byte(strings.ToLower(tt.secret))) {
					t.Errorf("line %d holds the secret: %s", i+1, line)
				}
			}
		})
	}
}

// TestAssignmentsKeepPlainText checks that naming-based redaction leaves
// alone what only looks like an assignment.
func TestAssignmentsKeepPlainText(t *testing.T) {
	for _, s := range []string{
		"cd /work && PWD=/work/app OLDPWD=/work make",
		`{"max_tokens": 4096, "inputTokens": 12}`,
		"read the api_key file and the token list",
		"curl http://localhost:8080/healthz",
		"git log --author=alice --since=2.weeks",
		"key: value, keyboard: qwerty",
		"password: ''",
	} {
		if got, reason := redactString(s); got != s {
			t.Errorf("redactString(%q) = %q (%s), want it unchanged", s, got, reason)
		}
	}
}

// FuzzRedactString checks that redaction never panics, keeps valid UTF-8
// valid, and finds nothing more in its own output.
func FuzzRedactString(f *testing.F) {
	for _, tt := range secretTexts {
		f.Add(tt.text)
	}
	f.Add("--password")
	f.Add(`"token" : "`)
	f.Add("a_secret x=y: --pass  'q")
	f.Fuzz(func(t *testing.T, s string) {
		once, _ := redactString(s)
		if utf8.ValidString(s) && !utf8.ValidString(once) {
			t.Fatalf("redactString(%q) = %q: invalid UTF-8", s, once)
		}
		if twice, _ := redactString(once); twice != once {
			t.Fatalf("redacting again changed %q to %q", once, twice)
		}
	})
}
