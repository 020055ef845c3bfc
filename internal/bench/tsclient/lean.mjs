// lean.mjs is the lean bench section's second driver: it times `clumsies
// serve` and the bare echo server through the official MCP TypeScript SDK
// client (Client over StdioClientTransport), the client of the Node agent
// hosts, as the Go driver times them through the go-sdk client.
//
// Usage: node lean.mjs < plan.json
//
// The plan (written by internal/bench, tsclient.go) names the two servers,
// the calls that bind a session on each, how many spawns to time, and the
// phases: each phase is a list of steps (a tool of one server, its
// arguments, the calls of one block) run in rounds of blocks, alternating,
// after one round that warms up. It prints one JSON object on stdout: every timed
// call's latency in nanoseconds (process.hrtime), the size of each step's
// structured answer as this client decoded it, and serve's peak resident
// set (VmHWM, KiB) at the end of each phase. Any tool error or surprise
// exits non-zero with the reason on stderr.
import { readFileSync } from "node:fs";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";

const plan = JSON.parse(readFileSync(0, "utf8"));

// connect spawns a server and initializes a session with it; it lists
// the tools, as the agent hosts do before calling one (the client then
// checks every structured answer against the tool's output schema).
async function connect(server, listTools) {
  const client = new Client({ name: "clumsies-bench-ts", version: "1.0.0" });
  const transport = new StdioClientTransport({
    command: server.command,
    args: server.args ?? [],
    env: process.env,
    stderr: "inherit",
  });
  await client.connect(transport);
  if (listTools) {
    await client.listTools();
  }
  return { client, transport };
}

// call makes one call that must answer with structured content.
async function call(client, tool, args) {
  const res = await client.callTool({ name: tool, arguments: args });
  if (res.isError) {
    throw new Error(`${tool}: tool error: ${JSON.stringify(res.content)}`);
  }
  if (!res.structuredContent || typeof res.structuredContent !== "object") {
    throw new Error(`${tool}: no structured content`);
  }
  return res.structuredContent;
}

// peakRSS reads a process's VmHWM in KiB.
function peakRSS(pid) {
  const m = /^VmHWM:\s*(\d+)\s*kB/m.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
  if (!m) {
    throw new Error(`no VmHWM in /proc/${pid}/status`);
  }
  return Number(m[1]);
}

const out = { node: process.version, lat: {}, size: {}, peak: [] };
const ns = (t0) => Number(process.hrtime.bigint() - t0);
const add = (name, d) => (out.lat[name] ??= []).push(d);

// Spawn to initialize, alternating the servers, each closed before the
// next starts.
for (let i = 0; i < plan.spawns; i++) {
  for (const [name, server] of Object.entries(plan.servers)) {
    const t0 = process.hrtime.bigint();
    const { client } = await connect(server, false);
    add(`spawn ${name}`, ns(t0));
    await client.close();
  }
}

const live = {};
try {
  for (const [name, server] of Object.entries(plan.servers)) {
    live[name] = await connect(server, true);
    for (const s of server.setup ?? []) {
      await call(live[name].client, s.tool, s.args);
    }
  }
  for (const phase of plan.phases) {
    for (let r = -1; r < plan.rounds; r++) {
      for (const s of phase) {
        const { client } = live[s.server];
        for (let i = 0; i < s.perBlock; i++) {
          const t0 = process.hrtime.bigint();
          const res = await call(client, s.tool, s.args);
          const d = ns(t0);
          if (r >= 0) {
            add(s.name, d);
          } else if (i === 0) {
            out.size[s.name] = Buffer.byteLength(JSON.stringify(res));
          }
        }
      }
    }
    out.peak.push(peakRSS(live[plan.peakOf].transport.pid));
  }
} finally {
  for (const { client } of Object.values(live)) {
    await client.close();
  }
}
process.stdout.write(JSON.stringify(out) + "\n");
