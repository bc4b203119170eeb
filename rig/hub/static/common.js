// Shared by the hub's pages: clocks that tick between events, an EventSource that reconnects, and a
// summary's last move as board.js marks it.
(function () {
  "use strict";
  function fmt(ms) {
    if (ms === null || ms === undefined) return "";
    const s = Math.max(0, Math.floor(ms / 1000));
    const h = Math.floor(s / 3600), m = Math.floor(s / 60) % 60, sec = s % 60;
    return (h ? h + ":" + String(m).padStart(2, "0") : m) + ":" + String(sec).padStart(2, "0");
  }
  // the time shown for `side` of a summary received at `at` (ms, performance.now())
  function clockNow(clock, side, at, result) {
    if (!clock) return null;
    const base = clock[side + "_ms"];
    if (base === null || base === undefined) return null;
    if (clock.running !== side || (result && result !== "*")) return base;
    return base - (performance.now() - at);
  }
  // {path, captured} of a summary's last move for RigBoard.draw: the path from the move text ("11-15",
  // "11x18x27", CBD "c3-d4" through the layout's names), the other changed squares taken.
  function lastMove(s, layout) {
    const changed = (s.last_squares || []).map(Number);
    if (!s.last || !layout) return {path: changed, captured: []};
    const byName = {};
    for (const [sq, name] of Object.entries(layout.names || {})) byName[String(name).toLowerCase()] = +sq;
    const path = String(s.last).replace(/[?!*+]/g, "").toLowerCase().split(/[-x:]/).map((t) => byName[t.trim()]);
    if (path.length < 2 || path.some((x) => !x)) return {path: changed, captured: []};
    return {path, captured: changed.filter((x) => !path.includes(x))};
  }
  function follow(url, onBoard, onState) {
    const es = new EventSource(url);
    es.addEventListener("board", (e) => onBoard(JSON.parse(e.data)));
    es.onopen = () => onState("live");
    es.onerror = () => onState(es.readyState === 2 ? "closed" : "reconnecting...");
    return es;
  }
  window.RigHub = { fmt, clockNow, follow, lastMove };
})();
