package rawjson

import (
	"bytes"
	"encoding/json"
	"fmt"
	"testing"
	"unicode/utf8"
)

func TestGet(t *testing.T) {
	doc := []byte(` {"a":{"b":[10,{"c":"x\"y"}]},"k\u00e9":1,"dup":1,"dup":2} `)
	cases := []struct {
		path []string
		want string
		ok   bool
	}{
		{[]string{"a", "b", "0"}, "10", true},
		{[]string{"a", "b", "1", "c"}, `"x\"y"`, true},
		{[]string{"ké"}, "1", true},
		{[]string{"dup"}, "2", true}, // the last duplicate wins, as in encoding/json
		{[]string{"a", "b", "2"}, "", false},
		{[]string{"a", "x"}, "", false},
		{[]string{"a", "b", "-1"}, "", false},
		{nil, `{"a":{"b":[10,{"c":"x\"y"}]},"k\u00e9":1,"dup":1,"dup":2}`, true},
	}
	for _, c := range cases {
		got, ok := Get(doc, c.path...)
		if ok != c.ok || string(got) != c.want {
			t.Errorf("Get(%q) = %s, %v; want %s, %v", c.path, got, ok, c.want, c.ok)
		}
	}
	if s, ok := GetString(doc, "a", "b", "1", "c"); !ok || s != `x"y` {
		t.Errorf("GetString = %q, %v", s, ok)
	}
}

func TestSet(t *testing.T) {
	cases := []struct {
		name, doc, value string
		path             []string
		want             string
	}{
		{"replace", `{"a":1, "b" : 2 ,"c":3}`, `"two"`, []string{"b"}, `{"a":1, "b" : "two" ,"c":3}`},
		{"insert", `{"a":1}`, `true`, []string{"z"}, `{"a":1,"z":true}`},
		{"insert into empty", `{ }`, `1`, []string{"z"}, `{ "z":1}`},
		{"insert nested path", `{"p":{"q":1}}`, `"v"`, []string{"p", "r", "s"}, `{"p":{"q":1,"r":{"s":"v"}}}`},
		{"array element", `{"a":[1,2,3]}`, `{"x":0}`, []string{"a", "1"}, `{"a":[1,{"x":0},3]}`},
		{"keeps numbers", `{"big":123456789012345678901234567890,"f":1.50,"s":"\u2028"}`, `0`, []string{"f"}, `{"big":123456789012345678901234567890,"f":0,"s":"\u2028"}`},
		{"key needing escape", `{}`, `1`, []string{`we"ird`}, `{"we\"ird":1}`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := Set([]byte(c.doc), []byte(c.value), c.path...)
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != c.want {
				t.Fatalf("got  %s\nwant %s", got, c.want)
			}
		})
	}
	if _, err := Set([]byte(`{"a":[1]}`), []byte(`1`), "a", "x"); err == nil {
		t.Error("Set into an array by name succeeded")
	}
	if _, err := Set([]byte(`{}`), []byte(`{bad`), "a"); err == nil {
		t.Error("Set with invalid JSON succeeded")
	}
}

func TestDelete(t *testing.T) {
	cases := []struct{ doc, key, want string }{
		{`{"a":1,"b":2,"c":3}`, "b", `{"a":1,"c":3}`},
		{`{"a":1,"b":2}`, "b", `{"a":1}`},
		{`{"a":1,"b":2}`, "a", `{"b":2}`},
		{`{"a":1}`, "a", `{}`},
		{`{"a":1}`, "zz", `{"a":1}`},
		{`{ "a" : 1 , "b" : 2 }`, "a", `{ "b" : 2 }`},
		{`{"a":1,"a":2,"b":3}`, "a", `{"b":3}`},
	}
	for _, c := range cases {
		got, err := Delete([]byte(c.doc), c.key)
		if err != nil {
			t.Fatal(err)
		}
		if string(got) != c.want {
			t.Errorf("Delete(%s, %q) = %s, want %s", c.doc, c.key, got, c.want)
		}
	}
}

