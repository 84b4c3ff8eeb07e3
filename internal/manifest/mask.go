package manifest

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"runtime/debug"
	"strconv"

	"github.com/acp-bridge/acp-bridge/internal/acpwire"
	"github.com/acp-bridge/acp-bridge/internal/rawjson"
)

// MetaKey is the key under the initialize response's result._meta where
// Mask puts the bridge's identity.
const MetaKey = "acp-bridge"

// MaskOptions configures Mask. The zero value is usable.
type MaskOptions struct {
	// Version is the bridge version reported in the initialize response;
	// optional, defaults to the main module's version from the build
	// information ("(devel)" for a plain go build).
	Version string
	// Logger hears about every refused call and dropped update; optional,
	// nil discards.
	Logger *slog.Logger
}

// Mask returns middleware that enforces the capabilities m grants (see
// Manifest.Capabilities) on the wire:
//
//   - In the client's initialize request, each client capability m does not
//     grant (clientCapabilities.fs.readTextFile, .fs.writeTextFile,
//     .terminal) is set to false if the client advertised it, so the agent
//     never learns of it. Every other byte is kept.
//   - In the agent's initialize response, each agent capability m does not
//     grant (agentCapabilities.loadSession, .promptCapabilities.*,
//     .mcpCapabilities.*) is set to false likewise, and result._meta gains
//     MetaKey: {"name", "version", "manifest", "tier"}, the bridge's
//     identity; the agent's agentInfo and other _meta keys stay.
//   - A request for a method whose capability is withheld (fs/read_text_file,
//     fs/write_text_file, terminal/* from the agent; session/load from the
//     client) is answered with JSON-RPC error -32601 and never reaches the
//     other peer; such a notification is dropped.
//   - A client request whose params use a withheld capability (an image,
//     audio or resource block in session/prompt; an http or sse entry in
//     mcpServers) is answered with -32602 and never reaches the agent.
//   - Without ToolCallStreaming (tier basic), the agent's tool_call and
//     tool_call_update session updates are dropped.
//   - Without Terminal, the login methods the IDE would run in a terminal
//     are taken out of authMethods, and clientCapabilities._meta
//     ["terminal-auth"] is set to false (mask_login.go).
//
// s is the bridge the middleware answers refused requests through. The
// middleware keeps nothing of a message after handling it and settles its
// fate before returning, so it may be added with Bridge.UseNonRetaining.
func Mask(m *Manifest, s acpwire.Sender, opts MaskOptions) acpwire.Middleware {
	k := &masker{m: m, caps: m.Capabilities(), s: s, logger: opts.Logger, version: opts.Version}
	k.withheld = withheldMethods(k.caps)
	if k.logger == nil {
		k.logger = slog.New(slog.DiscardHandler)
	}
	if k.version == "" {
		k.version = buildVersion()
	}
	return func(next acpwire.Handler) acpwire.Handler {
		return acpwire.HandlerFunc(func(ctx context.Context, msg *acpwire.Message) error {
			return k.handle(ctx, msg, next)
		})
	}
}

// buildVersion returns the main module's version.
func buildVersion() string {
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" {
		return bi.Main.Version
	}
	return "(devel)"
}

// masker is the state of one Mask middleware; it is read-only after Mask
// returns, so it is safe for both directions at once.
type masker struct {
	m       *Manifest
	caps    Set
	s       acpwire.Sender
	logger  *slog.Logger
	version string
	// withheld lists the methods of capabilities the manifest withholds,
	// so that the common case, a method nobody withholds, costs one check.
	withheld []withheldMethod
}

func (k *masker) handle(ctx context.Context, m *acpwire.Message, next acpwire.Handler) error {
	switch m.Kind {
	case acpwire.KindRequest, acpwire.KindNotification:
		if c, denied := k.deniedMethod(m); denied {
			return k.refuse(m, acpwire.CodeMethodNotFound, c,
				fmt.Sprintf("method %s is not available: the bridge's manifest (%s) does not grant %s", m.Method, k.m.ID, c.ACPField()))
		}
		if m.Kind == acpwire.KindRequest && m.Dir == acpwire.ClientToAgent {
			if m.Method == "initialize" {
				out, err := k.maskSide(m, ClientSide, "params")
				if err != nil {
					return err
				}
				if out, err = k.maskLoginTerminals(out); err != nil {
					return err
				}
				return next.Handle(ctx, out)
			}
			if c, what, denied := k.deniedParams(m); denied {
				return k.refuse(m, acpwire.CodeInvalidParams, c,
					fmt.Sprintf("%s: %s, but the bridge's manifest (%s) does not grant %s", m.Method, what, k.m.ID, c.ACPField()))
			}
		}
		if m.Dir == acpwire.AgentToClient && !k.caps.Has(ToolCallStreaming) && m.IsNotification("session/update") {
			if u, _ := m.GetString("params", "update", "sessionUpdate"); u == "tool_call" || u == "tool_call_update" {
				k.logger.Debug("dropped session update: manifest tier does not grant tool-call streaming", "sessionUpdate", u, "tier", k.m.AIP44().Tier)
				return nil
			}
		}
	case acpwire.KindResponse:
		if m.Dir == acpwire.AgentToClient && m.IsResponseTo("initialize") && isObject(m.Result) {
			out, err := k.maskSide(m, AgentSide, "result")
			if err != nil {
				return err
			}
			if out, err = k.maskLoginTerminals(out); err != nil {
				return err
			}
			out, err = k.addIdentity(out)
			if err != nil {
				return err
			}
			return next.Handle(ctx, out)
		}
	}
	return next.Handle(ctx, m)
}

