// Game-flow phone page, its pictures: a seat colour's dot, the boards (a shared hex map, each player's grid) as SVG,
// the free places of a player's station as buttons, the colours of thrown dice. Loaded before flow.js, which draws
// the page with them (window.FlowDraw); vanilla JS, no build step. Text is always set with textContent.
"use strict";

window.FlowDraw = (function () {
  const _ = Box._; // the page's words in the phone's language
  const format = Box.format;

  function el(tag, className, text) {
    const node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined && text !== null) node.textContent = Box.drawn(text); // "[0, 0]" on one line
    return node;
  }

  // The seat colours as drawn (companion/screen/canvas.py SEAT_COLOURS) and their English signs (SEAT_SIGNS): a
  // letter each, two where colours share one (blue B, black Bk; green G, grey Gy), so the colour is never the only
  // signal. In another language the sign is its catalog's (DOT_LETTER; companion.words.catalog_letter).
  const DOT = { red: "#dc463c", blue: "#4682e6", green: "#50be6e", yellow: "#ebc83c", purple: "#a064d2", white: "#e6e6e6",
    black: "#46464c", grey: "#969696", natural: "#d6b88c" };
  const DOT_SIGN = { red: "R", blue: "B", green: "G", yellow: "Y", purple: "P", white: "W", black: "Bk", grey: "Gy", natural: "N" };
  const DOT_LETTER = "the letter in a seat colour's dot: 1-2 letters, different for each colour";

  // A seat colour as a dot with its sign, ringed so that a dark dot shows on the dark page.
  function dot(colour) {
    const d = el("span", "dot", (colour && Box.pgettext(DOT_LETTER, colour)) || DOT_SIGN[colour] ||
      (colour || "?").charAt(0).toUpperCase());
    const hex = DOT[colour];
    d.style.background = hex || CSS_COLOURS[colour] || colour || "#ccc";
    if (hex) { // light letters on a dark dot (as the touchscreen does)
      const [r, g, b] = [1, 3, 5].map((k) => parseInt(hex.slice(k, k + 2), 16));
      if ((r * 299 + g * 587 + b * 114) / 1000 <= 140) d.style.color = "#fafafa";
    }
    d.title = colour ? _(colour) : "";
    return d;
  }

  // Boards (game.boards): a shared hex map or each player's grid, drawn as SVG; a cell shows what lies there.
  const SVG = "http://www.w3.org/2000/svg";
  const CSS_COLOURS = { natural: "burlywood" }; // seat colours that are not CSS colour names

  function svg(tag, attrs, text) {
    const node = document.createElementNS(SVG, tag);
    for (const [k, v] of Object.entries(attrs || {})) node.setAttribute(k, String(v));
    if (text !== undefined) node.textContent = Box.drawn(text);
    return node;
  }

  function ownerColour(game, owner) {
    const p = (game.players || []).find((q) => q.name === owner);
    return p ? CSS_COLOURS[p.colour] || p.colour : "#59606b";
  }

  function boardPicture(game, board) {
    const hex = board.kind === "hex";
    const size = hex ? 40 : 84; // px: a hex's circumradius, a grid cell's side
    // a station's cell is [row, column] from its Main Reactor, rows down (as the camera reads it and the texts say it)
    const centre = (at) => hex ? [size * 1.5 * at[0], size * Math.sqrt(3) * (at[1] + at[0] / 2)] : [size * at[1], size * at[0]];
    const points = board.cells.map((c) => centre(c.at));
    const xs = points.map((p) => p[0]), ys = points.map((p) => p[1]);
    const pad = size * (hex ? 1.05 : 0.6); // a hexagon reaches its circumradius from its centre
    const [x0, y0] = [Math.min(...xs) - pad, Math.min(...ys) - pad];
    const width = Math.max(...xs) - x0 + pad, height = Math.max(...ys) - y0 + pad;
    // drawn at its own size (a small board is not blown up), narrower on a narrow phone
    const pic = svg("svg", { viewBox: `${x0} ${y0} ${width} ${height}`, width, class: "board-picture", role: "img" });
    const fit = (text, room) => ({ textLength: Math.min(room, text.length * 6.2), lengthAdjust: "spacingAndGlyphs" });
    board.cells.forEach((c, k) => {
      const [x, y] = points[k];
      const g = svg("g", { class: c.empty && !c.owner ? "cell space" : "cell" });
      const stroke = c.owner ? ownerColour(game, c.owner) : "#59606b";
      if (hex) {
        const corners = [0, 1, 2, 3, 4, 5].map((i) => [x + (size - 2) * Math.cos(Math.PI / 3 * i), y + (size - 2) * Math.sin(Math.PI / 3 * i)]);
        g.append(svg("polygon", { points: corners.map((p) => p.join(",")).join(" "), stroke, "stroke-width": 4 }));
      } else {
        g.append(svg("rect", { x: x - size / 2 + 2, y: y - size / 2 + 2, width: size - 4, height: size - 4, rx: 6, stroke, "stroke-width": 3 }));
      }
      const room = hex ? size * 1.5 : size - 10;
      g.append(svg("text", { x, y: y - 2, "text-anchor": "middle", class: "label", ...fit(c.label, room) }, c.label));
      if (c.detail) g.append(svg("text", { x, y: y + 14, "text-anchor": "middle", class: "detail", ...fit(c.detail, room * 0.85) }, c.detail));
      g.append(svg("title", {}, [c.label, c.detail, c.owner,
        c.rotation === null || c.rotation === undefined ? "" : format(_("rotation {steps}"), { steps: c.rotation })]
        .filter(Boolean).join(" \u2014 ")));
      pic.append(g);
    });
    return pic;
  }

  // A picture of the station: its built cells, and the free places next to them as buttons (at least 48 px);
  // a tap fills the cell's numbers and marks the place. A cell is [row, column], rows down, columns right.
  function cellPicker(board, numbers) {
    const taken = new Set(board.cells.map((c) => c.at.join(",")));
    const free = [];
    for (const c of board.cells) {
      for (const [di, dj] of [[1, 0], [-1, 0], [0, 1], [0, -1]]) {
        const at = [c.at[0] + di, c.at[1] + dj];
        const key = at.join(",");
        if (!taken.has(key) && !free.some((f) => f.join(",") === key)) free.push(at);
      }
    }
    if (!board.cells.length) free.push([0, 1], [1, 0], [0, -1], [-1, 0]);
    const all = board.cells.map((c) => c.at).concat(free);
    const is = all.map((a) => a[0]), js = all.map((a) => a[1]);
    const [i0, j0] = [Math.min(...is), Math.min(...js)];
    const grid = el("div", "cell-picker");
    grid.setAttribute("role", "group");
    grid.setAttribute("aria-label", _("the places on your station"));
    grid.style.gridTemplateColumns = "repeat(" + (Math.max(...js) - j0 + 1) + ", minmax(48px, 1fr))";
    for (const c of board.cells) {
      const built = el("span", "cell built", c.label);
      built.style.gridColumn = String(c.at[1] - j0 + 1);
      built.style.gridRow = String(c.at[0] - i0 + 1);
      built.title = [c.label, c.detail].filter(Boolean).join(" — ");
      grid.append(built);
    }
    for (const at of free) {
      const b = el("button", "cell free", "+");
      b.type = "button";
      b.dataset.at = at.join(",");
      b.style.gridColumn = String(at[1] - j0 + 1);
      b.style.gridRow = String(at[0] - i0 + 1);
      const words = (board.places || {})[at.join(",")]; // the place as the players name it (Among the Stars)
      b.setAttribute("aria-label", words ? format(_("free place: {place}"), { place: words })
        : format(_("free place {i}, {j}"), { i: at[0], j: at[1] }));
      b.addEventListener("click", () => {
        const inputs = numbers.querySelectorAll("input");
        inputs[0].value = String(at[0]);
        inputs[1].value = String(at[1]);
        inputs[1].dispatchEvent(new Event("change", { bubbles: true })); // what shows beside the place (showFor)
        for (const other of grid.querySelectorAll(".cell.free")) {
          other.classList.toggle("chosen", other === b);
          other.textContent = Box.drawn(other === b ? "\u2713" : "+");
        }
      });
      grid.append(b);
    }
    return grid;
  }

  // Dice just thrown (game.throws): an Eclipse volley's dice, which hit, the damage.
  const DIE_COLOURS = { yellow: "#ebc83c", orange: "#f08c32", red: "#dc463c", white: "#e6e6e6" };

  return { el, dot, boardPicture, cellPicker, DIE_COLOURS };
})();
