// jsread reads lines the way the ACP TypeScript SDK does and prints how it
// classified each: one base64 line in, one JSON line out
// ({"kind": "request"|"notification"|"response"|"", "method", "path"}).
// Used by TestJSReaderMatchesSDK to check the suite's model of a JS client
// against the real SDK (its directory is the first argument).
import { createInterface } from "node:readline";
import { pathToFileURL } from "node:url";
import { join } from "node:path";

const sdk = process.argv[2];
const { ndJsonStream } = await import(pathToFileURL(join(sdk, "dist/v1/stable/acp.js")));
const rpc = await import(pathToFileURL(join(sdk, "dist/core/jsonrpc.js")));

// classify is Connection.receiveMessage's decision after ndJsonStream.
function classify(m) {
  if (!rpc.isRequestMessage(m) && !rpc.isNotificationMessage(m) && !rpc.isResponseShapedMessage(m)) {
    return "";
  }
  if ("method" in m) {
    return "id" in m ? "request" : "notification";
  }
  return "id" in m ? "response" : "";
}

async function read(bytes) {
  const input = new ReadableStream({
    start(c) {
      c.enqueue(bytes);
      c.close();
    },
  });
  const output = new WritableStream({ write() {} });
  const stream = ndJsonStream(output, input);
  const reader = stream.readable.getReader();
  const out = [];
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    out.push(value);
  }
  return out;
}

const rl = createInterface({ input: process.stdin });
for await (const line of rl) {
  const bytes = Buffer.from(line, "base64");
  const msgs = await read(new Uint8Array([...bytes, 0x0a]));
  const m = msgs[0];
  const res = { kind: "", method: "", path: "" };
  if (m !== undefined) {
    res.kind = classify(m);
    res.method = typeof m.method === "string" ? m.method : "";
    res.path = m.params?.path ?? "";
  }
  if (typeof res.path !== "string") res.path = JSON.stringify(res.path);
  // Node turns a lone surrogate into U+FFFD when it opens the path: do the same here.
  res.path = Buffer.from(res.path, "utf8").toString("utf8");
  process.stdout.write(JSON.stringify(res) + "\n");
}
