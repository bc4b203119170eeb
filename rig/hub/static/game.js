// One game: the board, clocks, moves, irregularities and switch health, live from /events?board=B.
(function () {
  "use strict";
  const board = decodeURIComponent(location.pathname.split("/").pop());
  const $ = (id) => document.getElementById(id);
  const esc = (t) => String(t === null || t === undefined ? "" : t).replace(/[&<>"]/g, (c) => ({"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;"}[c]));
  let layouts = null, drawn = null, current = null, lastSeq = -1, pending = false;
  function moveText(list) {
    let out = "", n = null;
    for (const m of list) {
      if (m.withdrawn) continue;
      if (m.side === "white" || n !== m.number) out += (out ? "\n" : "") + m.number + (m.side === "white" ? ". " : "... ");
      out += m.move + (m.legal ? "" : "?") + " ";
      n = m.number;
    }
    return out;
  }
  async function details() {
    pending = false;
    const r = await fetch("/api/game/" + encodeURIComponent(board));
    if (!r.ok) return;
    const g = await r.json();
    $("moves").textContent = moveText(g.moves_list);
    $("irr").innerHTML = g.irregularities.map((x) => `<li class="${esc(x.status)}">${esc(x.number)} ${esc(x.side)}: ` +
      `${esc(x.type)} (${esc(x.rule)}) squares ${esc((x.squares || []).join(", "))}: ${esc(x.status)}</li>`).join("") || "<li>none</li>";
    $("health").innerHTML = g.health.map((h) => `<li>${esc(h.kind)} square ${esc(h.square)}: ${esc(h.message)}</li>`).join("") || "<li>all switches well</li>";
  }
  function render(s) {
    current = s; s._at = performance.now();
    document.title = `${s.white} - ${s.black} (board ${s.board})`;
    $("title").textContent = `Board ${s.board}, round ${s.round}`;
    $("pdn").href = `/game/${encodeURIComponent(s.board)}.pdn`;
    $("white").textContent = s.white; $("black").textContent = s.black;
    const lay = layouts[s.variant];
    if (!drawn || drawn.variant !== s.variant) drawn = {variant: s.variant, board: new RigBoard($("board"), lay, {})};
    drawn.board.draw({pieces: s.pieces, last: RigHub.lastMove(s, lay)});
    $("result").textContent = s.result !== "*" ? `Result ${s.result}: ${s.reason}` : `${s.moves} moves`;
    $("alerts").innerHTML = s.alerts.map((a) => "<li>" + esc(a) + "</li>").join("");
    if (s.seq !== lastSeq && !pending) { pending = true; lastSeq = s.seq; setTimeout(details, 100); }
    tick();
  }
  function tick() {
    if (!current) return;
    for (const [id, row, side] of [["cw", "pw", "white"], ["cb", "pb", "black"]]) {
      const running = !!current.clock && current.clock.running === side && current.result === "*";
      $(id).textContent = RigHub.fmt(RigHub.clockNow(current.clock, side, current._at, current.result));
      $(id).classList.toggle("running", running);
      $(row).classList.toggle("running", running);
    }
  }
  async function main() {
    layouts = await (await fetch("/api/layouts")).json();
    RigHub.follow("/events?board=" + encodeURIComponent(board), render, (st) => { $("live").textContent = st; });
    setInterval(tick, 250);
  }
  main();
})();
