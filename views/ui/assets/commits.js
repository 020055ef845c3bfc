// The commit pages: the branch's last commits (/commits, optionally those
// of a session or a rule: ?session=, ?rule=) and the check of a commit
// or a range (/commits/REV, /commits/BASE..HEAD, /commits?range=), the
// table clumsies check prints, judged from the workspace's ledger.
// Loaded after app.js. These pages read the whole ledger and run git:
// they are not redrawn on every live event (still).
"use strict";

const shortID = (id) => (id || "").slice(0, 12);
const commitLink = (rev, text) => h("a", {href: "/commits/" + encodeURIComponent(rev), class: "mono"}, text || shortID(rev));

// rangeForm asks for a commit or a range to check; it opens
// /commits?range=.
function rangeForm(value) {
  return h("form", {class: "filters", action: "/commits", method: "get", "data-range-form": ""},
    h("label", {for: "commit-range"}, "Commit or range "),
    h("input", {id: "commit-range", type: "text", name: "range", value: value || "", placeholder: "main..HEAD", spellcheck: "false"}),
    " ", h("button", {type: "submit"}, "Check"));
}

pages.commits = {
  title: "Commits",
  still: true,
  async load() {
    const q = new URLSearchParams();
    for (const k of ["session", "rule", "n"]) if (param(k, "")) q.set(k, param(k, ""));
    return api("commits" + (q.toString() ? "?" + q.toString() : ""));
  },
  render(d) {
    const of = d.session ? ["with edits of session ", sessionLink(d.session)] : d.rule ? ["with edits in the scope of ", ruleLink(d.rule)] : null;
    return [
      h("h1", {}, "Commits ", h("span", {class: "muted"}, d.branch ? `on ${d.branch}` : "at HEAD (detached)")),
      rangeForm(""),
      h("p", {class: "muted", "data-figure": "looked"}, of ? [...of, ` among the last ${num(d.looked)} commits · `, h("a", {href: "/commits"}, "all commits")] :
        `the last ${num(d.looked)} commits`, d.more ? " (older ones are left out)" : ""),
      panel(null, d.items.length ? table([{label: "commit"}, {label: "subject"}, {label: "author"}, {label: "time"}, {label: "files", num: 1},
        {label: "agent", num: 1}, {label: "mixed", num: 1}, {label: "human", num: 1}, {label: "sessions"}],
        d.items.map((c) => h("tr", {"data-commit": c.id}, h("td", {class: "id"}, commitLink(c.id)), h("td", {}, c.subject),
          h("td", {}, c.author), h("td", {class: "muted date"}, when(c.time)), h("td", {class: "num"}, num(c.files)),
          h("td", {class: "num", "data-field": "agent"}, num(c.agent)), h("td", {class: "num", "data-field": "mixed"}, num(c.mixed)),
          h("td", {class: "num", "data-field": "human"}, num(c.human)),
          h("td", {}, c.sessions.map((s) => h("div", {}, sessionLink(s)))))), {name: "commits"}) :
        h("p", {class: "empty"}, of ? "None of these commits holds an edit of it." : "No commits.")),
    ];
  },
};

pages.commit = {
  title: "Commit",
  still: true,
  async load(id) { return {...await api("commits/" + encodeURIComponent(id)), rev: id}; },
  render(d) {
    const isRange = d.rev.includes("..");
    const verdict = d.ok ? h("span", {class: "tag ok", "data-verdict": "passes"}, "passes") :
      h("span", {class: "tag bad", "data-verdict": "fails"}, `fails: ${num(d.problems + d.findings)} problems`);
    const list = (xs, f) => (xs.length ? xs.map((x) => h("div", {}, f(x))) : "–");
    return [
      h("h1", {}, isRange ? "Range " : "Commit ", h("span", {class: "mono"}, d.rev), " ", verdict),
      h("p", {class: "muted"}, d.base ? [commitLink(d.base), "..", commitLink(d.head)] : ["root commit ", commitLink(d.head)],
        ` · evidence from the ${d.source}; the workspace's gate is `, h("code", {"data-figure": "enforce"}, d.enforce),
        " · the same table as ", h("code", {}, `clumsies check ${isRange ? d.rev : shortID(d.base) + ".." + shortID(d.head)}`)),
      rangeForm(d.rev),
      panel(null, d.files.length ? table([{label: "file"}, {label: "by"}, {label: "session"}, {label: "rules in scope"}, {label: "loaded"},
        {label: "referenced"}, {label: "gate"}, {label: "problems"}, {label: "findings"}],
        d.files.map((f) => h("tr", {"data-file": f.path, "data-by": f.by}, h("td", {class: "path"}, f.path),
          h("td", {"data-field": "by"}, h("span", {class: f.by === "agent" ? "tag ok" : f.by === "mixed" ? "tag warn" : "tag"}, f.by)),
          h("td", {"data-field": "session"}, list(f.sessions, (s) => [sessionLink(s.id), " ", [s.host, s.model].filter(Boolean).join(" ")])),
          h("td", {"data-field": "rules"}, list(f.rules, (r) => ruleLink(r.id))),
          h("td", {"data-field": "loaded"}, list(f.rules, (r) => (r.loaded ? "yes" : h("span", {class: "tag bad"}, "no")))),
          h("td", {"data-field": "referenced"}, list(f.rules, (r) => (r.referenced.length ? h("span", {class: "mono"}, r.referenced.join(" ")) : "none"))),
          h("td", {"data-field": "gate"}, list(f.gate, (g) => [gateTag(g), ` at seq ${g.seq}`, g.tool ? ` (${g.tool})` : ""])),
          h("td", {"data-field": "problems"}, list(f.problems.concat(f.note ? ["note: " + f.note] : []), (p) => p)),
          h("td", {"data-field": "findings"}, list(f.findings, (x) => `line ${x.line}: ${x.message} (${x.ruleId})`)))), {name: "check"}) :
        h("p", {class: "empty"}, "The change holds no file.")),
    ];
  },
};

// The form opens the page of what was typed in place (without it,
// /commits?range= opens the same page).
document.addEventListener("submit", (e) => {
  const form = e.target.closest("form[data-range-form]");
  if (!form) return;
  const v = form.elements.range.value.trim();
  if (!v) return;
  e.preventDefault();
  history.pushState(null, "", "/commits/" + encodeURIComponent(v));
  show(false);
});
