// The clumsies dashboard: reads /api/ and follows /events. No framework,
// no network but this server.
"use strict";

// eventTypes gives the ledger's event types as the server lists them
// (/api/types, from the events package's table), asked once per page.
let typesAsked = null;
function eventTypes() {
  if (!typesAsked) typesAsked = api("types").then((d) => d.items.map((x) => x.type)).catch((err) => { typesAsked = null; throw err; });
  return typesAsked;
}

// h builds an element: h("a", {href: "/"}, "text", child, ...). Text is
// always text, never HTML.
function h(tag, attrs, ...kids) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === undefined || v === null || v === false) continue;
    if (k.startsWith("on")) el.addEventListener(k.slice(2), v);
    else if (k === "class") el.className = v;
    else el.setAttribute(k, v === true ? "" : v);
  }
  for (const k of kids.flat(Infinity)) {
    if (k === undefined || k === null || k === false) continue;
    el.append(k instanceof Node ? k : document.createTextNode(String(k)));
  }
  return el;
}

const SVG = "http://www.w3.org/2000/svg";
function s(tag, attrs, ...kids) {
  const el = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs || {})) el.setAttribute(k, v);
  for (const k of kids.flat()) {
    if (k === undefined || k === null) continue;
    el.append(k instanceof Node ? k : document.createTextNode(String(k)));
  }
  return el;
}

const fmt = new Intl.NumberFormat("en");
const num = (n) => fmt.format(n || 0);
const pct = (x) => (100 * (x || 0)).toFixed(1) + "%";
function dur(us) {
  if (!us) return "0";
  if (us < 1000) return us + " µs";
  if (us < 1e6) return (us / 1000).toFixed(us < 1e4 ? 1 : 0) + " ms";
  return (us / 1e6).toFixed(2) + " s";
}
// ago says how long ago the time t was, in the largest whole unit.
function ago(t) {
  const s = Math.max(0, (Date.now() - Date.parse(t)) / 1000);
  if (!Number.isFinite(s)) return "at an unknown time";
  for (const [unit, n] of [["day", 86400], ["hour", 3600], ["minute", 60]]) {
    if (s >= n) { const k = Math.floor(s / n); return `${k} ${unit}${k === 1 ? "" : "s"} ago`; }
  }
  return "just now";
}
const when = (t) => (t || "").replace("T", " ").replace(/\.\d+Z$/, "Z");
const ruleLink = (id, text) => h("a", {href: "/rules/" + encodeURIComponent(id)}, text || id);
const sessionLink = (id, text) => h("a", {href: "/sessions/" + encodeURIComponent(id), class: "mono"}, text || id);

async function api(path) {
  const r = await fetch("/api/" + withRange(path), {headers: {Accept: "application/json"}});
  const body = await r.json().catch(() => ({error: r.status + " " + r.statusText}));
  if (!r.ok) throw new Error(body.error || r.statusText);
  return body;
}

function card(label, value, id) {
  return h("div", {class: "card"}, h("div", {class: "n", "data-figure": id}, value), h("div", {class: "l"}, label));
}

function panel(title, ...kids) {
  return h("section", {class: "panel"}, title ? h("h2", {}, title) : null, ...kids);
}

function table(head, rows, opts) {
  opts = opts || {};
  return h("table", {"data-table": opts.name},
    h("thead", {}, h("tr", {}, head.map((c) => h("th", {class: c.num ? "num" : ""}, c.label || c)))),
    h("tbody", {}, rows));
}

// barChart draws bars per day: series is [{key, class, label}], days the
// API's day rows, one per day (the API fills the quiet ones with zeros).
// Only the last maxDays days are drawn.
// chartWidth is the width of the page's panels, so that a chart is drawn
// at the size it is shown and its text stays legible on a phone.
function chartWidth() {
  const w = document.getElementById("app").clientWidth - 36;
  return Math.max(280, Math.min(1140, w));
}

function barChart(days, series, maxDays) {
  days = days.slice(-(maxDays || 60));
  const W = chartWidth(), H = 200, L = 44, B = 24, T = 8;
  const top = Math.max(1, ...days.flatMap((d) => series.map((x) => d[x.key] || 0)));
  const step = Math.min((W - L) / Math.max(days.length, 1), 16 + 24 * series.length);
  const bw = Math.max(1, (step - 2) / series.length);
  const y = (v) => T + (H - T - B) * (1 - v / top);
  const svg = s("svg", {class: "chart", viewBox: `0 0 ${W} ${H}`, role: "img", "aria-label": chartName(days, series)});
  for (const f of [0, 0.5, 1]) {
    const v = Math.round(top * f);
    svg.append(s("line", {class: "axis", x1: L, x2: W, y1: y(v), y2: y(v)}),
      s("text", {x: L - 6, y: y(v) + 4, "text-anchor": "end"}, num(v)));
  }
  days.forEach((d, i) => {
    series.forEach((x, j) => {
      const v = d[x.key] || 0;
      svg.append(s("rect", {class: x.class, x: L + i * step + 1 + j * bw, y: y(v), width: bw, height: Math.max(0, H - B - y(v))},
        s("title", {}, `${d.day} ${x.label}: ${num(v)}`)));
    });
  });
  const labels = Math.min(days.length, 6);
  for (let k = 0; k < labels; k++) {
    const i = Math.round(k * (days.length - 1) / Math.max(labels - 1, 1));
    // The last label ends at the chart's edge rather than past it.
    const x = L + i * step + step / 2, last = k === labels - 1 && x + 24 > W;
    svg.append(s("text", {x: last ? W : x, y: H - 6, "text-anchor": last ? "end" : "middle", "data-x-label": ""}, days[i].day.slice(5)));
  }
  if (!days.length) svg.append(s("text", {x: W / 2, y: H / 2, "text-anchor": "middle"}, "no events yet"));
  const keys = {bar: "k1", bar2: "k2", bar3: "k3"};
  const legend = h("div", {class: "legend"}, series.map((x) => h("span", {}, h("i", {class: keys[x.class]}), x.label)));
  return h("div", {}, svg, series.length > 1 ? legend : null);
}

