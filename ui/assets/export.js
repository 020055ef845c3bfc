// Every table of the dashboards can be saved as CSV or JSON: the rows the
// table shows (the filters, search and range of the page), numbers
// without their thousands separators. Loaded after app.js.
"use strict";

// tableData reads a table into its column labels and rows of values.
function tableData(table) {
  const head = [...table.querySelectorAll("thead th")].map((th) => th.textContent.trim());
  const rows = [...table.querySelectorAll("tbody tr")].filter((tr) => !tr.hidden && !tr.querySelector("td[colspan]")).map((tr) =>
    [...tr.children].map((td) => {
      const text = td.textContent.trim();
      if (!td.classList.contains("num")) return text;
      const n = Number(text.replace(/,/g, ""));
      return text !== "" && Number.isFinite(n) ? n : text;
    }));
  return {head, rows};
}

// exportText renders a table as CSV (RFC 4180) or JSON (an array of
// objects keyed by the column labels).
function exportText(table, format) {
  const {head, rows} = tableData(table);
  if (format === "json") return JSON.stringify(rows.map((r) => Object.fromEntries(head.map((k, i) => [k || `column ${i + 1}`, r[i] ?? ""]))), null, 2) + "\n";
  const cell = (v) => { const t = String(v ?? ""); return /[",\r\n]/.test(t) ? `"${t.replace(/"/g, '""')}"` : t; };
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
  const page = document.getElementById("app").dataset.page || "table";
  root.querySelectorAll("table").forEach((table, i) => {
    if (table.dataset.exportable) return;
    table.dataset.exportable = "1";
    const name = `${page}-${table.dataset.table || i + 1}`;
    const box = table.parentElement.classList.contains("scroller") ? table.parentElement : table;
    const at = box.previousElementSibling && box.previousElementSibling.classList.contains("scroll-cue") ? box.previousElementSibling : box;
    at.before(h("div", {class: "export", "data-export": name},
      h("button", {type: "button", "data-format": "csv", onclick: () => download(name + ".csv", exportText(table, "csv"), "text/csv")}, "CSV"),
      h("button", {type: "button", "data-format": "json", onclick: () => download(name + ".json", exportText(table, "json"), "application/json")}, "JSON")));
  });
}
renderHooks.push(addExports);
