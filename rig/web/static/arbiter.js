/* damas rig: the arbiter's review. The token is kept in this tab only (sessionStorage); every request sends
 * it as "Authorization: Bearer TOKEN". Decisions are journaled by the board before they take effect; this
 * page shows them when the board has written them (the "arbiter" messages of /events). */
(function () {
  "use strict";
  var $ = function (id) { return document.getElementById(id); };
  var token = null, review = null, live = null, cards = {}, nowBoard = null, alerts = 0, refreshTimer = null;

  var m = /(?:^|[#&])token=([^&]+)/.exec(location.hash);
  if (m) { sessionStorage.setItem("rig-arbiter-token", decodeURIComponent(m[1])); history.replaceState(null, "", location.pathname); }
  token = sessionStorage.getItem("rig-arbiter-token");

  function login(message) {
    $("review").hidden = true;
    $("login").hidden = false;
    RigLive.text($("login-message"), message || "");
  }

  $("login").addEventListener("submit", function (e) {
    e.preventDefault();
    token = $("token").value.trim();
    sessionStorage.setItem("rig-arbiter-token", token);
    start();
  });
  $("alert-ok").addEventListener("click", function () { $("alert").hidden = true; });

  function api(path, options) {
    options = options || {};
    options.headers = Object.assign({"Authorization": "Bearer " + token}, options.headers || {});
    return fetch(path, options).then(function (r) {
      return r.json().catch(function () { return {error: r.statusText}; }).then(function (body) {
        if (r.status === 401 || r.status === 403) login(body.error);
        return {status: r.status, body: body};
      });
    });
  }

  function say(text, ok) {
    var p = $("message");
    p.className = "message " + (ok ? "ok" : "error");
    RigLive.text(p, text);
  }

  function act(payload, node) {
    if (node) node.disabled = true;
    return api("/arbiter/api/action", {method: "POST", headers: {"Content-Type": "application/json"},
                                        body: JSON.stringify(payload)}).then(function (r) {
      if (node) node.disabled = false;
      if (r.status === 200 || r.status === 202) {
        say((r.status === 200 ? "journaled: " : "queued: ") + r.body.lines.map(function (l) { return l.action; }).join(", "), true);
      } else {
        say(r.body.error || ("refused (" + r.status + ")"), false);
      }
      return r;
    });
  }

  function board(node, position, sensed) {
    var b = new RigBoard(node, review.info, {coordinates: false});
    b.draw({pieces: position.pieces, last: position.last, sensed: sensed});
    return b;
  }

  function evidence(card, t) {
    var box = card.querySelector(".timeline");
    box.hidden = false;
    box.textContent = "loading...";
    api("/arbiter/api/journal?t=" + encodeURIComponent(t)).then(function (r) {
      if (r.status !== 200) { box.textContent = r.body.error; return; }
      box.innerHTML = "";
      var head = document.createElement("div");
      head.textContent = "journal " + r.body.from + " s to " + r.body.to + " s (" + r.body.source + ")";
      box.appendChild(head);
      r.body.lines.forEach(function (line) {
        var div = document.createElement("div");
        var names = review.info.names;
        var what = line.type === "frame" ? "frame  [" + line.occupied.map(function (q) { return names[q] || q; }).join(" ") + "]"
          : line.type === "clock" ? "clock  " + line.event + (line.side ? " " + line.side : "") +
              (line.white_ms !== undefined ? " " + RigLive.formatMs(line.white_ms) + " / " + RigLive.formatMs(line.black_ms) : "")
          : "arbiter " + line.action + (line.ref !== undefined ? " #" + line.ref : "") + (line.note ? " (" + line.note + ")" : "");
        div.textContent = line.t.toFixed(3).padStart(9) + "  " + what;
        div.className = (line.type === "clock" ? "clockline" : line.type === "arbiter" ? "arbline" : "") +
          (Math.abs(line.t - t) < 0.0005 ? " at" : "");
        box.appendChild(div);
      });
    });
  }

  function irregularityCard(i) {
    var irr = review.irregularities[i], rv = review.reviews[i];
    var card = document.createElement("div");
    card.className = "card irregularity";
    card.setAttribute("data-index", String(i));
    card.innerHTML = '<h3></h3><div class="meta"></div><div class="pair"><figure><div class="mini before"></div>' +
      '<figcaption>before</figcaption></figure><figure><div class="mini after"></div><figcaption>after (grey rings: ' +
      'squares the sensors show occupied)</figcaption></figure></div>' +
      '<div class="actions"><button data-do="accept">Accept</button><button data-do="rectify">Rectify</button>' +
      '<label><input type="checkbox" class="restore" checked> set the position before</label></div>' +
      '<div class="actions"><input class="reason" placeholder="reason (needed to dismiss)"><button data-do="dismiss">Dismiss</button>' +
      '<button data-do="evidence">Frames and clock</button></div><div class="timeline" hidden></div>';
    card.querySelector("h3").textContent = "#" + i + " " + irr.type;
    board(card.querySelector(".before"), rv.before, []);
    board(card.querySelector(".after"), rv.after, rv.sensed);
    card.addEventListener("click", function (e) {
      var what = e.target.getAttribute && e.target.getAttribute("data-do");
      if (!what) return;
      var note = card.querySelector(".reason").value.trim();
      if (what === "evidence") { evidence(card, irr.t); return; }
      var payload = {action: what, ref: i};
      if (note) payload.note = note;
      if (what === "rectify") payload.restore = card.querySelector(".restore").checked;
      act(payload, e.target);
    });
    return card;
  }

  function updateCard(card, irr) {
    card.className = "card irregularity " + irr.status;
    card.querySelector(".meta").textContent = "move " + irr.number + " " + irr.side + " · t " + irr.t + " s · " +
      irr.rule + " · " + irr.status + (irr.detail ? " · " + irr.detail : "");
  }

  function observationCard(obs, i) {
    var card = document.createElement("div");
    card.className = "card observation";
    card.innerHTML = "<h3></h3><div class=\"meta\"></div>";
    card.querySelector("h3").textContent = "observation: " + (obs.type || obs.kind || "note");
    var rest = Object.keys(obs).filter(function (k) { return k !== "type"; })
      .map(function (k) { return k + ": " + JSON.stringify(obs[k]); }).join(" · ");
    card.querySelector(".meta").textContent = rest;
    card.setAttribute("data-observation", String(i));
    if (typeof obs.t === "number") {
      var actions = document.createElement("div");
      actions.className = "actions";
      actions.innerHTML = '<button data-do="evidence">Frames and clock</button>';
      card.appendChild(actions);
      var box = document.createElement("div");
      box.className = "timeline";
      box.hidden = true;
      card.appendChild(box);
      actions.firstChild.addEventListener("click", function () { evidence(card, obs.t); });
    }
    return card;
  }

  function render() {
    var tl = $("timeline");
    (review.irregularities || []).forEach(function (irr, i) {
      if (!cards[i]) { cards[i] = irregularityCard(i); tl.insertBefore(cards[i], tl.firstChild); }
      updateCard(cards[i], irr);
    });
    Array.prototype.slice.call(tl.querySelectorAll(".observation")).forEach(function (n) { n.remove(); });
    (review.observations || []).forEach(function (obs, i) { tl.appendChild(observationCard(obs, i)); });
    $("timeline-empty").hidden = !!(review.irregularities.length || (review.observations || []).length);
    var ol = $("decisions");
    ol.innerHTML = "";
    review.decisions.forEach(function (d) {
      var li = document.createElement("li");
      li.textContent = "t " + d.t + " s: " + d.action + (d.ref !== undefined ? " #" + d.ref : "") +
        (d.side ? " " + d.side : "") + (d.delta_ms !== undefined ? " " + (d.delta_ms / 1000) + " s" : "") +
        (d.upheld !== undefined ? (d.upheld ? " upheld" : " rejected") : "") + (d.result ? " " + d.result : "") +
        (d.fen ? " " + d.fen : "") + (d.note ? " (" + d.note + ")" : "");
      ol.appendChild(li);
    });
  }

  function renderNow(state) {
    if (!state || !review) return;
    if (!nowBoard) nowBoard = new RigBoard($("now-board"), state.info, {});
    nowBoard.draw(state.position);
    var tags = RigLive.tags(state);
    RigLive.text($("event"), "Arbiter · " + (tags.White || "White") + " - " + (tags.Black || "Black") +
      (tags.Event ? " · " + tags.Event : ""));
    RigLive.text($("now-meta"), state.position.turn + " to move · " + state.moves.filter(function (x) { return !x.withdrawn; }).length +
      " moves · clocks " + RigLive.formatMs(live.clockMs("white")) + " / " + RigLive.formatMs(live.clockMs("black")) +
      (state.position.lost ? " · POSITION LOST" : ""));
    RigLive.text($("result"), state.result !== "*" ? state.result + " · " + state.reason : "");
    if (!$("fen").value) $("fen").value = state.position.fen;
  }

  function refresh() {
    clearTimeout(refreshTimer);
    refreshTimer = setTimeout(function () {
      api("/arbiter/api/review").then(function (r) { if (r.status === 200) { review = r.body; render(); } });
    }, 100);
  }

  function alertNew(irr, index) {
    alerts += 1;
    var a = $("alert");
    a.hidden = false;
    a.setAttribute("data-count", String(alerts));
    a.setAttribute("data-at", String(Date.now()));
    RigLive.text($("alert-text"), "New irregularity #" + index + ": " + irr.type + " (" + irr.rule + "), move " +
      irr.number + " " + irr.side);
  }

  function resultOptions(info) {
    var opts = info.size === 10 ? ["2-0", "0-2", "1-1"] : ["1-0", "0-1", "1/2-1/2"];
    $("result-select").innerHTML = opts.map(function (o) { return "<option>" + o + "</option>"; }).join("");
  }

  document.querySelector(".arbiter").addEventListener("click", function (e) {
    var what = e.target.getAttribute && e.target.getAttribute("data-act");
    if (!what) return;
    var p = {action: what};
    if (what === "set-position") p.fen = $("fen").value.trim();
    if (what === "result") { p.result = $("result-select").value; if ($("result-note").value.trim()) p.note = $("result-note").value.trim(); }
    if (what === "draw-claim") { p.side = $("claim-side").value; p.upheld = $("claim-upheld").checked; if ($("claim-note").value.trim()) p.note = $("claim-note").value.trim(); }
    if (what === "time") {
      var secs = $("time-seconds").value.trim();
      p.side = $("time-side").value;
      // not a number: sent as typed, so that the server's answer names what is wrong
      p.delta_ms = secs !== "" && isFinite(Number(secs)) ? Math.round(Number(secs) * 1000) : secs;
      if ($("time-note").value.trim()) p.note = $("time-note").value.trim();
    }
    act(p, e.target);
  });

  function start() {
    if (!token) { login(""); return; }
    api("/arbiter/api/review").then(function (r) {
      if (r.status !== 200) return;
      review = r.body;
      $("login").hidden = true;
      $("review").hidden = false;
      resultOptions(review.info);
      render();
      if (live) return;
      live = new RigLive(function (state, kind, data) {
        if (kind === "status") { var st = $("status"); st.className = "status " + live.status; RigLive.text(st, live.status); }
        if (kind === "irregularity") alertNew(data.irregularity, data.index);
        if (["irregularity", "irregularity-update", "arbiter", "note", "observations", "position", "end", "state"].indexOf(kind) >= 0) refresh();
        renderNow(state);
      });
      window.rigLive = live;
    });
  }
  start();
})();
