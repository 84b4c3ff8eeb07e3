#!/usr/bin/env node
// ACP test client for acp-bridge's end-to-end suite.
//
// Usage:
//   node client.mjs --script SCRIPT.json --transcript OUT.jsonl --cwd DIR -- <agent command> [args...]
//
// It spawns the agent command (a real agent, or acp-bridge in front of one),
// runs initialize -> session/new (cwd = DIR) -> the script's prompts, answers
// session/request_permission as the script says, serves fs/* from disk and
// terminal/* with real processes when advertised, and writes every raw
// JSON-RPC line it sends or receives to the transcript, one JSON object per
// line, in wire order:
//
//   {"ts":"<RFC 3339>","dir":"client_to_agent","msg":<the line exactly as written>}
//   {"ts":"<RFC 3339>","dir":"agent_to_client","msg":<the line exactly as read>}
//   {"ts":"<RFC 3339>","dir":"agent_to_client","nonjson":"<a stdout line that is not JSON>"}
//
// This is the format of acp-bridge's --record, so the two compare directly.
// The message is embedded verbatim (not re-encoded), so the transcript keeps
// the bytes of each line. The SDK is handed already-framed messages through a
// Stream built here, because its ndJsonStream would hide the raw lines.
//
// Script (JSON):
//   {
//     "fs": true,                      // advertise fs.readTextFile/writeTextFile (default true)
//     "terminal": false,               // advertise terminal (default false)
//     "permission": "allow",           // allow | allow_always | reject | cancel (default allow)
//     "sessionMeta": {...},            // optional _meta for session/new (or the load below)
//     "load": {"sessionId": "...",     // optional: open that existing session instead of
//              "method": "session/load"}  //   calling session/new; method session/load (default)
//                                      //   or session/resume
//     "mode": "bypassPermissions",     // optional: session/set_mode to this modeId once the
//                                      //   session is open, before the prompts
//     "model": "gemini-2.5-flash",     // optional: session/set_model to this modelId, after the mode
//     "config": [{"configId": "model", "value": "opus"}],  // optional: session/set_config_option
//                                      //   each, in order, after the mode, before the prompts
//     "prompts": ["text", [blocks]],   // one session/prompt each, in order: a string is
//                                      // one text block, an array is the ACP content blocks
//     "timeoutMs": 120000              // whole-run limit (default 120000)
//   }
//
// "cancel" answers a permission request by sending session/cancel first and
// then the outcome "cancelled", as the protocol asks of a client that cancels
// while a permission request is pending.
//
// On exit it prints a JSON summary on stdout:
//   {"ok":true,"sessionId":"...","stopReasons":["end_turn"],"permissions":1,"error":null}
// and exits 0 when every prompt got a response, 1 otherwise.

import { spawn } from "node:child_process";
import { createWriteStream, promises as fsp } from "node:fs";
import path from "node:path";
import * as acp from "@agentclientprotocol/sdk";

function parseArgs(argv) {
  const opts = { script: null, transcript: null, cwd: process.cwd(), command: [] };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === "--") {
      opts.command = argv.slice(i + 1);
      break;
    } else if (a === "--script") opts.script = argv[++i];
    else if (a === "--transcript") opts.transcript = argv[++i];
    else if (a === "--cwd") opts.cwd = argv[++i];
    else throw new Error(`unknown argument ${a}`);
  }
  if (!opts.script || !opts.transcript || opts.command.length === 0) {
    throw new Error("usage: client.mjs --script S.json --transcript T.jsonl --cwd DIR -- <agent> [args...]");
  }
  return opts;
}

