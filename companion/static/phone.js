// Phone view (d6 dice): live state over Server-Sent Events (box.js), actions via POST /api/action.
// A phone that has not opened the QR code's link watches the numbers only: no camera picture, no
// buttons, and a banner saying to scan the code. Undo is sent once (Box.send: a fresh key, the version shown).
// Vanilla JS, no build step. Text is always set with textContent (state strings are not HTML).
"use strict";

(function () {
  const $ = (id) => document.getElementById(id);
  const _ = Box._; // the page's words in the phone's language (the state's words come said already)
  const CAMERA = { ok: _("Camera OK"), lost: _("Camera lost"), ended: _("Replay finished") };
  const READER = { watching: _("watching"), still: _("dice still"), read: _("read") };
  const ACTION_LABEL = { read_now: _("Read now"), undo: _("Undo") };

  let shownVersion = -1;
  let state = null;
  let me = { joined: document.body.dataset.joined === "1", seats: [], message: null }; // until /api/events says
  let frameKey = null;      // what the <img> shows (frame index, else the version)
  let frameLoading = false; // one image request at a time
  let frameQueued = null;   // newest URL asked for while one was loading

  function el(tag, className, text) {
    const node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined) node.textContent = Box.drawn(text);
    return node;
  }

  function valuesText(values) {
    return (values || []).map((v) => (v === null || v === undefined ? "?" : String(v))).join(" ");
  }

  function renderStatus(status) {
    const camera = status.camera || "";
    const cam = $("camera");
    cam.textContent = Box.drawn(CAMERA[camera] || Box.format(_("Camera {status}"), { status: camera || "?" }));
    cam.className = "pill " + camera;
    const reader = camera === "ok" ? status.reader || "" : "";
    const rd = $("reader");
    rd.textContent = Box.drawn(READER[reader] || reader);
    rd.className = "pill " + reader;
    $("message").textContent = Box.drawn(status.message || "");
    $("read-now").disabled = camera !== "ok";
  }

  function renderFindings(findings) {
    const list = $("findings");
    list.replaceChildren();
    for (const f of findings) {
      const li = el("li", f.severity || "warning", f.what || "?");
      if (f.where) li.append(" \u2014 " + f.where);
      if (f.rule) li.append(el("span", "rule", f.rule));
      list.append(li);
    }
    $("findings-section").hidden = findings.length === 0;
  }

  function renderGame(game) {
    const latest = game.latest || null;
    $("total").textContent = Box.drawn(latest ? String(latest.total) : "\u2013");
    const rolls = game.rolls || 0;
    $("rolls").textContent = Box.drawn(rolls ? Box.format(_("roll {seq}"), { seq: rolls }) : _("no rolls yet")); // the latest roll's number
    const unreadable = latest ? latest.unreadable || 0 : 0;
    const un = $("unreadable");
    un.textContent = Box.drawn(unreadable ? Box.format(Box.ngettext("{n} unreadable", "{n} unreadable", unreadable), { n: unreadable }) : "");
    un.className = unreadable ? "warn" : "";

    const counts = (latest && latest.counts) || {};
    for (let face = 1; face <= 6; face++) {
      const n = counts[String(face)] || 0;
      $("count-" + face).textContent = Box.drawn(String(n));
      $("count-" + face).parentElement.classList.toggle("zero", n === 0);
    }

    const dice = $("latest-values");
    dice.replaceChildren();
    if (!latest || !(latest.values || []).length) {
      dice.append(el("span", "none", latest ? _("no dice seen") : _("none yet")));
    } else {
      for (const v of latest.values) {
        const known = v !== null && v !== undefined;
        dice.append(el("span", known ? "die" : "die unknown", known ? String(v) : "?"));
      }
    }

    const history = $("history");
    history.replaceChildren();
    for (const roll of game.history || []) {
      const li = el("li", "", "#" + roll.seq + ": " + valuesText(roll.values) + " = " + roll.total);
      if (roll.origin && roll.origin !== "camera") li.append(" ", el("span", "origin", "(" + _(roll.origin) + ")"));
      history.append(li);
    }
    if (!history.children.length) history.append(el("li", "none", _("none yet")));
  }

  function loadFrame(url) {
    if (frameLoading) {
      frameQueued = url;
      return;
    }
    frameLoading = true;
    const img = $("frame");
    img.src = url;
  }

  function frameDone(ok) {
    frameLoading = false;
    $("frame").hidden = !ok;
    $("no-frame").hidden = ok;
    if (frameQueued) {
      const next = frameQueued;
      frameQueued = null;
      loadFrame(next);
    }
  }

  function renderFrame(state) {
    if (!me.joined) { // the picture is for joined phones only
      frameKey = null;
      $("frame").hidden = true;
      $("no-frame").hidden = false;
      $("no-frame").textContent = Box.drawn(_("Scan the QR code on the box to see the camera picture."));
      return;
    }
    $("no-frame").textContent = Box.drawn(_("No picture yet"));
    const key = state.frame && state.frame.index !== undefined ? "i" + state.frame.index : "v" + state.version;
    if (key === frameKey) return;
    frameKey = key;
    loadFrame("/frame.jpg?v=" + encodeURIComponent(state.version));
  }

  function render(next) {
    if (typeof next.version !== "number" || next.version === shownVersion) return;
    if (Box.follow(next)) return; // the box moved to a game or its chooser: that page is loading
    shownVersion = next.version;
    state = next;
    document.body.dataset.version = String(next.version);
    document.body.dataset.session = (next.session && next.session.id) || "";
    renderStatus(next.status || {});
    renderFindings(next.findings || []);
    renderGame(next.game || {});
    renderFrame(next);
    Box.storage(next.storage);
    Box.nav(next, "action-result");
  }

  function setMe(next) {
    const was = me.joined;
    me = next;
    document.body.classList.toggle("watching-only", !me.joined);
    $("join-banner").hidden = !!me.joined;
    if (state && was !== me.joined) renderFrame(state);
  }

  function setConnection(kind, text) {
    const c = $("connection");
    c.className = "conn " + kind;
    c.textContent = Box.drawn(text);
  }

  async function postAction(button) {
    const action = button.dataset.action;
    const result = $("action-result");
    button.disabled = true;
    try {
      // read_now only asks for a read (202); undo is answered once it is written (200)
      const events = state && state.session ? state.session.events : undefined;
      const { status, answer } = await Box.send("/api/action", { action: action }, events);
      if (status === 202) {
        result.className = "action-result";
        result.textContent = Box.drawn(Box.format(_("{action} sent"), { action: ACTION_LABEL[action] || action }));
      } else if (status === 200) {
        result.className = "action-result ok";
        result.textContent = Box.drawn(answer.message || Box.format(_("{action} done"), { action: ACTION_LABEL[action] || action }));
      } else {
        if (status === 409 && answer.state) render(answer.state);
        result.className = "action-result error";
        result.textContent = Box.drawn(Box.problem(status, answer));
      }
    } finally {
      button.disabled = action === "read_now" && !$("camera").classList.contains("ok");
    }
  }

  document.addEventListener("DOMContentLoaded", () => {
    const img = $("frame");
    img.addEventListener("load", () => frameDone(true));
    img.addEventListener("error", () => frameDone(false));
    for (const button of document.querySelectorAll("button[data-action]")) {
      button.addEventListener("click", () => postAction(button));
    }
    Box.live(render, setMe, setConnection, () => {
      shownVersion = -1; // (re)connected: draw the next state even if a restarted box gives it the same version
    });
  });
})();
