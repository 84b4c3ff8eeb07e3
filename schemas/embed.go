// Package schemas holds the JSON Schemas acp-bridge validates its inputs
// against, embedded in the binary so validation works offline and always uses
// the schema the code was built with.
//
// Every *.json file in this directory is part of FS: ACP.schema.json (the
// frontmatter of an AIP-44 ACP.md manifest, used by internal/manifest) and
// whatever schemas other packages add beside it.
package schemas

import "embed"

// FS holds every JSON Schema in this directory, by file name.
//
//go:embed *.json
var FS embed.FS
