// Whose token the hub's page reads with: the header names the token's
// holder (/api/me), their teams and whether they may review, once per
// page load. Loaded after app.js, by hub.html only.
"use strict";

ready.then(() => api("me")).then((me) => {
  const who = document.getElementById("who");
  const teams = me.teams ? `team${me.teams.length === 1 ? "" : "s"} ${me.teams.join(", ")}` : "every team";
  who.textContent = `${me.name || "?"} · ${teams}${me.reviewer ? " · reviewer" : ""}`;
  who.title = "the token this browser keeps for the hub";
  who.dataset.who = me.name || "";
}).catch(() => {});
