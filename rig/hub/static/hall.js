// The hall: one card per board, updated by /events; the relay status of each round below.
(function () {
  "use strict";
  const boards = {}, cards = {}, thumbs = {};
  let layouts = null;
  const $ = (id) => document.getElementById(id);
  const esc = (t) => String(t === null || t === undefined ? "" : t).replace(/[&<>"]/g, (c) => ({"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;"}[c]));
  // a card: board and round, the board (board.js), White's name and clock, Black's, then moves/last/state
  function card(s) {
    let el = cards[s.board];
    if (!el) {
      el = document.createElement("a");
      el.className = "card"; el.href = "/game/" + encodeURIComponent(s.board); el.id = "card-" + s.board;
      el.innerHTML = '<div class="head"><b class="board-id"></b><span class="meta"></span></div><div class="thumb"></div>' +
        ["white", "black"].map((side) => `<div class="player ${side}" data-side="${side}"><span class="disc"></span>` +
          `<span class="name"></span><span class="clock" data-side="${side}"></span></div>`).join("") +
        '<div class="meta state"></div><ul class="alerts"></ul>';
      cards[s.board] = el;
      const all = Object.keys(cards).sort((a, b) => a.localeCompare(b, undefined, {numeric: true}));
      const next = all[all.indexOf(s.board) + 1];
      $("boards").insertBefore(el, next ? cards[next] : null);
    }
    return el;
  }
  function render(s) {
    const el = card(s), q = (sel) => el.querySelector(sel);
    el.classList.toggle("alert", s.alerts.length > 0);
    el.classList.toggle("offline", !s.online && !s.closed && s.result === "*");
    q(".board-id").textContent = s.board;
    q(".head .meta").textContent = `round ${s.round} · ${s.variant}`;
    q(".white .name").textContent = s.white;
    q(".black .name").textContent = s.black;
    const lay = layouts[s.variant];
    if (lay && (!thumbs[s.board] || thumbs[s.board].variant !== s.variant))
      thumbs[s.board] = {variant: s.variant, board: new RigBoard(q(".thumb"), lay, {numbers: false, coordinates: false})};
    if (lay) thumbs[s.board].board.draw({pieces: s.pieces, last: RigHub.lastMove(s, lay)});
    q(".state").innerHTML = `${s.moves} moves${s.last ? " · last " + esc(s.last) : ""}` +
      `${s.result !== "*" ? " · <b>" + esc(s.result) + "</b>" : ""}${s.online ? "" : s.closed ? " · run ended" : " · offline"}`;
    q(".alerts").innerHTML = s.alerts.map((a) => "<li>" + esc(a) + "</li>").join("");
    tick();
  }
  function tick() {
    for (const [b, s] of Object.entries(boards)) {
      const el = cards[b];
      if (!el) continue;
      for (const row of el.querySelectorAll(".player")) {
        const side = row.dataset.side, running = !!s.clock && s.clock.running === side && s.result === "*";
        row.querySelector(".clock").textContent = RigHub.fmt(RigHub.clockNow(s.clock, side, s._at, s.result));
        row.classList.toggle("running", running);
        row.querySelector(".clock").classList.toggle("running", running);
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