// chartName names a chart of days for a screen reader: its series, its
// days and the sum of each over them.
function chartName(days, series) {
  if (!days.length) return `${series.map((x) => x.label).join(" and ")}: none yet`;
  const sums = series.map((x) => `${num(days.reduce((a, d) => a + (d[x.key] || 0), 0))} ${x.label}`);
  return `${series.map((x) => x.label).join(" and ")} from ${days[0].day} to ${days[days.length - 1].day}: ${sums.join(", ")}`;
}

// hbars draws one horizontal bar per item: [{label, value}].
function hbars(items) {
  const W = chartWidth(), rowH = 26, L = Math.min(230, Math.round(W * 0.4)), H = Math.max(rowH, items.length * rowH) + 4;
  const top = Math.max(1, ...items.map((x) => x.value));
  const svg = s("svg", {class: "chart", viewBox: `0 0 ${W} ${H}`, role: "img", "data-chart": "constraints",
    "aria-label": "refs per constraint: " + items.map((x) => `${x.label} ${num(x.value)}`).join(", ")});
  items.forEach((x, i) => {
    const w = (W - L - 60) * x.value / top;
    const label = shorten(x.label, Math.floor(L / 7));
    svg.append(s("text", {x: L - 8, y: i * rowH + 17, "text-anchor": "end"}, label),
      s("rect", {class: x.value ? "bar" : "bar2", x: L, y: i * rowH + 5, width: Math.max(w, 2), height: rowH - 10},
        s("title", {}, `${x.label}: ${num(x.value)} refs`)),
      s("text", {x: L + Math.max(w, 2) + 6, y: i * rowH + 17, "data-refs": x.label}, num(x.value)));
  });
  return svg;
}

// shorten fits text in n characters, keeping its end: constraint ids
// differ at the end ("Steps/1", "Steps/2"), so a cut label must too.
function shorten(text, n) {
  if (text.length <= n) return text;
  const slash = text.lastIndexOf("/");
  const tail = slash >= 0 && text.length - slash < n - 1 ? text.slice(slash) : text.slice(-Math.ceil((n - 1) / 2));
  return text.slice(0, Math.max(0, n - 1 - tail.length)) + "…" + tail;
}

// fitTables makes the tables under root fit their panel: each scrolls
// sideways in a box of its own, with a cue above it when it does (a phone
// shows no scroll bar), and a cell of long text shows it whole as its
// title (CSS wraps long paths and cuts hashes).
function fitTables(root) {
  for (const t of root.querySelectorAll("table")) {
    let box = t.parentElement;
    if (!box.classList.contains("scroller")) {
      box = h("div", {class: "scroller"});
      t.replaceWith(box);
      box.append(t);
    }
    for (const td of t.querySelectorAll("td")) if (!td.title && td.textContent.length > 30) td.title = td.textContent;
    const wide = box.scrollWidth > box.clientWidth + 1;
    const cue = box.previousElementSibling && box.previousElementSibling.classList.contains("scroll-cue") ? box.previousElementSibling : null;
    if (wide && !cue) box.before(h("div", {class: "scroll-cue", "aria-hidden": "true"}, "scroll sideways for more →"));
    if (!wide && cue) cue.remove();
  }
}
window.addEventListener("resize", () => fitTables(document.getElementById("app")));

// ---- pages ----

const pages = {};

pages.overview = {
  title: "Overview",
  async load() { return api("overview"); },
  render(d) {
    const calls = d.calls, errors = d.errors;
    return [
      h("h1", {}, "Overview ", d.workspaceName ? [d.workspaceName, " "] : null, h("span", {class: "muted mono"}, d.workspaceId), " ", h("span", {class: "muted"}, rangeLabel())),
      h("div", {class: "cards"},
        card("events", num(d.events), "events"),
        card("tool calls", num(calls), "calls"),
        card("sessions set up", num(d.sessions), "sessions"),
        card("seen by hooks only", num(d.sessionsHooksOnly), "sessionsHooksOnly"),
        card("refs", num(d.refs), "refs"),
        card("error rate", calls ? pct(errors / calls) : "–", "errorRate"),
        card("projector lag", num(d.lastSeq - Math.min(d.applied, d.lastSeq)), "lag")),
      panel("Events, tool calls and refs per day", barChart(d.days, [
        {key: "events", class: "bar", label: "events"}, {key: "calls", class: "bar2", label: "tool calls"},
        {key: "refs", class: "bar3", label: "refs"}])),
      panel(allTime("Tools"), table([{label: "tool"}, {label: "calls", num: 1}, {label: "errors", num: 1}, {label: "error rate", num: 1},
        {label: "p50", num: 1}, {label: "p99", num: 1}, {label: "max", num: 1}],
      d.tools.map((t) => h("tr", {"data-tool": t.tool}, h("td", {}, t.tool), h("td", {class: "num", "data-field": "calls"}, num(t.calls)),
        h("td", {class: "num"}, num(t.errors)), h("td", {class: "num"}, pct(t.errorRate)),
        h("td", {class: "num"}, dur(t.p50Us)), h("td", {class: "num"}, dur(t.p99Us)), h("td", {class: "num"}, dur(t.maxUs)))))),
      h("div", {class: "grid2"},
        panel("Most applied", ruleList(d.mostApplied, "most")),
        panel("Least applied", ruleList(d.leastApplied, "least"))),
      d.hosts && d.hosts.length ? h("div", {class: "grid2"},
        panel("Sessions per host", hbars(d.hosts.map((x) => ({label: x.name, value: x.sessions})))),
        panel("Sessions per model", hbars(d.models.map((x) => ({label: x.name, value: x.sessions}))))) : null,
      panel("Recent sessions", sessionTable(d.recentSessions)),
    ];
  },
};

