/* damas rig: the board page and the overlay (the same view; the overlay shows fewer parts). */
(function () {
  "use strict";
  var $ = function (id) { return document.getElementById(id); };
  var params = new URLSearchParams(location.search);
  var board = null, boardKey = null;

  // the overlay is laid out for a 1920x1080 scene: scaled to fit its browser source (720p, 4K, a small window)
  var stage = document.querySelector(".page-overlay .overlay");
  if (stage) {
    var fit = function () {
      stage.style.setProperty("--scene", String(Math.min(window.innerWidth / 1920, window.innerHeight / 1080)));
    };
    window.addEventListener("resize", fit);
    fit();
  }

  function players(state) {
    var tags = RigLive.tags(state);
    RigLive.text($("white-name"), tags.White || "White");
    RigLive.text($("black-name"), tags.Black || "Black");
    var event = [tags.Event, tags.Round ? "round " + tags.Round : null, tags.Board ? "board " + tags.Board : null]
      .filter(Boolean).join(" · ");
    if ($("event")) RigLive.text($("event"), event || state.info.variant + " draughts");
    document.title = (tags.White || "White") + " - " + (tags.Black || "Black") + " · damas rig";
  }

  function clocks(live) {
    var s = live.state, running = s.clock && s.result === "*" ? s.clock.running : null;
    ["white", "black"].forEach(function (side) {
      RigLive.text($(side + "-clock"), RigLive.formatMs(live.clockMs(side)));
      var row = $(side + "-row");
      if (row) row.classList.toggle("running", running === side);
      if (row) row.classList.toggle("to-move", !running && s.position && s.position.turn === side && s.result === "*");
    });
  }

  function moves(state) {
    var list = $("moves");
    if (!list) return;
    var rows = RigLive.rows(state.moves);
    var names = function (ms) { return (ms || []).map(function (m) { return m.move; }).join(", "); };
    while (list.children.length > rows.length) list.removeChild(list.lastChild);
    rows.forEach(function (row, i) {
      var li = list.children[i];
      if (!li) {
        li = document.createElement("li");
        li.innerHTML = '<span class="n"></span><span class="w"></span><span class="b"></span>';
        list.appendChild(li);
      }
      RigLive.text(li.children[0], row.number + ".");
      RigLive.text(li.children[1], row.white ? names(row.white) : "...");
      RigLive.text(li.children[2], names(row.black));
    });
    var standing = (state.moves || []).filter(function (m) { return m && !m.withdrawn; });
    list.setAttribute("data-count", String(standing.length));
    if (list.lastChild && state.result === "*") list.lastChild.scrollIntoView({block: "nearest"});
  }

  function counters(state) {
    var ul = $("counters");
    if (!ul) return;
    ul.innerHTML = "";
    var running = (state.counters || []).filter(function (c) { return c.count > 0 || c.reached; });
    if (!running.length) { ul.innerHTML = '<li class="none">none running</li>'; return; }
    running.forEach(function (c) {
      var li = document.createElement("li");
      li.textContent = (c.title || c.rule) + ": " + c.count + (c.limit ? " / " + c.limit : "") + " " + (c.unit || "") +
        (c.reached ? " (reached)" : "");
      ul.appendChild(li);
    });
  }

  function render(live, kind) {
    var s = live.state;
    if (kind === "status") {
      var st = $("status");
      if (st) { st.className = "status " + live.status; RigLive.text(st, live.status); }
      if (!s) return;
    }
    if (!s) return;
    if (kind === "tick") { clocks(live); return; }
    var key = s.info.epoch;
    if (!board || boardKey !== key) {
      board = new RigBoard($("board"), s.info, {flip: params.get("flip") === "1",
                                                 numbers: params.get("numbers") !== "0",
                                                 coordinates: !document.body.classList.contains("page-overlay")});
      boardKey = key;
      players(s);
    }
    board.draw(s.position);
    if ($("board")) $("board").setAttribute("data-fen", s.position.fen || "");
    clocks(live);
    moves(s);
    counters(s);
    var result = s.result !== "*" ? s.result + (s.reason ? " · " + s.reason : "") : "";
    RigLive.text($("result"), result);
    if ($("lost")) $("lost").hidden = !s.position.lost;
    document.body.setAttribute("data-seq", String(live.seq));
  }

  window.rigLive = new RigLive(function (state, kind) { render(window.rigLive, kind); });
})();
