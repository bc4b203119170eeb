/* damas rig: the live game from /events (Server-Sent Events), shared by the board page, the overlay and the
 * arbiter page. Every message has a sequence number (SSE id EPOCH-SEQ): a message already applied is
 * ignored, a gap starts over from a snapshot, and after a network drop the stream is reopened with the last
 * id (the browser's own retry sends Last-Event-ID; after a failed reconnection this code reopens it with
 * ?last=ID), so no move is lost or shown twice.
 *
 *   const live = new RigLive(function (state, kind, data) { ... });
 *   live.clockMs("white")  // the clock as it runs now
 */
(function (global) {
  "use strict";

  function RigLive(onChange, options) {
    this.onChange = onChange;
    this.options = options || {};
    this.state = null;
    this.seq = 0;
    this.lastId = null;
    this.status = "connecting";
    this.applied = [];            // [seq, index, move, epoch ms] of each applied move message (tests, bench)
    this.snapshots = 0;
    this.backoff = 500;
    this._connect();
    var self = this;
    setInterval(function () { self._tick(); }, 200);
  }

  RigLive.prototype._connect = function () {
    var self = this;
    var url = "/events" + (this.lastId ? "?last=" + encodeURIComponent(this.lastId) : "");
    var es = new EventSource(url);
    this.es = es;
    var kinds = ["state", "move", "move-update", "position", "clock", "counters", "end", "irregularity",
                 "irregularity-update", "observations", "arbiter", "note", "health", "closed"];
    kinds.forEach(function (kind) {
      es.addEventListener(kind, function (e) { self._message(kind, e); });
    });
    es.onopen = function () { self.backoff = 500; self._status("live"); };
    es.onerror = function () {
      if (es !== self.es) return;
      if (es.readyState === EventSource.CLOSED) {
        self._status("offline");
        setTimeout(function () { if (es === self.es) self._connect(); }, self.backoff);
        self.backoff = Math.min(self.backoff * 2, 8000);
      } else {
        self._status("reconnecting");
      }
    };
  };

  RigLive.prototype._restart = function () {
    if (this.es) this.es.close();
    this.lastId = null;
    this._connect();
  };

  RigLive.prototype._status = function (status) {
    if (this.status !== status) {
      this.status = status;
      this.onChange(this.state, "status", {status: status});
    }
  };

  RigLive.prototype._message = function (kind, e) {
    var data = JSON.parse(e.data);
    if (kind === "state") {
      this.state = data;
      this.seq = data.seq;
      this.snapshots += 1;
    } else {
      if (!this.state || data.seq <= this.seq) return;       // already applied (or no snapshot yet)
      if (data.seq !== this.seq + 1) { this._restart(); return; }  // a gap: start over from a snapshot
      this._apply(kind, data);
      this.seq = data.seq;
    }
    if (e.lastEventId) this.lastId = e.lastEventId;
    this.state.now = data.now;
    this.receivedAt = performance.now();
    this.onChange(this.state, kind, data);
  };

  RigLive.prototype._apply = function (kind, d) {
    var s = this.state;
    switch (kind) {
      case "move":
      case "move-update":
        s.moves[d.index] = d.move;
        if (kind === "move") this.applied.push([d.seq, d.index, d.move.move, performance.timeOrigin + performance.now()]);
        break;
      case "position": s.position = d.position; break;
      case "clock": s.clock = d.clock; break;
      case "counters": s.counters = d.counters; break;
      case "end": s.result = d.result; s.reason = d.reason; break;
      case "irregularity":
      case "irregularity-update": s.irregularities[d.index] = d.irregularity; break;
      case "arbiter": s.decisions.push(d.decision); break;
      case "closed": s.closed = true; break;
      default: break;
    }
  };

  RigLive.prototype._tick = function () {
    if (this.state && this.state.clock && this.state.clock.running) this.onChange(this.state, "tick", {});
  };

  /* ms left on a side's clock now: the last reading, less the time its clock has run since. */
  RigLive.prototype.clockMs = function (side) {
    var s = this.state;
    if (!s || !s.clock) return null;
    var c = s.clock, ms = c[side + "_ms"];
    if (ms === null || ms === undefined) return null;
    if (c.running === side && s.result === "*" && !s.closed) {
      var rate = (s.info && s.info.rate) || 1;
      var elapsed = (s.now - c.t) + (performance.now() - this.receivedAt) / 1000 * rate;
      ms -= Math.max(0, elapsed) * 1000;
    }
    return Math.max(0, ms);
  };

  RigLive.formatMs = function (ms) {
    if (ms === null || ms === undefined) return "--:--";
    var total = Math.floor(ms / 1000), h = Math.floor(total / 3600), m = Math.floor(total / 60) % 60, sec = total % 60;
    var mm = (h ? String(m).padStart(2, "0") : String(m)), ss = String(sec).padStart(2, "0");
    return (h ? h + ":" : "") + mm + ":" + ss;
  };

  /* The standing moves as PDN-numbered rows: [{number, white: [moves], black: [moves]}] (withdrawn left out). */
  RigLive.rows = function (moves) {
    var rows = [], byNumber = {};
    (moves || []).forEach(function (m) {
      if (!m || m.withdrawn) return;
      var row = byNumber[m.number];
      if (!row) { row = byNumber[m.number] = {number: m.number, white: null, black: null}; rows.push(row); }
      row[m.side] = (row[m.side] || []).concat([m]);
    });
    return rows;
  };

  /* The game's PDN tags without the unknown ones ("?", "-"). */
  RigLive.tags = function (state) {
    var tags = {}, all = (state && state.info && state.info.tags) || {};
    Object.keys(all).forEach(function (k) { if (all[k] && all[k] !== "?" && all[k] !== "-") tags[k] = all[k]; });
    return tags;
  };

  RigLive.text = function (node, value) {
    if (node && node.textContent !== value) node.textContent = value;
  };

  global.RigLive = RigLive;
})(typeof window !== "undefined" ? window : this);