function ruleList(rules, name) {
  if (!rules.length) return h("p", {class: "empty", "data-next": ""}, "No rules published yet: write markdown files under ",
    h("code", {}, ".clumsies/rules/"), " and run ", h("code", {}, "clumsies publish"), " (a running ", h("code", {}, "clumsies serve"),
    " publishes them by itself).");
  return table([{label: "rule"}, {label: "refs", num: 1}], rules.map((r) =>
    h("tr", {class: r.refs ? "" : "never", "data-rule": r.id}, h("td", {class: "path"}, ruleLink(r.id, r.path), " ", h("span", {class: "tag"}, r.kind)),
      h("td", {class: "num"}, num(r.refs)))), {name});
}

function sessionTable(list) {
  if (!list.length) return h("p", {class: "empty", "data-next": ""}, "No sessions yet: wire an agent host with ",
    h("code", {}, "clumsies adapt claude-code"), " (or codex, cursor, gemini-cli, ...) and start it in this folder; its first tool call opens a session.");
  return table([{label: "session"}, {label: "last event"}, {label: "tool calls", num: 1}, {label: "hooks", num: 1}, {label: "refs", num: 1},
    {label: "reports", num: 1}],
    list.map((x) => h("tr", {"data-session": x.id}, h("td", {class: "id"}, sessionLink(x.id), x.setUp ? null : [" ", h("span", {class: "tag warn"}, "no setup")]),
      h("td", {class: "muted date"}, when(x.last)), h("td", {class: "num", "data-field": "calls"}, num(x.calls)),
      h("td", {class: "num", "data-field": "hooks"}, num(x.hooks)), h("td", {class: "num"}, num(x.refs)),
      h("td", {class: "num"}, num(x.reports)))));
}

pages.rule = {
  title: "Rule",
  async load(id) { return api("rules/" + encodeURIComponent(id)); },
  render(d) {
    return [
      [h("h1", {}, d.path, " ", h("span", {class: "tag"}, d.kind), d.source ? [" ", h("span", {class: "tag warn", "data-source": d.source}, d.source)] : null),
      d.source === "removed" ? h("p", {class: "muted", "data-removed": ""}, "Removed from the repository's catalog: agents no longer get it. ",
        "This page is its history, read-only: its refs, the sessions that applied it and its publishes. To bring it back, restore ",
        h("code", {}, d.path), " and run ", h("code", {}, "clumsies publish"), ".") :
        d.source === "team" ? h("p", {class: "muted"}, "A rule of the team's catalog at the hub: its body and revisions are the hub's (",
          h("code", {}, `clumsies hub catalog show ${d.id}`), ").") : null],
      h("div", {class: "cards"}, card("refs", num(d.refs), "refs"), card("constraints", num(d.constraints.length), "constraints"),
        card("never applied", num(d.constraints.filter((c) => !c.refs).length), "never"),
        card("publishes", num(d.publishes.length), "publishes")),
      d.source ? h("p", {class: "muted mono"}, d.id) :
        panel("Current version", h("p", {}, h("span", {class: "muted"}, "hash "), h("span", {class: "mono", "data-figure": "hash"}, d.hash)),
          d.description ? h("p", {}, d.description) : null, h("p", {class: "muted mono"}, d.id)),
      panel(allTime("Refs per constraint"), d.constraints.length ? hbars(d.constraints.map((c) => ({label: c.id, value: c.refs}))) :
        h("p", {class: "empty"}, "This has no constraints.")),
      panel("Refs over time", barChart(d.days, [{key: "refs", class: "bar", label: "refs"}], 90)),
      panel("Sessions that applied it", d.applications.length ? table([{label: "time"}, {label: "session"}, {label: "host"}, {label: "model"}, {label: "constraints and reasons"}],
        d.applications.map((a) => h("tr", {}, h("td", {class: "muted date"}, when(a.time)), h("td", {class: "id"}, sessionLink(a.sessionId)),
          h("td", {"data-figure": "host"}, a.host || "–"), h("td", {"data-figure": "model"}, a.model || "–"),
          h("td", {}, a.refs.map((r) => h("div", {}, h("span", {class: "mono"}, r.constraintId), r.reason ? " — " + r.reason : "")))))) :
        h("p", {class: "empty"}, "No session applied it yet."),
      d.moreApplications ? h("p", {class: "muted"}, "Older ones are left out.") : null),
      panel("Evidence", h("p", {class: "muted"}, d.paths.length ? ["applies to ", h("span", {class: "mono"}, d.paths.join(" "))] : "applies to no paths of its own",
        " · ", h("a", {href: "/commits?rule=" + encodeURIComponent(d.id), "data-link": "commits"}, "commits with edits in its scope")),
        h("div", {class: "cards", "data-evidence": ""}, card("sessions with an edit in scope", num(d.evidence.inScope), "inScope"),
          card("edits before it was loaded", num(d.evidence.unloadedEdits), "unloadedEdits"),
          card("sessions that loaded it", num(d.evidence.loaded), "loaded"), card("sessions that claimed it", num(d.evidence.referenced), "referenced"),
          card("claims without evidence", num(d.evidence.unsupported), "unsupported"),
          card("edits denied by the gate", num(d.evidence.denials), "denials"), card("edits warned by the gate", num(d.evidence.warnings), "warnings"),
          card("changes before loading it (ungated)", num(d.evidence.ungated), "ungated"),
          card("stop-gate blocks", num(d.evidence.stopGateBlocks), "stopGateBlocks")),
        d.evidence.unsupportedClaims.length ? table([{label: "session"}, {label: "refs", num: 1}, {label: "why"}],
          d.evidence.unsupportedClaims.map((c) => h("tr", {}, h("td", {class: "id"}, sessionLink(c.sessionId)), h("td", {class: "num"}, num(c.refs)),
            h("td", {}, c.why)))) : null),
      checksPanel(d.checks),
      panel("Publish history", table([{label: "seq", num: 1}, {label: "time"}, {label: "path"}, {label: "hash"}],
        d.publishes.slice().reverse().map((p) => h("tr", {}, h("td", {class: "num"}, p.seq), h("td", {class: "muted"}, when(p.time)),
          h("td", {class: "path"}, p.path), h("td", {class: "mono hash"}, p.hash))))),
    ];
  },
};

