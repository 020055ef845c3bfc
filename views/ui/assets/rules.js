// The Rules page: every published rule with how it did in the address's
// range (refs, the evidence of the sessions first seen in it, refs per
// session that loaded it, the last day it was applied, a sparkline of its
// refs per day), filtered and sorted from the address.
"use strict";

const RULE_LIMIT = 500;

// SOURCES say what a rule the repository's catalog does not publish is.
const SOURCES = {removed: "removed from the repository's catalog: its page is the history of its refs",
  team: "a rule of the team's catalog at the hub", unknown: "an id with refs that no catalog names"};

// sparkline draws values (one per day) as bars in a small chart.
function sparkline(values, days) {
  const W = 90, H = 18, n = Math.max(values.length, 1), top = Math.max(1, ...values);
  const sum = values.reduce((a, v) => a + v, 0);
  const svg = s("svg", {class: "spark", viewBox: `0 0 ${W} ${H}`, width: W, height: H, role: "img", "data-spark": sum,
    "aria-label": days.length ? `${num(sum)} refs from ${days[0]} to ${days[days.length - 1]}` : "no refs"});
  values.forEach((v, i) => {
    if (!v) return;
    const bh = Math.max(1, (H - 1) * v / top);
    svg.append(s("rect", {x: (i * W) / n, y: H - bh, width: Math.max(1, W / n - 0.5), height: bh}, s("title", {}, `${days[i]}: ${num(v)} refs`)));
  });
  return svg;
}

const RULE_COLUMNS = [
  ["path", "path"], ["kind", "kind"], ["refs", "refs", 1], ["spark", "per day"], ["inScope", "sessions in scope", 1],
  ["inScopeNotLoaded", "in scope, never loaded", 1], ["loaded", "loaded", 1], ["referenced", "referenced", 1], ["unsupported", "without evidence", 1], ["denials", "denied", 1],
  ["ungated", "changed before load", 1], ["refsPerLoad", "refs per load", 1],
  ["lastApplied", "last applied"], ["constraints", "constraints", 1], ["unusedConstraints", "constraints never applied (all time)", 1]];

