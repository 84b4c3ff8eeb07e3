package manifest

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	acpbridge "github.com/acp-bridge/acp-bridge"
	"github.com/google/go-cmp/cmp"
)

// TestOwnIsValid proves what Own relies on to skip the schema: the ACP.md
// compiled into the program passes Parse in full, and Own returns exactly
// the manifest Parse does, marked embedded.
func TestOwnIsValid(t *testing.T) {
	want, err := Parse(OwnFile, acpbridge.ACPManifest)
	if err != nil {
		t.Fatalf("the embedded ACP.md is invalid: %v", err)
	}
	want.Embedded = true
	got, err := Own()
	if err != nil {
		t.Fatalf("Own: %v", err)
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("Own differs from Parse (-Parse +Own):\n%s", d)
	}
}

// FuzzDecodeMatchesParse: wherever Parse accepts a file, parse without the
// schema (what Own does) yields the same manifest; Own's shortcut only
// drops checks, never changes what a valid file means.
func FuzzDecodeMatchesParse(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join("testdata", "valid", "*", "*ACP.md"))
	for _, file := range files {
		if data, err := os.ReadFile(file); err == nil {
			f.Add(data)
		}
	}
	f.Add(acpbridge.ACPManifest)
	f.Fuzz(func(t *testing.T, data []byte) {
		want, err := Parse(OwnFile, data)
		if err != nil {
			var l ErrorList
			if !errors.As(err, &l) {
				t.Fatalf("Parse error %T (%v), want ErrorList", err, err)
			}
			return
		}
		got, err := parse(OwnFile, data, 0)
		if err != nil {
			t.Fatalf("Parse accepts the file, parse without the schema fails: %v", err)
		}
		if d := cmp.Diff(want, got); d != "" {
			t.Errorf("parse without the schema differs from Parse (-Parse +decoded):\n%s", d)
		}
	})
}
