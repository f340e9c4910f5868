// The box's own page on a phone: the game chooser, the games played (one opened: its scores and downloads), and
// a note while the touchscreen shows its settings. The page follows the box's mode (Box.follow): choosing a game
// loads the game's page. Every tap is sent once (Box.send); joined phones only (a watching phone sees, taps not).
"use strict";

(function () {
  const $ = (id) => document.getElementById(id);
  const _ = Box._;
  let state = null;
  let shownVersion = -1;

  function el(tag, className, text) {
    const node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined && text !== null) node.textContent = Box.drawn(text);
    return node;
  }

  function when(seconds) {
    return seconds ? new Date(seconds * 1000).toLocaleString(document.documentElement.lang || undefined,
      { dateStyle: "medium", timeStyle: "short" }) : "";
  }

  function players(summary) {
    return (summary.players || []).map((p) => summary.finished
      ? Box.isolate(p.name) + " " + p.total + (p.winner ? " \u2605" : "") : Box.isolate(p.name)).join(", ");
  }

  async function act(body, button) {
    const result = $("box-result");
    if (button) button.disabled = true;
    result.className = "action-result";
    result.textContent = Box.drawn(_("sending\u2026"));
    const events = state && state.session && typeof state.session.events === "number" ? state.session.events : 0;
    const { status, answer } = await Box.send("/api/box", body, events);
    if (button) button.disabled = false;
    result.className = "action-result" + (status === 200 ? " ok" : " error");
    result.textContent = Box.drawn(status === 200 ? answer.message || "" : Box.problem(status, answer));
  }

  function button(label, body, className) {
    const b = el("button", className || "", label);
    b.type = "button";
    b.disabled = document.body.dataset.joined !== "1";
    b.addEventListener("click", () => act(body, b));
    return b;
  }

  function renderChoose(block) {
    $("choose-section").hidden = !block;
    if (!block) return;
    const games = $("games");
    games.replaceChildren();
    for (const g of block.games || []) {
      const sub = g.players ? Box.format(_("{low}-{high} players"), { low: g.players[0], high: g.players[1] })
        : _("read the dice on the table");
      const b = button("", { action: "choose", game: g.game }, "game-choice");
      b.dataset.game = g.game;
      b.append(el("span", "game-title", g.title), el("span", "game-sub", sub));
      games.append(b);
    }
    const open = $("open-games");
    open.replaceChildren();
    for (const s of block.open || []) {
      const b = button("\u25b6 " + Box.format(_("Resume: {title} - {players} ({round})"),
        { title: s.title, players: players(s), round: s.round_label || "" }), { action: "resume", session: s.session }, "resume");
      b.dataset.session = s.session;
      open.append(b);
    }
    $("open-title").hidden = !(block.open || []).length;
  }

  function renderHistory(block) {
    $("history-section").hidden = !block;
    if (!block) return;
    const opened = block.open;
    const list = $("history-list");
    list.hidden = !!opened;
    list.replaceChildren();
    for (const g of block.games || []) {
      const li = el("li");
      const said = g.finished ? players(g) : Box.format(_("open: {round}"), { round: g.round_label || "" });
      const b = button(when(g.started_at) + " \u2014 " + g.title + " \u2014 " + said, { action: "open", session: g.session }, "history-game");
      b.dataset.session = g.session;
      li.append(b);
      list.append(li);
    }
    if (!(block.games || []).length) list.append(el("li", "none", _("No game played yet: choose one under Games.")));
    $("history-open").hidden = !opened;
    $("history-title").textContent = Box.drawn(opened ? opened.title + " \u2014 " + when(opened.started_at) : _("Games played"));
    if (!opened) return;
    const result = opened.result || { players: [], winners: [] };
    const won = result.winners || [];
    $("history-winner").textContent = Box.drawn(opened.finished
      ? "\u2605 " + (won.length > 1 ? _("Shared win: {names}") : _("Winner: {names}")).replace("{names}", won.map(Box.isolate).join(", "))
      : Box.format(_("Not finished: {round}"), { round: opened.round_label || "" }));
    // a game not over whose totals leave out what players entered hidden (Eclipse's final positions): the box says why
    $("history-hidden").hidden = !opened.hidden;
    $("history-hidden").textContent = Box.drawn(opened.hidden || "");
    Box.standings($("history-standings"), result, opened.finished);
    Box.scoreTable($("history-scores"), result, opened.finished);
    // a game not over downloads nothing (the box refuses: its record holds choices the table has not revealed)
    $("history-downloads").hidden = !opened.finished;
    const id = encodeURIComponent(opened.session);
    $("history-json").href = "/export/" + id + ".json";
    $("history-play").href = "/export/" + id + ".bgstats.json";
    $("history-bgstats").href = opened.bgstats_url || "#";
  }

  function renderActions(next) {
    const bar = $("box-actions");
    bar.replaceChildren();
    const mode = next.mode;
    const history = next.history || {};
    if (mode === "choose") {
      bar.append(button(_("History"), { action: "history" }));
      if ((next.box || {}).back) bar.append(button(_("Back"), { action: "back" }));
    } else if (mode === "history") {
      if (history.open) {
        bar.append(button(_("All games"), { action: "open" }));
        if (!history.open.finished) bar.append(button(_("Resume"), { action: "resume", session: history.open.session }));
      } else {
        bar.append(button(_("Back"), { action: "back" }));
      }
      bar.append(button(_("Games"), { action: "games" }));
    }
  }

  function render(next) {
    if (typeof next.version !== "number" || next.version === shownVersion) return;
    if (Box.follow(next)) return;
    shownVersion = next.version;
    state = next;
    document.body.dataset.version = String(next.version);
    document.body.dataset.mode = next.mode || "";
    renderChoose(next.mode === "choose" ? next.choose || {} : null);
    renderHistory(next.mode === "history" ? next.history || {} : null);
    $("settings-section").hidden = next.mode !== "settings";
    renderActions(next);
    const said = (next.status || {}).message || "";
    $("message").textContent = Box.drawn(said) === $("box-result").textContent ? "" : Box.drawn(said);
    Box.storage(next.storage);
  }

  function setMe(me) {
    document.body.dataset.joined = me.joined ? "1" : "0";
    document.body.classList.toggle("watching-only", !me.joined);
    $("join-banner").hidden = !!me.joined;
    if (state) {
      shownVersion = -1;
      render(state);
    }
  }

  function setConnection(kind, text) {
    const c = $("connection");
    c.className = "conn " + kind;
    c.textContent = Box.drawn(text);
  }

  document.addEventListener("DOMContentLoaded", () => {
    Box.live(render, setMe, setConnection, () => {
      shownVersion = -1;
    });
  });
})();