pages.rules = {
  title: "Rules",
  state: {},
  async load() { return api("rules"); },
  render(d) {
    const st = this.state;
    Object.assign(st, {q: param("q", ""), kind: param("kind", ""), never: param("never", "") === "1", sort: param("sort", "path"),
      dir: Number(param("dir", "1")) || 1});
    const save = () => setParams({q: st.q, kind: st.kind, never: st.never, sort: st.sort === "path" ? null : st.sort, dir: st.dir === 1 ? null : st.dir});
    const body = h("div", {});
    const draw = () => { save(); body.replaceChildren(this.rows(d)); if (body.isConnected) { fitTables(body); afterRender(body); } };
    const q = h("input", {type: "search", placeholder: "filter by path, name, group", value: st.q, "aria-label": "filter",
      oninput: (e) => { st.q = e.target.value; draw(); }});
    const kind = h("select", {"aria-label": "kind", onchange: (e) => { st.kind = e.target.value; draw(); }},
      ["", "rule", "workflow", "context"].map((k) => h("option", {value: k, selected: st.kind === k}, k || "every kind")));
    const never = h("label", {}, h("input", {type: "checkbox", checked: st.never, "data-filter": "never",
      onchange: (e) => { st.never = e.target.checked; draw(); }}), " never applied in the range");
    const rules = d.items.filter((r) => r.kind !== "context" && !r.source);
    const unlisted = d.items.filter((r) => r.source);
    const unused = rules.filter((r) => r.refs === 0).length;
    const unusedC = d.items.reduce((a, r) => a + r.unusedConstraints, 0);
    draw();
    return [
      h("h1", {}, "Rules ", h("span", {class: "muted"}, rangeLabel())),
      h("div", {class: "cards"}, card("rules and workflows", num(rules.length), "rules"),
        card("context", num(d.items.length - rules.length - unlisted.length), "context"),
        card("removed and team rules with refs", num(unlisted.length), "unlisted"),
        card("never applied in the range", num(unused), "never"), card("constraints never applied", num(unusedC), "unusedConstraints"),
        card("claims without evidence", num(rules.reduce((a, r) => a + (r.unsupported || 0), 0)), "unsupported"),
        card("changes before loading (ungated)", num(rules.reduce((a, r) => a + (r.ungated || 0), 0)), "ungated")),
      h("div", {class: "filters"}, q, kind, never), panel(null, body)];
  },
  rows(d) {
    const st = this.state, items = d.items;
    const words = st.q.toLowerCase().split(/\s+/).filter(Boolean);
    const list = items.filter((r) => (!st.kind || r.kind === st.kind) && (!st.never || (r.kind !== "context" && !r.source && r.refs === 0)) &&
      words.every((w) => (r.path + " " + r.name + " " + (r.group || "") + " " + r.id).toLowerCase().includes(w)));
    const key = st.sort, numeric = (RULE_COLUMNS.find((c) => c[0] === key) || [])[2];
    const val = (r) => r[key] ?? (numeric ? 0 : "");
    list.sort((a, b) => (typeof val(a) === "number" ? val(a) - val(b) : String(val(a)).localeCompare(String(val(b)))) * st.dir ||
      a.path.localeCompare(b.path));
    const shown = list.slice(0, RULE_LIMIT);
    // Each header is a button: Tab reaches it, Enter and Space sort.
    // The whole header cell sorts (a header of one line beside others
    // of three is taller than its button); a press of the button reaches
    // it too.
    const th = RULE_COLUMNS.map(([k, label, n]) => k === "spark" ? h("th", {}, label) :
      h("th", {class: `sort ${n ? "num" : ""} ${st.sort === k ? (st.dir > 0 ? "asc" : "desc") : ""}`, "data-sort": k,
        "aria-sort": st.sort === k ? (st.dir > 0 ? "ascending" : "descending") : "none", onclick: () => {
          st.dir = st.sort === k ? -st.dir : (n ? -1 : 1); st.sort = k; st.focus = k;
          setParams({sort: k === "path" ? null : k, dir: st.dir === 1 ? null : st.dir}); this.redraw();
        }},
      h("button", {type: "button"}, label)));
    // The redrawn header keeps the focus of the one pressed.
    const pressed = st.focus && th.find((x) => x.dataset.sort === st.focus);
    if (pressed) requestAnimationFrame(() => { st.focus = null; pressed.querySelector("button").focus(); });
    const rows = shown.map((r) => {
      const ctx = r.kind === "context", never = !ctx && !r.source && r.refs === 0;
      const n = (v) => h("td", {class: "num"}, ctx ? "–" : num(v));
      return h("tr", {class: never ? "never" : "", "data-rule": r.id},
        h("td", {class: "path"}, ruleLink(r.id, r.path), never ? [" ", h("span", {class: "tag warn"}, "never applied")] : null,
          r.source ? [" ", h("span", {class: "tag", "data-source": r.source, title: SOURCES[r.source]}, r.source)] : null),
        h("td", {}, r.kind), h("td", {class: "num", "data-field": "refs"}, ctx ? "–" : num(r.refs)),
        h("td", {"data-value": ctx ? "" : r.spark.join(" ")}, ctx ? "" : sparkline(r.spark, d.days)),
        n(r.inScope),
        h("td", {class: "num", "data-field": "inScopeNotLoaded"}, r.inScopeNotLoaded ? h("span", {class: "tag bad"}, num(r.inScopeNotLoaded)) : ctx ? "–" : "0"),
        n(r.loaded), n(r.referenced),
        h("td", {class: "num"}, r.unsupported ? h("span", {class: "tag bad"}, num(r.unsupported)) : ctx ? "–" : "0"),
        n(r.denials), h("td", {class: "num", "data-field": "ungated"}, r.ungated ? h("span", {class: "tag bad"}, num(r.ungated)) : ctx ? "–" : "0"),
        h("td", {class: "num", "data-field": "refsPerLoad"}, ctx || !r.loaded ? "–" : r.refsPerLoad.toFixed(1)),
        h("td", {class: "muted date"}, r.lastApplied || (ctx ? "" : "never")),
        h("td", {class: "num"}, num(r.constraints)),
        h("td", {class: "num"}, r.unusedConstraints ? h("span", {class: "tag warn"}, num(r.unusedConstraints)) : "0"));
    });
    const frag = document.createDocumentFragment();
    frag.append(h("table", {"data-table": "rules"}, h("thead", {}, h("tr", {}, th)), h("tbody", {}, rows)),
      h("p", {class: "muted", "data-count": list.length},
        list.length > RULE_LIMIT ? `Showing ${RULE_LIMIT} of ${num(list.length)}: filter to narrow.` : `${num(list.length)} of ${num(items.length)}`));
    return frag;
  },
};

