// Drives the opencode plugin that `clumsies adapt opencode` writes, the way
// opencode calls a plugin: it imports the module, calls the plugin with a
// client and the project directory, and fires opencode's events and hooks
// at what the plugin returns. opencode runs plugins in Bun; Bun.spawn, the
// only Bun API the plugin uses, is provided here on top of node's
// child_process. The client records the prompts the plugin sends.
// opencode does not run a tool whose tool.execute.before throws, and the
// agent reads the error: so does this harness.
//
// Usage: node opencode_plugin.mjs PLUGIN.mjs PROJECT_DIR SESSION_ID
// Prints one JSON object: what the plugin did.
import { spawn } from "node:child_process"
import { mkdirSync, writeFileSync } from "node:fs"
import { dirname } from "node:path"
import { Readable } from "node:stream"

const [pluginPath, directory, id] = process.argv.slice(2)

globalThis.Bun = {
  spawn(argv, opts) {
    const child = spawn(argv[0], argv.slice(1), { cwd: opts.cwd, stdio: ["pipe", "pipe", "inherit"] })
    const exited = new Promise((resolve) => child.on("close", (code) => resolve(code)))
    Promise.resolve(opts.stdin?.text?.() ?? "").then((text) => child.stdin.end(text))
    return { stdout: Readable.toWeb(child.stdout), exited }
  },
}

const sent = []
const client = { session: { prompt: async (req) => { sent.push(req) } } }
const { ClumsiesPlugin } = await import(pluginPath)
const hooks = await ClumsiesPlugin({ client, directory, project: {}, worktree: directory })

const idle = () => hooks.event({ event: { type: "session.idle", properties: { sessionID: id } } })
const say = (text) => hooks["chat.message"]({ sessionID: id }, { message: {}, parts: [{ type: "text", text }] })

await hooks.event({ event: { type: "session.created", properties: { info: { id } } } })
const system = { system: [] }
await hooks["experimental.chat.system.transform"]({ sessionID: id }, system)
await say("Add a retry to the payment client")
// An edit (its arguments reach the plugin before the tool runs), a read
// and a shell command.
const thrown = {} // call id -> the error tool.execute.before threw: the tool did not run
const outputs = {} // call id -> the tool's output, as the agent reads it
for (const [callID, tool, args] of [
  ["call_1", "edit", { filePath: directory + "/api/handler.go", oldString: "return nil", newString: "return err" }],
  ["call_2", "read", { filePath: directory + "/api/handler.go" }],
  ["call_3", "bash", { command: "ls", description: "List the files" }],
]) {
  try {
    await hooks["tool.execute.before"]({ tool, sessionID: id, callID }, { args })
  } catch (err) {
    thrown[callID] = String(err?.message ?? err)
    continue
  }
  if (tool === "edit") { // the edit itself, as opencode's tool makes it
    mkdirSync(dirname(args.filePath), { recursive: true })
    writeFileSync(args.filePath, `package api // ${callID}\n`)
  }
  const output = { title: "", output: "done", metadata: {} }
  await hooks["tool.execute.after"]({ tool, sessionID: id, callID }, output)
  outputs[callID] = output.output
}
await idle() // the prompt has no report: the plugin asks for one
const asked = sent.length
if (asked > 0) await say(sent[0].body.parts[0].text) // the request comes back as a message: not the user's
await idle() // continuing: let go
console.log(JSON.stringify({
  system: system.system,
  asked,
  prompts: sent.length,
  request: sent[0]?.body?.parts?.[0]?.text ?? "",
  path: sent[0]?.path ?? null,
  thrown,
  outputs,
}))
