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

  // Live state: SSE /api/events ("state" and "me" events), or polling /api/state and /api/me when the
  // browser has no EventSource or the box has no stream free (503); handlers get the parsed JSON.
  function live(onState, onMe, setConnection) {
    let polling = null;
    function poll() {
      Promise.all([
        fetch("/api/state", { cache: "no-store" }).then((r) => r.json()),
        fetch("/api/me", { cache: "no-store" }).then((r) => r.json()),
      ]).then(([state, me]) => {
        setConnection("live", "live (every 3 s)");
        onMe(me);
        onState(state);
      }).catch(() => setConnection("reconnecting", "offline"));
    }
    function startPolling() {
      if (polling) return;
      poll();
      polling = setInterval(poll, 3000);
    }
    function connect() {
      if (!window.EventSource) {
        startPolling();
        return;
      }
      const source = new EventSource("/api/events");
      source.addEventListener("open", () => {
        setConnection("live", "live");
        if (polling) {
          clearInterval(polling);
          polling = null;
        }
      });
      source.addEventListener("error", () => {
        if (source.readyState === EventSource.CLOSED) { // refused (e.g. too many streams): poll, retry later
          startPolling();
          setTimeout(connect, 15000);
        } else {
          setConnection("reconnecting", "reconnecting\u2026");
        }
      });
      source.addEventListener("me", (event) => onMe(JSON.parse(event.data)));
      source.addEventListener("state", (event) => {
        setConnection("live", "live");
        onState(JSON.parse(event.data));
      });
    }
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
