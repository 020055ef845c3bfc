// The hub's review queue: each draft waiting for review with its diff
// against the team object it was made on, and, for those who may review
// (a reviewer of its team, or the admin), Accept (confirmed first) and
// Decline. Others see the queue without the actions.
"use strict";

// reviewing is what the reviewer is doing in the queue, kept across the
// page's redraws (every change of the team redraws it): the review whose
// Accept waits for its confirmation, and the reasons to decline typed so
// far, by review id.
const reviewing = {confirm: "", reasons: new Map()};

// loadReviews returns the open reviews with what the queue shows of
// them: who may review (/api/me) and each one's diff. They are read
// before the page is redrawn, so that the new queue replaces the old one
// whole. A failure to read them is shown in the queue, not on the page.
async function loadReviews() {
  const open = (await api("reviews")).items.filter((r) => r.status === "in_review");
  if (!open.length) return {open};
  try {
    const [me, diffs] = await Promise.all([api("me"),
      Promise.all(open.map((r) => api(`reviews/${encodeURIComponent(r.id)}/diff`)))]);
    return {open, me, diffs};
  } catch (err) {
    return {open, err};
  }
}

// reviewQueue returns the queue of the reviews loadReviews read, marked
// data-ready.
function reviewQueue({open, me, diffs, err}) {
  if (!open.length) return h("p", {class: "empty", "data-reviews": 0, "data-ready": ""}, "No draft waits for review.");
  const box = h("div", {"data-reviews": open.length, "data-ready": ""});
  for (const id of reviewing.reasons.keys()) if (!open.some((r) => r.id === id)) reviewing.reasons.delete(id);
  if (!open.some((r) => r.id === reviewing.confirm)) reviewing.confirm = "";
  open.forEach((r, i) => {
    const el = h("div", {class: "panel", "data-review": r.id},
      h("div", {}, h("b", {}, r.newPath ? `${r.path} → ${r.newPath}` : r.path || r.draftId), " ", h("span", {class: "tag"}, r.op), " ",
        h("span", {class: "tag"}, r.team), " ", h("span", {class: "muted"}, `by ${r.member || r.node} · ${when(r.submitted)}`)),
      r.description ? h("p", {}, r.description) : null);
    box.append(el);
    if (err) return;
    el.append(reviewDiff(r, diffs[i]));
    const may = me.reviewer && (!me.teams || me.teams.includes(r.team));
    el.append(may ? reviewActions(r) : h("p", {class: "muted", "data-no-review": ""},
      `Only a reviewer of team ${r.team} can accept or decline it (clumsies hub token --reviewer).`));
  });
  if (err) box.append(h("p", {class: "err"}, String(err.message || err)));
  return box;
}

// reviewDiff shows review r's change d against its base revision.
function reviewDiff(r, d) {
  const note = r.op === "create" ? "a new object" : d.baseFound ? `against revision ${d.baseRevision}, the one it was made on` :
    `against the current object: the catalog no longer keeps revision ${d.baseRevision}, the one it was made on`;
  const lines = d.diff ? d.diff.replace(/\n$/, "").split("\n") : [];
  return h("div", {}, h("p", {class: "muted"}, "Diff ", note, "."),
    d.warning ? h("p", {class: "err", "data-diff-warning": ""}, "Warning: ", d.warning, ".") : null,
    lines.length ? h("div", {class: "diff", "data-diff": ""}, lines.map((l) => h("div",
      {class: l.startsWith("+") && !l.startsWith("+++") ? "a" : l.startsWith("-") && !l.startsWith("---") ? "d" : ""}, l))) :
      h("p", {class: "empty", "data-diff": ""}, "The body is unchanged."));
}

// reviewActions are Accept, which asks to confirm first, and Decline
// with its reason. An open confirmation, the reason typed and the focus
// on one of them outlive a redraw of the page.
function reviewActions(r) {
  const msg = h("span", {class: "muted"});
  // Decline needs a reason: it stays disabled until one is typed, and
  // Enter in the reason declines.
  const reason = h("input", {type: "text", placeholder: "reason to decline", "aria-label": "reason", "data-act": "reason",
    value: reviewing.reasons.get(r.id),
    oninput: () => { reviewing.reasons.set(r.id, reason.value); decline.disabled = !reason.value.trim(); },
    onkeydown: (e) => { if (e.key === "Enter" && reason.value.trim()) { e.preventDefault(); act("decline", {reason: reason.value.trim()}); } }});
  const decline = h("button", {type: "button", "data-act": "decline", disabled: !(reviewing.reasons.get(r.id) || "").trim(),
    title: "type a reason first", onclick: () => act("decline", {reason: reason.value.trim()})}, "Decline");
  const act = async (verb, body) => {
    msg.textContent = "…";
    msg.className = "muted";
    try {
      const resp = await fetch(`/api/reviews/${encodeURIComponent(r.id)}/${verb}`, {method: "POST",
        headers: {"Content-Type": "application/json", "X-Clumsies-Dashboard": "1"}, body: JSON.stringify(body || {})});
      const out = await resp.json().catch(() => ({}));
      if (!resp.ok) throw new Error(out.error || resp.statusText);
      msg.textContent = out.status;
      reviewing.reasons.delete(r.id);
      showHub();
    } catch (err) { msg.textContent = String(err.message || err); msg.className = "err"; }
  };
  const close = () => { confirm.hidden = true; reviewing.confirm = ""; };
  const accept = h("button", {type: "button", "data-act": "accept"}, "Accept");
  const confirm = h("div", {class: "confirm", "data-confirm": "", hidden: reviewing.confirm !== r.id},
    `Accept writes ${r.newPath || r.path || r.draftId} into team ${r.team}'s catalog, and every node of the team gets it. `,
    h("button", {type: "button", "data-act": "confirm", onclick: () => { close(); act("accept"); }}, "Confirm accept"), " ",
    h("button", {type: "button", "data-act": "cancel", onclick: () => { close(); accept.focus(); }}, "Cancel"));
  accept.addEventListener("click", () => {
    reviewing.confirm = r.id;
    confirm.hidden = false;
    confirm.querySelector("[data-act=confirm]").focus();
  });
  const out = h("div", {}, h("div", {class: "filters"}, accept, reason, decline, msg), confirm);
  // The page is drawn before it replaces the old one: the focus is
  // still on the old queue's control, which the new one takes over.
  const had = document.activeElement;
  const same = had && had.dataset && had.dataset.act && had.closest(`[data-review]`);
  if (same && same.dataset.review === r.id) {
    const mine = out.querySelector(`[data-act="${had.dataset.act}"]`);
    requestAnimationFrame(() => { if (mine.isConnected && !mine.closest("[hidden]")) mine.focus(); });
  }
  return out;
}
