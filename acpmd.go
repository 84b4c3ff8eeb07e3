// Package acpbridge holds the files at the root of the acp-bridge repository
// that the binary embeds, so that the repository's copy is the only copy.
package acpbridge

import _ "embed"

// ACPManifest is the repository's ACP.md, the AIP-44 manifest the bridge
// enforces when it runs without --manifest.
//
//go:embed ACP.md
var ACPManifest []byte
