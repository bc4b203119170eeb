/* damas rig: a draughts position as SVG. Standalone (no dependency): any page may load /static/board.js.
 *
 *   const board = new RigBoard(element, geometry, {flip: false, numbers: true});
 *   board.draw({pieces: {"12": "w", "21": "B"}, last: {path: [11, 15], captured: []}, sensed: [..]});
 *
 * geometry is the "info" of /api/game: {size, algebraic, squares: {"1": [file, rank], ...}, names: {...}}
 * with (file, rank) 0-based as White sees the board (file 0 = White's left, rank 0 = White's first row),
 * so every variant's orientation and numbering (Portuguese mirrored, FMJD/CBD from the top left) comes from
 * the rig itself. Pieces: w/W white man/king, b/B black man/king. `sensed`: squares the sensors show
 * occupied (drawn as grey rings where the position has no piece: the arbiter's view of a lost position).
 */
(function (global) {
  "use strict";
  var NS = "http://www.w3.org/2000/svg";
  var CELL = 100;
  var FILES = "abcdefghij";

  function el(name, attrs, parent) {
    var node = document.createElementNS(NS, name);
    for (var k in attrs) { if (Object.prototype.hasOwnProperty.call(attrs, k)) node.setAttribute(k, attrs[k]); }
    if (parent) parent.appendChild(node);
    return node;
  }

  function RigBoard(container, geometry, options) {
    this.container = container;
    this.geometry = geometry;
    this.options = options || {};
    this.size = geometry.size;
    this.margin = this.options.coordinates === false ? 0 : 28;
    var full = this.size * CELL + 2 * this.margin;
    this.svg = el("svg", {viewBox: "0 0 " + full + " " + full, "class": "rig-board", role: "img",
                          "aria-label": "draughts board"});
    this.svg.style.width = "100%";
    this.svg.style.height = "100%";
    container.innerHTML = "";
    container.appendChild(this.svg);
    this.squareAt = {};
    this._drawGrid();
    this.layer = el("g", {"class": "rig-pieces"}, this.svg);
  }

  RigBoard.prototype.xy = function (square) {
    var fr = this.geometry.squares[String(square)];
    var flip = !!this.options.flip;
    var col = flip ? this.size - 1 - fr[0] : fr[0];
    var row = flip ? fr[1] : this.size - 1 - fr[1];
    return [this.margin + col * CELL, this.margin + row * CELL];
  };

  RigBoard.prototype._drawGrid = function () {
    var g = el("g", {"class": "rig-grid"}, this.svg);
    var m = this.margin, n = this.size, flip = !!this.options.flip;
    el("rect", {x: 0, y: 0, width: n * CELL + 2 * m, height: n * CELL + 2 * m, "class": "rig-frame", fill: "#5b3a22"}, g);
    for (var row = 0; row < n; row++) {
      for (var col = 0; col < n; col++) {
        el("rect", {x: m + col * CELL, y: m + row * CELL, width: CELL, height: CELL, fill: "#ecd9b0"}, g);
      }
    }
    this.highlights = el("g", {"class": "rig-highlights"}, this.svg);
    var squares = this.geometry.squares;
    for (var s in squares) {
      if (!Object.prototype.hasOwnProperty.call(squares, s)) continue;
      var p = this.xy(s);
      var r = el("rect", {x: p[0], y: p[1], width: CELL, height: CELL, fill: "#7a5232", "data-square": s,
                          "class": "rig-square"}, g);
      this.squareAt[s] = r;
      if (this.options.numbers !== false) {
        var label = el("text", {x: p[0] + 6, y: p[1] + 22, "font-size": 20, fill: "#e8d3a8",
                                "font-family": "sans-serif", "class": "rig-number"}, g);
        label.textContent = this.geometry.algebraic ? this.geometry.names[s] : s;
      }
    }
    if (m > 0) {
      for (var i = 0; i < n; i++) {
        var file = flip ? n - 1 - i : i, rank = flip ? i : n - 1 - i;
        var ft = el("text", {x: m + i * CELL + CELL / 2, y: n * CELL + m + 21, "font-size": 18, fill: "#f3e6c8",
                             "text-anchor": "middle", "font-family": "sans-serif"}, g);
        ft.textContent = FILES[file];
        var rt = el("text", {x: m / 2, y: m + i * CELL + CELL / 2 + 6, "font-size": 18, fill: "#f3e6c8",
                             "text-anchor": "middle", "font-family": "sans-serif"}, g);
        rt.textContent = String(rank + 1);
      }
    }
  };

  RigBoard.prototype._mark = function (square, cls, fill) {
    if (!this.geometry.squares[String(square)]) return;
    var p = this.xy(square);
    el("rect", {x: p[0], y: p[1], width: CELL, height: CELL, fill: fill, "class": cls, "data-square": square},
       this.highlights);
  };

  RigBoard.prototype._piece = function (square, code) {
    var p = this.xy(square), cx = p[0] + CELL / 2, cy = p[1] + CELL / 2;
    var white = code === "w" || code === "W", king = code === "W" || code === "B";
    var g = el("g", {"class": "rig-piece", "data-square": square, "data-piece": code}, this.layer);
    var body = white ? "#f7f2e4" : "#26211d", edge = white ? "#6b6458" : "#0a0806";
    el("circle", {cx: cx, cy: cy + 4, r: 38, fill: edge}, g);
    el("circle", {cx: cx, cy: cy, r: 38, fill: body, stroke: edge, "stroke-width": 3}, g);
    el("circle", {cx: cx, cy: cy, r: 26, fill: "none", stroke: white ? "#cfc6b2" : "#4a413a", "stroke-width": 3}, g);
    if (king) {
      var c = white ? "#b8860b" : "#e0b040";
      el("path", {d: "M" + (cx - 18) + " " + (cy + 10) + " L" + (cx - 20) + " " + (cy - 12) + " L" + (cx - 8) + " " + (cy - 2) +
                     " L" + cx + " " + (cy - 16) + " L" + (cx + 8) + " " + (cy - 2) + " L" + (cx + 20) + " " + (cy - 12) +
                     " L" + (cx + 18) + " " + (cy + 10) + " Z", fill: c, stroke: edge, "stroke-width": 1.5,
                  "class": "rig-crown"}, g);
    }
  };

  /* position: {pieces, last, sensed}; returns this. */
  RigBoard.prototype.draw = function (position) {
    position = position || {};
    this.highlights.innerHTML = "";
    this.layer.innerHTML = "";
    var last = position.last;
    if (last && last.path) {
      for (var i = 0; i < last.path.length; i++) {
        this._mark(last.path[i], i === 0 ? "rig-last-from" : "rig-last-to", i === 0 ? "#a8883c" : "#c9a447");
      }
      (last.captured || []).forEach(function (s) { this._mark(s, "rig-last-captured", "#9c4a3a"); }, this);
    }
    var pieces = position.pieces || {};
    for (var s in pieces) {
      if (Object.prototype.hasOwnProperty.call(pieces, s)) this._piece(s, pieces[s]);
    }
    (position.sensed || []).forEach(function (s) {
      if (pieces[String(s)]) return;
      var p = this.xy(s);
      el("circle", {cx: p[0] + CELL / 2, cy: p[1] + CELL / 2, r: 34, fill: "none", stroke: "#9aa3ad",
                    "stroke-width": 6, "stroke-dasharray": "10 6", "class": "rig-sensed", "data-square": s},
         this.layer);
    }, this);
    if (position.lost) {
      this.svg.classList.add("rig-lost");
    } else {
      this.svg.classList.remove("rig-lost");
    }
    return this;
  };

  global.RigBoard = RigBoard;
})(typeof window !== "undefined" ? window : this);
