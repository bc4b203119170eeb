// The hall: one card per board, updated by /events; the relay status of each round below.
(function () {
  "use strict";
  const boards = {}, cards = {};
  let layouts = null;
  const $ = (id) => document.getElementById(id);
  const esc = (t) => String(t === null || t === undefined ? "" : t).replace(/[&<>"]/g, (c) => ({"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;"}[c]));
  function card(s) {
    let el = cards[s.board];
    if (!el) {
      el = document.createElement("a");
      el.className = "card"; el.href = "/game/" + encodeURIComponent(s.board); el.id = "card-" + s.board;
      el.style.textDecoration = "none"; el.style.color = "inherit";
      cards[s.board] = el;
      const all = Object.keys(cards).sort((a, b) => a.localeCompare(b, undefined, {numeric: true}));
      const next = all[all.indexOf(s.board) + 1];
      $("boards").insertBefore(el, next ? cards[next] : null);
    }
    return el;
  }
  function render(s) {
    const el = card(s);
    el.classList.toggle("alert", s.alerts.length > 0);
    el.classList.toggle("offline", !s.online && !s.closed && s.result === "*");
    const lay = layouts[s.variant];
    el.innerHTML = `<div class="names"><b>${esc(s.board)}</b><span class="meta">round ${s.round} · ${esc(s.variant)}</span></div>` +
      (lay ? RigThumb.svg(s.pieces, lay, {last: s.last_squares}) : "") +
      `<div class="names"><span>${esc(s.white)} <span class="clock" data-side="white"></span></span>` +
      `<span><span class="clock" data-side="black"></span> ${esc(s.black)}</span></div>` +
      `<div class="meta">${s.moves} moves${s.last ? " · last " + esc(s.last) : ""}` +
      `${s.result !== "*" ? " · <b>" + esc(s.result) + "</b>" : ""}${s.online ? "" : s.closed ? " · run ended" : " · offline"}</div>` +
      (s.alerts.length ? `<ul class="alerts">${s.alerts.map((a) => "<li>" + esc(a) + "</li>").join("")}</ul>` : "");
    tick();
  }
  function tick() {
    for (const [b, s] of Object.entries(boards)) {
      const el = cards[b];
      if (!el) continue;
      for (const c of el.querySelectorAll(".clock")) {
        const side = c.dataset.side;
        c.textContent = RigHub.fmt(RigHub.clockNow(s.clock, side, s._at, s.result));
        c.classList.toggle("running", !!s.clock && s.clock.running === side && s.result === "*");
      }
    }
  }
  async function relay() {
    const hub = await (await fetch("/api/hub")).json();
    $("title").textContent = "rig hub · " + hub.tournament;
    $("rounds").innerHTML = hub.rounds.map((r) => `<a href="/round/${r}.pdn">round ${r} PDN</a>`).join(" ");
    let html = "";
    for (const r of hub.rounds) {
      const info = await (await fetch("/api/round/" + r)).json();
      html += `<h3>Round ${r} relay feed: <a href="${info.pdn}">${location.origin}${info.pdn}</a></h3><table>` +
        "<tr><th>#</th><th>board</th><th>game</th><th>relay</th><th>notes</th></tr>" +
        info.games.map((g) => `<tr><td>${g.position || "-"}</td><td>${esc(g.board)}</td><td>${esc(g.white)} - ${esc(g.black)}</td>` +
          `<td class="${g.relayable ? "ok" : "bad"}">${g.relayable ? "relayed" : "not relayed: " + g.reasons.map(esc).join("; ")}</td>` +
          `<td>${g.notes.map(esc).join("; ")}</td></tr>`).join("") + "</table>";
    }
    $("relay").innerHTML = html;
    $("problems").innerHTML = hub.problems.length ? "<h3>Messages the hub refused</h3><ul>" +
      hub.problems.map((p) => "<li>" + esc(p) + "</li>").join("") + "</ul>" : "";
  }
  async function main() {
    layouts = await (await fetch("/api/layouts")).json();
    RigHub.follow("/events", (s) => { s._at = performance.now(); boards[s.board] = s; render(s); },
      (state) => { $("live").textContent = state; });
    setInterval(tick, 250);
    relay(); setInterval(relay, 10000);
  }
  main();
})();
