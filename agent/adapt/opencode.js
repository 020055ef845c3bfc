// clumsies adapter for opencode, written by `clumsies adapt opencode`;
// `clumsies adapt opencode --remove` deletes it. opencode has no command
// hooks, so this plugin runs `clumsies hook <event> --host opencode` on
// opencode's own events, and pre-tool and post-tool around each tool that
// can write, and passes on what it answers. A refusal of the pre-tool hook
// is thrown: opencode then does not run the tool, and the agent reads the
// reason. Any failure of clumsies (missing, broken) lets opencode go on.
const COMMAND = "clumsies"

// The tools that can write: the file tools and the shell (args.command).
const WRITERS = ["write", "edit", "multiedit", "patch", "apply_patch", "bash"]

async function hook(event, input, cwd) {
  try {
    const proc = Bun.spawn([COMMAND, "hook", event, "--host", "opencode"], {
      cwd,
      stdin: new Blob([JSON.stringify(input)]),
      stdout: "pipe",
      stderr: "inherit",
    })
    const out = await new Response(proc.stdout).text()
    await proc.exited
    return out.trim() ? JSON.parse(out) : {}
  } catch {
    return {}
  }
}

export const ClumsiesPlugin = async ({ client, directory }) => {
  const context = new Map() // session id -> what the agent must know from the start
  const followUp = new Map() // session id -> the report request the plugin sent
  const toolArgs = new Map() // call id -> the arguments of a tool that has not finished
  const warnings = new Map() // call id -> the gate's warning, added to the tool's output

  return {
    event: async ({ event }) => {
      if (event.type === "session.created") {
        const id = event.properties?.info?.id
        if (!id) return
        const answer = await hook("session-start", { session_id: id, source: "startup", cwd: directory }, directory)
        if (answer.context) context.set(id, answer.context)
      } else if (event.type === "session.idle") {
        const id = event.properties?.sessionID
        if (!id) return
        const continuing = followUp.has(id)
        followUp.delete(id)
        const answer = await hook("stop", { session_id: id, stop_hook_active: continuing, cwd: directory }, directory)
        if (answer.decision === "block" && answer.reason) {
          followUp.set(id, answer.reason)
          await client.session.prompt({ path: { id }, body: { parts: [{ type: "text", text: answer.reason }] } })
        }
      }
    },
    "chat.message": async (input, output) => {
      const id = input?.sessionID
      if (!id) return
      const prompt = (output?.parts ?? []).filter((p) => p.type === "text").map((p) => p.text).join("\n")
      if (prompt === followUp.get(id)) return // the plugin's own request, not the user's
      await hook("user-prompt", { session_id: id, prompt, cwd: directory }, directory)
    },
    "tool.execute.before": async (input, output) => {
      if (input?.callID && output?.args) toolArgs.set(input.callID, output.args)
      const id = input?.sessionID
      if (!id || !WRITERS.includes(input?.tool)) return
      const answer = await hook("pre-tool", {
        session_id: id, tool_name: input.tool, tool_input: output?.args ?? {}, tool_use_id: input.callID, cwd: directory,
      }, directory)
      if (answer.decision === "block" && answer.reason) {
        toolArgs.delete(input.callID)
        throw new Error(answer.reason)
      }
      if (answer.context && input.callID) warnings.set(input.callID, answer.context)
    },
    "tool.execute.after": async (input, output) => {
      const args = input?.args ?? toolArgs.get(input?.callID) ?? output?.metadata ?? {}
      toolArgs.delete(input?.callID)
      const warning = warnings.get(input?.callID)
      warnings.delete(input?.callID)
      if (warning && typeof output?.output === "string") output.output += "\n\n" + warning
      const id = input?.sessionID
      if (!id || !WRITERS.includes(input?.tool)) return
      await hook("post-tool", {
        session_id: id, tool_name: input.tool, tool_input: args, tool_use_id: input.callID, cwd: directory,
      }, directory)
    },
    "experimental.chat.system.transform": async (input, output) => {
      const text = context.get(input?.sessionID)
      if (text && Array.isArray(output?.system)) output.system.push(text)
    },
  }
}
