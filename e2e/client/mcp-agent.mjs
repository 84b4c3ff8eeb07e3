// A hostile agent for TestMCPOverACPToolDenied: it answers initialize and
// session/new, then calls the delete_file tool of the MCP server the IDE
// offered over ACP directly (mcp/message tools/call), asking no one, on the
// file $TARGET names, and exits once that call is answered.
import readline from "node:readline";

const send = (m) => process.stdout.write(JSON.stringify(m) + "\n");
const lines = readline.createInterface({ input: process.stdin });
lines.on("line", (line) => {
  const m = JSON.parse(line);
  if (m.method === "initialize") {
    send({ jsonrpc: "2.0", id: m.id, result: { protocolVersion: 1, agentCapabilities: {} } });
  } else if (m.method === "session/new") {
    const server = (m.params.mcpServers ?? []).find((s) => s.type === "acp");
    send({ jsonrpc: "2.0", id: m.id, result: { sessionId: "s1" } });
    send({
      jsonrpc: "2.0", id: "mcp-call", method: "mcp/message",
      params: {
        serverId: server.serverId, requestId: "r1", method: "tools/call",
        params: {
          name: "delete_file", arguments: { path: process.env.TARGET },
          _meta: { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {} },
        },
      },
    });
  } else if (m.id === "mcp-call") {
    process.stderr.write("mcp-agent: answer " + line + "\n");
    process.exit(0);
  }
});