// transcriptWriter appends raw lines in the order they cross the wire.
function transcriptWriter(file) {
  const out = createWriteStream(file, { flags: "w" });
  const ts = () => JSON.stringify(new Date().toISOString());
  return {
    send(line) { out.write(`{"ts":${ts()},"dir":"client_to_agent","msg":${line}}\n`); },
    recv(line) { out.write(`{"ts":${ts()},"dir":"agent_to_client","msg":${line}}\n`); },
    nonJSON(line) { out.write(`{"ts":${ts()},"dir":"agent_to_client","nonjson":${JSON.stringify(line)}}\n`); },
    close() { return new Promise((resolve) => out.end(resolve)); },
  };
}

// recordingStream frames the agent's stdio as newline-delimited JSON and
// records each raw line before the SDK sees it.
function recordingStream(child, tr) {
  let open = true; // false once the SDK cancelled the stream or it ended
  const readable = new ReadableStream({
    cancel() { open = false; },
    start(controller) {
      let buf = "";
      child.stdout.setEncoding("utf8");
      child.stdout.on("data", (chunk) => {
        buf += chunk;
        let nl;
        while ((nl = buf.indexOf("\n")) >= 0) {
          const line = buf.slice(0, nl).replace(/\r$/, "");
          buf = buf.slice(nl + 1);
          if (line.trim() === "") continue;
          let msg;
          try {
            msg = JSON.parse(line);
          } catch {
            tr.nonJSON(line);
            continue;
          }
          tr.recv(line);
          if (open) controller.enqueue(msg);
        }
      });
      child.stdout.on("end", () => { if (open) { open = false; controller.close(); } });
      child.stdout.on("error", (e) => { if (open) { open = false; controller.error(e); } });
    },
  });
  const writable = new WritableStream({
    write(msg) {
      const line = JSON.stringify(msg);
      tr.send(line);
      return new Promise((resolve, reject) => {
        child.stdin.write(line + "\n", (err) => (err ? reject(err) : resolve()));
      });
    },
    close() { child.stdin.end(); },
  });
  return { readable, writable };
}

// Terminals run for real when the script advertises the capability.
// ClaudeToolResults follows Claude Code's tool calls and the late
// tool_call_update that carries each one's result
// (_meta.claudeCode.toolResponse), which claude-agent-acp sends from a hook
// and may send after the turn has ended: with awaitToolResponses a script
// waits for them before it shuts the agent down, so what a run records does
// not depend on how fast the machine was.
class ClaudeToolResults {
  constructor() { this.calls = new Set(); this.results = new Set(); this.wake = () => {}; }
  heard(u) {
    if (!u?.toolCallId || !u._meta?.claudeCode) return;
    if (u.sessionUpdate === "tool_call") this.calls.add(u.toolCallId);
    if (u._meta.claudeCode.toolResponse !== undefined) this.results.add(u.toolCallId);
    this.wake();
  }
  pending() { return [...this.calls].filter((id) => !this.results.has(id)); }
  // settled resolves once every tool call heard has its result, or after ms.
  async settled(ms) {
    const deadline = Date.now() + ms;
    while (this.pending().length > 0 && Date.now() < deadline) {
      await new Promise((r) => { this.wake = r; setTimeout(r, deadline - Date.now()); });
    }
  }
}

