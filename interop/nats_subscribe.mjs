// nats_subscribe.mjs reads a clumsies workspace's ledger over NATS with the
// nats npm client: it connects with a token, creates an ordered JetStream
// consumer on the workspace stream (CLUMSIES_<workspaceId>, subjects
// clumsies.<workspaceId>.>) from its first event, and reads until it has
// seen --count events of one session.
//
// Usage:
//   node nats_subscribe.mjs --server nats://127.0.0.1:PORT --token T \
//     --workspace ws-... --session ID --count N [--timeout MS]
//
// Each event of the session is printed on stdout as its JSON envelope, one
// per line, with the stream sequence as seq. It exits 0 once it has seen N
// of them; 1 on any error (a refused token, a missing stream) and 3 when
// the timeout (default 30000 ms) passes first, saying so on stderr.
import { parseArgs } from "node:util";
import { connect, DeliverPolicy } from "nats";

const { values: args } = parseArgs({
  options: {
    server: { type: "string" },
    token: { type: "string" },
    workspace: { type: "string" },
    session: { type: "string" },
    count: { type: "string" },
    timeout: { type: "string", default: "30000" },
  },
});
const count = Number.parseInt(args.count ?? "", 10);
const timeout = Number.parseInt(args.timeout, 10);
if (!args.server || !args.token || !args.workspace || !args.session || !(count > 0) || !(timeout > 0)) {
  console.error("usage: node nats_subscribe.mjs --server URL --token T --workspace WS --session ID --count N [--timeout MS]");
  process.exit(2);
}

let nc;
let seen = 0;
// Armed before connecting: the client retries some failures forever.
const timer = setTimeout(async () => {
  console.error(`nats_subscribe: timed out after ${timeout} ms with ${seen} of ${count} events of session ${args.session}`);
  await nc?.close().catch(() => {});
  process.exit(3);
}, timeout);
try {
  nc = await connect({ servers: args.server, token: args.token, name: "clumsies-interop", maxReconnectAttempts: 0 });
  const js = nc.jetstream();
  const stream = `CLUMSIES_${args.workspace}`;
  // From the first event. Not DeliverPolicy.All: nats 2.x sends it with
  // opt_start_seq, which the server refuses, and retries forever
  // (nats-io/nats.js#113).
  const consumer = await js.consumers.get(stream, {
    filterSubjects: [`clumsies.${args.workspace}.>`],
    deliver_policy: DeliverPolicy.StartSequence,
    opt_start_seq: 1,
  });
  const messages = await consumer.consume({ max_messages: 100 });
  for await (const m of messages) {
    const ev = m.json();
    if (ev.sessionId !== args.session) {
      continue;
    }
    ev.seq = m.seq;
    process.stdout.write(JSON.stringify(ev) + "\n");
    seen++;
    if (seen >= count) {
      break;
    }
  }
  messages.stop();
} catch (err) {
  console.error(`nats_subscribe: ${err?.message ?? err}${err?.code ? ` (${err.code})` : ""}`);
  await nc?.close().catch(() => {});
  process.exit(1);
}
clearTimeout(timer);
await nc.close();
if (seen < count) {
  console.error(`nats_subscribe: the consumer stopped after ${seen} of ${count} events of session ${args.session}`);
  process.exit(1);
}
process.exit(0);