// detail shows what event e did; name(id) is the path of a rule it
// mentions (the id when the rule is not published).
function detail(e, name) {
  const d = e.data || {};
  if (e.outcome === "error") return [h("span", {class: "tag bad"}, e.errorCode || "error"), " ", d.message || ""];
  switch (e.type) {
    case "attest.refer":
      return (d.refs || []).map((r) => h("div", {}, ruleLink(r.ruleId, name(r.ruleId)), " ", h("span", {class: "mono"}, r.constraintId),
        r.reason ? " — " + r.reason : ""));
    case "attest.load": return (d.items || []).map((x) => h("span", {}, ruleLink(x.id, name(x.id)), " "));
    case "attest.discover": return [d.query ? `“${d.query}” ` : "", `${num(d.count)} of ${num(d.total)} items`];
    case "attest.agent_report": return d.summary || "";
    case "attest.reject": return d.reason || "";
    case "attest.user_prompt": return `prompt of ${num(d.length)} characters`;
    case "attest.stop_blocked": return (d.files || []).length ?
      [h("span", {class: "tag bad", "data-gate": "stop"}, "stop gate"), " ", h("span", {class: "mono"}, d.files.join(" ")),
        namedRules(" · not loaded: ", d.missing, name), ` (${d.blocks} of ${d.limit})`] :
      `stop blocked (${d.blocks} of ${d.limit})`;
    case "attest.session_start": return `${d.host || ""} ${d.source || ""}`;
    case "attest.tool_gated": return [gateTag(d), " ", h("span", {class: "mono"}, (d.paths || []).join(" ")), " by ", d.tool || "",
      d.shell ? " (shell)" : "", namedRules(" · not loaded: ", d.missing, name),
      (d.protected || []).length ? [" · ", h("span", {class: "tag bad"}, "protected"), " ", h("span", {class: "mono"}, d.protected.join(" "))] : "",
      d.unchecked ? " · unchecked: " + d.unchecked : ""];
    case "attest.file_edit": return [(d.unloaded || []).length ? [h("span", {class: "tag bad", "data-gate": "ungated"}, "before loading"), " "] : "",
      h("span", {class: "mono"}, (d.paths || []).join(" ")), " by ", d.tool || (d.via === "stop" ? "the working tree" : ""),
      (d.unnamed || []).length ? " (not named by the tool)" : "", namedRules(" · in scope: ", d.rules, name), namedRules(" · not loaded: ", d.unloaded, name),
      (d.protected || []).length ? [" · ", h("span", {class: "tag bad"}, "protected"), " ", h("span", {class: "mono"}, d.protected.join(" "))] : ""];
  }
  if (e.type.startsWith("attest.draft.")) return [d.op || e.type.slice(13), " ", d.path || d.id || ""];
  return e.dataOmitted ? "payload too large for the timeline; see the ledger" : "";
}

// namedRules lists the rules ids name after label, nothing when there are none.
function namedRules(label, ids, name) {
  return (ids || []).length ? [label, ids.map((id) => h("span", {}, ruleLink(id, name(id)), " "))] : "";
}

// gateTag is the pre-tool gate's decision on a tool (attest.tool_gated).
function gateTag(d) {
  const label = d.decision === "allow" ? (d.unchecked ? "unchecked" : "allowed") : d.decision === "deny" ? "denied" : "warned";
  return h("span", {class: d.decision === "deny" ? "tag bad" : "tag warn", "data-gate": d.decision}, label);
}

// gateCards are what the gates recorded of a session, or summed over
// sessions (evidence.Gate).
function gateCards(g) {
  return h("div", {class: "cards", "data-gate-figures": ""}, card("denied by the gate", num(g.denials), "denials"),
    card("warned by the gate", num(g.warnings), "warnings"), card("let run unchecked", num(g.unchecked), "unchecked"),
    card("changes before loading the rules in scope", num(g.ungated), "ungated"),
    card("enforcement's own files: gated / changed", `${num(g.protectedGated)} / ${num(g.protectedChanges)}`, "protected"),
    card("stop-gate blocks", num(g.stopGateBlocks), "stopGateBlocks"));
}

