package manifest_test

import (
	"fmt"

	"github.com/acp-bridge/acp-bridge/internal/manifest"
)

func ExampleParse() {
	src := `---
name: fs-reader
id: fs-reader
description: A client that lets its agent read files and nothing else.
version: 1.0.0
kind: client
transport: stdio
metadata:
  aip44:
    acp_rev: b33c886e8cb69d9f3b4743140a08741495e0a421
    tier: basic
    capabilities:
      client:
        fs:
          readTextFile: true
---
# fs-reader
`
	m, err := manifest.Parse("fs-reader.ACP.md", []byte(src))
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(m.Kind, m.AIP44().Tier)
	fmt.Println("grants:", m.Capabilities())
	// Output:
	// client basic
	// grants: client.fs.readTextFile
}

func ExampleErrorList() {
	src := `---
name: remote-only
id: remote-only
description: Declares no stdio transport and an unknown tier.
version: 1.0
kind: server
transport: [websocket, websocket]
metadata:
  aip44:
    acp_rev: abc1234
    tier: premium
---
`
	_, err := manifest.Parse("ACP.md", []byte(src))
	if list, ok := err.(manifest.ErrorList); ok {
		for _, e := range list {
			fmt.Println(e)
		}
	}
	// Output:
	// ACP.md:5:10: version: must be a string, not a number (quote it to make YAML read it as a string)
	// ACP.md:7:1: transport: must include stdio (AIP-44: every runtime MUST support stdio)
	// ACP.md:7:24: transport[1]: duplicate of transport[0]
	// ACP.md:9:3: metadata.aip44.operator: required when kind is server (the AIP-9 OPERATOR.md the server exposes)
	// ACP.md:11:11: metadata.aip44.tier: must be one of basic, governance-aware, sandboxed (got "premium")
}

func ExampleTierDefaults() {
	for _, t := range []manifest.Tier{manifest.Basic, manifest.GovernanceAware, manifest.Sandboxed} {
		fmt.Printf("%s: [%s]\n", t, manifest.TierDefaults(t))
	}
	// Output:
	// basic: []
	// governance-aware: [agent.loadSession, toolCallStreaming]
	// sandboxed: [agent.loadSession, agent.mcpCapabilities.http, agent.mcpCapabilities.sse, toolCallStreaming]
}