// deniedMethod returns the withheld capability that m's method needs.
func (k *masker) deniedMethod(m *acpwire.Message) (Capability, bool) {
	for _, w := range k.withheld {
		if w.matches(m.Dir, m.Method) {
			return w.c, true
		}
	}
	return 0, false
}

// withheldMethod is a method (or, ending in "/", a method prefix) of a
// capability a manifest withholds, with the direction it travels in.
type withheldMethod struct {
	c    Capability
	dir  acpwire.Direction
	name string
}

// withheldMethods lists the methods of every capability not in caps.
func withheldMethods(caps Set) []withheldMethod {
	var out []withheldMethod
	for c, info := range capabilities {
		if caps.Has(Capability(c)) {
			continue
		}
		for _, name := range info.methods {
			out = append(out, withheldMethod{c: Capability(c), dir: info.dir, name: name})
		}
	}
	return out
}

// promptBlockCapability maps session/prompt content block types to the
// capability they need; text and resource_link blocks are baseline ACP.
var promptBlockCapability = map[string]Capability{
	"image":    PromptImage,
	"audio":    PromptAudio,
	"resource": PromptEmbeddedContext,
}

// mcpServerCapability maps mcpServers entry types to the capability they
// need; stdio entries (which have no type) are baseline ACP.
var mcpServerCapability = map[string]Capability{
	"http": MCPHTTP,
	"sse":  MCPSSE,
}

// deniedParams returns the withheld capability a client request's params
// use, with a description of where.
func (k *masker) deniedParams(m *acpwire.Message) (Capability, string, bool) {
	if m.Method == "session/prompt" {
		if c, i, ok := k.deniedElement(m, "prompt", promptBlockCapability); ok {
			return c, fmt.Sprintf("prompt[%d] is %s content", i, c.short()), true
		}
	}
	if c, i, ok := k.deniedElement(m, "mcpServers", mcpServerCapability); ok {
		return c, fmt.Sprintf("mcpServers[%d] is an %s MCP server", i, c.short()), true
	}
	return 0, "", false
}

// deniedElement finds the first element of the list params.<list> whose
// "type" needs a withheld capability.
func (k *masker) deniedElement(m *acpwire.Message, list string, need map[string]Capability) (Capability, int, bool) {
	raw, ok := m.Get("params", list)
	if !ok {
		return 0, 0, false
	}
	elems, err := rawjson.Elements(raw)
	if err != nil {
		return 0, 0, false
	}
	for i, e := range elems {
		t, _ := rawjson.GetString(e, "type")
		if c, ok := need[t]; ok && !k.caps.Has(c) {
			return c, i, true
		}
	}
	return 0, 0, false
}

// short names a content or server type for messages.
func (c Capability) short() string {
	switch c {
	case PromptImage:
		return "image"
	case PromptAudio:
		return "audio"
	case PromptEmbeddedContext:
		return "embedded resource"
	case MCPHTTP:
		return "HTTP"
	case MCPSSE:
		return "SSE"
	}
	return c.String()
}

// refuse answers request m with an error (or drops notification m).
func (k *masker) refuse(m *acpwire.Message, code int, c Capability, msg string) error {
	k.logger.Info("refused "+m.Kind.String()+": capability not granted by manifest",
		"method", m.Method, "dir", m.Dir.String(), "capability", c.String(), "manifest", k.m.ID)
	if m.Kind != acpwire.KindRequest {
		return nil
	}
	e := acpwire.Errorf(code, "%s", msg).WithData(map[string]string{
		"capability": c.ACPField(),
		"manifest":   k.m.ID,
	})
	return k.s.ReplyError(m, e)
}

// maskSide sets every capability of side that the manifest withholds to
// false under root (params or result), where the peer advertised it.
func (k *masker) maskSide(m *acpwire.Message, side Side, root string) (*acpwire.Message, error) {
	out := m
	for c, info := range capabilities {
		if info.side != side || info.acp == nil || k.caps.Has(Capability(c)) {
			continue
		}
		path := append([]string{root}, info.acp...)
		v, ok := out.Get(path...)
		if !ok || bytes.Equal(bytes.TrimSpace(v), []byte("false")) {
			continue
		}
		next, err := out.Patch([]byte("false"), path...)
		if err != nil {
			return nil, fmt.Errorf("masking %s: %w", Capability(c).ACPField(), err)
		}
		k.logger.Debug("masked capability in initialize", "capability", Capability(c).ACPField())
		out = next
	}
	return out, nil
}

// identity is what Mask adds under result._meta[MetaKey].
type identity struct {
	Name     string `json:"name"`
	Version  string `json:"version"`
	Manifest string `json:"manifest"`
	Tier     Tier   `json:"tier"`
}

// addIdentity puts the bridge's identity under result._meta[MetaKey],
// keeping the agent's other _meta keys.
func (k *masker) addIdentity(m *acpwire.Message) (*acpwire.Message, error) {
	id, err := json.Marshal(identity{Name: "acp-bridge", Version: k.version, Manifest: k.m.ID, Tier: k.m.AIP44().Tier})
	if err != nil {
		return nil, err
	}
	if meta, ok := m.Get("result", "_meta"); ok && isObject(meta) {
		return m.Patch(id, "result", "_meta", MetaKey)
	}
	return m.Patch([]byte(`{`+strconv.Quote(MetaKey)+`:`+string(id)+`}`), "result", "_meta")
}

// isObject reports whether raw is a JSON object.
func isObject(raw []byte) bool {
	raw = bytes.TrimSpace(raw)
	return len(raw) > 0 && raw[0] == '{'
}
