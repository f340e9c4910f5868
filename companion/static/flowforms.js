// Game-flow phone page, its report form: the forms open to this phone's seat, each field as an input (a choice, a
// cell on the player's own station, dice, a number), the values to send, and what the Undo button does now. Loaded
// after flowdraw.js and before flow.js, which makes it with what it needs of the page (window.FlowForms(page):
// page.seat, page.state, page.post); vanilla JS, no build step. Text is always set with textContent.
"use strict";

window.FlowForms = function (page) {
  const $ = (id) => document.getElementById(id);
  const _ = Box._; // the page's words in the phone's language
  const format = Box.format;
  const { el, cellPicker } = FlowDraw;
  const seat = page.seat;
  let formShown = null; // the form drawn (its id, the seat, the choices the table left): drawn anew when it changes
  let formOf = null; // the form id and seat of the fields drawn: a form drawn anew for them keeps what was entered
  let carry = true; // false once this form's values are sent: the form drawn after a report starts empty

  function fieldInput(f, pick, order) {
    const wrap = el("label", "field", f.optional ? format(_("{field} (optional)"), { field: f.label }) : f.label);
    let input;
    if (pick) {
      // a piece of the player's own board, listed by the cell another field holds (game.cell_choices: the reactors
      // that can pay an energy cube where the location goes); filled and shown by showFor
      input = el("select");
      wrap.dataset.picks = JSON.stringify(pick);
      wrap.classList.add("place-pick");
    } else if (f.kind === "choice") {
      input = el("select");
      input.append(el("option", "", f.optional ? "\u2013" : _("choose…")));
      input.firstChild.value = "";
      const option = (k) => {
        const o = el("option", "", (f.labels || f.choices)[k]); // the label is shown, the choice is posted
        o.value = f.choices[k];
        return o;
      };
      if (order) input.append(...grouped(f, order, option));
      else f.choices.forEach((c, k) => input.append(option(k)));
      // a field the player must fill with one choice left (Die removed's tile owing the die): chosen already; an
      // optional one stays on "–", which sends nothing
      if (!f.optional && f.choices.length === 1) input.value = f.choices[0];
    } else if (f.kind === "cell") {
      // the place on the player's own station (their grid board): tap it on the picture; the numbers stay
      // below for a place the picture does not offer
      input = el("span", "cell-inputs");
      const numbers = el("span", "cell-numbers");
      // each box shows the axis its label names ("Hex [q, r]": q and r; a phone showed "i" and "j" under it)
      const named = /\[([^\[\],]+),\s*([^\[\],]+)\]/.exec(String(f.label || ""));
      for (const [k, axis] of ["i", "j"].entries()) {
        const n = el("input");
        n.type = "number";
        n.step = "1";
        n.placeholder = named ? named[k + 1].trim() : axis;
        n.dataset.axis = axis;
        numbers.append(n);
      }
      const board = ownBoard(page.state() && page.state().game);
      if (board) input.append(cellPicker(board, numbers));
      input.append(numbers);
    } else if (f.kind === "dice") {
      input = el("input"); // the faces rolled, e.g. "6 4 2"
      input.type = "text";
      input.inputMode = "numeric";
      input.autocomplete = "off";
      input.placeholder = Box._("e.g. 6 4 2");
    } else {
      input = el("input");
      input.type = "number";
      input.step = "1";
      if (f.min !== null) input.min = String(f.min);
      if (f.max !== null) input.max = String(f.max);
    }
    input.dataset.field = f.name;
    input.dataset.kind = f.kind;
    if (pick) {
      // a place is long ("Power Reactor (1 below the Main Reactor): 2 energy cubes"): the chosen one whole on its face,
      // the <select> laid unseen over it, as the report dropdown (a closed <select> cut it at 360 px)
      const face = el("span", "pick-face");
      const name = el("span", "form-name");
      name.setAttribute("aria-hidden", "true");
      face.append(name, input);
      input.addEventListener("change", () => placeFace(input));
      wrap.append(face);
    } else wrap.append(input);
    if (f.shown_for) wrap.dataset.shownFor = JSON.stringify(f.shown_for); // [field, [choices]]: only beside those
    if (f.shown_from) wrap.dataset.shownFrom = JSON.stringify(f.shown_from); // [field, least]: once it says so many
    return wrap;
  }

  // A group's choices sent once for every seat that has them (a number: that list of game.choice_lists) made whole.
  function shared(orders, lists) {
    const out = {};
    for (const [field, order] of Object.entries(orders)) {
      out[field] = Object.assign({}, order, { groups: (order.groups || []).map((g) => (
        typeof g.choices === "number" ? Object.assign({}, g, { choices: lists[g.choices] || [] }) : g)) });
    }
    return out;
  }

  // A long list in the order the table gives (game.choice_groups: Roll's tiles of the player's construction zone, the
  // phase's cards): each group under its label, then every other choice of the field, in its order, under "rest".
  function grouped(f, order, option) {
    const at = new Map(f.choices.map((c, k) => [c, k]));
    const used = new Set();
    const out = [];
    for (const g of (order.groups || []).concat([{ label: order.rest, choices: f.choices }])) {
      const ks = (g.choices || []).filter((c) => at.has(c) && !used.has(c)).map((c) => at.get(c));
      if (!ks.length) continue;
      const group = el("optgroup");
      group.label = Box.drawn(g.label || "");
      ks.forEach((k) => { used.add(f.choices[k]); group.append(option(k)); });
      out.push(group);
    }
    return out;
  }

  // A field that belongs to some choices of another (an Embassy Offices' gift) shows beside them only; a field that
  // matters once a number field says at least so many (a Shield Generator's 2nd extra cube) only from then on; a
  // field of places listed by another field's cell (pickPlaces) only while that cell has places listed.
  function showFor() {
    const fields = $("fields");
    for (const wrap of fields.querySelectorAll("[data-shown-for], [data-shown-from], [data-picks]")) {
      let hide = false;
      if (wrap.dataset.shownFor) {
        const [name, choices] = JSON.parse(wrap.dataset.shownFor);
        hide = !choices.includes((fields.querySelector(`[data-field="${name}"]`) || {}).value);
      }
      if (wrap.dataset.shownFrom) {
        const [name, least] = JSON.parse(wrap.dataset.shownFrom);
        const said = String((fields.querySelector(`[data-field="${name}"]`) || {}).value || "").trim();
        if (said === "" || !(Number(said) >= least)) hide = true;
      }
      if (wrap.dataset.picks && !pickPlaces(wrap)) hide = true;
      wrap.hidden = hide;
    }
  }

  // The places a field of game.cell_choices offers for the cell its "after" field holds now, the box's own choice
  // first picked (refilled only when that cell changes, so the player's pick stays); false when none are listed.
  function pickPlaces(wrap) {
    const pick = JSON.parse(wrap.dataset.picks);
    const other = $("fields").querySelector(`[data-field="${pick.after}"]`);
    const parts = other ? [...other.querySelectorAll("input")].map((n) => n.value.trim()) : [];
    const key = parts.length === 2 && parts.every((v) => v !== "") ? parts.map(Number).join(",") : "";
    const listed = (pick.by || {})[key];
    const select = wrap.querySelector("select");
    if (!listed) return false;
    if (select.dataset.key !== key) {
      const chosen = (pick.chosen || {})[key];
      select.replaceChildren(...(chosen ? [] : [el("option", "", "\u2013")]).concat(listed.map((at) => {
        const o = el("option", "", (pick.places || {})[at] || at);
        o.value = at;
        return o;
      })));
      if (!chosen) select.firstChild.value = ""; // nothing picked: the box chooses (not sent)
      select.value = chosen || "";
      select.dataset.key = key;
      placeFace(select);
    }
    return true;
  }

  // The place chosen in a place field (pickPlaces), whole on its face.
  function placeFace(select) {
    const chosen = select.selectedOptions[0];
    select.previousElementSibling.textContent = Box.drawn(chosen ? chosen.text : "");
  }

  // The reporting player's own grid board (Among the Stars: their station), or null.
  function ownBoard(game) {
    const me = seat();
    return ((game && game.boards) || []).find((b) => b.kind === "grid" && b.owner === me) || null;
  }

  function renderForms(game) {
    const me = seat();
    const open = me ? (game.open_forms || {})[me] || [] : [];
    $("report-section").hidden = !me || open.length === 0;
    if (!me) return;
    $("me").textContent = Box.drawn(me);
    const pick = $("form-pick");
    const covers = ((page.state() && page.state().camera) || {}).covers || [];
    // a private form (hidden information) is on this phone because it holds the seat: say it stays here
    const shownAs = (f) => f.private
      ? Object.assign({}, f, { label: format(_("{form} (hidden: only on your phone)"), { form: f.label }) }) : f;
    const forms = (game.forms || []).filter((f) => open.includes(f.id) && !covers.includes(f.id)).map(shownAs)
      .concat((game.forms || []).filter((f) => open.includes(f.id) && covers.includes(f.id))
        .map((f) => Object.assign({}, f, { label: format(_("{form} (the camera reads it)"), { form: f.label }) })));
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
    // the choices the table leaves this seat in the form's fields (Eclipse: an attack offers only the players it
    // has relations with); a field left with none shows why instead of a list, and the form cannot be sent
    const narrowed = ((game.choices_now || {})[me] || {})[pick.value] || {};
    const picks = ((game.cell_choices || {})[me] || {})[pick.value] || {};
    const orders = shared(((game.choice_groups || {})[me] || {})[pick.value] || {}, game.choice_lists || []); // what a long list shows first
    const note = ((game.form_notes || {})[me] || {})[pick.value] || ""; // what the form says to this seat now
    const shown = [pick.value, me, JSON.stringify(narrowed), JSON.stringify(picks), JSON.stringify(orders), note]
      .join("\n");
    if (formShown !== shown) {
      formShown = shown;
      const fields = $("fields");
      // another player's report changed this form's lists (Roll in II Develop: a tile built by Bob reorders Ann's
      // Tile built): what this player had entered is put back where it is still offered, never after a report sent
      const entered = carry && formOf === pick.value + "\n" + me ? enteredValues() : null;
      formOf = pick.value + "\n" + me;
      carry = true;
      fields.replaceChildren();
      const form = forms.find((f) => f.id === pick.value);
      for (const f of (form && form.fields) || []) {
        const left = narrowed[f.name];
        if (left && !(left.choices || []).length) fields.append(el("p", "form-none", left.none || ""));
        else fields.append(fieldInput(left ? onlyThese(f, left.choices) : f.others ? withoutMe(f, me) : f, picks[f.name],
                                      orders[f.name]));
      }
      if (form && note) fields.append(el("p", "form-note", note)); // Roll in Ship: the chips counted already
      if (form && form.hint) fields.append(el("p", "form-hint", form.hint)); // what the box counts by itself
      if (entered) putBack(entered);
      showFor();
      if (entered) putBack(entered); // a place listed by a cell (pickPlaces) is filled by showFor
    }
    $("send").hidden = Object.values(narrowed).some((left) => !(left.choices || []).length);
    showFormName();
    // what Undo does now (game.undo): during a hidden end-of-game entry it withdraws only this seat's entry, named
    // on the button, and shows once there is one; else the page's own "Undo my last report"
    const undo = (game.undo || {})[me] || {};
    const button = $("undo-report");
    if (!button.dataset.own) button.dataset.own = button.textContent;
    button.textContent = Box.drawn(undo.label || button.dataset.own);
    button.hidden = undo.shown === false;
    // an entry the player keeps (a Qualeen's secret objective): its form is closed once entered, and a button of its
    // own withdraws it, which opens the form again
    const kept = (game.withdraw || {})[me] || [];
    const shownKept = JSON.stringify(kept);
    const withdraw = $("withdraw-kept");
    if (withdraw.dataset.shown !== shownKept) {
      withdraw.dataset.shown = shownKept;
      withdraw.replaceChildren(...kept.map((k) => {
        const b = el("button", "withdraw-kept", k.label);
        b.type = "button";
        b.dataset.form = k.form;
        b.addEventListener("click", () => page.post("/api/report/undo", { player: seat(), form: k.form },
          "report-result", b));
        return b;
      }));
    }
  }

  // The chosen report's name on the dropdown's face, whole on as many lines as it takes (flow.css: the <select> lies
  // unseen over it and opens on a tap; a closed <select> draws one line: 'Δίσκος Επιρροής τοποθετήθηκε (' at 360 px).
  function showFormName() {
    const chosen = $("form-pick").selectedOptions[0];
    $("form-name").textContent = Box.drawn(chosen ? chosen.text : "");
  }

  // A field narrowed by the table (game.choices_now): only the choices left, each with its own label.
  function onlyThese(f, choices) {
    const keep = (f.choices || []).map((c, k) => k).filter((k) => choices.includes(f.choices[k]));
    return Object.assign({}, f, { choices: keep.map((k) => f.choices[k]),
                                  labels: f.labels ? keep.map((k) => f.labels[k]) : f.labels });
  }

  // A field whose choices are the other players (Eclipse's relations, an attack): the reporting player is not
  // offered (the box refuses it: "you cannot choose yourself").
  function withoutMe(f, me) {
    const keep = (f.choices || []).map((c, k) => k).filter((k) => f.choices[k] !== me);
    return Object.assign({}, f, { choices: keep.map((k) => f.choices[k]),
                                  labels: f.labels ? keep.map((k) => f.labels[k]) : f.labels });
  }

  function values() {
    const out = {};
    for (const input of $("fields").querySelectorAll("[data-field]")) {
      if (input.closest("[hidden]")) continue; // a field shown beside other choices (showFor)
      const kind = input.dataset.kind;
      if (kind === "cell" && input.tagName === "SELECT") { // a place listed (pickPlaces): "i,j"
        out[input.dataset.field] = input.value ? input.value.split(",").map(Number) : null;
      } else if (kind === "cell") {
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

  // What the drawn fields hold as typed or chosen, by field name (a cell: its two boxes), shown or not.
  function enteredValues() {
    const out = {};
    for (const input of $("fields").querySelectorAll("[data-field]")) {
      out[input.dataset.field] = input.tagName === "SPAN"
        ? [...input.querySelectorAll("input")].map((n) => n.value) : input.value;
    }
    return out;
  }

  // Put back what enteredValues held into the fields drawn anew: a choice only where it is still offered (a list that
  // lost it keeps its own, or the one choice left), a number or a cell as typed.
  function putBack(entered) {
    for (const input of $("fields").querySelectorAll("[data-field]")) {
      const was = entered[input.dataset.field];
      if (was === undefined) continue;
      if (input.tagName === "SELECT") {
        if (was !== "" && [...input.options].some((o) => o.value === was)) input.value = was;
      } else if (input.tagName === "SPAN") {
        [...input.querySelectorAll("input")].forEach((n, k) => { if (Array.isArray(was) && was[k]) n.value = was[k]; });
      } else if (was !== "") {
        input.value = was;
      }
    }
  }

  // The report form drawn anew at the next render (the seat it reports for changed).
  function redraw() {
    formShown = null;
  }

  // This form's values are being sent: the form drawn after it starts empty (a report sent twice would record twice).
  // kept: the send failed (nothing recorded), so what was entered is kept again.
  function sent(kept) {
    carry = Boolean(kept);
  }

  return { render: renderForms, values: values, redraw: redraw, showFor: showFor, sent: sent };
};
