// The range of days and the filters of a page live in its address, so
// that a reload or a shared link shows the same figures: ?days=N (the
// last N UTC days, today included) or ?since=YYYY-MM-DD&until=YYYY-MM-DD,
// and each page's own filters (q, kind, sort, ...). Loaded before app.js.
"use strict";

const RANGE_KEYS = ["days", "since", "until"];
// The hub's page shows the last 90 days when the address has no range;
// the hub has no "all time", so its "all" is the longest range it takes.
const HUB_DEFAULT_DAYS = "90", HUB_ALL_DAYS = 3660;
// The API routes that take a range.
const RANGED = /^(overview|rules|sessions|stats|search)(\/|\?|$)/;

const isHub = () => document.body.dataset.app === "hub";

// ready settles once every script of the page has run (this one is
// deferred, so it runs before DOMContentLoaded): the pages that later
// scripts define exist by then.
const ready = new Promise((done) => document.addEventListener("DOMContentLoaded", done, {once: true}));

// rangeParams returns the range of the address.
function rangeParams() {
  const u = new URLSearchParams(location.search), out = new URLSearchParams();
  for (const k of RANGE_KEYS) if (u.get(k)) out.set(k, u.get(k));
  return out;
}

// withRange adds the address's range (the hub's default when it has
// none) to an API path that takes one.
function withRange(path) {
  let q = rangeParams().toString();
  if (!q && isHub()) q = "days=" + HUB_DEFAULT_DAYS;
  if (!q || !RANGED.test(path)) return path;
  return path + (path.includes("?") ? "&" : "?") + q;
}

// param reads a filter of the address, def when it has none.
function param(k, def) {
  const v = new URLSearchParams(location.search).get(k);
  return v === null ? def : v;
}

// setParams writes filters into the address (a value of "", null or
// false removes one). push makes a new history entry (a new range);
// otherwise the entry is replaced (typing in a filter).
function setParams(values, push) {
  const u = new URL(location.href);
  for (const [k, v] of Object.entries(values)) {
    if (v === "" || v === null || v === undefined || v === false) u.searchParams.delete(k);
    else u.searchParams.set(k, v === true ? "1" : String(v));
  }
  const to = u.pathname + u.search;
  if (to === location.pathname + location.search) return;
  if (push) history.pushState(null, "", to); else history.replaceState(null, "", to);
}

// keepRange makes the links under root to pages of this server carry the
// address's range, so that moving between pages keeps it.
function keepRange(root) {
  const q = rangeParams();
  for (const a of root.querySelectorAll("a[href^='/']")) {
    const u = new URL(a.href, location.origin);
    if (u.pathname.startsWith("/api/") || u.pathname.startsWith("/assets/")) continue;
    for (const k of RANGE_KEYS) u.searchParams.delete(k);
    for (const [k, v] of q) u.searchParams.set(k, v);
    a.setAttribute("href", u.pathname + u.search);
  }
}

// rangeLabel names the address's range for people.
function rangeLabel() {
  const r = rangeParams();
  if (r.get("days")) return isHub() && Number(r.get("days")) === HUB_ALL_DAYS ? "all time" : `last ${r.get("days")} days`;
  if (r.get("since") || r.get("until")) return `${r.get("since") || "…"} to ${r.get("until") || "today"}`;
  return isHub() ? `last ${HUB_DEFAULT_DAYS} days` : "all time";
}

// allTime names a figure the read models keep over all time only, saying
// so when the address has a range.
function allTime(title) {
  return rangeParams().toString() ? `${title} (all time)` : title;
}

// rangeBar draws the range picker: presets (7, 30, 90 days, all) and two
// dates; a choice goes into the address and redraws the page.
function rangeBar() {
  const r = rangeParams();
  const cur = r.get("days") || (r.get("since") || r.get("until") ? "" : isHub() ? HUB_DEFAULT_DAYS : "all");
  const presets = [["7", "7 days"], ["30", "30 days"], ["90", "90 days"], [isHub() ? String(HUB_ALL_DAYS) : "all", "all"]];
  const go = (values) => { setParams(values, true); window.dispatchEvent(new Event("rangechange")); };
  const since = h("input", {type: "date", value: r.get("since") || "", "aria-label": "since", "data-range-since": ""});
  const until = h("input", {type: "date", value: r.get("until") || "", "aria-label": "until", "data-range-until": ""});
  const apply = () => go({days: null, since: since.value, until: until.value});
  since.addEventListener("change", apply);
  until.addEventListener("change", apply);
  return h("div", {class: "range", "data-range": rangeLabel()},
    h("span", {class: "muted"}, "Range"),
    presets.map(([v, label]) => h("button", {type: "button", class: cur === v ? "on" : "", "aria-pressed": String(cur === v), "data-preset": label,
      onclick: () => go({days: v === "all" ? null : v, since: null, until: null})}, label)),
    since, h("span", {class: "muted"}, "to"), until,
    h("span", {class: "muted", "data-range-label": ""}, rangeLabel()));
}

// afterRender runs after every page is drawn: the range bar, links that
// keep the range, and the hooks of the other scripts (export, ...).
const renderHooks = [];
function afterRender(root) {
  const bar = document.getElementById("range");
  if (bar) bar.replaceChildren(rangeBar());
  keepRange(document);
  for (const f of renderHooks) f(root);
}