pages.session = {
  title: "Session",
  async load(id) { return api("sessions/" + encodeURIComponent(id)); },
  render(d) {
    const c = d.compliance, ev = d.evidence;
    const name = (id) => (d.rules && d.rules[id] ? d.rules[id].path : id);
    return [
      h("h1", {}, "Session ", h("span", {class: "mono"}, d.id)),
      h("div", {class: "cards"}, card("tool calls", num(d.calls), "calls"), card("hook events", num(d.hooks), "hooks"), card("refs", num(d.refs), "refs"),
        card("reports", num(d.reports), "reports"), card("rejections", num(d.rejects), "rejects"),
        c ? card("prompts answered", `${num(c.answered)} / ${num(c.prompts)}`, "answered") : null,
        c ? card("stops blocked", num(c.stopsBlocked), "stopsBlocked") : null),
      h("p", {class: "muted", "data-figure": "who"}, `from ${when(d.first)} to ${when(d.last)}`, d.setUp ? "" : " · never set up",
        d.host ? ` · ${d.host}` : "", d.model ? ` · ${d.model}` : "",
        d.setUp ? (d.bound ? ` · bound by its ${d.bound === "hook" ? "host's hook" : "first memsetup"}` : " · unbound") : "",
        " · ", h("a", {href: "/commits?session=" + encodeURIComponent(d.id), "data-link": "commits"}, "commits with its edits")),
      ev ? panel("Evidence", h("p", {}, `${num(ev.edits)} file edits recorded by the host`, ev.paths.length ? ": " : "",
          h("span", {class: "mono", "data-figure": "touched"}, ev.paths.join(" "))),
        ev.noHostEvidence && ev.rules.some((r) => r.refs) ? h("p", {class: "muted", "data-figure": "noHostEvidence"},
          `No evidence on this host: ${ev.host || "its host"} recorded no file edit here, so its claims are not judged against touched files.`) : null,
        h("div", {class: "cards"}, card("claims without evidence", num(ev.unsupported), "unsupported")),
        gateCards(ev),
        ev.rules.length ? table([{label: "rule"}, {label: "edits in scope", num: 1}, {label: "before load", num: 1}, {label: "loaded"},
          {label: "refs", num: 1}, {label: "without evidence"}, {label: "denied", num: 1}, {label: "warned", num: 1},
          {label: "stop-gated", num: 1}],
          ev.rules.map((r) => h("tr", {"data-rule": r.id}, h("td", {class: "path"}, ruleLink(r.id, name(r.id))), h("td", {class: "num"}, num(r.inScope)),
            h("td", {class: "num"}, num(r.unloadedEdits)), h("td", {}, r.loaded ? "yes" : "no"), h("td", {class: "num"}, num(r.refs)),
            h("td", {}, r.unsupported ? h("span", {class: "tag bad"}, `${r.unsupported}: ${r.why}`) : ""),
            h("td", {class: "num"}, num(r.denials)), h("td", {class: "num"}, num(r.warnings)),
            h("td", {class: "num"}, num(r.stopGateBlocks))))) : null) : null,
      panel("Timeline", d.older ? h("p", {class: "muted"}, "Older events are left out.") : null,
        h("ol", {class: "timeline", "data-timeline": ""}, d.timeline.map((e) =>
          h("li", {class: e.outcome === "error" ? "error" : e.type === "attest.refer" ? "refer" : "", "data-seq": e.seq},
            h("div", {class: "head"}, h("b", {}, e.type), e.tool ? h("span", {class: "tag"}, e.tool) : null,
              h("span", {class: "muted"}, when(e.time)), e.durationUs ? h("span", {class: "muted"}, dur(e.durationUs)) : null),
            h("div", {class: "detail"}, detail(e, name)))))),
    ];
  },
};

pages.drafts = {
  title: "Drafts",
  async load() { return api("drafts"); },
  render(d) {
    if (!d.items.length) return [h("h1", {}, "Drafts"), h("p", {class: "empty"}, "No open drafts.")];
    return [h("h1", {}, "Drafts"), h("p", {class: "muted", "data-count": d.items.length}, `${num(d.items.length)} open`),
      d.items.map((x) => panel(null,
        h("div", {class: "head", "data-draft": x.id}, h("b", {}, x.newPath ? `${x.path} → ${x.newPath}` : x.path || x.id), " ",
          h("span", {class: "tag"}, x.op), " ", h("span", {class: "tag"}, x.resource), " ",
          x.status === "in_review" ? h("span", {class: "tag ok"}, "in review") : null, x.stale ? h("span", {class: "tag bad"}, "stale") : null),
        x.description ? h("p", {}, x.description) : null,
        h("p", {class: "muted"}, h("span", {class: "mono", "data-draft-id": ""}, x.id), " · by ", x.sessionId ? sessionLink(x.sessionId) : "–",
          ` · seq ${x.seq} · `, h("span", {title: when(x.updated), "data-age": ""}, "updated " + ago(x.updated))),
        x.status === "in_review" ? h("p", {class: "muted"}, "A team draft: a reviewer accepts or declines it at the hub.") :
          h("p", {}, "Apply it with ", h("code", {"data-apply": ""}, `clumsies drafts apply ${x.id} --seq ${x.seq}`),
            ", or decline it with ", h("code", {}, `clumsies drafts decline ${x.id} --reason "..."`), "."),
        x.diff.length ? h("div", {class: "diff"}, x.diff.map((l) => h("div", {class: l.op === "+" ? "a" : l.op === "-" ? "d" : ""}, l.op + " " + l.text))) : null))];
  },
};

pages.live = {
  title: "Live",
  state: {filter: ""},
  rows: [],
  async load() {
    const [d, types] = await Promise.all([api("overview"), eventTypes()]);
    return {...d, types};
  },
  render(d) {
    const st = this.state;
    st.filter = param("type", "");
    this.seen = Math.max(this.seen || 0, d.lastSeq);
    this.tbody = h("tbody", {});
    const sel = h("select", {"aria-label": "type", onchange: (e) => { st.filter = e.target.value; setParams({type: st.filter}); this.redrawRows(); }},
      h("option", {value: ""}, "every type"), d.types.map((t) => h("option", {value: t, selected: st.filter === t}, t)));
    this.redrawRows();
    this.soFar = h("span", {"data-figure": "so-far"}, num(this.seen));
    return [h("h1", {}, "Live"), h("p", {class: "muted"}, "The ledger as it happens; ", this.soFar, " events so far."),
      h("div", {class: "filters"}, sel), panel(null, h("table", {"data-table": "live"},
        h("thead", {}, h("tr", {}, ["seq", "time", "type", "session", "tool", "outcome", "duration"].map((c) =>
          h("th", {class: c === "session" || c === "duration" || c === "tool" ? "hide-sm" : ""}, c)))), this.tbody))];
  },
  row(e, fresh) {
    return h("tr", {class: "live-row" + (fresh ? " new" : ""), "data-seq": e.seq, "data-type": e.type},
      h("td", {class: "num"}, e.seq), h("td", {class: "muted"}, when(e.time).slice(11)), h("td", {}, e.type),
      h("td", {class: "hide-sm"}, e.sessionId ? sessionLink(e.sessionId) : ""), h("td", {class: "hide-sm"}, e.tool || ""),
      h("td", {}, e.outcome === "error" ? h("span", {class: "tag bad"}, e.errorCode || "error") : "ok"),
      h("td", {class: "hide-sm num"}, e.tool ? dur(e.durationUs) : ""));
  },
  redrawRows() {
    if (!this.tbody) return;
    const f = this.state.filter;
    const rows = this.rows.filter((e) => !f || e.type === f).slice(-200).reverse();
    this.tbody.replaceChildren(...rows.map((e) => this.row(e)));
    if (!rows.length) this.tbody.append(h("tr", {}, h("td", {colspan: 7, class: "empty"}, "Waiting for events…")));
  },
  event(e, fresh) {
    this.rows.push(e);
    this.seen = Math.max(this.seen || 0, e.seq);
    if (this.soFar) this.soFar.textContent = num(this.seen);
    if (this.rows.length > 1000) this.rows.splice(0, this.rows.length - 1000);
    if (!this.tbody) return;
    if (this.state.filter && e.type !== this.state.filter) return;
    const empty = this.tbody.querySelector(".empty");
    if (empty) empty.parentElement.remove();
    this.tbody.prepend(this.row(e, fresh));
    while (this.tbody.children.length > 200) this.tbody.lastChild.remove();
  },
};

