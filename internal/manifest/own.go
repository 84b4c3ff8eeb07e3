package manifest

import (
	acpbridge "github.com/acp-bridge/acp-bridge"
)

// OwnFile is the name the bridge's own manifest goes by in messages.
const OwnFile = "ACP.md"

// Own returns the bridge's own ACP.md, the one compiled into the program
// (acpbridge.ACPManifest), with Embedded set: the manifest the bridge
// enforces when it runs without --manifest.
//
// Own decodes the file without validating it against the schema, so a
// start compiles no schema. The file is fixed when the program is built,
// and TestOwnIsValid proves that Parse accepts it and yields exactly what
// Own returns; a manifest a user supplies goes through Parse or Load,
// which validate it in full.
func Own() (*Manifest, error) {
	m, err := parse(OwnFile, acpbridge.ACPManifest, 0)
	if err != nil {
		return nil, err
	}
	m.Embedded = true
	return m, nil
}
