// Game-flow phone page: claim your seat, report changes to your own empire, Undo your last report,
// press "Next: <label>" (the table's Next, for a table without the box's screen), answer the camera's questions about
// your own seat (another phone's seat's questions are listed as waiting for that player),
// see the round and the final scores. Live state over SSE (box.js); the pictures (dots, boards, the station's free
// places, dice colours) are flowdraw.js's, the setup flowsetup.js's and the report form flowforms.js's, all loaded
// before it; vanilla JS, no build step.
// A phone that has not opened the QR code's link only watches: what needs joining is hidden and a
// banner says to scan the code. Every tap goes through Box.send (a fresh key, the version shown).
// Text is always set with textContent (state strings are not HTML).
"use strict";

(function () {
  const $ = (id) => document.getElementById(id);
  const _ = Box._; // the page's words in the phone's language (the state's words come said already)
  const format = Box.format;
  const SEAT_KEY = "tabletop-companion-seat";
  // The answer a player picked to a camera question and has not sent yet, by question id: kept when the page is drawn
  // again (another phone's report, the camera's next look) and when it reloads (a phone back from the lock screen),
  // so Confirm never sends the camera's guess in place of the player's pick.
  const PICKS_KEY = "tabletop-companion-camera-picks";
  function loadPicks() {
    try { return JSON.parse(sessionStorage.getItem(PICKS_KEY) || "{}") || {}; } catch (e) { return {}; }
  }
  function savePicks(picks) {
    try { sessionStorage.setItem(PICKS_KEY, JSON.stringify(picks)); } catch (e) { /* private mode: this page only */ }
  }
  let picks = loadPicks();
  let state = null;
  let shownVersion = -1;
  let me = { joined: document.body.dataset.joined === "1", seats: [], message: null }; // until /api/events says
  let picking = false; // the seat picker is open although this phone has a seat (to claim another)


  const el = FlowDraw.el;
  const { dot, boardPicture, DIE_COLOURS } = FlowDraw;
  // the setup (flowsetup.js) and the report form (flowforms.js), given what they need of this page
  const setupPart = FlowSetup({ post: post, state: () => state });
  const formsPart = FlowForms({ seat: seat, state: () => state, post: post });

  // The seat this phone reports for: one it claimed (the last picked, when it claimed several).
  function seat() {
    const seats = me.seats || [];
    const name = localStorage.getItem(SEAT_KEY);
    return seats.includes(name) ? name : seats.length ? seats[0] : null;
  }

  // Run update (this phone's seats or its chosen seat change); the report form is drawn anew only when the seat it
  // reports for changed, so a claim's answer or a seat list arriving while the player types keeps what is typed.
  function seatMayChange(update) {
    const before = seat();
    update();
    if (seat() !== before) formsPart.redraw();
  }

  // The version a tap is made against: the state on screen, or the one this phone's own last tap wrote (its
  // answer says so) when the box has not shown that state yet: a second tap right after the first is not
  // refused as made against an older state. Only for the same game (a new one counts anew).
  let written = null; // { game, version } of this phone's last recorded tap
  function gameKey() {
    return state && state.session ? String(state.session.id) + "/" + String(state.session.game) : "";
  }
  function version() {
    const shown = state && state.session && typeof state.session.events === "number" ? state.session.events : undefined;
    if (written && written.game === gameKey() && (shown === undefined || written.version > shown)) return written.version;
    return shown;
  }

  function renderJoin() {
    document.body.classList.toggle("watching-only", !me.joined);
    $("join-banner").hidden = !!me.joined;
    // no screen to show the QR code (--no-screen): the link printed when the box started is the way in
    if (screenless() && $("join-how")) $("join-how").textContent = Box.drawn(_("To take part (claim your seat, report, Next, " +
      "Undo) and to see the camera picture, open the box's join link (printed when it started) on this phone."));
  }

  // A box without a touchscreen (--no-screen): a joined phone frees seats and undoes for the table instead.
  function screenless() {
    return !!(state && state.box && state.box.screen === false);
  }

  function renderRound(game) {
    $("title").textContent = Box.drawn(game.title || _("Tabletop companion"));
    $("round-label").textContent = Box.drawn(game.round_label || "");
    const phases = $("phases");
    phases.replaceChildren();
    for (const ph of game.phases || []) {
      const li = el("li", ph.state, ph.label);
      if ((ph.by || []).length) li.append(el("span", "by", ph.by.join(", ")));
      phases.append(li);
    }
    $("note").textContent = Box.drawn(game.note || "");
    staleNext(game);
    $("pool").textContent = Box.drawn(game.pool === null || game.pool === undefined ? ""
      : format(_("{pool}: {vp}"), { pool: game.pool_label || _("VP pool"), vp: game.pool }));
    // Next from a phone (a table without the box's screen): the label says what the tap does
    const next = game.next || null;
    const nextShown = !!next && !!next.label && !game.setup && !game.over;
    const undoShown = screenless() && !game.setup && !!(state.session && state.session.events);
    $("next-actions").hidden = !nextShown && !undoShown;
    $("table-undo").hidden = !undoShown;
    const nextButton = $("phone-next");
    nextButton.textContent = Box.drawn(nextShown ? format(_("Next: {action}"), { action: next.label }) : _("Next"));
    nextButton.dataset.label = nextShown ? next.label : "";
    nextButton.dataset.asked = nextShown && next.asked ? "1" : "";  // a tap now answers the question shown
    nextButton.disabled = !nextShown || next.enabled === false;
    // why Next cannot be pressed, or what the Next just pressed asks to confirm (Among: who has not reported); the
    // phone that pressed it reads the same words in its own answer just below, once is enough
    const asked = nextShown && next.enabled !== false && next.asked && !$("next-result").textContent.includes(Box.drawn(next.asked))
      ? next.asked : "";
    $("next-why").textContent = Box.drawn(nextShown ? (next.enabled === false ? next.why || "" : asked) : "");
    const banner = $("last-round");
    banner.hidden = !game.last_round;
    banner.textContent = Box.drawn((game.ending || []).length ? format(_("LAST ROUND: {why}"), { why: game.ending.join("; ") })
      : _("LAST ROUND"));
  }

  // What this phone's Next answered ("Round 5: IV Produce") stands until the game moves on after it (any event
  // recorded since, from any phone or the box) or ends: a phase-old answer under "Game over" read as the state.
  function staleNext(game) {
    const result = $("next-result");
    const at = Number(result.dataset.version); // the game's events once the Next was recorded (its answer)
    const events = (state.session || {}).events;
    if (!result.dataset.version || typeof events !== "number") return;
    if (game.over || events > at || (events < at && result.dataset.seen)) { // a game over opens on its scores
      result.textContent = Box.drawn("");
      result.className = "action-result";
      delete result.dataset.version;
      delete result.dataset.seen;
    } else if (events === at) {
      result.dataset.seen = "1"; // the state holding the Next's own event: an Undo below it clears it too
    }
  }

  function renderSeats(game) {
    const mine = seat();
    $("seat-section").hidden = (!!mine && !picking) || !!game.over || !!game.setup;
    $("seat-hint").textContent = Box.drawn(!me.joined ? (screenless() ? _("Open the box's join link to claim your seat.")
      : _("Scan the QR code on the box to claim your seat."))
      : mine ? format(_("Your phone keeps {seats}; tap another seat to report for it too."), { seats: me.seats.join(", ") })
        : _("Tap your name: this phone then reports for that seat, and no other phone can."));
    const seats = $("seats");
    seats.replaceChildren();
    for (const p of game.players || []) {
      const own = (me.seats || []).includes(p.name);
      const held = own ? "your-seat" : p.claimed ? "taken" : "free";
      const said = own ? _("your seat") : p.claimed ? _("taken") : _("free");
      const b = el("button", "seat " + held);
      b.type = "button";
      b.dataset.player = p.name;
      b.disabled = !me.joined;
      b.append(el("span", "seat-name", p.name), el("span", "seat-state", said));
      b.addEventListener("click", () => claim(p.name, own, !!p.claimed));
      seats.append(b);
    }
  }

  async function claim(name, own, claimed) {
    const result = $("seat-result");
    if (own) { // already this phone's: just report for it
      seatMayChange(() => localStorage.setItem(SEAT_KEY, name));
      picking = false;
      renderAll();
      return;
    }
    // another phone holds it: the box lets this phone take it over once that phone gave it up or has been away two
    // minutes (it says what to do otherwise); the player says so first
    if (claimed && !window.confirm(format(_("{player}’s seat is held by another phone. Take it over on this phone?"),
      { player: name }))) return;
    result.className = "action-result";
    result.textContent = Box.drawn(format(_("Claiming {player}’s seat…"), { player: name }));
    const { status, answer } = await Box.send("/api/seat", { player: name }, version());
    if (status === 200) {
      seatMayChange(() => localStorage.setItem(SEAT_KEY, name));
      picking = false;
      result.textContent = Box.drawn(answer.message || format(_("{player}’s seat is this phone’s"), { player: name }));
      me = Object.assign({}, me, { seats: (me.seats || []).concat((me.seats || []).includes(name) ? [] : [name]) });
      renderAll();
    } else {
      if (status === 409 && answer.state) render(answer.state);
      result.className = "action-result error";
      result.textContent = Box.drawn(Box.problem(status, answer)); // the box says why and what to do, in this phone's language
    }
  }

  // The game's notes: a state carries the newest few and how many the game has (findings_total); "Show N older
  // notes" asks the box for every one (/api/findings), newest first, and keeps asking at each new state until
  // "Show only the newest notes" folds them again (a reload starts folded).
  let everyNote = null; // null: folded; else the version whose notes are asked for or shown
  function renderFindings(findings, total) {
    const more = $("findings-more");
    const older = Math.max(0, (total || 0) - findings.length);
    if (everyNote !== null && older > 0) {
      const version = shownVersion;
      if (everyNote !== version) {
        everyNote = version;
        // Not answered (the read limit, a restart): this state's newest are drawn, so a note just made shows at
        // once instead of the older whole list without it; the next state asks again.
        const still = () => everyNote === version && shownVersion === version;
        fetch("/api/findings", { cache: "no-store" }).then((r) => (r.ok ? r.json() : null)).then((body) => {
          if (still()) drawFindings(body ? body.findings || [] : findings);
        }).catch(() => { if (still()) drawFindings(findings); });
      }
    } else if (older === 0) {
      everyNote = null;
    }
    if (everyNote === null || !$("findings").children.length) drawFindings(findings); // unfolded: kept till the box answers
    more.hidden = older === 0;
    more.textContent = Box.drawn(everyNote !== null ? _("Show only the newest notes")
      : format(Box.ngettext("Show {n} older note", "Show {n} older notes", older), { n: older }));
    // Folded, "Show N older notes" follows the newest, where the older would go; unfolded, "Show only the newest
    // notes" heads the list and stays at the top of the screen while the player scrolls through it (flow.css).
    const unfolded = everyNote !== null;
    more.classList.toggle("unfolded", unfolded);
    if (unfolded && more.nextElementSibling !== $("findings")) $("findings").before(more);
    if (!unfolded && more.previousElementSibling !== $("findings")) $("findings").after(more);
  }

  function drawFindings(findings) {
    const list = $("findings");
    list.replaceChildren();
    for (const f of findings) {
      const li = el("li", f.severity || "warning", f.what || "?");
      if (f.where) li.append(" \u2014 " + Box.keepPlaces(f.where));
      if (f.rule) li.append(el("span", "rule", f.rule));
      if (f.todo) li.append(el("span", "todo", f.todo));
      if (f.fix) li.append(el("span", "fix", format(_("Fix: {fix}"), { fix: f.fix }))); // what puts it right ("rotate it 1 step ...")
      list.append(li);
    }
    $("findings-section").hidden = findings.length === 0;
  }


  // The camera's block (state.camera) on this phone; game: the state's game (whose seats phones hold).
  function renderCamera(camera, game) {
    const section = $("camera-section");
    if (!camera) {
      section.hidden = true;
      return;
    }
    const markers = $("markers");
    markers.hidden = !camera.markers;
    markers.textContent = Box.drawn(camera.markers ? camera.markers.message : "");
    const notes = $("reader-notes");
    notes.replaceChildren(...(camera.reader_notes || []).map((text) => el("li", "", text)));
    notes.hidden = !(camera.reader_notes || []).length;
    // what the camera sees of this phone's own cards (a card not seen, one between cells, cards not recognised);
    // the touchscreen shows only how many each player has
    const mine = seat();
    const own = (mine && (camera.notes || {})[mine]) || [];
    const ownList = $("station-notes");
    ownList.replaceChildren(...own.map((text) => el("li", "", text)));
    ownList.hidden = !own.length;
    const misplays = $("misplays");
    misplays.replaceChildren();
    for (const m of camera.misplays || []) {
      const li = el("li", m.severity || "error");
      li.append(el("span", "what", m.place
        ? format(_("{player}: {card} ({place}) — {message}"), {
          player: m.player, card: m.card, place: m.place, message: m.message })
        : format(_("{player}: {card} at [{cell}] — {message}"), {
          player: m.player, card: m.card, cell: m.cell.join(", "), message: m.message })));
      if (m.source) li.append(el("span", "rule", format(_("Rule: {rule}"), { rule: m.source })));
      if (m.fix) li.append(el("span", "fix", format(_("Fix: {fix}"), { fix: m.fix })));
      misplays.append(li);
    }
    const questions = $("questions");
    questions.replaceChildren();
    const asked = new Set((camera.questions || []).map((q) => String(q.id)));
    for (const id of Object.keys(picks)) if (!asked.has(id)) delete picks[id]; // answered or gone: forget the pick
    savePicks(picks);
    // A phone answers the questions of its own seats and of seats no phone holds (a player without a phone, the
    // shared map): the box refuses its answer for a seat another phone holds (403), so such a question is listed as
    // waiting for that player, without buttons. The touchscreen answers every question.
    const held = new Set(((game || {}).players || []).filter((p) => p.claimed).map((p) => p.name));
    for (const q of camera.questions || []) {
      const li = el("li", "question");
      li.dataset.id = String(q.id);
      li.dataset.player = q.player;
      li.append(el("span", "q", format(_("Camera: {question}"), { question: q.text })));
      if (q.picture && me.joined) { // the station meant, outlined in the camera's picture (joined phones see it)
        const img = el("img", "station-picture");
        img.src = q.picture; // its version is in the address: fetched once, then from the phone's cache
        img.alt = _("The station asked about, outlined in the camera's picture");
        img.addEventListener("error", () => { img.hidden = true; }); // answered meanwhile: no broken picture
        li.append(img);
      }
      if (held.has(q.player) && !(me.seats || []).includes(q.player)) {
        li.classList.add("theirs");
        li.append(el("span", "waiting", format(_("waiting for {player} to answer on their phone"), { player: q.player })));
        questions.append(li);
        continue;
      }
      if (q.error) li.append(el("span", "error", q.error));
      const answers = el("div", "answers needs-join");
      if (q.choose_player) { // "whose station is this?": one tap on a player this phone may answer for
        q.choices.forEach((c, k) => {
          if (held.has(c) && !(me.seats || []).includes(c)) return;
          const b = el("button", "confirm", (q.labels || q.choices)[k]);
          b.type = "button";
          b.addEventListener("click", () => post("/api/camera", { id: q.id, answer: "confirm", choice: c }, "camera-result"));
          answers.append(b);
        });
        if (!answers.children.length) { // every player it may be holds another phone's seat: theirs to answer
          li.classList.add("theirs");
          li.append(el("span", "waiting", format(_("waiting for {player} to answer on their phone"),
            { player: q.choices.join(", ") })));
        }
      }
      let pick = null;
      if ((q.choices || []).length && !q.choose_player) {
        pick = el("select", "choice");
        q.choices.forEach((c, k) => {
          const o = el("option", "", (q.labels || q.choices)[k]); // the label is shown, the choice is posted
          o.value = c;
          pick.append(o);
        });
        const mine = picks[String(q.id)];
        pick.value = mine !== undefined && q.choices.includes(mine) ? mine : q.proposed || q.choices[0];
        pick.addEventListener("change", () => {
          picks[String(q.id)] = pick.value;
          savePicks(picks);
        });
        answers.append(pick);
      }
      const yes = el("button", "confirm", _("Confirm"));
      yes.type = "button";
      yes.addEventListener("click", () => {
        const body = { id: q.id, answer: "confirm" };
        if (pick) body.choice = pick.value;
        post("/api/camera", body, "camera-result");
      });
      const no = el("button", "dismiss", _("Dismiss"));
      no.type = "button";
      no.addEventListener("click", () => post("/api/camera", { id: q.id, answer: "dismiss" }, "camera-result"));
      if (!q.choose_player) answers.append(yes);
      answers.append(no);
      li.append(answers);
      questions.append(li);
    }
    section.hidden = !camera.markers && !(camera.reader_notes || []).length && !(camera.misplays || []).length
      && !(camera.questions || []).length && !own.length;
  }

  // The columns each player's row shows are the game's own (game.columns: Tableau, Credits, VP by default).
  const DEFAULT_COLUMNS = [{ key: "tableau", label: _("Tableau") }, { key: "credits", label: _("Credits") }, { key: "vp", label: _("VP") }];

  function renderPlayers(game) {
    const columns = game.columns && game.columns.length ? game.columns : DEFAULT_COLUMNS;
    const head = $("players").tHead.rows[0];
    const labels = columns.map((c) => c.label).join("\n");
    if (head.dataset.labels !== labels) {
      // each heading with a capital, as "Player" beside it (a game's word may be the rules' lowercase one: "żetony PZ")
      head.replaceChildren(el("th", "", _("Player")), ...columns.map((c) => el("th", "", Box.rowLabel(c.label))));
      head.dataset.labels = labels;
    }
    const body = $("players").tBodies[0];
    body.replaceChildren();
    const dash = (v) => (v === null || v === undefined ? "\u2013" : String(v));
    for (const p of game.players || []) {
      const tr = el("tr", p.waiting ? "waiting" : "");
      // everyone who may act now is marked (Eclipse simultaneous play: both Action marker holders, RotA p.13)
      if ((game.acting || (game.turn ? [game.turn] : [])).includes(p.name)) tr.classList.add("turn");
      const who = el("td", "player-name");
      // the seat's dot before the name's first line (flow.css); the name breaks only between its words, and a word
      // wider than the column ends with "…", as the touchscreen cuts a name
      who.append(dot(p.colour), p.name);
      if (p.role) who.append(el("span", "role", " \u2014 " + p.role)); // a species' or a race's words kept whole
      if (p.waiting) who.dataset.waiting = _("(waiting)"); // drawn after the name (flow.css), in the phone's words
      tr.append(who, ...columns.map((c) => el("td", "", dash(p[c.key]))));
      body.append(tr);
    }
    fitNames();
  }

  // A name with a word wider than its column is drawn a little smaller, down to NAME_LEAST of the row's size, where
  // that keeps it whole; only a longer word ends with "…": the touchscreen's rule for a name (largest size that fits,
  // down to a least size read at arm's length, else cut at its end).
  const NAME_STEPS = ["0.92em", "0.85em", "0.8em"];
  function fitNames() {
    for (const cell of $("players").querySelectorAll("td.player-name")) {
      cell.style.fontSize = "";
      for (const size of NAME_STEPS) {
        if (cell.scrollWidth <= cell.clientWidth + 1) break;
        cell.style.fontSize = size;
      }
    }
  }
  window.addEventListener("resize", fitNames);

  function renderBoards(game) {
    const boards = game.boards || [];
    const section = $("boards-section");
    section.hidden = !boards.length;
    const shown = JSON.stringify([boards, (game.players || []).map((p) => p.colour)]);
    if (section.dataset.shown === shown) return;
    section.dataset.shown = shown;
    const list = $("boards");
    list.replaceChildren();
    for (const board of boards) {
      const fig = el("figure", "board");
      fig.append(el("figcaption", "", board.label));
      if (board.cells.length) fig.append(boardPicture(game, board));
      else fig.append(el("p", "message", _("nothing on it yet")));
      list.append(fig);
    }
  }



  function renderThrows(game) {
    const throws = game.throws || [];
    $("throws-section").hidden = !throws.length;
    const list = $("throws");
    list.replaceChildren();
    for (const t of throws) {
      const box = el("div", "throw");
      box.append(el("div", "label", t.label));
      if ((t.dice || []).length) {
        const dice = el("div", "dice");
        for (const d of t.dice) {
          const die = el("span", "die" + (d.hit === true ? " hit" : d.hit === false ? " miss" : ""),
            d.face === null || d.face === undefined ? "?" : String(d.face));
          die.style.background = DIE_COLOURS[d.colour] || d.colour;
          die.title = d.colour + (d.note ? ": " + d.note : "");
          dice.append(die);
        }
        box.append(dice);
      }
      box.append(el("div", "summary", t.summary || ""));
      list.append(box);
    }
  }

  function renderScores(game) {
    const result = game.result;
    $("score-section").hidden = !game.over || !result;
    if (!game.over || !result) return;
    const tied = Box.tieBroken(result);
    $("winner").textContent = Box.drawn(format(result.winners.length > 1 ? _("Shared win: {names}") : _("Winner: {names}"),
      { names: result.winners.map(Box.isolate).join(", ") }));
    $("tie-note").hidden = !tied.length;  // equal totals: the tie-break row under them decided
    $("tie-note").textContent = Box.drawn(tied.length ? format(_("{names} tied on {vp} VP; the tie-break under the totals decides"),
      { names: tied.map((p) => Box.isolate(p.name)).join(", "), vp: tied[0].total }) : "");
    const teams = Object.entries(result.team_scores || {});
    const teamList = $("team-scores");
    teamList.replaceChildren(...teams.map(([team, vp]) => el("li", "", format(_("{team} (team): {vp} VP"), {team: team, vp: vp}))));
    teamList.hidden = !teams.length;
    Box.standings($("standings"), result, true);
    Box.scoreTable($("scores"), result, true);
    const link = $("bgstats");
    link.href = (game.export && game.export.bgstats_url) || "#";
    link.hidden = !(game.export && game.export.bgstats_url);
    const session = state && state.session && state.session.id;
    $("download-json").href = session ? "/export/" + encodeURIComponent(session) + ".json" : "#";
    $("download-json").hidden = !session;
  }

  function renderAll() {
    renderJoin();
    if (!state) return;
    const game = state.game || {};
    renderRound(game);
    setupPart.render(game);
    renderSeats(game);
    renderCamera(state.camera || null, game);
    renderFindings(game.findings || state.findings || [], game.findings_total);
    formsPart.render(game);
    renderPlayers(game);
    renderBoards(game);
    renderThrows(game);
    renderScores(game);
    renderCheck(state);
    // The box's status line, unless this phone already shows the same words as the answer to its own tap (its
    // "recorded: ..." under the form or the Next): one line, not the same twice at the foot of the page.
    const status = (state.status || {}).message || "";
    const answered = [...document.querySelectorAll("main .action-result")]
      .some((r) => r.id !== "nav-result" && !r.hidden && r.textContent.trim() === Box.drawn(status).trim());
    $("message").textContent = Box.drawn(answered ? "" : status);
    Box.storage(state.storage);
    Box.nav(state, "nav-result");
  }

  // The table check before the first round (view.check): what the box found, and "Looks right: play".
  const SIGN = { OK: "\u2713", WARN: "\u26a0", FAIL: "\u2716" };
  function renderCheck(state) {
    const check = state.check || null;
    $("check-section").hidden = !check;
    if (!check) return;
    const list = $("check-lines");
    list.replaceChildren();
    for (const line of check.lines || []) {
      const li = el("li", "level-" + String(line.level || "OK").toLowerCase());
      li.append(el("span", "sign", SIGN[line.level] || ""), " ", el("span", "", line.message || ""));
      list.append(li);
    }
  }

  function render(next) {
    if (typeof next.version !== "number" || next.version === shownVersion) return;
    if (Box.follow(next)) return; // the box moved to its chooser or the dice: that page is loading
    shownVersion = next.version;
    state = next;
    document.body.dataset.version = String(next.version);
    renderAll();
  }


  // One tap: sent once (Box.send) against the version on screen; the answer is shown in resultId (true: recorded).
  // While it is on its way the button that sent it stays disabled (no double tap).
  async function post(url, body, resultId, button) {
    const result = $(resultId || "report-result");
    delete result.dataset.version;
    delete result.dataset.seen;
    if (button) button.disabled = true;
    result.className = "action-result";
    result.textContent = Box.drawn(_("sending…"));
    try {
      const { status, answer } = await Box.send(url, body, version());
      if (status >= 200 && status < 300) {
        if (typeof answer.version === "number") written = { game: gameKey(), version: answer.version };
        if (resultId === "next-result" && typeof answer.version === "number") result.dataset.version = String(answer.version);
        result.className = "action-result ok";
        result.textContent = Box.drawn(answer.message || _("recorded"));
        return true;
      }
      if (status === 409 && answer.state) render(answer.state);
      result.className = "action-result error";
      result.textContent = Box.drawn(Box.problem(status, answer));
      return false;
    } finally {
      if (button) button.disabled = false;
      renderAll(); // buttons take the state's enabled/disabled again
    }
  }

  function setConnection(kind, text) {
    const c = $("connection");
    c.className = "conn " + kind;
    c.textContent = Box.drawn(text);
  }

  // This phone's seats as the box says; a seat it had and lost (another phone took it over while this one was away,
  // or the touchscreen freed it) is said, with how to get it back.
  function setMe(next) {
    const lost = (me.seats || []).filter((name) => !(next.seats || []).includes(name) && name !== givingUp);
    seatMayChange(() => { me = next; });
    if (lost.length && next.joined) {
      $("seat-result").className = "action-result error";
      $("seat-result").textContent = Box.drawn(format(_("{player}’s seat is no longer this phone’s (freed, or taken over while " +
        "this phone was away): tap {player} to take it back"), { player: lost.join(", ") }));
    }
    renderAll();
  }

  let givingUp = null; // the seat this phone is giving up (its loss is no news to this phone)
  async function giveUpSeat() {
    const mine = seat();
    if (!mine || !window.confirm(format(_("Give up {player}’s seat on this phone? Another phone can then take it."),
      { player: mine }))) return;
    givingUp = mine;
    const { status, answer } = await Box.send("/api/seat/free", { player: mine }, version());
    const result = $("seat-result");
    result.className = "action-result" + (status === 200 ? " ok" : " error");
    result.textContent = Box.drawn(status === 200 ? answer.message || "" : Box.problem(status, answer));
    if (status === 200) {
      seatMayChange(() => { me = Object.assign({}, me, { seats: (me.seats || []).filter((name) => name !== mine) }); });
      picking = false;
      renderAll();
    }
    givingUp = null;
  }

  document.addEventListener("DOMContentLoaded", () => {
    $("form-pick").addEventListener("change", () => renderAll());
    $("fields").addEventListener("change", formsPart.showFor);
    $("fields").addEventListener("input", formsPart.showFor); // as a number is typed: "extra cubes 1" shows its reactor
    $("report-form").addEventListener("submit", (event) => {
      event.preventDefault();
      formsPart.sent(false);
      post("/api/report", { player: seat(), form: $("form-pick").value, values: formsPart.values() }, "report-result", $("send"))
        .then((ok) => { if (!ok) formsPart.sent(true); }); // refused: nothing recorded, what was entered is kept
    });
    $("findings-more").addEventListener("click", () => {
      everyNote = everyNote === null ? -1 : null; // -1: no version asked yet
      if (everyNote === null) drawFindings((state && ((state.game || {}).findings || state.findings)) || []);
      if (state) renderFindings((state.game || {}).findings || state.findings || [], (state.game || {}).findings_total);
      // folded from deep in a long list: the notes' top comes back into view, not what lay below the list
      const section = $("findings-section");
      if (everyNote === null && section.getBoundingClientRect().top < 0) section.scrollIntoView({ block: "start" });
    });
    $("undo-report").addEventListener("click", () => post("/api/report/undo", { player: seat() }, "report-result", $("undo-report")));
    $("table-undo").addEventListener("click", () => post("/api/action", { action: "undo" }, "next-result", $("table-undo")));
    $("phone-next").addEventListener("click", () => {
      const label = $("phone-next").dataset.label;
      const confirm = $("phone-next").dataset.asked === "1";  // the page shows what the last Next asked
      if (label) post("/api/action", { action: "next_phase", label: label, confirm: confirm }, "next-result", $("phone-next"));
    });
    setupPart.bind();
    $("table-ok").addEventListener("click", () => post("/api/box", { action: "table_ok" }, "check-result", $("table-ok")));
    $("give-up-seat").addEventListener("click", giveUpSeat);
    $("change-seat").addEventListener("click", () => {
      picking = true;
      renderAll();
    });
    renderJoin();
    Box.live(render, setMe, setConnection, () => {
      shownVersion = -1; // (re)connected: draw the next state even if a restarted box gives it the same version
    });
  });
})();