// ---- routing and live updates ----

function route() {
  const p = location.pathname;
  let m;
  if (p === "/") return {name: "overview"};
  if ((m = p.match(/^\/rules\/(.+)$/))) return {name: "rule", id: decodeURIComponent(m[1]), nav: "rules"};
  if ((m = p.match(/^\/sessions\/(.+)$/))) return {name: "session", id: decodeURIComponent(m[1]), nav: "sessions"};
  if ((m = p.match(/^\/commits\/(.+)$/))) return {name: "commit", id: decodeURIComponent(m[1]), nav: "commits"};
  if (p === "/commits" && param("range", "")) return {name: "commit", id: param("range", "").trim(), nav: "commits"};
  const name = p.slice(1);
  return pages[name] ? {name} : {name: "overview"};
}

async function show(refresh) {
  await ready; // the scripts after this one add their pages first
  if (refresh && document.activeElement && document.activeElement.matches("input, select")) {
    refreshSoon(); // do not pull the page from under someone typing
    return;
  }
  const r = route();
  const page = pages[r.name];
  const app = document.getElementById("app");
  page.redraw = () => show(true);
  document.querySelectorAll("nav a").forEach((a) => current(a, a.dataset.nav === (r.nav || r.name)));
  try {
    const d = await page.load(r.id);
    app.replaceChildren(...[page.render(d)].flat(2).filter(Boolean));
    app.dataset.page = r.name; // before the hooks: exports are named after it
    fitTables(app);
    afterRender(app);
    document.title = `${page.title} · clumsies`;
    app.dataset.loaded = String(Number(app.dataset.loaded || 0) + 1);
    // A page shows the ledger up to the read models' checkpoint, which
    // may trail the stream (its events came over the stream already):
    // ask again until it has caught up, less often the longer it trails.
    if (d && typeof d.applied === "number" && d.applied < d.lastSeq) {
      setTimeout(refreshSoon, behindWait);
      behindWait = Math.min(behindWait * 2, 10000);
    } else behindWait = 100;
  } catch (err) {
    app.replaceChildren(h("h1", {}, page.title), h("p", {class: "err"}, String(err.message || err)),
      h("p", {}, h("a", {href: "/"}, "Back to the overview")));
    app.dataset.page = r.name;
    app.dataset.loaded = String(Number(app.dataset.loaded || 0) + 1);
  }
}

// current marks the link a of the navigation as the page shown, or not.
function current(a, on) {
  a.classList.toggle("on", on);
  if (on) a.setAttribute("aria-current", "page"); else a.removeAttribute("aria-current");
}

let pending = null;
let behindWait = 100; // ms before a page that trails the stream asks again
function refreshSoon() {
  if (pending) return;
  pending = setTimeout(() => { pending = null; show(true); }, 400);
}

// follow keeps the page current with the ledger's events; draw, if
// given, draws the page once the last sequence known to the page
// (known below) has been read, so that the page's data is at least as
// new as known and no event between them goes unseen.
function follow(draw) {
  const status = document.getElementById("status");
  // The Live page starts with the last 50 events; the others only need to
  // know that something happened. Events up to known (the read models'
  // checkpoint, which a page shows) were on the page when it loaded: only
  // later ones redraw it. The stream is shared by
  // the browser's tabs (live.js), which may hand an event on twice.
  const start = (from, known, types) => {
    let seen = 0;
    sharedStream({name: "events", types, keep: 50,
      url: () => "/events" + (seen ? "?since=" + seen : from ? "?from=" + from : ""),
      onStatus: (on) => { status.textContent = on ? "live" : "reconnecting"; status.className = on ? "status on" : "status off"; },
      onMessage: (type, data) => {
        let e;
        try { e = JSON.parse(data); } catch (_) { return; }
        if (e.seq <= seen) return;
        seen = e.seq;
        pages.live.event(e, e.seq > known);
        const r = route();
        if (r.name !== "live" && !(pages[r.name] && pages[r.name].still) && e.seq > known) refreshSoon();
      }});
  };
  window.addEventListener("pageshow", (e) => { if (e.persisted) follow(() => show(true)); }, {once: true});
  const drawn = () => { if (draw) draw(); };
  eventTypes().catch(() => []).then((types) =>
    api("overview").then((d) => { drawn(); start(Math.max(1, d.lastSeq - 49), Math.min(d.applied, d.lastSeq), types); })
      .catch(() => { drawn(); start(0, 0, types); }));
}

document.addEventListener("click", (e) => {
  if (document.body.dataset.app === "hub") return;
  const a = e.target.closest("a");
  if (!a || a.target || a.hasAttribute("download") || (a.getAttribute("href") || "").startsWith("#") || e.ctrlKey || e.metaKey || e.shiftKey || a.origin !== location.origin || a.pathname.startsWith("/api/")) return;
  e.preventDefault();
  if (a.pathname + a.search !== location.pathname + location.search) history.pushState(null, "", a.pathname + a.search);
  window.scrollTo(0, 0);
  show(false);
});
window.addEventListener("popstate", () => (document.body.dataset.app === "hub" ? showHub() : show(false)));

// ---- the hub: a team's dashboard from the hub's API ----