class Terminals {
  constructor() { this.next = 1; this.byId = new Map(); }
  create(p) {
    const id = `term-${this.next++}`;
    const env = { ...process.env };
    for (const v of p.env ?? []) env[v.name] = v.value;
    const proc = spawn(p.command, p.args ?? [], { cwd: p.cwd ?? undefined, env, shell: (p.args ?? []).length === 0 });
    const t = { proc, output: "", limit: p.outputByteLimit ?? 1 << 20, truncated: false, exit: null };
    t.done = new Promise((resolve) => {
      proc.on("close", (code, signal) => { t.exit = { exitCode: code, signal: signal ?? null }; resolve(); });
      proc.on("error", (e) => { t.output += String(e); t.exit = { exitCode: 127, signal: null }; resolve(); });
    });
    const add = (d) => {
      t.output += d.toString("utf8");
      if (Buffer.byteLength(t.output) > t.limit) {
        t.truncated = true;
        t.output = Buffer.from(t.output).subarray(-t.limit).toString("utf8");
      }
    };
    proc.stdout.on("data", add);
    proc.stderr.on("data", add);
    this.byId.set(id, t);
    return { terminalId: id };
  }
  get(id) {
    const t = this.byId.get(id);
    if (!t) throw acp.RequestError.resourceNotFound(id);
    return t;
  }
  output(p) {
    const t = this.get(p.terminalId);
    return { output: t.output, truncated: t.truncated, ...(t.exit ? { exitStatus: t.exit } : {}) };
  }
  async wait(p) { const t = this.get(p.terminalId); await t.done; return t.exit; }
  kill(p) { this.get(p.terminalId).proc.kill("SIGKILL"); return {}; }
  release(p) { const t = this.byId.get(p.terminalId); if (t) { if (!t.exit) t.proc.kill("SIGKILL"); this.byId.delete(p.terminalId); } return {}; }
  killAll() { for (const t of this.byId.values()) if (!t.exit) t.proc.kill("SIGKILL"); }
}

function pickOption(options, kinds) {
  for (const k of kinds) {
    const o = options.find((x) => x.kind === k);
    if (o) return o;
  }
  return null;
}

