// The hub's board drawing: a position (FEN) as SVG, from White's side, with the variant's squares
// (file, rank per square number, from /api/layouts). Small and self-contained so that the board pages'
// renderer can replace it: RigThumb.svg(position, layout, {last: [squares], numbers: bool, px: size}),
// position: {square number: "w" | "b" | "W" | "B"} (a summary's `pieces`) or a FEN with square numbers.
(function () {
  "use strict";
  function expand(part) {
    const out = [];
    for (const item of part.split(",")) {
      const t = item.trim();
      if (!t) continue;
      const king = t[0] === "K";
      const body = king ? t.slice(1) : t;
      const m = body.match(/^(\d+)-(\d+)$/);
      if (m) { for (let s = +m[1]; s <= +m[2]; s++) out.push([s, king]); }
      else if (/^\d+$/.test(body)) out.push([+body, king]);
    }
    return out;
  }
  function parseFen(fen) {
    const pieces = {};
    if (!fen) return { turn: "W", pieces };
    const fields = fen.replace(/"/g, "").replace(/\.$/, "").split(":");
    const turn = (fields[0] || "W").trim().toUpperCase();
    for (const f of fields.slice(1)) {
      const colour = f[0] === "W" ? "w" : f[0] === "B" ? "b" : null;
      if (!colour) continue;
      for (const [sq, king] of expand(f.slice(1))) pieces[sq] = king ? colour.toUpperCase() : colour;
    }
    return { turn, pieces };
  }
  function svg(fen, layout, opts) {
    opts = opts || {};
    const n = layout.size, c = 10, last = new Set((opts.last || []).map(Number));
    const pos = typeof fen === "string" || !fen ? parseFen(fen) : { pieces: fen };
    const parts = [`<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${n * c} ${n * c}" class="rig-board"` +
      (opts.px ? ` width="${opts.px}" height="${opts.px}"` : "") + `>`,
      `<rect width="${n * c}" height="${n * c}" fill="#f0d9b5"/>`];
    for (const [sq, fr] of Object.entries(layout.squares)) {
      const x = fr[0] * c, y = (n - 1 - fr[1]) * c;
      parts.push(`<rect x="${x}" y="${y}" width="${c}" height="${c}" fill="${last.has(+sq) ? "#b5a642" : "#8b5a2b"}"/>`);
      if (opts.numbers) parts.push(`<text x="${x + 0.6}" y="${y + 2.6}" font-size="2.4" fill="#e8d0b0">${(layout.names || {})[sq] || sq}</text>`);
      const p = pos.pieces[sq];
      if (!p) continue;
      const white = p === "w" || p === "W";
      parts.push(`<circle cx="${x + c / 2}" cy="${y + c / 2}" r="${c * 0.38}" fill="${white ? "#fafafa" : "#222"}" ` +
        `stroke="${white ? "#555" : "#000"}" stroke-width="0.6"/>`);
      if (p === "W" || p === "B")
        parts.push(`<circle cx="${x + c / 2}" cy="${y + c / 2}" r="${c * 0.18}" fill="none" ` +
          `stroke="${white ? "#c00" : "#fc0"}" stroke-width="1.2"/>`);
    }
    parts.push("</svg>");
    return parts.join("");
  }
  window.RigThumb = { svg, parseFen };
})();
