package audit

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"
)

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
			path := filepath.Join(t.TempDir(), "audit.jsonl")
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
			writeLog(t, path, Options{}, evs)
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			esc, _ := json.Marshal(tt.secret)
			for i, line := range bytes.Split(data, []byte("\n")) {
				if bytes.Contains(line, []byte(tt.secret)) || bytes.Contains(line, esc[1:len(esc)-1]) ||
					bytes.Contains(line, []byte(strings.ToLower(tt.secret))) {
					t.Errorf("line %d holds the secret: %s", i+1, line)
				}
			}
			if _, err := Verify(path); err != nil {
				t.Fatal(err)
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
