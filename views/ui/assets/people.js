// People: the workspace's Sessions page with each session's host and
// model and filters on them (kept in the address), and, at the hub, a
// member's page (/?member=M&team=T): their figures, the rules they apply,
// their evidence and sessions, for the address's range. Loaded after
// app.js.
"use strict";

const KINDS = {setUp: "set up", hooksOnly: "hooks only", other: "neither"};
const kindOf = (x) => (x.setUp ? "setUp" : x.hooked ? "hooksOnly" : "other");

pages.sessions = {
  title: "Sessions",
  async load() { return api("sessions"); },
  render(d) {
    const st = {host: param("host", ""), model: param("model", ""), kind: param("kind", "")};
    const body = h("div", {});
    const choices = (key) => [...new Set(d.items.map((x) => x[key] || ""))].sort();
    const draw = () => {
      setParams(st);
      const list = d.items.filter((x) => (!st.host || (x.host || "") === st.host) && (!st.model || (x.model || "") === st.model) &&
        (!st.kind || kindOf(x) === st.kind));
      body.replaceChildren(list.length ? table([{label: "session"}, {label: "host"}, {label: "model"}, {label: "kind"}, {label: "first event"},
        {label: "last event"}, {label: "tool calls", num: 1}, {label: "hooks", num: 1}, {label: "refs", num: 1}, {label: "reports", num: 1}],
      list.map((x) => h("tr", {"data-session": x.id, "data-host": x.host || ""}, h("td", {class: "id"}, sessionLink(x.id)), h("td", {}, x.host || "–"),
        h("td", {}, x.model || "–"), h("td", {}, KINDS[kindOf(x)]), h("td", {class: "muted date"}, when(x.first)), h("td", {class: "muted date"}, when(x.last)),
        h("td", {class: "num", "data-field": "calls"}, num(x.calls)), h("td", {class: "num", "data-field": "hooks"}, num(x.hooks)),
        h("td", {class: "num", "data-field": "refs"}, num(x.refs)), h("td", {class: "num"}, num(x.reports)))),
      {name: "sessions"}) : h("p", {class: "empty"}, d.items.length ? "No session matches the filters." :
        ["No sessions in the range: wire an agent host with ", h("code", {}, "clumsies adapt claude-code"), " and start it in this folder, or widen the range."]),
      h("p", {class: "muted", "data-count": list.length}, `${num(list.length)} of ${num(d.items.length)} shown`));
      if (body.isConnected) { fitTables(body); afterRender(body); }
    };
    const select = (key, label, values, names) => h("select", {"aria-label": label, "data-filter": key,
      onchange: (e) => { st[key] = e.target.value; draw(); }},
    h("option", {value: ""}, `every ${label}`), values.filter(Boolean).map((v) => h("option", {value: v, selected: st[key] === v}, (names || {})[v] || v)));
    draw();
    return [h("h1", {}, "Sessions ", h("span", {class: "muted"}, rangeLabel())),
      h("p", {class: "muted"}, `${num(d.total)} sessions first seen in the range; the ${num(d.items.length)} newest:`),
      h("div", {class: "filters"}, select("host", "host", choices("host")), select("model", "model", choices("model")),
        select("kind", "kind", Object.keys(KINDS), KINDS)),
      panel(null, body)];
  },
};

// ---- the hub: a member's page ----

const memberHref = (m, team) => "/?" + new URLSearchParams({member: m, team}).toString();

