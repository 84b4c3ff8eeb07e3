package manifest

import (
	"strings"

	"github.com/acp-bridge/acp-bridge/internal/acpwire"
)

// Tier is the capability shorthand of metadata.aip44.tier.
type Tier string

// The tiers AIP-44 defines, each including the one before.
const (
	// Basic is session/new, session/prompt and session/update only.
	Basic Tier = "basic"
	// GovernanceAware adds session/load and tool-call streaming.
	GovernanceAware Tier = "governance-aware"
	// Sandboxed adds the MCP capabilities (and requires a sandbox profile).
	Sandboxed Tier = "sandboxed"
)

// Capability is one ACP feature a manifest grants or withholds.
type Capability uint8

// The capabilities, in the order of the table in the package documentation.
const (
	// ReadTextFile is clientCapabilities.fs.readTextFile: the agent may
	// call fs/read_text_file.
	ReadTextFile Capability = iota
	// WriteTextFile is clientCapabilities.fs.writeTextFile: the agent may
	// call fs/write_text_file.
	WriteTextFile
	// Terminal is clientCapabilities.terminal: the agent may call
	// terminal/*.
	Terminal
	// LoadSession is agentCapabilities.loadSession: the client may call
	// session/load.
	LoadSession
	// PromptImage is agentCapabilities.promptCapabilities.image: prompts
	// may carry image blocks.
	PromptImage
	// PromptAudio is agentCapabilities.promptCapabilities.audio: prompts
	// may carry audio blocks.
	PromptAudio
	// PromptEmbeddedContext is
	// agentCapabilities.promptCapabilities.embeddedContext: prompts may
	// carry resource blocks.
	PromptEmbeddedContext
	// MCPHTTP is agentCapabilities.mcpCapabilities.http: session/new and
	// session/load may name HTTP MCP servers.
	MCPHTTP
	// MCPSSE is agentCapabilities.mcpCapabilities.sse: session/new and
	// session/load may name SSE MCP servers.
	MCPSSE
	// ToolCallStreaming is the agent's tool_call and tool_call_update
	// session updates. ACP has no initialize flag for it; only the tier
	// grants it.
	ToolCallStreaming

	numCapabilities
)

// Side says which peer's initialize capabilities a Capability belongs to.
type Side uint8

const (
	// ClientSide capabilities are advertised by the client in the
	// initialize request (params.clientCapabilities).
	ClientSide Side = iota
	// AgentSide capabilities are advertised by the agent in the initialize
	// response (result.agentCapabilities).
	AgentSide
)

// capabilityInfo is one row of the capability table.
type capabilityInfo struct {
	// key is the capability's path under metadata.aip44.capabilities; empty
	// if the map cannot declare it.
	key  string
	side Side
	// acp is the path of the flag in the initialize request's params
	// (client side) or response's result (agent side); nil if ACP has none.
	acp []string
	// methods are the requests (and notifications) that need the
	// capability, sent in direction dir; a name ending in "/" is a prefix.
	methods []string
	dir     acpwire.Direction
	// tiers are the tiers whose defaults grant the capability.
	tiers []Tier
}

// capabilities is the capability table. docs/manifest.md
// shows it as a table; keep the two in step.
var capabilities = [numCapabilities]capabilityInfo{
	ReadTextFile: {key: "client.fs.readTextFile", side: ClientSide,
		acp:     []string{"clientCapabilities", "fs", "readTextFile"},
		methods: []string{"fs/read_text_file"}, dir: acpwire.AgentToClient},
	WriteTextFile: {key: "client.fs.writeTextFile", side: ClientSide,
		acp:     []string{"clientCapabilities", "fs", "writeTextFile"},
		methods: []string{"fs/write_text_file"}, dir: acpwire.AgentToClient},
	Terminal: {key: "client.terminal", side: ClientSide,
		acp:     []string{"clientCapabilities", "terminal"},
		methods: []string{"terminal/"}, dir: acpwire.AgentToClient},
	LoadSession: {key: "agent.loadSession", side: AgentSide,
		acp:     []string{"agentCapabilities", "loadSession"},
		methods: []string{"session/load"}, dir: acpwire.ClientToAgent,
		tiers: []Tier{GovernanceAware, Sandboxed}},
	PromptImage: {key: "agent.promptCapabilities.image", side: AgentSide,
		acp: []string{"agentCapabilities", "promptCapabilities", "image"}},
	PromptAudio: {key: "agent.promptCapabilities.audio", side: AgentSide,
		acp: []string{"agentCapabilities", "promptCapabilities", "audio"}},
	PromptEmbeddedContext: {key: "agent.promptCapabilities.embeddedContext", side: AgentSide,
		acp: []string{"agentCapabilities", "promptCapabilities", "embeddedContext"}},
	MCPHTTP: {key: "agent.mcpCapabilities.http", side: AgentSide,
		acp:   []string{"agentCapabilities", "mcpCapabilities", "http"},
		tiers: []Tier{Sandboxed}},
	MCPSSE: {key: "agent.mcpCapabilities.sse", side: AgentSide,
		acp:   []string{"agentCapabilities", "mcpCapabilities", "sse"},
		tiers: []Tier{Sandboxed}},
	ToolCallStreaming: {side: AgentSide, tiers: []Tier{GovernanceAware, Sandboxed}},
}

// String returns the capability's path in the capabilities map
// ("client.fs.readTextFile"), or "toolCallStreaming".
func (c Capability) String() string {
	if c >= numCapabilities {
		return "unknown"
	}
	if c == ToolCallStreaming {
		return "toolCallStreaming"
	}
	return capabilities[c].key
}

// ACPField returns the capability's field in the initialize message, such
// as "clientCapabilities.fs.readTextFile", or "" if ACP has none.
func (c Capability) ACPField() string {
	if c >= numCapabilities {
		return ""
	}
	return strings.Join(capabilities[c].acp, ".")
}

// Side returns the peer that advertises c.
func (c Capability) Side() Side { return capabilities[c].side }

// Set is a set of capabilities.
type Set uint16

// Has reports whether s holds c.
func (s Set) Has(c Capability) bool { return s&(1<<c) != 0 }

// With returns s with c added.
func (s Set) With(c Capability) Set { return s | 1<<c }

// List returns the capabilities in s in table order.
func (s Set) List() []Capability {
	var l []Capability
	for c := Capability(0); c < numCapabilities; c++ {
		if s.Has(c) {
			l = append(l, c)
		}
	}
	return l
}

// String lists the capabilities in s, comma-separated.
func (s Set) String() string {
	var names []string
	for _, c := range s.List() {
		names = append(names, c.String())
	}
	return strings.Join(names, ", ")
}

// All is every capability.
const All Set = 1<<numCapabilities - 1

// sideSet is every capability of side that the capabilities map can declare.
func sideSet(side Side) Set {
	var s Set
	for c, info := range capabilities {
		if info.side == side && info.key != "" {
			s = s.With(Capability(c))
		}
	}
	return s
}

// TierDefaults returns the capabilities tier t grants on its own. An
// unknown tier grants nothing.
func TierDefaults(t Tier) Set {
	var s Set
	for c, info := range capabilities {
		for _, granted := range info.tiers {
			if granted == t {
				s = s.With(Capability(c))
			}
		}
	}
	return s
}
