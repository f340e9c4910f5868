// Talking to the box, shared by the phone pages: every tap is sent exactly once.
// Each tap gets a fresh random key and the state version the player saw (session.events); when the
// answer is lost (Wi-Fi drop, timeout) the same request, with the same key, is sent again, and the box
// answers a repeated key with its first answer instead of doing it twice. Vanilla JS, no build step.
"use strict";

window.Box = (function () {
  const TIMEOUT_MS = 10000; // an answer later than this counts as lost (the box answers within ~5 s)
  const RETRIES = 3;        // resends after a lost answer: 0.5 s, 1 s, 2 s apart

  function newKey() {
    // crypto.getRandomValues works on plain http:// (randomUUID needs https)
    const bytes = new Uint8Array(16);
    crypto.getRandomValues(bytes);
    return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
  }

  function sleep(ms) {
    return new Promise((resolve) => setTimeout(resolve, ms));
  }

  async function once(url, payload) {
    const abort = new AbortController();
    const timer = setTimeout(() => abort.abort(), TIMEOUT_MS);
    try {
      const response = await fetch(url, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify(payload),
        signal: abort.signal,
      });
      const answer = await response.json().catch(() => ({}));
      return { status: response.status, answer: answer };
    } finally {
      clearTimeout(timer);
    }
  }

  // POST body to url as one tap: adds "key" (fresh) and "version" (when given); resends the same
  // request after a lost answer. Resolves to {status, answer}; status 0 when the box never answered.
  async function send(url, body, version) {
    const payload = Object.assign({}, body, { key: newKey() });
    if (typeof version === "number") payload.version = version;
    for (let attempt = 0; ; attempt++) {
      try {
        return await once(url, payload);
      } catch (err) {
        if (attempt >= RETRIES) break;
        await sleep(500 * 2 ** attempt);
      }
    }
    return {
      status: 0,
      answer: { error: _("Could not reach the box; check the Wi-Fi. Tapping again is safe: the box records a tap once.") },
    };
  }

  // What to tell the player about an answer that is not a success.
  function problem(status, answer) {
    const error = (answer && answer.error) || "";
    // the box's own refusal of a stale tap already says that nothing was recorded (and what to do): said once
    if (status === 409) return error || format(_("{problem} (nothing was recorded)"),
      { problem: _("The game changed since your screen showed it") });
    if (status === 403 && !error) return _("Not allowed from this phone.");
    if (status === 429) return error || _("Too many taps: wait a moment and tap again.");
    return error || format(_("The box refused: HTTP {status}"), { status: status });
  }

  // Live state: SSE /api/events ("state", "me", "heartbeat" and "problem" events), or polling /api/state and /api/me
  // when the browser has no EventSource or the box refuses a stream (503: too many open); handlers get the
  // parsed JSON. The connection pill says "live" while the stream delivers and "reconnecting..." whenever it
  // does not: the Wi-Fi dropped (the browser says offline, or the stream went silent past the box's heartbeat)
  // or the box is restarting. The page reconnects by itself, backing off to 15 s between tries, and after a
  // reconnect onOpen() lets the page draw the next state whatever its version (a restarted box counts anew).
  function live(onState, onMe, setConnection, onOpen) {
    const RETRY_MAX_MS = 15000;
    let source = null;
    let polling = null;
    let retryTimer = null;
    let retryMs = 1000;
    let watchdog = null;
    let silenceMs = 45000; // no event for this long: the stream is dead (2.5 heartbeats; the box says how often)
    // what the box last said it could not send ("problem" events): a state (it names its version), or this phone's
    // "me" (version null); the pill keeps saying so until that kind of event arrives again, then says "live"
    let unsent = { state: false, me: false };
    function sent(kind) {
      unsent[kind] = false;
      if (!unsent.state && !unsent.me) setConnection("live", _("live"));
    }

    function reconnecting() {
      setConnection("reconnecting", _("reconnecting…"));
    }
    function poll() { // a state the box could not write (an error's body, not a state) is said, not drawn
      Promise.all([
        fetch("/api/state", { cache: "no-store" }).then((r) => r.json().then((body) => [r.ok, body])),
        fetch("/api/me", { cache: "no-store" }).then((r) => r.json()),
      ]).then(([[ok, state], me]) => {
        onMe(me);
        if (!ok) {
          setConnection("reconnecting", (state && state.error) || _("reconnecting…"));
          return;
        }
        setConnection("live", _("live (every 3 s)"));
        onState(state);
      }).catch(reconnecting);
    }
    function startPolling() {
      if (polling) return;
      poll();
      polling = setInterval(poll, 3000);
    }
    function stopPolling() {
      if (polling) clearInterval(polling);
      polling = null;
    }
    function alive() { // an event arrived: the stream works; a silence longer than silenceMs means it does not
      clearTimeout(watchdog);
      watchdog = setTimeout(() => {
        reconnecting();
        restart(0);
      }, silenceMs);
    }
    function restart(delayMs) { // a new stream after delayMs (the old one, if any, closed first)
      if (source) source.close();
      source = null;
      clearTimeout(retryTimer);
      retryTimer = setTimeout(connect, delayMs);
    }
    function connect() {
      if (!window.EventSource) {
        startPolling();
        return;
      }
      const mine = new EventSource("/api/events");
      source = mine;
      mine.addEventListener("open", () => {
        retryMs = 1000;
        stopPolling();
        unsent = { state: false, me: false }; // a new stream sends everything anew
        setConnection("live", _("live"));
        alive();
        if (onOpen) onOpen();
      });
      mine.addEventListener("error", () => {
        if (mine !== source) return;
        clearTimeout(watchdog);
        reconnecting();
        if (mine.readyState === EventSource.CLOSED) { // refused, not just cut: poll meanwhile, try again later
          startPolling();
          restart(retryMs);
          retryMs = Math.min(retryMs * 2, RETRY_MAX_MS);
        } // else the browser retries by itself (every 2 s: the box's "retry:")
      });
      mine.addEventListener("heartbeat", (event) => {
        const every = (JSON.parse(event.data || "{}") || {}).every_s;
        if (typeof every === "number" && every > 0) silenceMs = every * 2500;
        alive();
      });
      mine.addEventListener("me", (event) => {
        alive();
        if (unsent.me) sent("me");
        onMe(JSON.parse(event.data));
      });
      mine.addEventListener("problem", (event) => { // the box could not send one state or "me": said; the stream goes on
        alive();
        const said = JSON.parse(event.data || "{}") || {};
        unsent[typeof said.version === "number" ? "state" : "me"] = true;
        setConnection("reconnecting", said.error || _("reconnecting…"));
      });
      mine.addEventListener("state", (event) => {
        alive();
        sent("state");
        onState(JSON.parse(event.data));
      });
    }
    window.addEventListener("offline", () => { // the stream is closed: events still in flight would say "live"
      clearTimeout(watchdog);
      clearTimeout(retryTimer);
      stopPolling();
      if (source) source.close();
      source = null;
      reconnecting();
    });
    window.addEventListener("online", () => restart(0)); // back on the Wi-Fi: a fresh stream at once
    // "still here": a request every PING_S while the page is shown, and at once when it is shown again, so that the
    // box knows this phone holds its seat (a seat of a phone away two minutes may be taken over:
    // companion/phone_policy.py); the answer is this phone's seats, as the stream's "me"
    const PING_MS = 20000;
    function ping() {
      if (document.visibilityState === "hidden") return;
      fetch("/api/me", { cache: "no-store" }).then((r) => (r.ok ? r.json() : null))
        .then((me) => { if (me) onMe(me); }).catch(() => {});
    }
    setInterval(ping, PING_MS);
    document.addEventListener("visibilitychange", ping);
    connect();
  }

  // The storage banner (view.storage): shown whenever its message is not empty, red while writes fail.
  function storage(health) {
    const banner = document.getElementById("storage-banner");
    if (!banner) return;
    const message = (health && health.message) || "";
    banner.hidden = !message;
    banner.textContent = drawn(message);
    banner.className = "storage-banner" + (health && health.ok === false ? " failing" : "");
  }

  // The page's words in the phone's language: the catalog the page loads before its scripts (/words/<lang>.js sets
  // window.BOX_WORDS = {lang, messages, plurals}), else the English. Brace fields ("{name} won") are filled in by
  // format().
  let catalog = null;
  function words() {
    if (catalog === null) {
      const given = window.BOX_WORDS;
      catalog = given && typeof given === "object" ? Object.assign({}, given) : {};
      catalog.messages = catalog.messages || {};
      catalog.plurals = catalog.plurals || {};
    }
    return catalog;
  }
  function _(text) {
    return words().messages[text] || text;
  }
  // A word said differently in one place (gettext's context: a seat colour's letter in its dot); null when the
  // catalog has none.
  function pgettext(context, text) {
    return words().messages[context + "\u0004" + text] || null;
  }
  // The form of a plural message for n in the phone's language (Polish has three): the browser's plural rules
  // name the category (one, few, many, other), the catalog holds each category's form.
  function ngettext(singular, plural, n) {
    const forms = words().plurals[singular];
    if (forms) {
      let category = "other";
      try {
        category = new Intl.PluralRules(words().lang || document.documentElement.lang || "en").select(n);
      } catch (err) {
        category = n === 1 ? "one" : "other";
      }
      const form = forms[category] || forms.other;
      if (form) return form;
    }
    return n === 1 ? singular : plural;
  }

  // A player's name set apart from the text round it (Unicode's first-strong isolate ... pop directional isolate)
  // when it holds a right-to-left letter: in "מרים 14, سارة 13" the browser's bidi would otherwise join the totals
  // and commas to the names' run and draw "13 ... 14 מרים", a total beside the other player's name. Other names are
  // returned as they are (the page's languages are all left to right).
  const RTL_LETTER = /[\u0590-\u08ff\ufb1d-\ufdff\ufe70-\ufefc]|\ud802[\udc00-\udfff]|\ud83a[\udc00-\udfff]/;
  function isolate(name) {
    const text = String(name);
    return RTL_LETTER.test(text) ? "\u2068" + text + "\u2069" : text;
  }

  // A place written in brackets with its space ("[0, 0]", a station's "[-12, 5]", a hex's "[q, r]") kept on one line
  // on the page: the spaces inside it become no-break spaces (U+00A0) in what is drawn only, never in what is sent or
  // stored, so a narrow phone never wraps "… Main Reactor στο [0," / "0], …". At most PLACE_MOST characters inside,
  // as the touchscreen (companion/screen/canvas.py PLACE_MOST): a longer bracket (a list) may still wrap.
  // An Eclipse sector is drawn as its three-digit number and its name ("232 Rigel", "103 Beta Leonis"): the space
  // after the number becomes a no-break space too, so a 360 px phone never leaves "232" at a line's end and "Rigel"
  // on the next (Polish wrapped there). Only a number of exactly three digits followed by a capital letter's word.
  const PLACE = /\[[^\[\]\n]{0,16}\]/g;
  const SECTOR = /(^|[^\p{L}\p{N}])(\d{3}) (?=\p{Lu})/gu;
  // A hex written as a pair in round brackets, "(0, -2)" (Eclipse's "hex (0, 2)" where a note was found), is kept on
  // one line with the word before it: "heks (0," / "2)" and "heks" / "(0, 2)" wrapped at 360 px.
  const HEX = /(\p{L}+ )?\((-?\d{1,3}), (-?\d{1,3})\)/gu;
  function keepPlaces(text) {
    return String(text).replace(PLACE, (place) => place.replace(/ /g, "\u00a0"))
      .replace(SECTOR, (whole, before, number) => before + number + "\u00a0")
      .replace(HEX, (whole, word, q, r) => (word ? word.slice(0, -1) + "\u00a0" : "") + "(" + q + ",\u00a0" + r + ")");
  }

  // Every player-visible text the pages set goes through here (textContent set to Box.drawn(text)), the text with
  // its places and sectors kept on one line (keepPlaces); null/undefined draw nothing, as textContent does. What is
  // sent or stored is never this drawn text.
  function drawn(text) {
    return text === undefined || text === null ? "" : keepPlaces(text);
  }

  // "{name} won" with {name} filled in (the catalogs keep Python's brace fields).
  function format(text, values) {
    return text.replace(/\{(\w+)\}/g, (whole, key) => (key in values ? String(values[key]) : whole));
  }

  // The page a state is drawn on (companion.web.page_for): a mode of the box that another page draws loads that
  // page. Loads are at least FOLLOW_GAP_MS apart: a move that comes sooner (the box tapped to its history moments
  // after this page loaded) waits out the gap, then loads the page of the box's mode then; never dropped, and no
  // state of another page is drawn here meanwhile. A state that already loaded its page once and still finds
  // itself on another (the box and this page disagree) is drawn where it is: never a reload loop.
  const BOX_MODES = ["choose", "history", "settings"];
  const FLOW_MODES = ["setup", "play", "scores", "calibration"];
  const FOLLOW_GAP_MS = 1500;
  const FOLLOWED_KEY = "tabletop-companion-followed"; // {at: ms, version, page} of the last load a state asked for
  let followTimer = null;
  function pageFor(state) {
    const mode = state && state.mode;
    if (BOX_MODES.includes(mode)) return "box";
    if (FLOW_MODES.includes(mode) || (state && state.game && state.game.flow)) return "flow";
    return "dice";
  }
  function followed() {
    try {
      const last = JSON.parse(sessionStorage.getItem(FOLLOWED_KEY) || "{}");
      return last && typeof last === "object" ? last : {};
    } catch (err) {
      return {};
    }
  }
  function follow(state) {
    const here = document.body.dataset.page;
    if (!here || here === "owner" || !state || typeof state.version !== "number") return false;
    const there = pageFor(state);
    if (there === here) { // the box came back to this page's mode before a waiting load: stay
      clearTimeout(followTimer);
      followTimer = null;
      return false;
    }
    const last = followed();
    if (last.version === state.version && last.page === there) return false; // never a reload loop
    const mark = { version: state.version, page: there };
    clearTimeout(followTimer);
    const at = Number(last.at) || 0;
    const wait = Math.max(0, Math.min(FOLLOW_GAP_MS, at + FOLLOW_GAP_MS - Date.now()));
    followTimer = setTimeout(() => {
      sessionStorage.setItem(FOLLOWED_KEY, JSON.stringify(Object.assign({ at: Date.now() }, mark)));
      window.location.reload();
    }, wait);
    return true;
  }

  // The language picker in the header: the phone's own language, kept in a cookie, the page drawn again in it.
  function languagePicker() {
    const pick = document.getElementById("lang-pick");
    if (!pick) return;
    pick.addEventListener("change", () => {
      document.cookie = "lang=" + encodeURIComponent(pick.value) + "; path=/; max-age=31536000; SameSite=Strict";
      window.location.reload();
    });
  }
  document.addEventListener("DOMContentLoaded", languagePicker);

  // The box's own buttons on a phone page (#box-nav, joined phones): Games and History where the box has them.
  // A phone leaves a game only once it is over (the touchscreen leaves it at any time); on a box without a
  // touchscreen a player's phone leaves it at any time, once the player said so (companion/phone_policy.py).
  function nav(state, result) {
    const bar = document.getElementById("box-nav");
    if (!bar) return;
    const box = (state && state.box) || {};
    const mode = state && state.mode;
    const playing = ["play", "calibration"].includes(mode) && box.screen === false;
    const leave = ["dice", "setup", "scores"].includes(mode) || playing ||
      (!mode && !(state && state.game && state.game.flow));
    const wanted = box.games && leave ? [["games", mode === "scores" ? _("New game") : _("Games")], ["history", _("History")]] : [];
    const shown = wanted.map((w) => w[0]).join(",");
    bar.hidden = wanted.length === 0;
    if (bar.dataset.shown === shown) return;
    bar.dataset.shown = shown;
    bar.replaceChildren();
    for (const [action, label] of wanted) {
      const b = document.createElement("button");
      b.type = "button";
      b.textContent = drawn(label);
      b.dataset.boxAction = action;
      b.addEventListener("click", async () => {
        const title = (state && state.game && state.game.title) || "";
        if (playing && !window.confirm(format(_("Leave {game}? It stays open: Resume brings it back."), { game: title }))) return;
        b.disabled = true;
        const out = document.getElementById(result);
        const events = state && state.session && typeof state.session.events === "number" ? state.session.events : 0;
        const { status, answer } = await send("/api/box", { action: action }, events);
        b.disabled = false;
        if (out) {
          out.className = "action-result" + (status === 200 ? " ok" : " error");
          out.textContent = drawn(status === 200 ? answer.message || "" : problem(status, answer));
        }
      });
      bar.append(b);
    }
  }

  // A score category (the rules' lowercase word in the phone's language: "kredyty", "μονάδες") as a row label of the
  // scores table, beside its "Total": its first letter a capital in the phone's language ("Kredyty", "Μονάδες"), as
  // the touchscreen's table has it; a label that starts with a capital, a digit or a sign is as it was. A capital that
  // starts a word keeps its accent ("άδειοι" -> "Άδειοι"): a language's own capitals are taken (Turkish "i" -> "İ")
  // unless they are the all-capitals form that drops the accent (the browser's Greek capitals: "ά" -> "Α").
  function rowLabel(category) {
    const text = String(category);
    if (!text) return text;
    const first = String.fromCodePoint(text.codePointAt(0));
    let upper = first.toUpperCase();
    try {
      const local = first.toLocaleUpperCase(words().lang || document.documentElement.lang || "en");
      if (local.normalize("NFD").length >= first.normalize("NFD").length) upper = local;
    } catch (err) {
      // a language tag the browser does not know: the letter's plain capital
    }
    return upper + text.slice(first.length);
  }

  // The players sharing the highest total when the game's tie-break made fewer of them winners (Roll for the Galaxy
  // p.8 Victory: dice in the cup plus credits), in seat order; [] when the totals alone name the winners (teams rank
  // by their own scores). As companion.screen.game.tie_broken on the touchscreen.
  function tieBroken(result) {
    const players = result.players || [];
    if (!players.length || Object.keys(result.team_scores || {}).length) return [];
    const best = Math.max(...players.map((p) => p.total));
    const tied = players.filter((p) => p.total === best);
    return tied.length > 1 && (result.winners || []).length < tied.length ? tied : [];
  }

  // Every player's total before the breakdown, one line a player, highest first (among equal totals the winners the
  // tie-break named first, then seat order), the winners' with a star when `finished`: the table scrolls sideways on a
  // phone narrower than its columns (a 360 px phone hid a four-player game's fourth), a line never does.
  function standings(list, result, finished) {
    const span = (className, text) => {
      const node = document.createElement("span");
      node.className = className;
      node.textContent = drawn(text);
      return node;
    };
    const players = [...(result.players || [])];
    players.sort((a, b) => b.total - a.total || Number(Boolean(b.winner)) - Number(Boolean(a.winner)));
    list.replaceChildren(...players.map((p) => {
      const won = finished && p.winner;
      const line = document.createElement("li");
      if (won) line.className = "winner";
      line.append(span("name", (won ? "\u2605 " : "") + p.name + (p.team ? " (" + p.team + ")" : "")),
                  span("vp", format(_("{vp} VP"), { vp: p.total })));
      return line;
    }));
    list.hidden = !players.length;
  }

  // A game's scores in a <table>: a row per category (labelled with a capital), a column per player, the totals;
  // with `finished` the winners' totals carry a star (not only a colour); under it, the rulebook section the scoring
  // follows (result.rule, in the phone's language), when the game names one.
  function scoreTable(table, result, finished) {
    const cell = (tag, className, text) => {
      const node = document.createElement(tag);
      if (className) node.className = className;
      node.textContent = drawn(text);
      return node;
    };
    table.replaceChildren();
    const head = document.createElement("tr");
    head.append(cell("th", "", _("Category")));
    for (const p of result.players) head.append(cell("th", "", p.name + (p.team ? " (" + p.team + ")" : "")));
    table.append(head);
    // every player's rows, in order (players of one game may have rows of their own: an Eclipse species' row)
    const categories = [];
    for (const p of result.players) {
      for (const c of p.categories) if (!categories.includes(c.category)) categories.push(c.category);
    }
    for (const cat of categories) {
      const tr = document.createElement("tr");
      tr.append(cell("td", "", rowLabel(cat)));
      for (const p of result.players) tr.append(cell("td", "", String(p.breakdown[cat] || 0)));
      table.append(tr);
    }
    const total = cell("tr", "winner-row", "");
    total.append(cell("td", "", _("Total")));
    for (const p of result.players) {
      const won = finished && p.winner;
      total.append(cell("td", won ? "winner" : "", (won ? "\u2605 " : "") + String(p.total)));
    }
    table.append(total);
    const tied = tieBroken(result);
    if (finished && tied.length) {  // equal totals the game's tie-break decided: each player's tie-break under them
      const row = cell("tr", "tiebreak-row", "");
      // what the game's tie-break counts ("Tie-break: dice in cup + credits"), when the game says
      row.append(cell("td", "", result.tiebreak_rule ? format(_("Tie-break: {what}"), { what: result.tiebreak_rule })
                                                    : _("Tie-break")));
      for (const p of result.players) row.append(cell("td", p.winner ? "winner" : "", (p.tiebreak || []).join(" ") || "-"));
      table.append(row);
    }
    if (result.rule) {  // under the table, its words held in view while the players' columns scroll (flow.css)
      const caption = cell("caption", "rule", "");
      caption.append(cell("span", "", format(_("Rule: {rule}"), { rule: result.rule })));
      table.append(caption);
    }
    scrollCue(table);
  }

  // A score table wider than its box (a 360 px phone, four players or more) scrolls sideways inside it: a line over
  // it says so while it does, and its right edge fades while columns lie beyond it (before, a four-player game's
  // fourth column was out of sight with no sign it was there). Measured again when the table or the phone's width
  // changes (the table is drawn while its section may still be hidden) and as the table is scrolled.
  const cueUpdates = new WeakMap();  // a cue line: how to measure it again
  function scrollCue(table) {
    const box = table.parentElement;
    if (!box || !box.classList.contains("table-scroll")) return;
    let cue = box.previousElementSibling;
    if (!cue || !cue.classList.contains("scroll-cue")) {
      cue = document.createElement("p");
      cue.className = "scroll-cue";
      cue.hidden = true;
      box.before(cue);
      const update = () => {
        const wider = box.scrollWidth > box.clientWidth + 1;
        cue.hidden = !wider;
        box.classList.toggle("more-right", wider && box.scrollLeft + box.clientWidth < box.scrollWidth - 1);
      };
      box.addEventListener("scroll", update, { passive: true });
      if (window.ResizeObserver) {
        const watch = new ResizeObserver(update);
        watch.observe(box);
        watch.observe(table);
      }
      cueUpdates.set(cue, update);
    }
    cue.textContent = drawn(_("Swipe the table sideways for every player’s column") + " \u2192");
    cueUpdates.get(cue)();
  }

  return { send: send, newKey: newKey, problem: problem, keepPlaces: keepPlaces, drawn: drawn, live: live, storage: storage, _: _, ngettext: ngettext, pgettext: pgettext,
           format: format, isolate: isolate,
           pageFor: pageFor, follow: follow, nav: nav, standings: standings, scoreTable: scoreTable, rowLabel: rowLabel, tieBroken: tieBroken };
})();
