// mcp_session.mjs drives `clumsies serve` over stdio (or a running
// `clumsies serve --http` at URL) with the official MCP TypeScript SDK
// client and its default settings, and runs one agent session (session id
// "ts-interop"): memsetup, memdisc, memload, memref, a memref with a wrong
// constraint id, artifact create, agentreport.
//
// Usage: node mcp_session.mjs <clumsies binary> <workspace dir>
//        CLUMSIES_TOKEN=T node mcp_session.mjs --http <MCP URL>
//
// Over HTTP it sends $CLUMSIES_TOKEN, when set, as its bearer token.
//
// It prints one JSON line per step on stdout and exits non-zero on any
// surprise. The SDK client validates every structuredContent against the
// tool's outputSchema, error results included, so a clean run also proves
// that the advertised schemas admit the error payloads.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";

const SESSION = "ts-interop";
const TOOLS = ["agentrejected", "agentreport", "artifact", "memdisc", "memload", "memref", "memsetup"];

const [binary, workspace] = process.argv.slice(2);
if (!binary || !workspace) {
  console.error("usage: node mcp_session.mjs <clumsies binary> <workspace dir> | --http <MCP URL>");
  process.exit(2);
}

class Surprise extends Error {}

function print(step, fields) {
  process.stdout.write(JSON.stringify({ step, ok: true, ...fields }) + "\n");
}

function expect(cond, step, what, got) {
  if (!cond) {
    throw new Surprise(`${step}: ${what}; got ${JSON.stringify(got)}`);
  }
}

// call calls a tool that must succeed and returns its structured content.
async function call(client, name, args) {
  const res = await client.callTool({ name, arguments: args });
  expect(!res.isError, name, "want success", res.structuredContent ?? res.content);
  expect(res.structuredContent && typeof res.structuredContent === "object", name, "want structuredContent", res);
  return res.structuredContent;
}

const client = new Client({ name: "clumsies-interop", version: "1.0.0" });
const transport = binary === "--http"
  ? new StreamableHTTPClientTransport(new URL(workspace), process.env.CLUMSIES_TOKEN
    ? { requestInit: { headers: { Authorization: `Bearer ${process.env.CLUMSIES_TOKEN}` } } }
    : {})
  : new StdioClientTransport({
    command: binary,
    args: ["serve", "--workspace", workspace],
    stderr: "inherit",
  });

let failed = false;
try {
  await client.connect(transport);
  const server = client.getServerVersion();
  expect(server?.name === "clumsies", "initialize", "want server clumsies", server);
  const instructions = client.getInstructions() ?? "";
  expect(instructions.length > 0, "initialize", "want instructions", instructions);
  print("initialize", { server: server.name, instructions: instructions.length });

  const { tools } = await client.listTools();
  const names = tools.map((t) => t.name).sort();
  expect(JSON.stringify(names) === JSON.stringify(TOOLS), "tools/list", `want exactly ${TOOLS.join(", ")}`, names);
  for (const t of tools) {
    expect(t.inputSchema?.type === "object" && t.outputSchema?.type === "object", "tools/list",
      `want input and output schemas of ${t.name}`, t);
  }
  print("tools/list", { tools: names });

  const setup = await call(client, "memsetup", { session_id: SESSION, knownHashes: { "META_PROMPT.md": "" } });
  expect(setup.sessionId === SESSION, "memsetup", `want sessionId ${SESSION}`, setup);
  print("memsetup", { sessionId: setup.sessionId, workspaceId: setup.workspaceId });

  const discRes = await client.callTool({ name: "memdisc", arguments: {} });
  const disc = discRes.structuredContent;
  expect(!discRes.isError && disc && typeof disc === "object", "memdisc", "want structuredContent", discRes);
  const workflow = (disc.items ?? []).find((it) => it.kind === "workflow");
  expect(workflow, "memdisc", "want a workflow", disc);
  // The client has structuredContent (it asks for 2025-11-25): the text
  // block is a listing for the model, a first line then one line per item,
  // beginning with its id, kind and path.
  const lines = (discRes.content?.[0]?.text ?? "").split("\n");
  expect(lines.length === disc.items.length + 1 && lines[0].startsWith(`Listed ${disc.items.length} of ${disc.total} `) &&
    disc.items.every((it, i) => lines[i + 1].startsWith(`${it.id} ${it.kind} ${it.path}`)),
    "memdisc", "want the listing as text, one line per item", discRes.content);
  print("memdisc", { items: disc.items.length, workflow: workflow.id, textLines: lines.length });

  const load = await call(client, "memload", { ids: [workflow.id], knownHashes: { [workflow.id]: "" } });
  const item = load.items?.[0];
  expect(item?.id === workflow.id && item.changed === true && typeof item.content === "string", "memload",
    "want the workflow's content", load);
  expect(Array.isArray(item.constraints) && item.constraints.length > 0, "memload", "want constraints", item);
  const constraint = item.constraints[0].id;
  print("memload", { id: item.id, hash: item.hash, constraints: item.constraints.map((c) => c.id) });

  const ref = await call(client, "memref", {
    refs: [{ ruleId: item.id, ruleHash: item.hash, constraintId: constraint, reason: "interop: applied it" }],
  });
  expect(ref.ok === true && ref.count === 1, "memref", "want ok and count 1", ref);
  print("memref", { constraintId: constraint, count: ref.count });

  // A wrong constraint id: a tool result with isError, not a thrown error.
  const bad = await client.callTool({
    name: "memref",
    arguments: { refs: [{ ruleId: item.id, constraintId: "No such constraint/99" }] },
  });
  const sc = bad.structuredContent;
  expect(bad.isError === true, "memref unknown constraint", "want isError true", bad);
  expect(sc?.code === "unknown_constraint" && sc.retryable === true && typeof sc.error === "string",
    "memref unknown constraint", "want structuredContent with code unknown_constraint", sc);
  expect(Array.isArray(sc.validConstraints) && sc.validConstraints.some((c) => c.id === constraint),
    "memref unknown constraint", "want validConstraints", sc);
  print("memref_unknown_constraint", { isError: true, code: sc.code, retryAction: sc.retryAction });

  const art = await call(client, "artifact", {
    resource: "rule",
    op: { create: { path: "workflow/INTEROP.md", body: "# Interop\n\n## Checks\n\n- Run the interop tests.\n", description: "from the TS SDK" } },
  });
  expect(art.ok === true && typeof art.id === "string" && art.id.startsWith("tmp-rule-"), "artifact", "want a tmp-rule- id", art);
  print("artifact", { id: art.id, draft_path: art.draft_path });

  const report = await call(client, "agentreport", { summary: "TS SDK interop session done." });
  expect(report.ok === true, "agentreport", "want ok", report);
  print("agentreport", {});
} catch (err) {
  failed = true;
  const message = err instanceof Surprise ? err.message : `${err?.name ?? "Error"}: ${err?.message ?? err}`;
  process.stdout.write(JSON.stringify({ step: "failure", ok: false, error: message }) + "\n");
  console.error(`mcp_session: ${message}`);
} finally {
  await client.close().catch((err) => console.error(`mcp_session: close: ${err}`));
}
process.exit(failed ? 1 : 0);
