package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"

	"github.com/acp-bridge/acp-bridge/internal/manifest"
)

// manifestFeature enforces an AIP-44 ACP.md on the wire (manifest.Mask):
// capabilities the manifest withholds are masked during initialize and calls
// that need them are refused. --manifest FILE validates FILE first and
// refuses to start, listing every problem, if it is invalid. Without the
// flag the bridge enforces its own embedded ACP.md, which grants everything
// and so masks nothing.
func manifestFeature() feature {
	var path string
	return feature{
		name: "manifest",
		flags: func(fs *flag.FlagSet) {
			fs.StringVar(&path, "manifest", "",
				"enforce the AIP-44 ACP.md manifest in `FILE` (default: the bridge's own ACP.md, which masks nothing)")
		},
		setup: func(_ context.Context, s *bridgeSetup) error {
			m, err := loadBridgeManifest(path, s.Stderr)
			if err != nil {
				return err
			}
			s.Manifest = m
			s.Bridge.UseNonRetaining(manifest.Mask(m, s.Bridge, manifest.MaskOptions{Logger: s.Logger}))
			s.Logger.Info("manifest: enforcing", "file", m.File, "embedded", m.Embedded, "id", m.ID, "tier", m.AIP44().Tier,
				"withheld", (manifest.All &^ m.Capabilities()).String())
			return nil
		},
	}
}

// loadBridgeManifest loads the manifest at path, or the embedded ACP.md if
// path is empty (decoded without the schema: see manifest.Own). Problems
// with a user's manifest are written to stderr, one per line, before the
// error is returned.
func loadBridgeManifest(path string, stderr io.Writer) (*manifest.Manifest, error) {
	if path == "" {
		m, err := manifest.Own()
		if err != nil {
			return nil, fmt.Errorf("the bridge's embedded ACP.md is invalid: %v", err)
		}
		return m, nil
	}
	m, err := manifest.Load(path)
	var problems manifest.ErrorList
	switch {
	case err == nil:
		return m, nil
	case errors.As(err, &problems):
		for _, p := range problems {
			fmt.Fprintln(stderr, p)
		}
		return nil, fmt.Errorf("--manifest %s is invalid (%d problems, listed above); not starting", path, len(problems))
	default:
		return nil, fmt.Errorf("--manifest %s: %v", path, err)
	}
}
