// Search across rules and sessions: the header's box opens /search?q=,
// which lists the rules and the sessions (of the range) that match every
// word. Loaded after app.js.
"use strict";

pages.search = {
  title: "Search",
  async load() {
    const q = param("q", "");
    return api("search?q=" + encodeURIComponent(q));
  },
  render(d) {
    const box = document.querySelector("form[role=search] input[name=q]");
    if (box && document.activeElement !== box) box.value = d.q;
    return [
      h("h1", {}, "Search ", h("span", {class: "muted"}, d.q ? `“${d.q}” · ${rangeLabel()}` : "")),
      !d.q ? h("p", {class: "empty"}, "Type words in the search box: rules match by path, name, group, id or description; sessions by id or host.") : [
        panel(`Rules (${num(d.rules.length)})`, d.rules.length ? table([{label: "rule"}, {label: "kind"}, {label: "refs", num: 1}],
          d.rules.map((r) => h("tr", {"data-rule": r.id}, h("td", {}, ruleLink(r.id, r.path)), h("td", {}, r.kind),
            h("td", {class: "num", "data-field": "refs"}, num(r.refs)))), {name: "found-rules"}) : h("p", {class: "empty"}, "No rule matches.")),
        panel(`Sessions (${num(d.sessions.length)})`, d.sessions.length ? sessionTable(d.sessions) : h("p", {class: "empty"}, "No session matches.")),
        d.more ? h("p", {class: "muted"}, "More matched than are listed: add a word.") : null],
    ];
  },
};

// The header's search box keeps the range and opens the page in place.
document.addEventListener("submit", (e) => {
  const form = e.target.closest("form[role=search]");
  if (!form) return;
  e.preventDefault();
  const u = new URLSearchParams(rangeParams());
  u.set("q", form.elements.q.value.trim());
  history.pushState(null, "", "/search?" + u.toString());
  show(false);
});
window.addEventListener("popstate", () => {
  const box = document.querySelector("form[role=search] input[name=q]");
  if (box) box.value = location.pathname === "/search" ? param("q", "") : box.value;
});
