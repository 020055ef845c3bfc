// Every table of the dashboards can be saved as CSV or JSON: the rows the
// table shows (the filters, search and range of the page), numbers
// without their thousands separators. Loaded after app.js.
"use strict";

// exportRange names the days the page counts: its first and last
// ("2026-11-01 to 2026-11-07"), "all time" for the workspace's pages
// without a range.
function exportRange() {
  const r = rangeParams(), today = new Date().toISOString().slice(0, 10);
  let days = r.get("days");
  if (!days && !r.get("since") && !r.get("until")) {
    if (!isHub()) return "all time";
    days = HUB_DEFAULT_DAYS;
  }
  if (days) {
    const since = new Date(Date.now() - (Number(days) - 1) * 86400000).toISOString().slice(0, 10);
    return `${since} to ${today}`;
  }
  return `${r.get("since") || "the first day"} to ${r.get("until") || today}`;
}

// exportName is the file name of a table's export, without its
// extension: the page, the table and the range.
function exportName(table, i) {
  const page = document.getElementById("app").dataset.page || "page";
  const what = table.dataset.table || String(i + 1);
  const range = exportRange().replace(/ to /, "_to_").replace(/ /g, "-");
  return `${page}${what === page ? "" : "-" + what}-${range}`;
}

// tableData reads a table into its column labels and rows of values, and
// a last column, "range", that names the days the figures count. A cell's
// data-value stands for its text (a sparkline: the refs of each day,
// oldest first, separated by spaces).
function tableData(table) {
  const range = exportRange();
  const head = [...[...table.querySelectorAll("thead th")].map((th) => th.textContent.trim()), "range"];
  const rows = [...table.querySelectorAll("tbody tr")].filter((tr) => !tr.hidden && !tr.querySelector("td[colspan]")).map((tr) =>
    [...[...tr.children].map((td) => {
      if (td.dataset.value !== undefined) return td.dataset.value;
      const text = td.textContent.trim();
      if (!td.classList.contains("num")) return text;
      const n = Number(text.replace(/,/g, ""));
      return text !== "" && Number.isFinite(n) ? n : text;
    }), range]);
  return {head, rows};
}

// spreadsheetSafe keeps a spreadsheet from reading a text cell as a
// formula (OWASP, CSV injection): text that starts with =, +, -, @, a tab
// or a carriage return gets a single quote in front. Numbers stay as
// they are.
function spreadsheetSafe(v) {
  const t = String(v ?? "");
  return typeof v === "string" && /^[=+\-@\t\r]/.test(t) ? "'" + t : t;
}

// exportText renders a table as CSV (RFC 4180) or JSON (an array of
// objects keyed by the column labels).
function exportText(table, format) {
  const {head, rows} = tableData(table);
  if (format === "json") return JSON.stringify(rows.map((r) => Object.fromEntries(head.map((k, i) => [k || `column ${i + 1}`, r[i] ?? ""]))), null, 2) + "\n";
  const cell = (v) => { const t = spreadsheetSafe(v); return /[",\r\n]/.test(t) ? `"${t.replace(/"/g, '""')}"` : t; };
  return [head, ...rows].map((r) => r.map(cell).join(",")).join("\r\n") + "\r\n";
}

// download saves text as a file named name.
function download(name, text, type) {
  const url = URL.createObjectURL(new Blob([text], {type}));
  const a = h("a", {href: url, download: name});
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

// addExports puts CSV and JSON buttons above each table under root.
function addExports(root) {
  root.querySelectorAll("table").forEach((table, i) => {
    if (table.dataset.exportable) return;
    table.dataset.exportable = "1";
    const name = () => exportName(table, i);
    const box = table.parentElement.classList.contains("scroller") ? table.parentElement : table;
    const at = box.previousElementSibling && box.previousElementSibling.classList.contains("scroll-cue") ? box.previousElementSibling : box;
    at.before(h("div", {class: "export", "data-export": table.dataset.table || i + 1},
      h("button", {type: "button", "data-format": "csv", onclick: () => download(name() + ".csv", exportText(table, "csv"), "text/csv")}, "CSV"),
      h("button", {type: "button", "data-format": "json", onclick: () => download(name() + ".json", exportText(table, "json"), "application/json")}, "JSON")));
  });
}
renderHooks.push(addExports);
