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

	"github.com/gowebpki/jcs"
)

// seedLines returns the lines of a log of the sample events.
func seedLines(f *testing.F) [][]byte {
	path := filepath.Join(f.TempDir(), "audit.jsonl")
	writeLog(f, path, Options{Now: fixedClock(time.Millisecond)}, sampleEvents())
	return readLines(f, path)
}

// FuzzCheckLine feeds arbitrary lines and files to the verifier: it must
// never panic, and whatever it accepts must really be canonical and hash
// to its own hash.
func FuzzCheckLine(f *testing.F) {
	lines := seedLines(f)
	for _, l := range lines {
		f.Add(l)
		f.Add(l[:len(l)/2])
		f.Add(bytes.Replace(l, []byte(`"seq":`), []byte(`"seq": `), 1))
	}
	f.Add(bytes.Join(lines, []byte("\n")))
	f.Add([]byte(`{}`))
	f.Add([]byte(`{"$schema":"agentgovernance/v1","doctype":"audit-event"}`))
	f.Add([]byte("\x00\xff{"))
	f.Fuzz(func(t *testing.T, data []byte) {
		var c Checker
		c.read("fuzz", bytes.NewReader(data), true)
		rec, err := checkLine(data)
		if err != nil {
			return
		}
		canon, err := jcs.Transform(data)
		if err != nil || !bytes.Equal(canon, data) {
			t.Fatalf("accepted a line that is not canonical: %q", data)
		}
		var m map[string]json.RawMessage
		json.Unmarshal(data, &m)
		delete(m, "hash")
		delete(m, "hashAlg")
		delete(m, "metadata")
		raw, _ := json.Marshal(m)
		canon, _ = jcs.Transform(raw)
		if hashHex(canon) != rec.Hash {
			t.Fatalf("accepted a line whose hash does not match: %q", data)
		}
	})
}

// FuzzCanonical compares the writer's RFC 8785 encoder with the reference
// implementation on arbitrary JSON.
func FuzzCanonical(f *testing.F) {
	for _, l := range seedLines(f) {
		f.Add(l)
	}
	for _, s := range []string{`1e21`, `-0`, `0.1`, `123456789012345678901234567890`, `"\u2028\u0000\ud83d\ude00"`, `{"\ue000":1,"\ud83d\ude00":2,"a":[true,null,1.5e-7]}`, `"<>&'"`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if !utf8.Valid(data) || !json.Valid(data) {
			return
		}
		tree, err := decodeTree(data)
		if err != nil {
			return
		}
		mine, err := appendCanonical(nil, tree)
		if err != nil {
			return // numbers out of float64 range
		}
		raw, _ := json.Marshal(tree)
		ref, err := jcs.Transform(raw)
		if err != nil {
			t.Fatalf("jcs rejects %s: %v", raw, err)
		}
		if !bytes.Equal(mine, ref) {
			t.Fatalf("canonical forms differ for %s:\nmine %s\njcs  %s", data, mine, ref)
		}
	})
}

// FuzzRedact glues arbitrary text around tokens that have a recognisable
// shape: the token must never survive.
func FuzzRedact(f *testing.F) {
	f.Add("token: ", " and more", uint8(0))
	f.Add("x", "y", uint8(1))
	f.Add("Authorization: Bearer ", "", uint8(2))
	f.Add("", "A", uint8(3))
	f.Add(strings.Repeat("a", 9000), "", uint8(4))
	tokens := []string{ghpToken, githubPAT, gitlabToken, slackToken, gcpKey, jwtToken, awsKeyID, pemKey, anthropicKey}
	r := redactor{maxValue: DefaultMaxValueBytes, headLen: 1024}
	f.Fuzz(func(t *testing.T, prefix, suffix string, which uint8) {
		tok := tokens[int(which)%len(tokens)]
		out, err := appendCanonical(nil, r.tree(map[string]any{"k": prefix + tok + suffix}))
		if err != nil {
			t.Fatal(err)
		}
		if bytes.Contains(out, []byte(tok)) || bytes.Contains(out, []byte(jsonEscape(tok))) {
			t.Fatalf("token survived in %s", out)
		}
	})
}

func jsonEscape(s string) string {
	b, _ := json.Marshal(s)
	return string(b[1 : len(b)-1])
}

