package accp

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/acp-bridge/acp-bridge/internal/golden"
)

var fixedNow = time.Unix(1714000100, 0)

func newTestSession(t testing.TB, opt Options) *Session {
	t.Helper()
	if opt.Clock == nil {
		opt.Clock = func() time.Time { return fixedNow }
	}
	if opt.NewMID == nil {
		opt.NewMID = DeterministicMID("test")
	}
	return NewSession("test", opt)
}

// TestConformanceValid decodes every frame under testdata/conformance/valid
// in a fresh strict session and compares the canonical form, the debug
// rendering and the decoded fields with the golden file next to it.
func TestConformanceValid(t *testing.T) {
	eachConformanceFrame(t, "valid", func(t *testing.T, path string, data []byte) {
		s := newTestSession(t, Options{})
		s.Put(Warm, "ckpt_1", Map(Field{"status", String("ok")}), 0)
		f, err := ParseFrame(string(data))
		if err != nil {
			t.Fatalf("parse: %v", err)
		}
		m, err := s.Decode(string(data))
		if err != nil {
			t.Fatalf("decode: %v", err)
		}
		fields := map[string]any{}
		for _, fl := range m.Fields {
			fields[fl.Key] = fl.Val.ToJSON()
		}
		js, _ := json.MarshalIndent(fields, "", "  ")
		got := "canonical: " + f.String() + "\n\n" + Render(f, nil) + "\ndecoded fields:\n" + string(js) + "\n"
		golden.Check(t, strings.TrimSuffix(path, ".accp")+".golden", []byte(got))
	})
}

// TestConformanceInvalid checks that every frame under
// testdata/conformance/invalid is rejected whole with the code its file name
// starts with.
func TestConformanceInvalid(t *testing.T) {
	eachConformanceFrame(t, "invalid", func(t *testing.T, path string, data []byte) {
		want := Code(strings.SplitN(filepath.Base(path), "-", 2)[0])
		if !want.Known() {
			t.Fatalf("file name does not start with a standard code")
		}
		s := newTestSession(t, Options{})
		m, err := s.Decode(string(data))
		if err == nil {
			t.Fatalf("accepted, want %s; decoded %+v", want, m)
		}
		if got := CodeOf(err); got != want {
			t.Errorf("got %v, want %s", err, want)
		}
		if m != nil {
			t.Errorf("rejected frame still produced a message")
		}
	})
}

// eachConformanceFrame runs test on every frame under
// testdata/conformance/dir, each as a subtest named for its file, and
// fails if there are none.
func eachConformanceFrame(t *testing.T, dir string, test func(t *testing.T, path string, data []byte)) {
	files, _ := filepath.Glob(filepath.Join("testdata", "conformance", dir, "*.accp"))
	if len(files) == 0 {
		t.Fatalf("no %s conformance frames", dir)
	}
	for _, path := range files {
		t.Run(filepath.Base(path), func(t *testing.T) {
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			test(t, path, data)
		})
	}
}