func TestMembersAndElements(t *testing.T) {
	ms, err := Members([]byte(`{"x":[1,2],"y":{"z":null}}`))
	if err != nil || len(ms) != 2 || ms[0].Key != "x" || string(ms[1].Value) != `{"z":null}` {
		t.Fatalf("Members = %+v, %v", ms, err)
	}
	es, err := Elements([]byte(`[1, "a" ,{"b":[]}]`))
	if err != nil || len(es) != 3 || string(es[2]) != `{"b":[]}` {
		t.Fatalf("Elements = %q, %v", es, err)
	}
}

func ExampleSet() {
	doc := []byte(`{"b":1,"a":{"x":[10,20]}}`)
	v, _ := Get(doc, "a", "x", "1")
	out, _ := Set(doc, []byte(`"y"`), "a", "z")
	fmt.Println(string(v))
	fmt.Println(string(out))
	// Output:
	// 20
	// {"b":1,"a":{"x":[10,20],"z":"y"}}
}

// FuzzSet: on valid JSON objects, Set yields valid JSON in which Get finds
// the new value, and every other top-level member keeps its bytes.
func FuzzSet(f *testing.F) {
	f.Add([]byte(`{"a":1,"b":{"c":[1,2]}}`), "b", "c", []byte(`"v"`))
	f.Add([]byte(`{}`), "x", "", []byte(`null`))
	f.Add([]byte(`{"a":"\u2028","n":1e999}`), "n", "", []byte(`[1]`))
	f.Fuzz(func(t *testing.T, doc []byte, k1, k2 string, value []byte) {
		if !json.Valid(doc) || !json.Valid(value) || len(doc) == 0 || bytes.TrimSpace(doc)[0] != '{' {
			return
		}
		if !utf8.ValidString(k1) || !utf8.ValidString(k2) {
			return // JSON member names are Unicode; invalid UTF-8 cannot be named
		}
		path := []string{k1}
		if k2 != "" {
			path = append(path, k2)
		}
		out, err := Set(doc, value, path...)
		if err != nil {
			return // e.g. the first key holds a non-object
		}
		if !json.Valid(out) {
			t.Fatalf("Set produced invalid JSON: %s", out)
		}
		got, ok := Get(out, path...)
		if !ok || !bytes.Equal(got, bytes.TrimSpace(value)) {
			t.Fatalf("Get after Set = %s, %v; want %s", got, ok, value)
		}
		before, _ := Members(doc)
		for _, m := range before {
			if m.Key == k1 {
				continue
			}
			if v, ok := Get(out, m.Key); !ok || (!bytes.Equal(v, m.Value) && lastWins(before, m)) {
				t.Fatalf("member %q changed: %s -> %s", m.Key, m.Value, v)
			}
		}
	})
}

// lastWins reports whether m is the member Get returns for its key.
func lastWins(ms []Member, m Member) bool {
	for i := len(ms) - 1; i >= 0; i-- {
		if ms[i].Key == m.Key {
			return ms[i].Start == m.Start
		}
	}
	return false
}

func TestFirstMember(t *testing.T) {
	for _, tc := range []struct {
		name, obj, key, want string
		ok                   bool
	}{
		{"first", `{"sessionId":"s","update":{"sessionId":"inner"}}`, "sessionId", `"s"`, true},
		{"after others", ` {"a":[1,{"sessionId":2}], "sessionId" : "s" } `, "sessionId", `"s"`, true},
		{"escaped name", `{"session\u0049d":"s"}`, "sessionId", `"s"`, true},
		{"first of duplicates", `{"k":1,"k":2}`, "k", `1`, true},
		{"missing", `{"a":1}`, "k", ``, false},
		{"not an object", `["k"]`, "k", ``, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			v, ok := FirstMember([]byte(tc.obj), tc.key)
			if string(v) != tc.want || ok != tc.ok {
				t.Errorf("FirstMember(%s, %q) = %s, %v; want %s, %v", tc.obj, tc.key, v, ok, tc.want, tc.ok)
			}
			if last, lok := Get([]byte(tc.obj), tc.key); tc.name != "first of duplicates" && (string(last) != string(v) || lok != ok) {
				t.Errorf("Get = %s, %v; FirstMember must agree on distinct names", last, lok)
			}
		})
	}
}