// The rule's page gains how it did in the range, and its constraints
// with their text beside their ids.
const renderRule = pages.rule.render;
pages.rule.render = function (d) {
  const out = renderRule.call(this, d);
  const e = d.effect;
  out.splice(2, 0, panel(`In the range: ${rangeLabel()}`,
    h("div", {class: "cards", "data-effect": ""}, card("refs", num(d.refs), "rangeRefs"),
      card("sessions with an edit in scope", num(e.inScope), "effectInScope"),
      card("of those, never loaded it", num(e.inScopeNotLoaded), "effectInScopeNotLoaded"),
      card("sessions that loaded it", num(e.loaded), "effectLoaded"), card("sessions that claimed it", num(e.referenced), "effectReferenced"),
      card("claims without evidence", num(e.unsupported), "effectUnsupported"),
      card("edits denied by the gate", num(e.denials), "effectDenials"), card("edits warned by the gate", num(e.warnings), "effectWarnings"),
      card("changes before loading it", num(e.ungated), "effectUngated"), card("stop-gate blocks", num(e.stopGateBlocks), "effectStopGateBlocks"),
      card("refs per load", e.loaded ? e.refsPerLoad.toFixed(1) : "–", "refsPerLoad"),
      card("last applied", e.lastApplied || "never", "lastApplied")),
    sparkline(d.days.map((x) => x.refs), d.days.map((x) => x.day)),
    notLoadedTable(d)));
  out.splice(4, 0, panel("Constraints", d.constraints.length ? table([{label: "id"}, {label: "constraint"}, {label: "refs (all time)", num: 1}],
    d.constraints.map((c) => h("tr", {"data-constraint": c.id}, h("td", {class: "mono"}, c.id),
      h("td", {}, c.gone ? h("span", {class: "tag warn"}, "no longer in the rule") : [c.name ? h("b", {}, c.name + " ") : null, c.text || ""]),
      h("td", {class: "num"}, num(c.refs)))), {name: "constraints"}) : h("p", {class: "empty"}, "This has no constraints.")));
  return out;
};

// notLoadedTable lists the sessions of the range with an edit in the
// rule's scope that never loaded it, with their host and model.
function notLoadedTable(d) {
  const list = d.inScopeNotLoaded || [];
  if (!list.length) return h("p", {class: "muted", "data-not-loaded": 0}, "Every session with an edit in its scope loaded it.");
  return [h("h3", {}, "In scope, never loaded"),
    table([{label: "session"}, {label: "first event"}, {label: "host"}, {label: "model"}, {label: "edits in scope", num: 1}],
      list.map((x) => h("tr", {"data-not-loaded": x.sessionId}, h("td", {class: "id"}, sessionLink(x.sessionId)),
        h("td", {class: "muted date"}, when(x.first)), h("td", {}, x.host || "–"), h("td", {}, x.model || "–"),
        h("td", {class: "num"}, num(x.editsInScope)))), {name: "not-loaded"}),
    d.moreInScopeNotLoaded ? h("p", {class: "muted"}, "Older ones are left out.") : null];
}
