// One live stream per browser: a browser keeps at most six connections
// per server, and a tab that held its own server-sent event stream used
// one of them for as long as it was open, so the seventh tab never loaded.
// The tabs of a server elect a leader with a Web Lock; the leader alone
// holds the EventSource and passes each message on to the others over a
// BroadcastChannel. When it closes, its lock goes to a waiting tab, which
// opens the stream where the messages it saw end. Without Web Locks (an
// address that is not a secure context, such as http to another host) a
// tab holds its own stream while it is shown and closes it while hidden.
"use strict";

// sharedStream follows a server-sent event stream shared by the tabs of
// this origin that name the same stream. opts:
//   name       the stream's name (lock and channel)
//   url()      where to open the stream; asked each time a tab opens it
//   types      the event names to listen to, besides "message"
//   keep       how many recent messages the leader hands a new tab (0: none)
//   onMessage(type, data)  each message, in every tab; a tab may be handed
//                          a message twice (the recent ones a new tab asks for)
//   onStatus(on)           the stream opened (true) or is reconnecting (false)
function sharedStream(opts) {
  // recent are the last messages this tab saw, which it hands to a new
  // tab once it leads.
  const recent = [];
  const remember = (type, data) => {
    if (!opts.keep || recent.some((r) => r.type === type && r.data === data)) return; // handed again
    recent.push({type, data});
    if (recent.length > opts.keep) recent.shift();
  };
  let es = null;
  const open = (relay) => {
    es = new EventSource(opts.url());
    es.onopen = () => { opts.onStatus(true); relay({kind: "status", on: true}); };
    es.onerror = () => { opts.onStatus(false); relay({kind: "status", on: false}); };
    const on = (msg) => {
      remember(msg.type, msg.data);
      opts.onMessage(msg.type, msg.data);
      relay({kind: "msg", type: msg.type, data: msg.data});
    };
    opts.types.forEach((t) => es.addEventListener(t, on));
    es.onmessage = on;
  };
  const close = () => { if (es) es.close(); es = null; };

  if (!(navigator.locks && window.BroadcastChannel)) {
    const quiet = () => {};
    open(quiet);
    document.addEventListener("visibilitychange", () => {
      if (document.hidden) close();
      else if (!es) open(quiet);
    });
    window.addEventListener("pagehide", close, {once: true});
    return;
  }
  const chan = new BroadcastChannel("clumsies:" + opts.name);
  const relay = (m) => chan.postMessage(m);
  chan.onmessage = (m) => {
    const x = m.data || {};
    if (x.kind === "msg") { remember(x.type, x.data); opts.onMessage(x.type, x.data); }
    else if (x.kind === "status") opts.onStatus(x.on);
    else if (x.kind === "hello" && es) {
      // A new tab: tell it where the stream is and what it missed.
      relay({kind: "status", on: es.readyState === EventSource.OPEN});
      recent.forEach((r) => relay({kind: "msg", type: r.type, data: r.data}));
    }
  };
  const stop = new AbortController();
  navigator.locks.request("clumsies:" + opts.name, {signal: stop.signal}, () => new Promise((release) => {
    open(relay);
    stop.signal.addEventListener("abort", () => { close(); release(); });
  })).catch(() => {}); // aborted while waiting: the page went away
  relay({kind: "hello"});
  window.addEventListener("pagehide", () => { stop.abort(); chan.close(); }, {once: true});
}
