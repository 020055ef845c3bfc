// The hub's lists come in pages (GET /api/stats/members, .../sessions,
// /api/team/nodes, ...: limit, cursor, next): a table of the hub's page
// shows the first rows of its list and a "Show more" button that reads
// the next page. A redraw (a change the hub told of, a new period) reads
// each list again as far as it was shown, no further. Loaded by hub.html
// only, before app.js.
"use strict";

// LIST_PAGE is how many rows a list shows first and adds on "Show more";
// LIST_MAX is the most the hub gives in one page.
const LIST_PAGE = 50, LIST_MAX = 1000;

// listShown keeps how many rows each list of the page shows, by name,
// across the page's redraws.
const listShown = new Map();

// loadList reads the first rows of the list at path (an API path without
// /api/) with params: as many as the list showed before, at least
// LIST_PAGE.
async function loadList(name, path, params) {
  const q = new URLSearchParams(params || {});
  q.set("limit", String(Math.min(Math.max(listShown.get(name) || 0, LIST_PAGE), LIST_MAX)));
  const p = await api(path + "?" + q.toString());
  return {name, path, params: params || {}, items: p.items, total: p.total, next: p.next || "", online: p.online};
}

// summaryList is a list of the stats' summary (GET /api/stats): the
// summary's items when they are the whole list (more is 0) and the list
// showed no more before, else the list's first rows read by loadList.
async function summaryList(name, path, params, items, more) {
  if (more || (listShown.get(name) || 0) > items.length) return loadList(name, path, params);
  return {name, path, params: params || {}, items, total: items.length, next: ""};
}

// listTable draws a list loadList read as a table (head as table's, row
// one item's tr), with how many rows it shows of the list's total and a
// "Show more" button while the list has more; empty is shown for an
// empty list. keep filters the rows shown (the list's order stays).
function listTable(list, head, row, empty, keep) {
  keep = keep || (() => true);
  const shown = list.items.filter(keep);
  if (!list.items.length && !list.next) return h("p", {class: "empty", "data-list": list.name, "data-shown": 0}, empty);
  const t = table(head, shown.map(row), {name: list.name});
  let next = list.next, count = list.items.length;
  listShown.set(list.name, count);
  const note = h("p", {class: "muted", "data-list": list.name});
  const more = h("button", {type: "button", "data-more": list.name}, "Show more");
  const box = h("div", {}, t, note, more);
  const draw = () => {
    note.textContent = `${num(count)} of ${num(list.total)} shown`;
    note.dataset.shown = String(count);
    more.hidden = !next;
  };
  more.addEventListener("click", async () => {
    more.disabled = true;
    try {
      const q = new URLSearchParams(list.params);
      q.set("limit", String(LIST_PAGE));
      q.set("cursor", next);
      const p = await api(list.path + "?" + q.toString());
      t.querySelector("tbody").append(...p.items.filter(keep).map(row));
      count += p.items.length;
      next = p.next || "";
      listShown.set(list.name, count);
      fitTables(box);
      afterRender(box);
    } catch (err) {
      note.after(h("p", {class: "err"}, String(err.message || err)));
    }
    more.disabled = false;
    draw();
  });
  draw();
  return box;
}
