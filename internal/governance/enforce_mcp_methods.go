package governance

import (
	"fmt"
	"net/url"
	"strings"

	jsonv2 "github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
)

// The agent's MCP messages other than tools/call reach the IDE's server as
// well, and some of them act: resources/read returns what a resource holds
// (a file:// resource is the file it names), prompts/get and
// completion/complete run the server's code with the agent's arguments, and
// a method the bridge does not know may do anything the server makes of it.
// Only the MCP protocol's own messages, which read no data of the person's
// and change nothing, pass unjudged; a resource with a file:// URI is judged
// as a read of that file; everything else needs the person's approval.

// mcpPlainMethods are the MCP methods (requests and notifications) that
// read nothing but the server's own description of itself: they pass as
// the MCP server would take them, matched case-exactly as MCP servers
// dispatch them.
var mcpPlainMethods = map[string]bool{
	"initialize":                       true,
	"ping":                             true,
	"tools/list":                       true,
	"resources/list":                   true,
	"resources/templates/list":         true,
	"prompts/list":                     true,
	"logging/setLevel":                 true,
	"notifications/initialized":        true,
	"notifications/cancelled":          true,
	"notifications/progress":           true,
	"notifications/roots/list_changed": true,
}

// mcpResourceMethods are the MCP methods whose params name a resource by
// its uri: each reads it, or (subscribe) has the server send its updates.
var mcpResourceMethods = map[string]bool{
	"resources/read":        true,
	"resources/subscribe":   true,
	"resources/unsubscribe": true,
}

// mcpResourceParams are the params of a resources/* request, as far as the
// bridge reads them.
type mcpResourceParams struct {
	URI  string         `json:"uri"`
	Meta jsontext.Value `json:"_meta"`
}

// mcpFilePaths returns the paths a file:// resource URI may name to the
// server that reads it: the URI's decoded path (what Node's fileURLToPath
// and Go's url.Parse give) and, when it differs, the text after "file://"
// as written (what a server that only strips the scheme opens). ok is false
// when uri is no file URI; err says why a file URI cannot be placed (a
// host other than localhost, a relative or opaque form, a query or
// fragment a reader may keep in the path, a NUL, a scheme only a WHATWG
// reader finds: fileScheme).
func mcpFilePaths(uri string) (paths []string, ok bool, err error) {
	if !fileScheme(uri) {
		return nil, false, nil
	}
	scheme, rest, _ := strings.Cut(uri, ":")
	if scheme != "file" || strings.ContainsAny(uri, "\x00\\?#") || strings.TrimSpace(uri) != uri {
		return nil, true, fmt.Errorf("the file URI %q may name different files to different readers", uri)
	}
	u, perr := url.Parse(uri)
	if perr != nil {
		return nil, true, fmt.Errorf("the file URI %q does not parse: %v", uri, perr)
	}
	if u.Opaque != "" || !strings.HasPrefix(rest, "//") || !strings.HasPrefix(u.Path, "/") {
		return nil, true, fmt.Errorf("the file URI %q names no absolute path", uri)
	}
	if u.Host != "" && !strings.EqualFold(u.Host, "localhost") {
		return nil, true, fmt.Errorf("the file URI %q names a file on host %q", uri, u.Host)
	}
	if strings.Contains(strings.ToLower(u.EscapedPath()), "%2f") {
		return nil, true, fmt.Errorf("the file URI %q hides a / in an escape", uri)
	}
	paths = []string{u.Path}
	raw := strings.TrimPrefix(rest, "//")
	if i := strings.IndexByte(raw, '/'); i > 0 {
		raw = raw[i:] // file://localhost/p
	}
	if raw != u.Path {
		paths = append(paths, raw)
	}
	return paths, true, nil
}

// mcpFileURIRule is the built-in rule refusing a file URI the bridge
// cannot place.
const mcpFileURIRule = "a file URI is read only where the policy can place it (built-in)"

// mcpNeedsApproval is the decision on an MCP message the policy has no
// rule for: the person decides, as they do for a tool no rule names.
func mcpNeedsApproval(method, server string) Decision {
	return Decision{Value: RequireApproval, Ref: "mcp-method",
		Rule:   "an MCP request other than a tool call or a file read needs the person's approval (built-in)",
		Reason: fmt.Sprintf("the agent sent %q to the IDE's MCP server %q, which the policy has no rule for", method, server)}
}

// mcpArgumentFiles returns the paths the file:// URIs among an MCP tool's
// arguments name, at any depth and under any member name: an IDE's server
// reads a file a tool is given by URI (a "uri", a "resource") as surely as
// one given by path, and no member name tells the bridge which it reads.
// err says why one of them cannot be placed.
func mcpArgumentFiles(args jsontext.Value) ([]string, error) {
	if len(args) == 0 {
		return nil, nil
	}
	var v any
	if err := jsonv2.Unmarshal(args, &v); err != nil {
		return nil, nil // read strictly before: nothing the IDE reads otherwise
	}
	var paths []string
	var walk func(v any) error
	walk = func(v any) error {
		switch v := v.(type) {
		case string:
			ps, _, err := mcpFilePaths(v)
			if err != nil {
				return err
			}
			paths = append(paths, ps...)
		case []any:
			for _, e := range v {
				if err := walk(e); err != nil {
					return err
				}
			}
		case map[string]any:
			for _, e := range v {
				if err := walk(e); err != nil {
					return err
				}
			}
		}
		return nil
	}
	err := walk(v)
	return paths, err
}
