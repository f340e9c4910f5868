"""The phone view's taps (:mod:`companion.web` lists every route and their answers): Next and the other actions, a
seat claimed, withdrawn from or freed, a report, the players' setup, the box's own buttons, the owner's settings and a
camera question's answer. Each is checked here (a malformed body is 400 naming the field) and handed to the main loop
(:meth:`~companion.webcontext.PhoneContext.ask`), registered on the app by :func:`register_taps`."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from flask import Flask, Response, jsonify

from companion import i18n
from companion.action_words import action_word
from companion.actions import Action, phone_names
from companion.errors import shown as quoted
from companion.player_names import MAX_NAME
from companion.webcontext import PhoneContext
from companion.webcontext import error_answer as _error
from companion.webinput import MAX_TEXT, BadInput, choice, form_values, text, whole
from rules.scoring import has_visible, untypable

__all__ = ["MAX_OPTION_NAMES", "PHONE_ACTIONS", "register_taps"]

PHONE_ACTIONS = phone_names("action")
"""Actions a phone may post to ``/api/action`` (a phone cannot stop the box); ``undo`` in d6 mode, and in a game flow
only on a box without a touchscreen (``--no-screen``: phones do what the touchscreen would); ``next_phase`` only in a
game flow."""

A_PLAYERS_NAME = i18n.Text("a player's name")
A_NAME = i18n.Text("a name")
WITH_ACTION = i18n.Text('a JSON object with an "action" key')
SETUP_BUTTONS = i18n.Text("the buttons of the players' setup")
BOX_BUTTONS = i18n.Text("the box's buttons")
CAMERA_ANSWERS = i18n.Text("the answers to a camera question")

MAX_OPTION_NAMES = 600
"""Longest value of a game option set on a phone, in characters: a list option's names are sent in one text, separated
by commas (Among the Stars' 8 objectives together are 148); :data:`MAX_TEXT` (60) refused three of them."""


def _words_of(route: str) -> dict[str, Any]:
    """Each name a phone may send on ``route`` (``"choose"``) -> the words its button shows (``Choose a game``)."""
    return {name: action_word(Action.for_phone(route, name)) for name in phone_names(route)}


def register_taps(app: Flask, ctx: PhoneContext) -> None:  # noqa: C901 - a flat list of small handlers
    """Register ``POST /api/action``, ``/api/seat``, ``/api/seat/free``, ``/api/report/undo``, ``/api/report``,
    ``/api/setup``, ``/api/box``, ``/api/owner/ask``, ``/api/owner/settings`` and ``/api/camera`` on ``app``.

    Raises (inside each request, answered by the app): ``BadInput`` (400 naming the field) and
    :class:`~companion.webcontext.Refused` (403 for a phone that has not joined; a tap answered already).
    """

    @app.post("/api/action")
    @ctx.limiter.limit(ctx.limits.act)
    def api_action() -> tuple[Response, int]:
        who = ctx.refuse_unjoined()
        example = '{"action": "next_phase", "label": "Settle", "version": 12, "key": "k1"}'
        body = ctx.posted_json(example, ("action", "label", "confirm"), WITH_ACTION)
        if "action" not in body:
            raise BadInput(i18n.Text("the body must be {shape}, e.g. {example}", shape=WITH_ACTION, example=example),
                           "action")
        action = body["action"]
        if not isinstance(action, str) or action not in PHONE_ACTIONS:
            return _error(400, i18n.Text("unknown action {action}; a phone may post: {actions}", action=quoted(action),
                                         actions=i18n.Listing([action_word(a) for a in PHONE_ACTIONS])),
                          allowed=list(PHONE_ACTIONS), field="action")
        game = ctx.hub.snapshot().view.get("game") or {}
        in_flow = bool(game.get("flow"))
        if action == Action.READ_NOW:  # asks for a read; the read itself is recorded by the loop
            ctx.hub.post_action(Action.READ_NOW, origin="phone", client=who.client)
            return jsonify({"accepted": action}), 202
        if action == Action.UNDO:
            screen = (ctx.hub.snapshot().view.get("box") or {}).get("screen", True)  # --no-screen: the desk decides
            if in_flow and screen:
                return _error(403, i18n.Text("in a game a phone withdraws only its own report: pick your seat and tap "
                                             "“{button}”; the Undo of the whole table is on the touchscreen",
                                             button=action_word(Action.UNDO_REPORT)))
            return ctx.ask(Action.UNDO, who, body, '{"action": "undo", "version": 12, "key": "k1"}')
        if not in_flow:
            from companion.flows import run_hint

            command = (ctx.hub.snapshot().view.get("box") or {}).get("command", "run")  # demo: the demo's own command
            return _error(400, i18n.Text("{action} needs a game flow ({hint})", action=action_word(Action.NEXT_PHASE),
                                         hint=run_hint(command)), field="action")
        label = text(body, "label", example, required=False, what=i18n.Text("the Next button's label"))
        raw = (game.get("next") or {}).get("label") or ""
        now = str(i18n.localize(raw))  # the label as this phone's page showed it (its language)
        if label is not None and label != now and label != str(raw):
            return ctx.answer({"recorded": [], "message": "", "status": 409, "version": None,
                               "error": i18n.Text("Next now means {now!r}, not {label!r}: nothing moved; look at the "
                                                  "table and tap again", now=now or i18n.Text("nothing"),
                                                  label=label[:40])})
        confirm = body.get("confirm", False)
        if not isinstance(confirm, bool):  # the page showed the question the last Next asked: true or false
            raise BadInput(i18n.Text("{field} must be true or false, not {value}; e.g. {example}",
                                     field=repr("confirm"), value=quoted(confirm),
                                     example='{"action": "next_phase", "label": "End round", "confirm": true}'),
                           "confirm")
        return ctx.ask(Action.NEXT_PHASE, who, body, example, confirm=confirm)

    def seat_route(action: Action) -> Callable[[], tuple[Response, int]]:
        """A POST whose field is ``player`` (a seat): claiming it, withdrawing its newest report (or, with ``form``,
        its entry on a form a player keeps one of), freeing it."""
        def route() -> tuple[Response, int]:
            who = ctx.refuse_unjoined()
            example = '{"player": "Ann", "version": 12, "key": "k1"}'
            withdraws = action is Action.UNDO_REPORT
            body = ctx.posted_json(example, ("player", "form") if withdraws else ("player",))
            form = ({"form": text(body, "form", '{"player": "Ann", "form": "secret", "version": 12, "key": "k1"}',
                                  what=i18n.Text("a form's id"))} if withdraws and "form" in body else {})
            player = text(body, "player", example, what=A_PLAYERS_NAME)
            return ctx.ask(action, who, body, example, player=player, **form)

        route.__name__ = f"api_{action.value}"  # each its own rate-limit bucket and endpoint
        return ctx.limiter.limit(ctx.limits.act)(route)

    for seat_action in (Action.CLAIM_SEAT, Action.UNDO_REPORT, Action.RELEASE_SEAT):
        app.add_url_rule(f"/api/{seat_action.phone}", view_func=seat_route(seat_action), methods=["POST"])

    @app.post("/api/report")
    @ctx.limiter.limit(ctx.limits.act)
    def api_report() -> tuple[Response, int]:
        who = ctx.refuse_unjoined()
        example = '{"player": "Ann", "form": "vp", "values": {"vp": 2}, "version": 12, "key": "k1"}'
        body = ctx.posted_json(example, ("player", "form", "values"))
        player = text(body, "player", example, what=A_PLAYERS_NAME)
        form = text(body, "form", example, what=i18n.Text("a form's id"))
        forms = (ctx.hub.snapshot().view.get("game") or {}).get("forms") or ()  # as the phone was shown them
        shown_form = next((one for one in forms if isinstance(one, dict) and one.get("id") == form), {})
        fields = {f["name"]: (f.get("label"), f.get("kind", ""), f.get("min"), f.get("max"))
                  for f in shown_form.get("fields", ())}
        values = form_values(body, example, fields, shown_form.get("label"))
        return ctx.ask(Action.REPORT, who, body, example, player=player, form=form, values=values)

    @app.post("/api/setup")
    @ctx.limiter.limit(ctx.limits.act)
    def api_setup() -> tuple[Response, int]:
        who = ctx.refuse_unjoined()
        example = '{"action": "player", "name": "Ann", "colour": "red", "version": 0, "key": "k1"}'
        body = ctx.posted_json(example, ("action", "name", "colour", "new_name", "option", "value"))
        what = choice(body, "action", phone_names("setup"), example, _words_of("setup"), SETUP_BUTTONS)
        if not (ctx.hub.snapshot().view.get("game") or {}).get("setup"):
            return ctx.answer({"recorded": [], "message": "", "status": 409, "version": None,
                               "error": i18n.Text("no game is being set up now (the game has started, or this box "
                                                  "reads d6 dice): players are set up before Start")})
        for typed in (("name",) if what == "player" else ("new_name",) if what == "rename" else ()):
            typed_text = body.get(typed)
            # "Add" tapped before typing a name; a name holding a character no keyboard types (a NUL alone too) is
            # refused below naming that character, as every other field's is
            if isinstance(typed_text, str) and untypable(typed_text) is None and not has_visible(typed_text):
                raise BadInput(i18n.Text("type the player's name first"), typed)
        extra = {}
        words = {"colour": i18n.Text("a colour"), "option": i18n.Text("an option's name"),
                 "value": i18n.Text("one of the option's choices")}
        for key, payload_key in (
            ("name", "player"),
            ("colour", "colour"),
            ("new_name", "name"),
            ("option", "option"),
            ("value", "value"),
        ):
            value = text(
                body,
                key,
                example,
                required=(key == "name" and what in ("player", "remove", "rename", "choice"))
                or (key == "new_name" and what == "rename")
                or (key == "option" and what in ("choice", "option"))
                or (key == "value" and what == "option"),
                what=words.get(key, A_NAME),
                label=i18n.Text("Name") if key in ("name", "new_name") else None,  # as the page's field says
                max_len=MAX_NAME if key in ("name", "new_name")
                else MAX_OPTION_NAMES if (key, what) == ("value", "option") else MAX_TEXT,  # as the page sends
            )
            if value is not None:
                extra[payload_key] = value
        return ctx.ask(Action.for_phone("setup", what), who, body, example, **extra)

    @app.post("/api/box")
    @ctx.limiter.limit(ctx.limits.act)
    def api_box() -> tuple[Response, int]:
        who = ctx.refuse_unjoined()
        example = '{"action": "choose", "game": "roll", "version": 0, "key": "k1"}'
        body = ctx.posted_json(example, ("action", *sorted({k for n in phone_names("box")
                                                        for k in Action.for_phone("box", n).keys})))
        what = choice(body, "action", phone_names("box"), example, _words_of("box"), BOX_BUTTONS)
        action = Action.for_phone("box", what)
        extra = {}
        words = {"game": i18n.Text("a game's name"), "session": i18n.Text("a game's session id")}
        if "session" in action.keys:  # resume, open, export: an example of this action, not of "choose"
            example = json.dumps({"action": what, "session": "20261203-221149-c1a2b2", "version": 0, "key": "k1"})
        for key in action.keys:  # "game" (choose), "session" (resume, open, export)
            value = text(body, key, example, required=what in ("choose", "resume"), what=words.get(key, A_NAME))
            if value is not None:
                extra[key] = value
        return ctx.ask(action, who, body, example, **extra)

    @app.post("/api/owner/ask")
    @ctx.limiter.limit(ctx.limits.act)
    def api_owner_ask() -> tuple[Response, int]:
        who = ctx.refuse_unjoined()
        example = '{"version": 12, "key": "k1"}'
        body = ctx.posted_json(example, ())
        return ctx.ask(Action.OWNER_ASK, who, body, example)

    @app.post("/api/owner/settings")
    @ctx.limiter.limit(ctx.limits.act)
    def api_owner_settings() -> tuple[Response, int]:
        who = ctx.refuse_unjoined()
        example = '{"setting": "box.language", "value": "el", "version": 12, "key": "k1"}'
        body = ctx.posted_json(example, ("setting", "value"))
        setting = text(body, "setting", example, what=i18n.Text("a setting's name"))
        if "value" not in body:
            raise BadInput(i18n.Text('the body needs "value", e.g. {example}', example=example), "value")
        value = body["value"]
        if not (value is None or isinstance(value, (bool, int, str))) or (isinstance(value, str) and len(value) > 60):
            raise BadInput(i18n.Text("'value' must be a short text, a whole number or true/false"), "value")
        return ctx.ask(Action.CHANGE_SETTING, who, body, example, setting=setting, value=value)

    @app.post("/api/camera")
    @ctx.limiter.limit(ctx.limits.act)
    def api_camera() -> tuple[Response, int]:
        who = ctx.refuse_unjoined()
        example = '{"id": 3, "answer": "confirm", "version": 12, "key": "k1"}'
        body = ctx.posted_json(example, ("id", "answer", "choice"))
        qid = whole(body, "id", example, what=i18n.Text("the question's number"))
        answer_action = Action.for_phone("camera", choice(body, "answer", phone_names("camera"), example,
                                                          _words_of("camera"), CAMERA_ANSWERS))
        picked = text(body, "choice", example, required=False, what=i18n.Text("one of the question's choices"))
        extra = {"choice": picked} if answer_action is Action.CAMERA_CONFIRM and picked else {}
        return ctx.ask(answer_action, who, body, example, id=qid, **extra)
