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
      answer: { error: "Could not reach the box; check the Wi-Fi. Tapping again is safe: the box records a tap once." },
    };
  }

  // What to tell the player about an answer that is not a success.
  function problem(status, answer) {
    const error = (answer && answer.error) || "";
    if (status === 409) return (error || "The game changed since your screen showed it") + " (nothing was recorded)";
    if (status === 403 && !error) return "Not allowed from this phone.";
    if (status === 429) return error || "Too many taps: wait a moment and tap again.";
    return error || "The box refused: HTTP " + status;
  }

  // Live state: SSE /api/events ("state", "me" and "heartbeat" events), or polling /api/state and /api/me
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

    function reconnecting() {
      setConnection("reconnecting", "reconnecting\u2026");
    }
    function poll() {
      Promise.all([
        fetch("/api/state", { cache: "no-store" }).then((r) => r.json()),
        fetch("/api/me", { cache: "no-store" }).then((r) => r.json()),
      ]).then(([state, me]) => {
        setConnection("live", "live (every 3 s)");
        onMe(me);
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
        setConnection("live", "live");
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
        onMe(JSON.parse(event.data));
      });
      mine.addEventListener("state", (event) => {
        alive();
        setConnection("live", "live");
        onState(JSON.parse(event.data));
      });
    }
    window.addEventListener("offline", () => {
      clearTimeout(watchdog);
      reconnecting();
    });
    window.addEventListener("online", () => restart(0)); // back on the Wi-Fi: a fresh stream at once
    connect();
  }

  // The storage banner (view.storage): shown whenever its message is not empty, red while writes fail.
  function storage(health) {
    const banner = document.getElementById("storage-banner");
    if (!banner) return;
    const message = (health && health.message) || "";
    banner.hidden = !message;
    banner.textContent = message;
    banner.className = "storage-banner" + (health && health.ok === false ? " failing" : "");
  }

  return { send: send, newKey: newKey, problem: problem, live: live, storage: storage };
})();
