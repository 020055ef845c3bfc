// The "Checks" panel: does the change follow the rule? What a rule's
// machine checks found in the sessions of the range, held against whether
// each session had loaded the rule, per version and per constraint. The
// figures are the API's (evidence.SumChecks), the same `clumsies stats
// --json` gives; a share below the sample the server trusts shows its
// counts and says so, never a percentage.
"use strict";

// shareText is "k of n", with the share and its 95% interval when the
// sample is large enough, else the server's note.
function shareText(x) {
  if (!x || !x.of) return "0 of 0 (no such session)";
  const counts = `${num(x.count)} of ${num(x.of)}`;
  if (x.rate === undefined || x.rate === null) return `${counts} (${x.note || "too few sessions to tell"})`;
  const p = (v) => (100 * v).toFixed(0) + "%";
  return `${counts}: ${p(x.rate)} (95% interval ${p(x.low)} to ${p(x.high)})`;
}

// checksPanel shows c, one rule's checks (the API's CheckTotals); title
// names the panel's scope.
function checksPanel(c, title) {
  title = title || "Checks: does the change follow the rule?";
  if (!c || !c.sessions) {
    return panel(title, h("p", {class: "empty", "data-checks": "none"},
      "Its checks ran in no session of the range: no session changed a file in its scope, or it declares no checks (docs/rules.md, “Checks”)."));
  }
  const count = (label) => ({label, num: 1});
  return panel(title,
    h("p", {"data-checks": "sentence"}, "Sessions that loaded it broke a checked constraint in ",
      h("span", {"data-figure": "checksLoaded"}, shareText(c.loaded)), "; those that did not, in ",
      h("span", {"data-figure": "checksUnloaded"}, shareText(c.unloaded)), "."),
    h("div", {class: "cards"}, card("sessions its checks ran in", num(c.sessions), "checksSessions")),
    h("h3", {}, "Per constraint"),
    table([{label: "constraint"}, count("found"), count("fixed"), count("rejected"), count("open")],
      c.constraints.map((x) => h("tr", {"data-check-constraint": x.id}, h("td", {class: "mono"}, x.id),
        h("td", {class: "num", "data-field": "found"}, num(x.found)), h("td", {class: "num", "data-field": "fixed"}, num(x.fixed)),
        h("td", {class: "num", "data-field": "rejected"}, num(x.rejected)), h("td", {class: "num", "data-field": "open"}, num(x.open))))),
    h("h3", {}, "Per version"),
    table([{label: "version (hash)"}, count("sessions"), {label: "with a finding"}, {label: "per constraint"}],
      c.versions.map((v) => h("tr", {"data-check-version": v.hash}, h("td", {class: "mono hash"}, v.hash || "(unknown)"),
        h("td", {class: "num"}, num(v.sessions)), h("td", {"data-field": "withFindings"}, shareText(v.withFindings)),
        h("td", {}, versionSentences(v))))));
}

// versionSentences says per constraint of version v how many sessions
// broke it, of those that loaded the rule and of those that did not.
function versionSentences(v) {
  return (v.constraints || []).map((c) => h("div", {"data-version-constraint": c.id}, "With this version, sessions that loaded it broke ",
    h("span", {class: "mono"}, c.id), ` in ${shareText(c.loaded)}; those that did not, in ${shareText(c.unloaded)}.`));
}

// hubChecks shows the hub's checks per rule of a team, summed over every
// workspace of the team (a list in pages, hubpages.js): per rule the
// sentence with the counts it rests on, and its constraints and versions.
function hubChecks(list) {
  const count = (label) => ({label, num: 1});
  return panel("Checks: does the change follow the rule?", listTable(list,
    [{label: "rule"}, {label: "team"}, {label: "workspaces"}, count("sessions"), {label: "with a finding"},
      {label: "per constraint: found, fixed, rejected, open"}, {label: "per version: with a finding"}],
    (r) => h("tr", {"data-hub-checks": r.id},
      h("td", {class: "path"}, hubRule(r)), h("td", {}, r.team), h("td", {class: "mono ws"}, r.workspaces.join(" ")),
      h("td", {class: "num", "data-field": "sessions"}, num(r.sessions)),
      h("td", {"data-field": "sentence"}, `Sessions that loaded it broke a checked constraint in ${shareText(r.loaded)}; those that did not, in ${shareText(r.unloaded)}.`),
      h("td", {}, r.constraints.map((c) => h("div", {"data-check-constraint": c.id}, h("span", {class: "mono"}, c.id),
        ` ${num(c.found)} found, ${num(c.fixed)} fixed, ${num(c.rejected)} rejected, ${num(c.open)} open`))),
      h("td", {}, r.versions.map((v) => h("div", {"data-check-version": v.hash}, h("span", {class: "mono hash"}, v.hash || "(unknown)"), ": ",
        shareText(v.withFindings), " with a finding", versionSentences(v))))),
    "No rule's checks ran in a session of the period."));
}
