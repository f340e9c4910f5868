// Game-flow phone page, its setup: the players being added (a name, a colour, the game's per-player choices), their
// renaming, the game's options and Start. Loaded after flowdraw.js and before flow.js, which makes it with what it
// needs of the page (window.FlowSetup(page): page.post, page.state); vanilla JS, no build step. Text is always set
// with textContent.
"use strict";

window.FlowSetup = function (page) {
  const $ = (id) => document.getElementById(id);
  const _ = Box._; // the page's words in the phone's language
  const format = Box.format;
  const { el, dot } = FlowDraw;
  const post = page.post;

  // A player's new name, asked in the browser's own box (its field takes any length): a longer name is offered again
  // cut to the box's limit (the name field's maxlength, counted in characters as the box counts them) until it
  // fits or the player cancels. Returns the trimmed name, or null when cancelled.
  function askName(old) {
    const most = $("setup-name").maxLength > 0 ? $("setup-name").maxLength : 40;
    let question = format(_("New name for {player} (at most {most} characters)"), { player: old, most: most });
    let offered = old;
    for (;;) {
      const answer = window.prompt(question, offered);
      if (answer === null) return null;
      const letters = Array.from(answer.trim().normalize("NFC"));
      if (letters.length <= most) return letters.join("");
      offered = letters.slice(0, most).join("").trim();
      question = format(_("A name is at most {most} characters: here it is cut to fit. New name for {player}"),
        { player: old, most: most });
    }
  }

  // Whether the player picked a colour for the next "Add player" (the colour is sent only then: a name typed again,
  // by a player who thought the setup lost, is "already playing" and keeps their colour; a picked colour changes it).
  let colourPicked = false;
  function renderSetup(game) {
    const setup = !!game.setup;
    $("setup-section").hidden = !setup;
    if (!setup) return;
    const list = $("setup-players");
    list.replaceChildren();
    for (const p of game.players || []) {
      const li = el("li");
      li.append(dot(p.colour), el("span", "name", p.name),
        el("span", "seat-state", format(_("{colour}, {state}"), {
          colour: _(p.colour),
          state: p.seated ? _("seat set") : (game.zones === "even" ? _("even split") : _("no seat")),
        })));
      const rm = el("button", "remove needs-join", _("Remove"));
      rm.type = "button";
      rm.addEventListener("click", () => post("/api/setup", { action: "remove", name: p.name }, "setup-result"));
      // the touchscreen has no keyboard: a "Player N" added there is renamed here
      const rn = el("button", "rename needs-join", _("Rename"));
      rn.type = "button";
      rn.addEventListener("click", () => {
        const name = askName(p.name);
        if (name && name !== p.name) {
          post("/api/setup", { action: "rename", name: p.name, new_name: name }, "setup-result");
        }
      });
      // the game's per-player options (a species, a race): each player's entry, checked by the box at once
      for (const c of game.choices || []) {
        const pick = el("select", "choice needs-join");
        pick.dataset.option = c.option;
        pick.append(el("option", "", c.label + ": \u2013"));
        pick.firstChild.value = "";
        for (const v of c.choices) {
          const o = el("option", "", v);
          o.value = v;
          pick.append(o);
        }
        pick.value = (p.choices || {})[c.option] || "";
        pick.addEventListener("change", () => post("/api/setup",
          { action: "choice", name: p.name, option: c.option, value: pick.value || null }, "setup-result"));
        li.append(pick);
      }
      li.append(rn, rm);
      list.append(li);
    }
    renderSetupOptions(game.options || []);
    const taken = (game.players || []).map((p) => p.colour);
    const pick = $("setup-colour");
    const free = (game.colours || []).filter((c) => !taken.includes(c));
    if (pick.dataset.free !== free.join(",")) {
      const kept = pick.value;
      pick.replaceChildren();
      for (const c of free) {
        const o = el("option", "", _(c));
        o.value = c;
        pick.append(o);
      }
      pick.dataset.free = free.join(",");
      if (colourPicked && free.includes(kept)) pick.value = kept; // another phone's player took another colour
      else colourPicked = false; // the picked colour was taken meanwhile: none is picked now
    }
    $("setup-start").disabled = !game.can_start;
    $("setup-why").textContent = Box.drawn(game.why || _("Players can also tap their seat on the touchscreen picture of the table."));
  }

  // The game's on/off options (Eclipse's modules and alliances, Race's advanced game): a box each, labelled with
  // what it does and the rulebook's page; a list option (Among the Stars' objectives): its words, then a box per
  // name. The box records each change at once (the touchscreen and phones follow).
  function renderSetupOptions(options) {
    $("setup-options").hidden = options.length === 0;
    const list = $("setup-option-list");
    const shown = options.map((o) => o.option + JSON.stringify(o.on) + o.label).join("|");
    if (list.dataset.shown === shown) return; // a redraw would drop a box being tapped
    list.dataset.shown = shown;
    list.replaceChildren();
    for (const o of options) {
      if (o.choices) {
        const group = el("div", "setup-option setup-option-list");
        group.append(el("span", "", o.label));
        const boxes = [];
        for (const name of o.choices) {
          const label = el("label", "setup-option-name");
          const box = el("input", "needs-join");
          box.type = "checkbox";
          box.checked = (o.on || []).includes(name);
          box.dataset.option = o.option;
          box.dataset.name = name;
          box.addEventListener("change", () => sendOption(o.option,
            boxes.filter((b) => b.checked).map((b) => b.dataset.name).join(",")));
          boxes.push(box);
          label.append(box, el("span", "", name));
          group.append(label);
        }
        list.append(group);
        continue;
      }
      const label = el("label", "setup-option");
      const box = el("input", "needs-join");
      box.type = "checkbox";
      box.checked = !!o.on;
      box.dataset.option = o.option;
      box.addEventListener("change", () => sendOption(o.option, box.checked ? "on" : "off"));
      label.append(box, el("span", "", o.label));
      list.append(label);
    }
  }

  // A box's change sent to the box; one it did not record (busy, refused, made against an old state) is taken back to
  // what the box holds: the boxes are otherwise redrawn only when the options change, so it stayed ticked.
  async function sendOption(option, value) {
    if (await post("/api/setup", { action: "option", option: option, value: value }, "setup-result")) return;
    $("setup-option-list").dataset.shown = "";
    const state = page.state();
    if (state) renderSetupOptions((state.game || {}).options || []);
  }

  // The setup's buttons and fields, bound once the page is loaded.
  function bind() {
    $("setup-colour").addEventListener("change", () => { colourPicked = true; });
    $("setup-form").addEventListener("submit", (event) => {
      event.preventDefault();
      const body = { action: "player", name: $("setup-name").value.trim() };
      if (colourPicked) body.colour = $("setup-colour").value;
      colourPicked = false;
      post("/api/setup", body, "setup-result", $("setup-add"));
      $("setup-name").value = "";
    });
    $("setup-even").addEventListener("click", () => post("/api/setup", { action: "even" }, "setup-result", $("setup-even")));
    $("setup-start").addEventListener("click", () => post("/api/setup", { action: "start" }, "setup-result", $("setup-start")));
  }

  return { render: renderSetup, bind: bind };
};
