// The hub's search: the header's box keeps its words in the address
// (?q=) and every table of the page keeps the rows that hold them all
// (rules, workspaces, members, nodes, sessions), saying how many it hides.
// Loaded after app.js, by hub.html only.
"use strict";

renderHooks.push((root) => {
  const words = param("q", "").toLowerCase().split(/\s+/).filter(Boolean);
  const box = document.querySelector("form[role=search] input[name=q]");
  if (box && document.activeElement !== box) box.value = param("q", "");
  for (const table of root.querySelectorAll("table")) {
    let hidden = 0;
    for (const tr of table.querySelectorAll("tbody tr")) {
      tr.hidden = !words.every((w) => tr.textContent.toLowerCase().includes(w));
      if (tr.hidden) hidden++;
    }
    const note = table.nextElementSibling && table.nextElementSibling.matches("[data-hidden-rows]") ? table.nextElementSibling : null;
    if (note) note.remove();
    if (hidden) table.after(h("p", {class: "muted", "data-hidden-rows": hidden}, `${num(hidden)} rows do not match “${words.join(" ")}”.`));
  }
});

document.addEventListener("submit", (e) => {
  const form = e.target.closest("form[role=search]");
  if (!form) return;
  e.preventDefault();
  setParams({q: form.elements.q.value.trim()}, true);
  showHub();
});