const hub = {
  state: {period: "daily"},
  title: "Team",
  // load reads the summary of the stats (bounded), and the first rows of
  // the lists the page shows that the summary does not hold whole
  // (hubpages.js).
  async load() {
    const st = this.state;
    st.period = param("period", "daily");
    const [stats, nodes, reviews] = await Promise.all([api(`stats?period=${st.period}`), loadList("nodes", "team/nodes"), loadReviews()]);
    const [members, evidenceRules, sessions, checks] = await Promise.all([
      summaryList("members", "stats/members", {}, stats.members, stats.more.members),
      summaryList("evidence-rules", "stats/evidence/rules", {}, stats.evidence.rules, stats.more.evidenceRules),
      summaryList("sessions", "stats/sessions", {}, stats.evidence.sessions, stats.more.sessions),
      summaryList("checks", "stats/checks", {}, stats.evidence.checks || [], stats.more.checks)]);
    return {stats, nodes, reviews, members, evidenceRules, sessions, checks};
  },
  render({stats: d, nodes, reviews, members, evidenceRules, sessions, checks}) {
    const st = this.state;
    wsNames = d.workspaceNames || {};
    const t = d.totals, c = d.coverage;
    const period = h("select", {"aria-label": "period", onchange: (e) => { setParams({period: e.target.value === "daily" ? null : e.target.value}); this.redraw(); }},
      ["daily", "weekly", "monthly"].map((p) => h("option", {value: p, selected: st.period === p}, p)));
    const never = d.neverReferred || [];
    const count = (label) => ({label, num: 1});
    return [
      h("h1", {}, "Team ", h("span", {class: "muted"}, `${d.from} to ${d.to}`)),
      h("div", {class: "filters"}, period),
      h("div", {class: "cards"}, card("events", num(t.events), "events"), card("refs", num(t.refs), "refs"),
        card("sessions set up", num(t.sessions), "sessions"),
        card("seen by hooks only", num(t.sessionsHooksOnly), "sessionsHooksOnly"), card("members", num(t.members), "members"),
        card("nodes online", `${num(nodes.online)} / ${num(nodes.total)}`, "online"),
        card("rules referred", pct(c.ratio), "coverage"),
        card("constraints referred", pct(c.constraintRatio), "constraint-coverage")),
      panel(`Trend per ${st.period === "daily" ? "day" : st.period === "weekly" ? "week" : "month"}`,
        barChart(d.trend.map((p) => ({day: p.period, events: p.events, refs: p.refs})),
          [{key: "events", class: "bar", label: "events"}, {key: "refs", class: "bar2", label: "refs"}], 120)),
      h("div", {class: "grid2"},
        panel("Refs per member", listTable(members, [{label: "member"}, {label: "team"}, count("refs"), count("sessions"), count("active days"),
          count("edits"), count("without evidence"), {label: "hosts"}, {label: "models"}], (m) => h("tr", {"data-member": m.member},
          h("td", {}, m.member || "(no member)"), h("td", {}, m.team), h("td", {class: "num", "data-field": "refs"}, num(m.refs)),
          h("td", {class: "num"}, num(m.sessions)), h("td", {class: "num"}, num(m.activeDays)),
          h("td", {class: "num"}, num(m.evidence.edits)), h("td", {class: "num"}, num(m.evidence.unsupported)),
          h("td", {"data-field": "hosts"}, listNames(m.hosts)), h("td", {"data-field": "models"}, listNames(m.models))), "No events yet.")),
        panel("Coverage", h("p", {}, `${num(c.referred)} of ${num(c.published)} published rules and workflows were referred to`,
          c.unlisted ? `; ${num(c.unlisted)} referred ids are not published` : "", "."),
        h("p", {"data-field": "constraint-coverage"}, `${num(c.constraintsReferred)} of ${num(c.constraints)} of their constraints were named in a ref.`),
        never.length ? [h("h2", {}, "Never referred"), h("ul", {}, never.map((r) => h("li", {}, r.path, " ", h("span", {class: "muted"}, r.workspaceId)))),
          c.published - c.referred > never.length ? h("p", {class: "muted"}, `and ${num(c.published - c.referred - never.length)} more`) : null] : null)),
      hubEvidence(d.evidence, evidenceRules),
      hubChecks(checks),
      hubWho(d.evidence),
      panel("Sessions", hubSessions(sessions)),
      panel("Most referred", d.topRules.length ? table([{label: "rule"}, {label: "workspace"}, {label: "refs", num: 1}, {label: "loads", num: 1}],
        d.topRules.map((r) => h("tr", {}, h("td", {class: "path"}, hubRule(r)), wsCell(r.workspaceId),
          h("td", {class: "num"}, num(r.refs)), h("td", {class: "num"}, num(r.loads))))) : h("p", {class: "empty"}, "No refs yet.")),
      panel("Nodes", listTable(nodes, [{label: "member"}, {label: "team"}, {label: "workspace"}, {label: "link"},
        {label: "applied", num: 1}, {label: "behind", num: 1}], (n) => h("tr", {"data-node": n.id},
          h("td", {}, n.member || "–"), h("td", {}, n.team), wsCell(n.workspaceId, n.workspaceName),
          h("td", {}, h("span", {class: n.link.up ? "tag ok" : "tag bad"}, n.link.up ? "online" : "offline"),
            n.link.since ? h("span", {class: "muted"}, " since " + when(n.link.since)) : null),
          h("td", {class: "num"}, num(n.hubSeq)),
          h("td", {class: "num", "data-field": "lag"}, n.sourcing ? num(n.sourcing.lag) : "–")), "No node has joined.")),
      panel("Review queue", reviewQueue(reviews)),
    ];
  },
};

// hubRule names a rule of a workspace at the hub by its path; one the
// workspace no longer publishes by the path it was last published at,
// marked removed; one the hub never saw published by its id, marked so.
function hubRule(r) {
  if (r.removed) return [r.path, " ", h("span", {class: "tag warn", "data-unpublished": "removed",
    title: "the workspace no longer publishes it: this is the path it was last published at"}, "removed")];
  return r.path || [h("span", {class: "mono"}, r.id), " ", h("span", {class: "tag warn", "data-unpublished": "",
    title: "the workspace does not publish it: never published there as far as the hub saw"}, "not published")];
}