async function main() {
  const opts = parseArgs(process.argv.slice(2));
  const script = JSON.parse(await fsp.readFile(opts.script, "utf8"));
  const fs = script.fs ?? true;
  const terminal = script.terminal ?? false;
  const permission = script.permission ?? "allow";
  const prompts = script.prompts ?? [];
  const timeoutMs = script.timeoutMs ?? 120000;

  const tr = transcriptWriter(opts.transcript);
  const summary = { ok: false, sessionId: null, stopReasons: [], permissions: 0, error: null, agentExit: null };
  // The agent gets a process group of its own, which the client kills as
  // Zed does: SIGKILL goes to the whole group, so what the agent started
  // (Gemini CLI relaunches itself as a child) goes with it. SIGTERM goes to
  // the agent alone.
  const child = spawn(opts.command[0], opts.command.slice(1), { stdio: ["pipe", "pipe", "inherit"], detached: true });
  const killGroup = () => {
    try {
      process.kill(-child.pid, "SIGKILL");
    } catch {
      child.kill("SIGKILL"); // no group left to kill
    }
  };
  const exited = new Promise((resolve) => {
    child.on("exit", (code, signal) => { summary.agentExit = { code, signal }; resolve(); });
    child.on("error", (e) => { summary.error = `spawning agent: ${e.message}`; resolve(); });
  });
  child.stdin.on("error", () => {}); // EPIPE when the agent dies: reported through the connection
  // A client stopped from outside takes its agent down with it.
  for (const sig of ["SIGTERM", "SIGINT"]) {
    process.on(sig, () => {
      killGroup();
      process.exit(130);
    });
  }

  const terms = new Terminals();
  const toolResults = new ClaudeToolResults();
  let sessionId = null;
  let cancelled = false;

  const app = acp.client({ name: "acp-bridge-e2e-client" })
    .onRequest("session/request_permission", async ({ params, agent }) => {
      summary.permissions++;
      if (permission === "cancel") {
        cancelled = true;
        await agent.notify("session/cancel", { sessionId: params.sessionId });
        return { outcome: { outcome: "cancelled" } };
      }
      const kinds = permission === "reject" ? ["reject_once", "reject_always"]
        : permission === "allow_always" ? ["allow_always", "allow_once"] : ["allow_once", "allow_always"];
      const o = pickOption(params.options, kinds);
      if (!o) return { outcome: { outcome: "cancelled" } };
      return { outcome: { outcome: "selected", optionId: o.optionId } };
    })
    .onRequest("fs/read_text_file", async ({ params }) => {
      let content;
      try {
        content = await fsp.readFile(params.path, "utf8");
      } catch (e) {
        // As IDEs do: a missing file is "resource not found" (-32002).
        // Gemini CLI checks for it before writing a new file; an internal
        // error there fails the write.
        if (e?.code === "ENOENT") throw acp.RequestError.resourceNotFound(params.path);
        throw e;
      }
      if (params.line != null || params.limit != null) {
        const lines = content.split("\n");
        const start = Math.max(0, (params.line ?? 1) - 1);
        const end = params.limit != null ? start + params.limit : lines.length;
        content = lines.slice(start, end).join("\n");
      }
      return { content };
    })
    .onRequest("fs/write_text_file", async ({ params }) => {
      await fsp.mkdir(path.dirname(params.path), { recursive: true });
      await fsp.writeFile(params.path, params.content, "utf8");
      return {};
    })
    .onRequest("terminal/create", ({ params }) => terms.create(params))
    .onRequest("terminal/output", ({ params }) => terms.output(params))
    .onRequest("terminal/wait_for_exit", ({ params }) => terms.wait(params))
    .onRequest("terminal/kill", ({ params }) => terms.kill(params))
    .onRequest("terminal/release", ({ params }) => terms.release(params))
    .onNotification("session/update", ({ params }) => toolResults.heard(params?.update));

  const timer = setTimeout(() => {
    summary.error = `timeout after ${timeoutMs} ms`;
    killGroup();
  }, timeoutMs);

  try {
    await app.connectWith(recordingStream(child, tr), async (ctx) => {
      await ctx.request("initialize", {
        protocolVersion: acp.PROTOCOL_VERSION,
        clientCapabilities: { fs: { readTextFile: fs, writeTextFile: fs }, terminal },
        clientInfo: { name: "acp-bridge-e2e-client", version: "0.0.0" },
      });
      const req = { cwd: opts.cwd, mcpServers: [] };
      if (script.sessionMeta) req._meta = script.sessionMeta;
      if (script.load) {
        // session/load and session/resume answer without a sessionId: the
        // session keeps the id it was asked for.
        await ctx.request(script.load.method ?? "session/load", { sessionId: script.load.sessionId, ...req });
        sessionId = script.load.sessionId;
      } else {
        const s = await ctx.request("session/new", req);
        sessionId = s.sessionId;
      }
      summary.sessionId = sessionId;
      if (script.mode) await ctx.request("session/set_mode", { sessionId, modeId: script.mode });
      if (script.model) await ctx.request("session/set_model", { sessionId, modelId: script.model });
      for (const c of script.config ?? []) await ctx.request("session/set_config_option", { sessionId, ...c });
      for (const p of prompts) {
        const prompt = typeof p === "string" ? [{ type: "text", text: p }] : p;
        const r = await ctx.request("session/prompt", { sessionId, prompt });
        summary.stopReasons.push(r.stopReason);
        if (cancelled) break;
      }
      if (script.awaitToolResponses) await toolResults.settled(10000);
    });
    summary.ok = summary.error == null && summary.stopReasons.length === prompts.length;
    if (cancelled && summary.stopReasons.length > 0) summary.ok = summary.error == null;
  } catch (e) {
    summary.error = summary.error ?? `${e?.message ?? e}${e?.code != null ? ` (code ${e.code})` : ""}`;
  }
  clearTimeout(timer);
  terms.killAll();

  // Shut the agent down as an IDE does: close stdin, wait, then SIGTERM, then SIGKILL.
  child.stdin.end();
  const waitExit = (ms) => Promise.race([exited.then(() => true), new Promise((r) => setTimeout(() => r(false), ms))]);
  if (!(await waitExit(3000))) {
    child.kill("SIGTERM");
    if (!(await waitExit(3000))) {
      killGroup();
      await waitExit(3000);
    }
  }
  await tr.close();
  process.stdout.write(JSON.stringify(summary) + "\n");
  process.exit(summary.ok ? 0 : 1);
}

main().catch((e) => {
  process.stderr.write(`client: ${e?.stack ?? e}\n`);
  process.exit(2);
});
