package manifest

import (
	"encoding/json"
	"fmt"
	"os"
)

// Kind is a runtime's role: client, server or bridge.
type Kind string

// The kinds AIP-44 defines.
const (
	// Client drives a subprocess agent.
	Client Kind = "client"
	// Server exposes an operator to clients.
	Server Kind = "server"
	// Bridge is both: it wraps an inbound client and re-exposes it.
	Bridge Kind = "bridge"
)

// Manifest is a valid ACP.md: its frontmatter, typed, and its Markdown body.
type Manifest struct {
	// File is the name the manifest was parsed or loaded under.
	File string `json:"-"`
	// Embedded is true for a manifest compiled into the program rather
	// than read from a file, as the bridge's own ACP.md: File then names
	// it in messages only, and its references (ResolveRef) name no files
	// a user chose. Parse and Load leave it false; whoever parses an
	// embedded file sets it.
	Embedded bool `json:"-"`
	// Name is the kebab-case name, equal to the directory (or sidecar
	// prefix) the file sits in.
	Name string `json:"name"`
	// ID is the stable runtime id.
	ID string `json:"id"`
	// Description is the one-paragraph purpose.
	Description string `json:"description"`
	// Version is the manifest's semantic version.
	Version string `json:"version"`
	// Kind is the runtime's role.
	Kind Kind `json:"kind"`
	// Transport lists the transports, stdio always among them.
	Transport Transports `json:"transport"`
	// Tags are optional kebab-case labels.
	Tags []string `json:"tags,omitempty"`
	// Metadata holds metadata.aip44.
	Metadata struct {
		AIP44 AIP44 `json:"aip44"`
	} `json:"metadata"`
	// Body is the Markdown after the frontmatter.
	Body []byte `json:"-"`
	// BodyLine is the file line where Body starts.
	BodyLine int `json:"-"`
}

// AIP44 is metadata.aip44, the AIP-44 bindings.
type AIP44 struct {
	// ACPRev is the upstream ACP commit SHA the manifest tracks.
	ACPRev string `json:"acp_rev"`
	// Tier is the capability tier.
	Tier Tier `json:"tier"`
	// Capabilities is the explicit capability map, nil if absent.
	Capabilities *CapabilityMap `json:"capabilities,omitempty"`
	// Operator, Governance and Sandbox are file references, relative to
	// the manifest's directory; empty if absent.
	Operator   string `json:"operator,omitempty"`
	Governance string `json:"governance,omitempty"`
	Sandbox    string `json:"sandbox,omitempty"`
	// Audit is the audit log target, nil if absent.
	Audit *Audit `json:"audit,omitempty"`
	// MCPServers are the MCP servers the runtime mounts.
	MCPServers []MCPServer `json:"mcp_servers,omitempty"`
}

// CapabilityMap is metadata.aip44.capabilities. A side that is present
// replaces that side's tier defaults; see Manifest.Capabilities.
type CapabilityMap struct {
	// Client declares the client capabilities; nil if the map has no
	// client key, in which case the tier's defaults apply.
	Client *ClientCapabilities `json:"client,omitempty"`
	// Agent declares the agent capabilities; nil if the map has no agent
	// key, in which case the tier's defaults apply.
	Agent *AgentCapabilities `json:"agent,omitempty"`
}

// ClientCapabilities mirrors ACP's clientCapabilities; a key left out is
// false.
type ClientCapabilities struct {
	// FS holds fs.readTextFile and fs.writeTextFile.
	FS struct {
		ReadTextFile  bool `json:"readTextFile"`
		WriteTextFile bool `json:"writeTextFile"`
	} `json:"fs"`
	// Terminal grants the terminal/* methods.
	Terminal bool `json:"terminal"`
}

// AgentCapabilities mirrors ACP's agentCapabilities; a key left out is
// false.
type AgentCapabilities struct {
	// LoadSession grants session/load.
	LoadSession bool `json:"loadSession"`
	// PromptCapabilities grants content types in session/prompt.
	PromptCapabilities struct {
		Image           bool `json:"image"`
		Audio           bool `json:"audio"`
		EmbeddedContext bool `json:"embeddedContext"`
	} `json:"promptCapabilities"`
	// MCPCapabilities grants MCP server transports in mcpServers.
	MCPCapabilities struct {
		HTTP bool `json:"http"`
		SSE  bool `json:"sse"`
	} `json:"mcpCapabilities"`
}

// Audit is metadata.aip44.audit.
type Audit struct {
	// Ref is the log's file reference; empty for kind governance (the
	// governance binding's log) and off.
	Ref string `json:"ref,omitempty"`
	// Kind is governance, external or off.
	Kind string `json:"kind"`
}