// hubEvidence shows what the hosts' hooks recorded against what the
// sessions loaded and claimed: the sums, and claims without evidence per
// rule of a workspace (a list in pages, hubpages.js).
function hubEvidence(e, rules) {
  const count = (label) => ({label, num: 1});
  return panel("Evidence", h("p", {}, `${num(e.edits)} file edits recorded by the hosts' hooks.`),
    h("div", {class: "cards"}, card("claims without evidence", num(e.unsupported), "unsupported")),
    gateCards(e),
    listTable(rules, [{label: "rule"}, {label: "workspace"}, count("sessions in scope"), count("edits before load"),
      count("loaded"), count("referenced"), count("unsupported"), count("denied"), count("warned"), count("ungated"), count("stop-gated")],
      (r) => h("tr", {"data-evidence-rule": r.id},
      h("td", {class: "path"}, hubRule(r)), wsCell(r.workspaceId), h("td", {class: "num"}, num(r.inScope)),
      h("td", {class: "num"}, num(r.unloadedEdits)), h("td", {class: "num"}, num(r.loaded)), h("td", {class: "num"}, num(r.referenced)),
      h("td", {class: "num"}, num(r.unsupported)), h("td", {class: "num"}, num(r.denials)), h("td", {class: "num"}, num(r.warnings)),
      h("td", {class: "num"}, num(r.ungated)), h("td", {class: "num"}, num(r.stopGateBlocks))),
      "No rule in scope, loaded or claimed yet."));
}

// wsNames are the names of the workspaces the hub's page shows, by id
// (the stats' workspaceNames), set as a page is drawn.
let wsNames = {};

// wsCell shows a workspace at the hub: its name (name, else wsNames')
// beside its id, the id alone when the hub knows no name.
function wsCell(id, name) {
  name = name || wsNames[id];
  return h("td", {class: "ws", "data-ws": id}, name ? [h("span", {"data-field": "ws-name"}, name), " ", h("span", {class: "mono muted"}, id)]
    : h("span", {class: "mono"}, id));
}

// listNames lists a member's hosts or models, "–" for none.
const listNames = (xs) => (xs && xs.length ? xs.join(", ") : "–");

// hubWho counts the sessions with evidence per host (the MCP client where
// no hook named one) and per model, most first (the hub's
// evidence.hosts and evidence.models).
function hubWho(e) {
  const who = (name, label, rows) => rows.length ? table([{label}, {label: "sessions", num: 1}],
    rows.map((b) => h("tr", {"data-who": b.name}, h("td", {}, b.name), h("td", {class: "num", "data-field": "sessions"}, num(b.sessions)))), {name})
    : h("p", {class: "empty", "data-table": name}, "No session with evidence in the range.");
  return panel("Sessions per host and model", h("div", {class: "grid2"}, who("hosts", "host", e.hosts || []), who("models", "model", e.models || [])));
}

// hubSessions shows the sessions with evidence (a list in pages): who,
// where, with what, their edits, rules and claims without evidence.
function hubSessions(list) {
  const count = (label) => ({label, num: 1});
  return listTable(list, [{label: "session"}, {label: "member"}, {label: "workspace"}, {label: "host"}, {label: "model"},
    count("edits"), count("rules"), count("without evidence")],
    (s) => h("tr", {"data-hub-session": s.id}, h("td", {class: "mono"}, s.id), h("td", {}, s.member || s.node),
      wsCell(s.workspaceId), h("td", {"data-field": "host"}, s.host || s.client || "–"),
      h("td", {"data-field": "model"}, s.model || "–"), h("td", {class: "num"}, num(s.edits)), h("td", {class: "num"}, num(s.rules.length)),
      h("td", {class: "num"}, num(s.unsupported))),
    "No session with a file edit, a load or a claim in the range.");
}

// loadReviews and reviewQueue are in hubreview.js.

async function showHub() {
  await ready;
  const app = document.getElementById("app");
  const status = document.getElementById("status");
  hub.redraw = showHub;
  try {
    const d = await hub.load();
    app.replaceChildren(...[hub.render(d)].flat(2).filter(Boolean));
    app.dataset.page = "team";
    fitTables(app);
    afterRender(app);
    status.textContent = `updated ${new Date().toISOString().slice(11, 19)} UTC`;
    status.className = "status on";
  } catch (err) {
    app.replaceChildren(h("h1", {}, "Team"), h("p", {class: "err"}, String(err.message || err)));
    status.textContent = "offline";
    status.className = "status off";
  }
  app.dataset.page = "team";
  app.dataset.loaded = String(Number(app.dataset.loaded || 0) + 1);
}

window.addEventListener("rangechange", () => (document.body.dataset.app === "hub" ? showHub() : show(false)));

if (document.body.dataset.app === "hub") {
  document.querySelectorAll("nav a").forEach((a) => current(a, true));
  showHub();
  // The hub says when the team's figures or reviews may have changed
  // (/api/team/events); the page then asks again, unless someone is
  // choosing a period. Links going up or down are no events: a poll every
  // two minutes keeps the nodes' state fresh.
  let soon = null;
  const again = () => {
    if (soon) return;
    soon = setTimeout(() => {
      soon = null;
      if (!document.activeElement || !document.activeElement.matches("select, input")) showHub();
    }, 300);
  };
  // One stream for all the browser's tabs of the hub (live.js). A change
  // made while the stream was down is told by no event: after the stream
  // comes back the page asks again. body[data-stream] says whether the
  // stream is open.
  let opened = false;
  const onStatus = (on) => {
    document.body.dataset.stream = on ? "on" : "off";
    if (on && opened) again();
    if (on) opened = true;
  };
  const followHub = () => sharedStream({name: "team-events", url: () => "/api/team/events", types: ["changed"],
    onMessage: again, onStatus});
  followHub();
  window.addEventListener("pageshow", (e) => { if (e.persisted) { showHub(); followHub(); } });
  setInterval(again, 120000);
} else {
  follow(() => show(false));
}
