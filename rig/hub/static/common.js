// Shared by the hub's pages: clocks that tick between events, and an EventSource that reconnects.
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
  function follow(url, onBoard, onState) {
    const es = new EventSource(url);
    es.addEventListener("board", (e) => onBoard(JSON.parse(e.data)));
    es.onopen = () => onState("live");
    es.onerror = () => onState(es.readyState === 2 ? "closed" : "reconnecting...");
    return es;
  }
  window.RigHub = { fmt, clockNow, follow };
})();
