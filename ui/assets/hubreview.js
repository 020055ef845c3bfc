// The hub's review queue: each draft waiting for review with its diff
// against the team object it was made on, and, for those who may review
// (a reviewer of its team, or the admin), Accept (confirmed first) and
// Decline. Others see the queue without the actions.
"use strict";

// reviewQueue returns the queue of reviews; the diffs and the actions
// come with the answers of /api/me and /api/reviews/{id}/diff, after
// which the queue is marked data-ready.
function reviewQueue(reviews) {
  const open = reviews.filter((r) => r.status === "in_review");
  if (!open.length) return h("p", {class: "empty", "data-reviews": 0, "data-ready": ""}, "No draft waits for review.");
  const box = h("div", {"data-reviews": open.length});
  const items = open.map((r) => {
    const el = h("div", {class: "panel", "data-review": r.id},
      h("div", {}, h("b", {}, r.newPath ? `${r.path} → ${r.newPath}` : r.path || r.draftId), " ", h("span", {class: "tag"}, r.op), " ",
        h("span", {class: "tag"}, r.team), " ", h("span", {class: "muted"}, `by ${r.member || r.node} · ${when(r.submitted)}`)),
      r.description ? h("p", {}, r.description) : null);
    box.append(el);
    return {r, el};
  });
  api("me").then((me) => Promise.all(items.map(async ({r, el}) => {
    el.append(await reviewDiff(r));
    const may = me.reviewer && (!me.teams || me.teams.includes(r.team));
    el.append(may ? reviewActions(r) : h("p", {class: "muted", "data-no-review": ""},
      `Only a reviewer of team ${r.team} can accept or decline it (clumsies hub token --reviewer).`));
  }))).catch((err) => box.append(h("p", {class: "err"}, String(err.message || err))))
    .finally(() => { box.dataset.ready = ""; });
  return box;
}

// reviewDiff shows review r's change against its base revision.
async function reviewDiff(r) {
  const d = await api(`reviews/${encodeURIComponent(r.id)}/diff`);
  const note = r.op === "create" ? "a new object" : d.baseFound ? `against revision ${d.baseRevision}, the one it was made on` :
    `against the current object: the catalog no longer keeps revision ${d.baseRevision}, the one it was made on`;
  const lines = d.diff ? d.diff.replace(/\n$/, "").split("\n") : [];
  return h("div", {}, h("p", {class: "muted"}, "Diff ", note, "."),
    lines.length ? h("div", {class: "diff", "data-diff": ""}, lines.map((l) => h("div",
      {class: l.startsWith("+") && !l.startsWith("+++") ? "a" : l.startsWith("-") && !l.startsWith("---") ? "d" : ""}, l))) :
      h("p", {class: "empty", "data-diff": ""}, "The body is unchanged."));
}

// reviewActions are Accept, which asks to confirm first, and Decline
// with its reason.
function reviewActions(r) {
  const msg = h("span", {class: "muted"});
  const reason = h("input", {type: "text", placeholder: "reason to decline", "aria-label": "reason"});
  const act = async (verb, body) => {
    msg.textContent = "…";
    msg.className = "muted";
    try {
      const resp = await fetch(`/api/reviews/${encodeURIComponent(r.id)}/${verb}`, {method: "POST",
        headers: {"Content-Type": "application/json", "X-Clumsies-Dashboard": "1"}, body: JSON.stringify(body || {})});
      const out = await resp.json().catch(() => ({}));
      if (!resp.ok) throw new Error(out.error || resp.statusText);
      msg.textContent = out.status;
      showHub();
    } catch (err) { msg.textContent = String(err.message || err); msg.className = "err"; }
  };
  const accept = h("button", {type: "button", "data-act": "accept"}, "Accept");
  const confirm = h("div", {class: "confirm", "data-confirm": "", hidden: true},
    `Accept writes ${r.newPath || r.path || r.draftId} into team ${r.team}'s catalog, and every node of the team gets it. `,
    h("button", {type: "button", "data-act": "confirm", onclick: () => { confirm.hidden = true; act("accept"); }}, "Confirm accept"), " ",
    h("button", {type: "button", "data-act": "cancel", onclick: () => { confirm.hidden = true; accept.focus(); }}, "Cancel"));
  accept.addEventListener("click", () => { confirm.hidden = false; confirm.querySelector("[data-act=confirm]").focus(); });
  return h("div", {}, h("div", {class: "filters"}, accept, reason,
    h("button", {type: "button", "data-act": "decline", onclick: () => act("decline", {reason: reason.value})}, "Decline"), msg), confirm);
}
