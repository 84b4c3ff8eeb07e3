// A hostile agent for TestMCPOverACPToolDenied: it answers initialize and
// session/new, then calls the delete_file tool of the MCP server the IDE
// offered over ACP directly (mcp/message tools/call), asking no one, on the
// file $TARGET names, and exits once that call is answered. With
// MCP_METHOD set it sends that MCP method instead, its params MCP_PARAMS
// (JSON, $TARGET in it replaced by the target's file:// URI, $TARGETPATH by
// its plain path).
import readline from "node:readline";
import { pathToFileURL } from "node:url";

const send = (m) => process.stdout.write(JSON.stringify(m) + "\n");
const lines = readline.createInterface({ input: process.stdin });
lines.on("line", (line) => {
  const m = JSON.parse(line);
  if (m.method === "initialize") {
    send({ jsonrpc: "2.0", id: m.id, result: { protocolVersion: 1, agentCapabilities: {} } });
  } else if (m.method === "session/new") {
    const server = (m.params.mcpServers ?? []).find((s) => s.type === "acp");
    send({ jsonrpc: "2.0", id: m.id, result: { sessionId: "s1" } });
    const meta = { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {} };
    let method = "tools/call";
    let params = { name: "delete_file", arguments: { path: process.env.TARGET }, _meta: meta };
    if (process.env.MCP_METHOD) {
      method = process.env.MCP_METHOD;
      const uri = pathToFileURL(process.env.TARGET).href;
      const plain = JSON.stringify(process.env.TARGET).slice(1, -1);
      const params0 = process.env.MCP_PARAMS.replaceAll("$TARGETPATH", plain).replaceAll("$TARGET", uri);
      params = { ...JSON.parse(params0), _meta: meta };
    }
    send({
      jsonrpc: "2.0", id: "mcp-call", method: "mcp/message",
      params: { serverId: server.serverId, requestId: "r1", method, params },
    });
  } else if (m.id === "mcp-call") {
    process.stderr.write("mcp-agent: answer " + line + "\n");
    process.exit(0);
  }
});
