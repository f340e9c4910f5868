// The owner page: a joined phone asks the box (the touchscreen shows "Allow this phone to change the box
// settings?"); once allowed, GET /api/owner gives the health checks and the settings, which are changed with
// POST /api/owner/settings (one setting a tap, sent once by Box.send). Until allowed, /api/owner answers 403.
"use strict";

(function () {
  const $ = (id) => document.getElementById(id);
  const _ = Box._;
  const SIGN = { OK: "\u2713", WARN: "\u26a0", FAIL: "\u2716" };
  let shown = null;
  let timer = null;

  function el(tag, className, text) {
    const node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined && text !== null) node.textContent = Box.drawn(text);
    return node;
  }

  function render(owner) {
    $("ask-section").hidden = true;
    $("health-section").hidden = false;
    $("settings-section").hidden = !owner.settings;
    const list = $("health");
    list.replaceChildren();
    for (const check of owner.health || []) {
      const li = el("li", "level-" + String(check.level).toLowerCase());
      li.append(el("span", "sign", SIGN[check.level] || ""), " ", el("strong", "", _(check.level) + " " + _(check.key)),
        " \u2014 ", el("span", "", check.message));
      list.append(li);
    }
    if (!(owner.health || []).length) list.append(el("li", "", _("the first checks run a few seconds after the box starts")));
    const settings = owner.settings;
    if (!settings || JSON.stringify(settings) === shown) return;
    shown = JSON.stringify(settings);
    const pick = $("box-language");
    pick.replaceChildren();
    for (const c of settings.language.choices) {
      const o = el("option", "", c.name);
      o.value = c.code;
      pick.append(o);
    }
    pick.value = settings.language.value;
    $("brightness-field").hidden = !settings.brightness;
    if (settings.brightness) $("brightness").value = String(settings.brightness.value);
    $("sound-field").hidden = !settings.sound;
    if (settings.sound) $("sound").value = settings.sound.value ? "on" : "off";
  }

  async function look() {
    const response = await fetch("/api/owner", { cache: "no-store" }).catch(() => null);
    if (response && response.status === 200) {
      render(await response.json());
    }
    return response ? response.status : 0;
  }

  function poll() {
    clearTimeout(timer);
    timer = setTimeout(async () => {
      await look();
      poll();
    }, 3000);
  }

  async function change(setting, value) {
    const { status, answer } = await Box.send("/api/owner/settings", { setting: setting, value: value }, 0);
    return status === 200 ? answer.message || "" : Box.problem(status, answer);
  }

  document.addEventListener("DOMContentLoaded", async () => {
    $("ask").addEventListener("click", async () => {
      const result = $("ask-result");
      $("ask").disabled = true;
      const { status, answer } = await Box.send("/api/owner/ask", {}, 0);
      $("ask").disabled = false;
      result.className = "action-result" + (status === 200 ? " ok" : " error");
      result.textContent = Box.drawn(status === 200 ? answer.message || _("asked: answer on the box's touchscreen")
        : Box.problem(status, answer));
    });
    $("save").addEventListener("click", async () => {
      const said = [await change("box.language", $("box-language").value)];
      if (!$("brightness-field").hidden) said.push(await change("screen.brightness", Number($("brightness").value)));
      if (!$("sound-field").hidden) said.push(await change("sound.on", $("sound").value === "on"));
      shown = null;
      $("save-result").textContent = Box.drawn(said.filter(Boolean).join("; "));
      await look();
    });
    await look();
    poll();
  });
})();
