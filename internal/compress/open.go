package compress

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/acp-bridge/acp-bridge/internal/acpwire"
	"github.com/acp-bridge/acp-bridge/internal/nowaitopen"
)

// Options configure Open: a Config whose cache directory and event log are
// given as paths for Open to prepare.
type Options struct {
	Config
	// LogPath names a file the compression events are appended to as JSONL
	// (created with mode 0600); optional, empty means Config.EventLog.
	LogPath string
}

// Open returns a pipeline for a bridge command: it fills in CacheDir when
// empty (the user cache directory + /acp-bridge), creates it with mode
// 0700, and opens LogPath for appending. The pipeline's Close closes the
// log file after the pipeline's own cleanup.
func Open(opts Options, s acpwire.Sender) (*Pipeline, error) {
	cfg := opts.Config
	if cfg.CacheDir == "" {
		base, err := os.UserCacheDir()
		if err != nil {
			return nil, fmt.Errorf("no cache directory given and no user cache directory: %v", err)
		}
		cfg.CacheDir = filepath.Join(base, "acp-bridge")
	}
	// Not through a link planted in the workspace above the cache
	// (ownDirs refuses one at the cache directory itself).
	if err := nowaitopen.LinkedDir(cfg.CacheDir); err != nil {
		return nil, fmt.Errorf("opening the cache directory: %v", err)
	}
	if err := ownDirs(cfg.CacheDir); err != nil {
		return nil, fmt.Errorf("creating the cache directory: %v", err)
	}
	var log *os.File
	if opts.LogPath != "" {
		// Not through a link planted at the path: the events, which
		// quote what the agent chose, would be appended wherever it
		// leads; nor into a named pipe, whose open would wait for a
		// reader; nor into a file with another name (a hard link),
		// which they would extend.
		f, err := nowaitopen.SoleFile(opts.LogPath, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
		if err != nil {
			return nil, fmt.Errorf("opening the event log: %v", err)
		}
		log, cfg.EventLog = f, f
	}
	p, err := New(cfg, s)
	if err != nil {
		if log != nil {
			log.Close()
		}
		return nil, err
	}
	if log != nil {
		p.closeLog = log.Close
	}
	return p, nil
}