// FuzzAppendValidates checks that whatever a caller passes as input, the
// line written validates against the schema and verifies.
func FuzzAppendValidates(f *testing.F) {
	f.Add([]byte(`{"command":"npm test","env":[{"name":"A_TOKEN","value":"x"}]}`), "tool.call", "Bash(npm:*)")
	f.Add([]byte(`"just a string"`), "fs.read", "deny-dotenv")
	f.Add([]byte(`[1,2,{"$redacted":false}]`), "session.prompt", "")
	f.Add([]byte(`{"$redacted":true}`), "a1", "ÄÖ rule")
	f.Add([]byte(`{"$truncated":true,"bytes":"x"}`), "x.y", "--")
	f.Add([]byte(`null`), "tool.call", "a")
	f.Add([]byte(`{"b":1.50,"a":"\u00e9\u2028","c":[1e3,-0]}`), "tool.call", "")
	f.Add([]byte(`"short"`), "tool.call", "")
	l := &Log{opts: Options{MaxValueBytes: 64, MaxFieldBytes: DefaultMaxFieldBytes}, red: redactor{maxValue: 64, headLen: 16}}
	f.Fuzz(func(t *testing.T, input []byte, action, policyRef string) {
		if !json.Valid(input) {
			return
		}
		ev := Event{Actor: Actor{ID: "fuzz"}, Action: action, Subject: Subject{Kind: "k", Ref: policyRef},
			Input: json.RawMessage(input), Output: json.RawMessage(input),
			Metadata: map[string]any{"toolCall": map[string]any{"kind": "tool-call", "arguments": json.RawMessage(input)}}}
		if policyRef != "" {
			ev.Policy = &Policy{Ref: policyRef, Decision: DecisionAllow}
		}
		p, err := l.prepare(&ev)
		if err != nil {
			return
		}
		ts := "2026-11-21T20:00:00.000Z"
		hash := hashHex(p.appendHashed(nil, 0, ts, Genesis, "20261121T200000Z-1a2b3c4d"))
		line := p.appendLine(nil, 0, ts, Genesis, "20261121T200000Z-1a2b3c4d", hash)
		if _, err := checkLine(line[:len(line)-1]); err != nil {
			t.Fatalf("written line does not verify: %v\n%s", err, line)
		}
	})
}

// TestSchemaFileMatchesLines validates each line of every sample against
// the schema, and shows that the schema does reject lines that break it.
func TestSchemaRejects(t *testing.T) {
	path := filepath.Join(t.TempDir(), "audit.jsonl")
	writeLog(t, path, Options{Now: fixedClock(time.Millisecond)}, sampleEvents())
	line := string(readLines(t, path)[3])
	tests := []struct{ name, from, to string }{
		{"unknown field", `"doctype":`, `"extra":1,"doctype":`},
		{"bad decision", `"decision":"allow"`, `"decision":"approve"`},
		{"ts without ms", `.004Z"`, `Z"`},
		{"genesis with seq", `"seq":3`, `"seq":3,"prevHash":"GENESIS"`},
		{"metadata without hash", `,"metadataHash":"`, `,"metadataHashX":"`},
		{"bad redaction marker", `"input":{"command":"npm run test","env":[{"name":"NPM_TOKEN","value":{"$redacted":true,"reason":"secret-key:NPM_TOKEN"}}]}`, `"input":{"$redacted":true}`},
		{"bad truncation marker", `"input":{"command":"npm run test","env":[{"name":"NPM_TOKEN","value":{"$redacted":true,"reason":"secret-key:NPM_TOKEN"}}]}`, `"input":{"$truncated":true,"bytes":-1}`},
		{"wrong schema tag", `agentgovernance/v1`, `agentgovernance/v2`},
	}
	if err := validate([]byte(line)); err != nil {
		t.Fatalf("sample line: %v", err)
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if !strings.Contains(line, tt.from) {
				t.Fatalf("sample line lacks %q: %s", tt.from, line)
			}
			bad := strings.Replace(line, tt.from, tt.to, 1)
			if err := validate([]byte(bad)); err == nil {
				t.Errorf("schema accepted %s", bad)
			}
		})
	}
}

// TestSchemaFileIsTheEmbeddedOne guards against validating with a stale
// copy: the file in schemas/ is what the package embeds.
func TestSchemaFileIsTheEmbeddedOne(t *testing.T) {
	want, err := os.ReadFile(filepath.Join("..", "..", "schemas", SchemaFile))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := schema(); err != nil {
		t.Fatal(err)
	}
	var v any
	if err := json.Unmarshal(want, &v); err != nil {
		t.Fatalf("%s is not JSON: %v", SchemaFile, err)
	}
}
