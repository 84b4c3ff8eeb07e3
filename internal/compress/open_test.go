package compress

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestOpenCreatesCacheAndLog(t *testing.T) {
	dir := t.TempDir()
	cache := filepath.Join(dir, "cache", "nested")
	logPath := filepath.Join(dir, "events.jsonl")
	p, err := Open(Options{Config: Config{CacheDir: cache}, LogPath: logPath}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Stat(cache); err != nil || !fi.IsDir() || fi.Mode().Perm() != 0o700 {
		t.Errorf("cache dir: %v, %v", fi, err)
	}
	p.Events().Add(Event{Session: "s1", Type: EventTier1})
	if err := p.Close(); err != nil {
		t.Fatal(err)
	}
	if err := p.Events().Err(); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(logPath)
	if err != nil || !strings.Contains(string(b), `"s1"`) {
		t.Errorf("event log = %q, %v", b, err)
	}
}

func TestOpenLogError(t *testing.T) {
	dir := t.TempDir()
	_, err := Open(Options{Config: Config{CacheDir: dir}, LogPath: filepath.Join(dir, "missing", "events.jsonl")}, nil)
	if err == nil || !strings.Contains(err.Error(), "opening the event log") {
		t.Errorf("Open = %v, want an event log error", err)
	}
}
