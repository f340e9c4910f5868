// Game-flow phone page: pick a seat, report changes to your own empire, Undo your last report,
// see the round and the final scores. Live state over SSE (/api/events); vanilla JS, no build step.
// Text is always set with textContent (state strings are not HTML).
"use strict";

(function () {
  const $ = (id) => document.getElementById(id);
  const SEAT_KEY = "tabletop-companion-seat";
  let state = null;
  let shownVersion = -1;
  let formShown = null;

  function el(tag, className, text) {
    const node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined && text !== null) node.textContent = text;
    return node;
  }

  function seat() {
    const name = localStorage.getItem(SEAT_KEY);
    const game = (state && state.game) || {};
    return (game.players || []).some((p) => p.name === name) ? name : null;
  }

  function renderRound(game) {
    $("title").textContent = game.title || "Tabletop companion";
    $("round-label").textContent = game.round_label || "";
    const phases = $("phases");
    phases.replaceChildren();
    for (const ph of game.phases || []) {
      const li = el("li", ph.state, ph.label);
      if ((ph.by || []).length) li.append(el("span", "by", ph.by.join(", ")));
      phases.append(li);
    }
    $("note").textContent = game.note || "";
    $("pool").textContent = game.pool === null || game.pool === undefined ? "" : (game.pool_label || "VP pool") + ": " + game.pool;
    const banner = $("last-round");
    banner.hidden = !game.last_round;
    banner.textContent = "LAST ROUND" + ((game.ending || []).length ? ": " + game.ending.join("; ") : "");
  }

  function renderSeats(game) {
    const mine = seat();
    $("seat-section").hidden = !!mine || !!game.over;
    const seats = $("seats");
    seats.replaceChildren();
    for (const p of game.players || []) {
      const b = el("button", "seat", p.name);
      b.type = "button";
      b.dataset.player = p.name;
      b.addEventListener("click", () => {
        localStorage.setItem(SEAT_KEY, p.name);
        formShown = null;
        renderAll();
      });
      seats.append(b);
    }
  }

  function renderFindings(findings) {
    const list = $("findings");
    list.replaceChildren();
    for (const f of findings) {
      const li = el("li", f.severity || "warning", f.what || "?");
      if (f.where) li.append(" \u2014 " + f.where);
      if (f.rule) li.append(el("span", "rule", f.rule));
      if (f.todo) li.append(el("span", "todo", f.todo));
      list.append(li);
    }
    $("findings-section").hidden = findings.length === 0;
  }

  function renderPlayers(game) {
    const body = $("players").tBodies[0];
    body.replaceChildren();
    for (const p of game.players || []) {
      const tr = el("tr", p.waiting ? "waiting" : "");
      const dash = (v) => (v === null || v === undefined ? "\u2013" : String(v));
      tr.append(el("td", "", p.name + (p.role ? " \u2014 " + p.role : "")), el("td", "", dash(p.tableau)),
        el("td", "", dash(p.credits)), el("td", "", dash(p.vp)));
      body.append(tr);
    }
  }

  function fieldInput(f) {
    const wrap = el("label", "field", f.label + (f.optional ? " (optional)" : ""));
    let input;
    if (f.kind === "choice") {
      input = el("select");
      input.append(el("option", "", f.optional ? "\u2013" : "choose\u2026"));
      input.firstChild.value = "";
      for (const c of f.choices) {
        const o = el("option", "", c);
        o.value = c;
        input.append(o);
      }
    } else if (f.kind === "cell") {
      input = el("span", "cell-inputs");
      for (const axis of ["i", "j"]) {
        const n = el("input");
        n.type = "number";
        n.step = "1";
        n.placeholder = axis;
        n.dataset.axis = axis;
        input.append(n);
      }
    } else {
      input = el("input");
      input.type = "number";
      input.step = "1";
      if (f.min !== null) input.min = String(f.min);
      if (f.max !== null) input.max = String(f.max);
    }
    input.dataset.field = f.name;
    input.dataset.kind = f.kind;
    wrap.append(input);
    return wrap;
  }

  function renderForms(game) {
    const me = seat();
    const open = me ? (game.open_forms || {})[me] || [] : [];
    $("report-section").hidden = !me || open.length === 0;
    if (!me) return;
    $("me").textContent = me;
    const pick = $("form-pick");
    const forms = (game.forms || []).filter((f) => open.includes(f.id));
    const ids = forms.map((f) => f.id).join(",");
    if (pick.dataset.ids !== ids) {
      const keep = pick.value;
      pick.replaceChildren();
      for (const f of forms) {
        const o = el("option", "", f.label);
        o.value = f.id;
        pick.append(o);
      }
      pick.dataset.ids = ids;
      if (forms.some((f) => f.id === keep)) pick.value = keep;
    }
    if (formShown !== pick.value) {
      formShown = pick.value;
      const fields = $("fields");
      fields.replaceChildren();
      const form = forms.find((f) => f.id === pick.value);
      for (const f of (form && form.fields) || []) fields.append(fieldInput(f));
    }
  }

  function renderScores(game) {
    const result = game.result;
    $("score-section").hidden = !game.over || !result;
    if (!game.over || !result) return;
    $("winner").textContent = (result.winners.length > 1 ? "Shared win: " : "Winner: ") + result.winners.join(", ");
    const table = $("scores");
    table.replaceChildren();
    const head = el("tr");
    head.append(el("th", "", "Category"));
    for (const p of result.players) head.append(el("th", "", p.name));
    table.append(head);
    const categories = result.players.length ? result.players[0].categories.map((c) => c.category) : [];
    for (const cat of categories) {
      const tr = el("tr");
      tr.append(el("td", "", cat));
      for (const p of result.players) tr.append(el("td", "", String(p.breakdown[cat] || 0)));
      table.append(tr);
    }
    const total = el("tr", "winner-row");
    total.append(el("td", "", "Total"));
    for (const p of result.players) total.append(el("td", p.winner ? "winner" : "", String(p.total)));
    table.append(total);
    const link = $("bgstats");
    link.href = (game.export && game.export.bgstats_url) || "#";
    link.hidden = !(game.export && game.export.bgstats_url);
  }

  function renderAll() {
    if (!state) return;
    const game = state.game || {};
    renderRound(game);
    renderSeats(game);
    renderFindings(game.findings || state.findings || []);
    renderForms(game);
    renderPlayers(game);
    renderScores(game);
    $("message").textContent = (state.status || {}).message || "";
  }

  function render(next) {
    if (typeof next.version !== "number" || next.version === shownVersion) return;
    shownVersion = next.version;
    state = next;
    document.body.dataset.version = String(next.version);
    renderAll();
  }

  function values() {
    const out = {};
    for (const input of $("fields").querySelectorAll("[data-field]")) {
      const kind = input.dataset.kind;
      if (kind === "cell") {
        const parts = [...input.querySelectorAll("input")].map((n) => n.value.trim());
        out[input.dataset.field] = parts.every((v) => v === "") ? null : parts.map((v) => (v === "" ? v : Number(v)));
      } else if (kind === "int") {
        out[input.dataset.field] = input.value.trim() === "" ? null : Number(input.value);
      } else {
        out[input.dataset.field] = input.value || null;
      }
    }
    return out;
  }

  async function post(url, body) {
    const result = $("report-result");
    try {
      const response = await fetch(url, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify(body),
      });
      const answer = await response.json().catch(() => ({}));
      if (response.ok) {
        result.className = "action-result ok";
        result.textContent = answer.message || "recorded";
      } else {
        result.className = "action-result error";
        result.textContent = answer.error || "The box refused: HTTP " + response.status;
      }
    } catch (err) {
      result.className = "action-result error";
      result.textContent = "Could not reach the box; check the Wi-Fi.";
    }
  }

  function setConnection(kind, text) {
    const c = $("connection");
    c.className = "conn " + kind;
    c.textContent = text;
  }

  function connect() {
    const source = new EventSource("/api/events");
    source.addEventListener("open", () => setConnection("live", "live"));
    source.addEventListener("error", () => setConnection("reconnecting", "reconnecting\u2026"));
    source.addEventListener("state", (event) => {
      setConnection("live", "live");
      render(JSON.parse(event.data));
    });
  }

  document.addEventListener("DOMContentLoaded", () => {
    $("form-pick").addEventListener("change", () => renderAll());
    $("report-form").addEventListener("submit", (event) => {
      event.preventDefault();
      post("/api/report", { player: seat(), form: $("form-pick").value, values: values() });
    });
    $("undo-report").addEventListener("click", () => post("/api/report/undo", { player: seat() }));
    $("change-seat").addEventListener("click", () => {
      localStorage.removeItem(SEAT_KEY);
      renderAll();
    });
    connect();
  });
})();
