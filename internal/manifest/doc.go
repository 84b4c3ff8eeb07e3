// Package manifest reads, validates and enforces AIP-44 ACP.md manifests
// (agentacp/v1): the file in which an ACP runtime declares its role, its
// transports, the upstream ACP revision it tracks and the capabilities it
// grants.
//
// An ACP.md is YAML frontmatter between two "---" lines, then Markdown:
//
//	---
//	name: acp-bridge
//	id: acp-bridge
//	description: ...
//	version: 0.1.0
//	kind: bridge
//	transport: [stdio]
//	metadata:
//	  aip44:
//	    acp_rev: b33c886e8cb69d9f3b4743140a08741495e0a421
//	    tier: governance-aware
//	---
//	# Markdown body
//
// Parse splits the file, parses the YAML into nodes (keeping every node's
// line and column), and validates the frontmatter against the project's
// JSON Schema (schemas/ACP.schema.json, draft 2020-12, compiled once). The
// schema carries the cross-field rules too: kind server needs
// metadata.aip44.operator, tier sandboxed needs metadata.aip44.sandbox,
// transport includes stdio. Each schema failure is mapped from its JSON
// pointer back to the YAML node it concerns, so every problem reads
//
//	ACP.md:12:11: metadata.aip44.tier: must be one of basic, governance-aware, sandboxed (got "premium")
//
// and all problems come back at once in an ErrorList. Load adds the rules
// that need the file system: name equals the parent directory's name (or,
// for a sidecar file <name>.ACP.md, its prefix; a manifest at the root of a
// Git checkout is exempt, since the checkout directory's name is the
// cloner's choice), and every referenced file exists.
//
// # Capabilities
//
// A manifest grants a Set of capabilities (Manifest.Capabilities): its
// tier's defaults, where each side the explicit capabilities map declares
// (client or agent) replaces that side's defaults, keys omitted inside a
// declared side being unsupported. The table, with each capability's ACP
// field and what Mask does without it:
//
//	capability (map key)                      ACP initialize field                             basic  gov-aware  sandboxed  without it
//	client.fs.readTextFile                    params.clientCapabilities.fs.readTextFile        -      -          -          fs/read_text_file -> -32601
//	client.fs.writeTextFile                   params.clientCapabilities.fs.writeTextFile       -      -          -          fs/write_text_file -> -32601
//	client.terminal                           params.clientCapabilities.terminal               -      -          -          terminal/* -> -32601
//	agent.loadSession                         result.agentCapabilities.loadSession             -      yes        yes        session/load -> -32601
//	agent.promptCapabilities.image            result.agentCapabilities.promptCapabilities.image -     -          -          image block in session/prompt -> -32602
//	agent.promptCapabilities.audio            ...promptCapabilities.audio                      -      -          -          audio block -> -32602
//	agent.promptCapabilities.embeddedContext  ...promptCapabilities.embeddedContext            -      -          -          resource block -> -32602
//	agent.mcpCapabilities.http                result.agentCapabilities.mcpCapabilities.http    -      -          yes        http entry in mcpServers -> -32602
//	agent.mcpCapabilities.sse                 result.agentCapabilities.mcpCapabilities.sse     -      -          yes        sse entry in mcpServers -> -32602
//	(tool-call streaming, no map key)         (none)                                           -      yes        yes        tool_call(_update) updates dropped
//
// Everything else passes untouched: sessionCapabilities, _meta and unknown
// capability fields, and the baseline methods every tier has (session/new,
// session/prompt, session/update, session/cancel, permission requests).
//
// # Enforcement
//
// Mask is acpwire middleware. During initialize it sets every withheld
// capability the peers advertise to false (patching bytes, so all other
// fields survive) and adds the bridge's identity to the response's
// result._meta; afterwards it answers calls that need a withheld capability
// with a JSON-RPC error instead of forwarding them:
//
//	b := acpwire.New(acpwire.Options{})
//	b.UseNonRetaining(manifest.Mask(m, b, manifest.MaskOptions{Logger: logger}))
//
// Mask keeps nothing of a message once it has handled it (it reads what it
// needs into copies), so it may be added with UseNonRetaining.
package manifest
