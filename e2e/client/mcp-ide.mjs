// An IDE on the TypeScript SDK for TestMCPOverACPToolDenied: it starts
// "BRIDGE --policy POLICY --audit AUDIT -- node mcp-agent.mjs" in WS, offers
// an MCP server named "ide" over ACP (McpOverAcpProvider) whose delete_file
// tool removes the file its path argument names, whose open_uri tool returns
// the text of the file its uri argument (a file:// URI) names, whose open_file
// tool returns the text of the file a target, item or ref member at any depth
// of its arguments names (a plain path, a relative one against WS), and whose resources/read
// returns the text of the file a file:// URI names (as an IDE's server
// offering workspace files as resources does), opens a session with it,
// and prints "deleted PATH" or "read PATH" for every call the server ran.
//
// usage: node mcp-ide.mjs BRIDGE POLICY AUDIT WS TARGET
import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { Readable, Writable } from "node:stream";
import { fileURLToPath } from "node:url";
import { client, methods, ndJsonStream, McpOverAcpProvider } from "@agentclientprotocol/sdk/unstable";

const [bridge, policy, audit, ws, target] = process.argv.slice(2);
const agent = path.join(path.dirname(fileURLToPath(import.meta.url)), "mcp-agent.mjs");
const child = spawn(bridge, ["--policy", policy, "--audit", audit, "--", process.execPath, agent],
  { cwd: ws, env: { ...process.env, TARGET: target }, stdio: ["pipe", "pipe", "inherit"] });
const mcp = new McpOverAcpProvider();
const app = client()
  .onRequest(methods.client.mcp.message, mcp.handleRequest)
  .onNotification("session/update", () => {});
const conn = app.connect(ndJsonStream(Writable.toWeb(child.stdin), Readable.toWeb(child.stdout)));
const server = mcp.registerServer(conn.agent, {
  name: "ide", serverId: "srv-1",
  handler: async (op) => {
    if (op.method === "tools/call" && op.params?.name === "delete_file") {
      fs.rmSync(op.params.arguments.path, { force: true });
      console.log("deleted " + op.params.arguments.path);
      return { result: { content: [{ type: "text", text: "deleted" }] } };
    }
    if (op.method === "tools/call" && op.params?.name === "open_uri") {
      const file = fileURLToPath(op.params.arguments.uri);
      console.log("read " + file);
      return { result: { content: [{ type: "text", text: fs.readFileSync(file, "utf8") }] } };
    }
    if (op.method === "tools/call" && op.params?.name === "open_file") {
      // A plain path under a member name of the server's own, anywhere in
      // the arguments, relative ones against the workspace.
      const named = (v) => {
        for (const [k, e] of Object.entries(v && typeof v === "object" ? v : {})) {
          const found = ["target", "item", "ref"].includes(k) && typeof e === "string" ? e : named(e);
          if (found) return found;
        }
        return undefined;
      };
      const file = path.resolve(ws, named(op.params.arguments));
      console.log("read " + file);
      return { result: { content: [{ type: "text", text: fs.readFileSync(file, "utf8") }] } };
    }
    if (op.method === "resources/read" && String(op.params?.uri).startsWith("file:")) {
      const file = fileURLToPath(op.params.uri);
      const text = fs.readFileSync(file, "utf8");
      console.log("read " + file);
      return { result: { contents: [{ uri: op.params.uri, mimeType: "text/plain", text }] } };
    }
    return { result: {} };
  },
});
const exited = new Promise((resolve) => child.on("exit", resolve));
await conn.agent.request("initialize", { protocolVersion: 1, clientCapabilities: {} });
await conn.agent.buildSession(ws).withMcpServer(server.declaration).start();
await exited; // the agent exits once its call is answered, and the bridge with it
process.exit(0);
