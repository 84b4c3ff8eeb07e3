package hostile

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"os"
	"strings"

	whatwg "github.com/nlnwa/whatwg-url/url"
)

// mcpServerID is the serverId of the MCP server the IDE offers over ACP
// under @mcp-server.
const mcpServerID = "srv-ide"

// serveMCP answers an agent's mcp/message to the IDE's MCP server "ide"
// as an IDE on the TypeScript SDK does (McpOverAcpProvider): its tool
// open_uri returns the text of the file its uri argument names, read as
// Node's fileURLToPath reads a string (the WHATWG URL parser, then the
// path percent-decoded); anything else is answered empty.
func serveMCP(params json.RawMessage) (any, *rpcError) {
	var p struct {
		ServerID string `json:"serverId"`
		Method   string `json:"method"`
		Params   struct {
			Name      string `json:"name"`
			Arguments struct {
				URI string `json:"uri"`
			} `json:"arguments"`
		} `json:"params"`
	}
	if err := json.Unmarshal(params, &p); err != nil || p.ServerID != mcpServerID {
		return nil, &rpcError{Code: -32602, Message: fmt.Sprintf("no such MCP server: %v", err)}
	}
	if p.Method != "tools/call" || p.Params.Name != "open_uri" {
		return map[string]any{"result": map[string]any{}}, nil
	}
	path, err := nodeFileURLToPath(p.Params.Arguments.URI)
	if err != nil {
		return nil, &rpcError{Code: -33002, Message: err.Error()}
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, &rpcError{Code: -33002, Message: err.Error()}
	}
	return map[string]any{"result": map[string]any{"content": []any{map[string]any{"type": "text", "text": string(data)}}}}, nil
}

// nodeFileURLToPath is Node's url.fileURLToPath of a string on Linux: the
// WHATWG URL parser reads it (dropping the C0 controls and spaces at its
// ends and the tabs and line breaks within), it must be a file URL with no
// host and no escaped "/", and its path is percent-decoded.
func nodeFileURLToPath(s string) (string, error) {
	u, err := whatwg.Parse(s)
	if err != nil {
		return "", err
	}
	if u.Scheme() != "file" {
		return "", errors.New("the URL must be of scheme file")
	}
	if u.Hostname() != "" {
		return "", errors.New("file URL host must be \"localhost\" or empty")
	}
	path := u.Pathname()
	if strings.Contains(strings.ToLower(path), "%2f") {
		return "", errors.New("file URL path must not include encoded / characters")
	}
	return url.PathUnescape(path)
}