// MCPServer is one entry of metadata.aip44.mcp_servers.
type MCPServer struct {
	// Name is the server's name.
	Name string `json:"name"`
	// Transport is stdio, http or sse.
	Transport string `json:"transport"`
	// Ref is an optional file describing the server, relative to the
	// manifest's directory.
	Ref string `json:"ref,omitempty"`
}

// Transports is the transport field: one name or a list, always held as a
// list.
type Transports []string

// UnmarshalJSON accepts a string or a list of strings.
func (t *Transports) UnmarshalJSON(b []byte) error {
	var one string
	if json.Unmarshal(b, &one) == nil {
		*t = Transports{one}
		return nil
	}
	var many []string
	if err := json.Unmarshal(b, &many); err != nil {
		return err
	}
	*t = many
	return nil
}

// AIP44 returns metadata.aip44.
func (m *Manifest) AIP44() *AIP44 { return &m.Metadata.AIP44 }

// Capabilities returns the capabilities m grants: the tier's defaults, with
// each side (client, agent) that the explicit capabilities map declares
// replaced by that declaration, whose omitted keys are unsupported (AIP-44:
// "omitted keys MUST be treated as unsupported"). ToolCallStreaming has no
// key in the map and always follows the tier.
func (m *Manifest) Capabilities() Set {
	a := m.AIP44()
	s := TierDefaults(a.Tier)
	cm := a.Capabilities
	if cm == nil {
		return s
	}
	if c := cm.Client; c != nil {
		s &^= sideSet(ClientSide)
		s |= when(c.FS.ReadTextFile, ReadTextFile) | when(c.FS.WriteTextFile, WriteTextFile) |
			when(c.Terminal, Terminal)
	}
	if c := cm.Agent; c != nil {
		s &^= sideSet(AgentSide)
		s |= when(c.LoadSession, LoadSession) |
			when(c.PromptCapabilities.Image, PromptImage) |
			when(c.PromptCapabilities.Audio, PromptAudio) |
			when(c.PromptCapabilities.EmbeddedContext, PromptEmbeddedContext) |
			when(c.MCPCapabilities.HTTP, MCPHTTP) | when(c.MCPCapabilities.SSE, MCPSSE)
	}
	return s
}

func when(b bool, c Capability) Set {
	if b {
		return Set(0).With(c)
	}
	return 0
}

// Parse parses the ACP.md held in data and validates its frontmatter
// against the schema (schemas/ACP.schema.json). file names the manifest in
// error positions. Parse does not touch the file system, so it does not
// check the rules that need it; Load does.
//
// On failure the error is an ErrorList holding every problem found.
func Parse(file string, data []byte) (*Manifest, error) {
	return parse(file, data, checkSchema)
}

// checks says which rules parse applies on top of the YAML syntax.
type checks uint8

const (
	// checkSchema validates the frontmatter against the schema.
	checkSchema checks = 1 << iota
	// checkFiles checks the rules that need the file system.
	checkFiles
)

// parse is Parse with the given checks. The file-system checks run even
// when the schema fails, on whatever fields have the right type, so that a
// user sees every problem at once. Without checkSchema, parse only decodes:
// that is for a file compiled into the program, whose validity a test
// proves (see Own).
func parse(file string, data []byte, c checks) (*Manifest, error) {
	fm, perr := splitFrontmatter(file, data)
	if perr != nil {
		return nil, ErrorList{perr}
	}
	t := parseYAML(file, fm)
	if t.root != nil {
		if c&checkSchema != 0 {
			if err := t.validateSchema(); err != nil {
				return nil, err
			}
		}
		if c&checkFiles != 0 {
			t.checkFiles()
		}
	}
	if len(t.errs) > 0 {
		t.errs.Sort()
		return nil, t.errs
	}
	raw, err := json.Marshal(t.root)
	if err != nil {
		return nil, fmt.Errorf("%s: re-encoding frontmatter: %v", file, err)
	}
	m := &Manifest{File: file, Body: fm.body, BodyLine: fm.bodyLine}
	if err := json.Unmarshal(raw, m); err != nil {
		return nil, fmt.Errorf("%s: decoding frontmatter that passed the schema: %v", file, err)
	}
	return m, nil
}

// Load reads the ACP.md at path, parses it, and checks the rules that need
// the file system: name equals the parent directory's name (or the prefix
// of a <name>.ACP.md sidecar), and every referenced file (operator,
// governance, sandbox, audit.ref, mcp_servers[].ref) exists relative to the
// manifest's directory.
//
// On failure the error is an ErrorList holding every problem found.
func Load(path string) (*Manifest, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, ErrorList{{File: path, Msg: fmt.Sprintf("cannot read manifest: %v", err)}}
	}
	return parse(path, data, checkSchema|checkFiles)
}