if (isHub()) {
  const teamLoad = hub.load, teamRender = hub.render;
  hub.load = async function () {
    const member = param("member", null);
    if (member === null) return teamLoad.call(this);
    const team = param("team", "");
    const q = {member};
    if (team) q.team = team;
    const stats = await api("stats?" + new URLSearchParams(q).toString());
    const [rules, evidenceRules, sessions] = await Promise.all([loadList("member-rules", "stats/rules", {...q, used: "true"}),
      summaryList("member-evidence", "stats/evidence/rules", q, stats.evidence.rules, stats.more.evidenceRules),
      summaryList("member-sessions", "stats/sessions", q, stats.evidence.sessions, stats.more.sessions)]);
    return {member, team, stats, rules, evidenceRules, sessions};
  };
  hub.render = function (d) {
    return d.member === undefined ? teamRender.call(this, d) : memberPage(d);
  };
  // The team page's members lead to their pages.
  renderHooks.push((root) => {
    if (param("member", null) !== null) return;
    for (const tr of root.querySelectorAll("tr[data-member]")) {
      const td = tr.querySelector("td");
      if (!td || td.querySelector("a")) continue;
      const team = tr.children[1] ? tr.children[1].textContent : "";
      td.replaceChildren(h("a", {href: memberHref(tr.dataset.member, team), "data-member-link": tr.dataset.member}, td.textContent));
    }
    keepRange(root);
  });
}

function memberPage({member, team, stats: d, rules, evidenceRules, sessions}) {
  const t = d.totals, e = d.evidence;
  const count = (label) => ({label, num: 1});
  wsNames = d.workspaceNames || {};
  return [
    h("p", {}, h("a", {href: "/", "data-back": ""}, "← Team")),
    h("h1", {"data-member-page": member}, "Member ", member || "(no member)", " ", team ? h("span", {class: "tag"}, team) : null, " ",
      h("span", {class: "muted"}, `${d.from} to ${d.to}`)),
    h("div", {class: "cards"}, card("events", num(t.events), "events"), card("refs", num(t.refs), "refs"), card("loads", num(t.loads), "loads"),
      card("sessions set up", num(t.sessions), "sessions"), card("seen by hooks only", num(t.sessionsHooksOnly), "sessionsHooksOnly"),
      card("reports", num(t.reports), "reports"), card("active days", num(t.activeDays), "activeDays"),
      card("file edits", num(e.edits), "edits"), card("claims without evidence", num(e.unsupported), "unsupported")),
    panel("Per day", barChart(d.trend.map((p) => ({day: p.period, events: p.events, refs: p.refs})),
      [{key: "events", class: "bar", label: "events"}, {key: "refs", class: "bar2", label: "refs"}], 120)),
    panel("Rules they apply", listTable(rules, [{label: "rule"}, {label: "workspace"}, count("refs"), count("loads")],
      (r) => h("tr", {"data-rule": r.id}, h("td", {class: "path"}, hubRule(r)), wsCell(r.workspaceId),
        h("td", {class: "num", "data-field": "refs"}, num(r.refs)), h("td", {class: "num"}, num(r.loads))),
      "No rule loaded or referred to in the range.")),
    panel("Evidence per rule", listTable(evidenceRules, [{label: "rule"}, {label: "workspace"}, count("sessions in scope"), count("loaded"),
      count("referenced"), count("without evidence")], (r) => h("tr", {}, h("td", {class: "path"}, hubRule(r)), wsCell(r.workspaceId),
      h("td", {class: "num"}, num(r.inScope)), h("td", {class: "num"}, num(r.loaded)), h("td", {class: "num"}, num(r.referenced)),
      h("td", {class: "num"}, num(r.unsupported))), "No rule in scope, loaded or claimed in the range.")),
    hubWho(e),
    panel("Sessions", listTable(sessions, [{label: "session"}, {label: "workspace"}, {label: "host"}, {label: "model"},
      count("edits"), count("rules"), count("without evidence")],
      (s) => h("tr", {"data-member-session": s.id}, h("td", {class: "mono"}, s.id), wsCell(s.workspaceId),
        h("td", {"data-field": "host"}, s.host || s.client || "–"), h("td", {"data-field": "model"}, s.model || "–"),
        h("td", {class: "num"}, num(s.edits)), h("td", {class: "num"}, num(s.rules.length)), h("td", {class: "num"}, num(s.unsupported))),
      "No session with a file edit, a load or a claim in the range.")),
  ];
}
