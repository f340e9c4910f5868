"""Every touchscreen screen and every published view in one language, for the language tests (issue 17).

:func:`walk` plays an evening on the box (the chooser, Roll for the Galaxy's setup, table check, play with the
camera's questions and a misplay, Race for the Galaxy and Among the Stars at the table, scores, history, settings,
a phone asking for the owner page, the phones panel) plus the screens a game does not reach (starting, the d6
dice, a lost camera, the guided enrollment, no network), renders each on a headless :class:`TouchScreen` with the
box speaking ``lang`` and keeps what was drawn and the view as a phone of ``lang`` would get it.

:func:`leaks` finds English a player would read in a text said in another language: for Greek any word in Latin
letters that is not a name (players, components, commands), for Polish and Hungarian an English word of the
catalog's messages that the language's own translations never use.
"""

from __future__ import annotations

import functools
import json
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from companion import i18n
from companion.actions import Action
from companion.app import MainLoop
from companion.box_settings import BoxSettings
from companion.camera import CameraFlow
from companion.hub import StateHub
from companion.library import Library
from companion.screen import TouchScreen
from companion.session import SessionStore
from device import FakeCamera
from tests.catalogs import forms, messages
from vision.motion import StillnessDetector

W, H = 320, 240
PLAYERS = ("Ann", "Bob", "Zoë", "Łukasz", "Ζωή")
"""The names the walk seats (a Greek and a Polish name among them: names are never translated)."""

LONG = "Wolfeschlegelsteinhausenbergerdorffvoral"
"""The longest name a player may have (40 characters, no space)."""


@dataclass
class Shot:
    """One screen: its name, the texts drawn (each with where it landed and the room it had), the view it showed."""

    name: str
    drawn: list[tuple[str, Any, int | None]]
    view: dict[str, Any]
    png: Path | None = None

    @property
    def texts(self) -> list[str]:
        return [text for text, _rect, _room in self.drawn]


@dataclass
class Walk:
    lang: str
    shots: list[Shot] = field(default_factory=list)
    views: list[dict[str, Any]] = field(default_factory=list)
    """Every published view, as a phone of the language gets it (:func:`companion.i18n.localize`)."""


class _NoDice:
    def read(self, image: np.ndarray) -> Any:
        from vision import DiceRead

        return DiceRead(width=image.shape[1], height=image.shape[0], dice=())


def _frame() -> np.ndarray:
    image = np.full((H, W, 3), (70, 110, 60), np.uint8)
    image[150:200, 40:120] = 200
    image[30:80, 200:280] = (40, 40, 180)
    return image


def _do(loop: MainLoop, name: str, origin: str = "touchscreen", /, **payload: Any) -> Any:
    answer = loop.dispatch({"action": Action(name), "origin": origin, **payload})
    assert answer.error is None, answer.error
    return answer


def walk(lang: str, tmp_path: Path, output_dir: Path | None = None) -> Walk:
    """Every screen in ``lang`` (the box's language meanwhile; English again after). Screenshots go to
    ``output_dir/i18n-<lang>-<screen>.png`` when given."""
    before = i18n.box_language()
    i18n.set_box_language(lang)
    try:
        return _walk(lang, tmp_path, output_dir)
    finally:
        i18n.set_box_language(before)


def _walk(lang: str, tmp_path: Path, output_dir: Path | None) -> Walk:
    out = Walk(lang)
    hub = StateHub()
    screen = TouchScreen(pairing=hub.pairing)
    frame = _frame()

    def shot(name: str, view: dict[str, Any] | None = None) -> Shot:
        if view is None:
            loop.publish()
            view = hub.snapshot().view
        screen.render(type("S", (), {"view": view, "frame": frame, "jpeg": None})())
        png = None
        if output_dir is not None:
            png = output_dir / f"i18n-{lang}-{name}.png"
            screen.save_png(png)
        taken = Shot(name, list(screen.drawn), view, png)
        out.shots.append(taken)
        out.views.append(i18n.localize(view, lang))
        return taken

    with SessionStore(tmp_path / f"box-{lang}.sqlite3") as store:
        lib = Library(store, dice_reader=_NoDice, exports=tmp_path / f"exports-{lang}", source="fake",
                      make_camera=lambda flow: CameraFlow(flow, deck=object()))
        loop = MainLoop(source=FakeCamera([frame] * 400), reader=None, session=None, hub=hub,
                        stillness=StillnessDetector(), stop_at_end=True, sleep=lambda s: None, library=lib,
                        phone_url="http://192.168.1.20:8080/", box_settings=BoxSettings(None, lang, buzzer=True))
        loop.step()
        loop.screen = screen
        shot("choose")
        # Roll for the Galaxy: setup (players from a phone and the touchscreen), the table check, play
        _do(loop, "choose_game", game="roll")
        shot("setup-empty")
        for name, colour in (("Ann", "red"), (LONG, "purple"), ("Ζωή", None)):
            _do(loop, "setup_player", "phone", player=name, colour=colour)
        shot("setup")
        _do(loop, "setup_start")
        shot("check")
        _do(loop, "table_ok")
        roll = loop.session
        setup = next(f for f in loop.view()["game"]["forms"] if f["id"] == "setup")
        _do(loop, "report", "phone", player="Ann", form="setup",
            values={f["name"]: f["choices"][k] for k, f in enumerate(setup["fields"])})
        _do(loop, "report", "phone", player="Ann", form="select", values={"phase": "develop"})
        _do(loop, "report", "phone", player="Ann", form="tile", values={"tile": "Space Port"})  # before its phase
        camera = loop.mode.camera
        from companion.flows.roll import ROLL_CAMERA

        dice = {"Ζωή": [{"colour": "white", "face": "settle"}, {"colour": "red", "face": "settle"},
                        {"colour": "white", "face": "wild"}, {"colour": "blue", "face": None}]}
        for proposal in ROLL_CAMERA.dice_proposals(dice, loop.mode.flow.engine_view(), None):
            camera._ask(proposal)  # noqa: SLF001 - the camera's question, as a dice read asks it
        shot("roll-question")
        camera.questions.clear()
        shot("roll-table")
        screen.phones_open = True
        shot("phones")
        screen.phones_open = False
        # Race for the Galaxy: action cards chosen, a phase being played, a card placed out of phase
        _do(loop, "games")
        shot("choose-left-open")
        _do(loop, "choose_game", game="race")
        for name in ("Bob", "Łukasz"):
            _do(loop, "setup_player", "phone", player=name)
        _do(loop, "setup_start")
        if loop.mode.name.value == "calibration":
            _do(loop, "table_ok")
        for name, action in (("Bob", "Develop"), ("Łukasz", "Settle")):
            _do(loop, "report", "phone", player=name, form="select", values={"action": _race_action(action)})
        _do(loop, "report", "phone", player="Bob", form="vp", values={"vp": 2})  # VP chips outside Consume
        shot("race-table")
        # Among the Stars: a station, a misplay the camera saw, the end of the game
        _do(loop, "games")
        _do(loop, "choose_game", game="among")
        for name in ("Zoë", "Bob"):
            _do(loop, "setup_player", "phone", player=name)
        _do(loop, "setup_start")
        if loop.mode.name.value == "calibration":
            _do(loop, "table_ok")
        _do(loop, "report", "phone", player="Zoë", form="location", values={"card": "Restaurant", "cell": [0, 1]})
        _do(loop, "report", "phone", player="Zoë", form="location", values={"card": "Sports Arena", "cell": [3, 3]})
        camera = loop.mode.camera
        from companion.flows.among import AMONG_CAMERA

        question = AMONG_CAMERA._proposal("Bob", "Observation Dome", (1, 0))  # noqa: SLF001
        camera._ask(question)  # noqa: SLF001
        flow = loop.mode.flow
        from companion.camera.preview import misplays

        camera.misplays["Bob"] = misplays(flow, [AMONG_CAMERA._proposal("Bob", "Restaurant", (2, 2))],  # noqa: SLF001
                                          [AMONG_CAMERA._proposal("Bob", "Restaurant", (2, 2))], [])  # noqa: SLF001
        shot("among-misplay")
        camera.questions.clear()
        camera.misplays.clear()
        shot("among-table")
        refused = loop.dispatch({"action": Action("next_phase"), "origin": "touchscreen"})
        assert refused.error is not None  # nobody reported this round: Next names them and asks to be pressed again
        shot("among-next-unreported")
        _do(loop, "next_phase")
        for _round in range(23):
            loop.dispatch({"action": Action("next_phase"), "origin": "touchscreen"})
            _do(loop, "next_phase")
        shot("scores")
        _do(loop, "export_game")
        shot("scores-exported")
        _do(loop, "history")
        shot("history")
        opened = loop.view()["history"]["games"][0]["session"]
        _do(loop, "open_game", session=opened)
        shot("history-open")
        _do(loop, "open_game", session=roll.id)
        shot("history-open-unfinished")
        _do(loop, "games")
        _do(loop, "settings")
        shot("settings")
        _do(loop, "back")
        _do(loop, "owner_ask", "phone", client="phone-1")
        shot("asking")
        _do(loop, "owner_refuse")
        loop.stop()
    # the screens an evening does not reach: starting, the dice, a lost camera, the enrollment, no network
    shot("waiting", {})
    shot("dice", _dice_view())
    shot("camera-lost", _dice_view(lost=True))
    shot("enroll", _enroll_view(tmp_path, step="prompt"))
    shot("enroll-check", _enroll_view(tmp_path, step="check"))
    shot("enroll-ended", _enroll_view(tmp_path, step="stopped"))
    offline = dict(out.shots[0].view, phone_url="http://127.0.0.1:8080/")
    screen.phone_url = None
    shot("no-network", offline)
    return out


def _race_action(name: str) -> str:
    from rules.race.cards import facts

    return next(a["card"] for a in facts()["actions"] if a["card"].startswith(name))


def _dice_view(lost: bool = False) -> dict[str, Any]:
    """The d6 dice screen's view, as ``companion demo`` publishes it (a roll read, a finding), or a lost camera."""
    from device.health import N_ as device_words  # noqa: F401 - the device's own messages are marked there
    from rules import Event, replay
    from rules.d6 import D6_GAME

    events = [Event(1, "dice_read", {"values": [6, 6, 4, None]}), Event(2, "dice_read", {"values": [3, 5]})]
    state = replay(D6_GAME, {"source": "fake"}, events)
    message = (i18n.Text("{name}: no picture for {seconds:g} s: check its cable; the game goes on",
                         name=i18n.Text("USB camera"), seconds=3.0) if lost else
               i18n.plural("read {n} die: {values}", "read {n} dice: {values}", 2, values="3 5"))
    health = {"level": "WARN", "key": "light", "message": i18n.Text("the table is dim: add light over it")}
    return {"mode": "dice", "box": {"games": True, "health": health},
            "game": D6_GAME.view(state.state), "session": {"id": "s1", "events": 2},
            "findings": [f.to_json() for f in state.findings],
            "status": {"camera": "lost" if lost else "ok", "reader": "read", "message": message},
            "phone_url": "http://192.168.1.20:8080/", "frame": {"width": W, "height": H, "index": 3}}


def _enroll_view(tmp_path: Path, step: str) -> dict[str, Any]:
    """The guided enrollment's view at ``step``: the prompt, a photo checked, the walk stopped."""
    from companion.enroll_guided import DiceCheck, GuidedEnrollment, guided_pairs

    folder = tmp_path / f"enroll-{step}"
    found = DiceCheck(3, np.array([[100.0, 100.0, 30.0, 30.0, 0.0]] * 3))
    e = GuidedEnrollment(folder, list(guided_pairs())[:3], lambda image: found)
    if step in ("check", "stopped"):
        e.handle(Action.ENROLL_OK)
        from device import Frame

        e.offer(Frame(_frame(), 0.0, 0, "fake"), still=True)
    if step == "stopped":
        e.stop(i18n.Text("stopped"))
    return {**e.view(), "frame": {"width": W, "height": H, "index": 0}}


# -- finding English ----------------------------------------------------------------------------------

WORD = re.compile(r"[A-Za-z][A-Za-z'’]*[A-Za-z]|[A-Za-z]")

ALLOW = {
    # the product, commands, files, formats and codes a person types or reads as they are
    "Tabletop", "companion", "Companion", "JSON", "QR", "BG", "Stats", "bgstats", "http", "https", "Wi-Fi", "Wi", "Fi",
    "OK", "d6", "PNG", "PDF", "NTP", "USB", "GPIO", "SD", "MB", "GB", "KiB", "MiB", "px", "mm", "HTTP", "API",
    "sudo", "nmtui", "systemctl", "journalctl", "systemd", "install", "sh", "toml", "npz", "tabletop", "FILE",
    "FOLDER", "DIR", "DECK", "NAME", "PATH", "enroll", "roll", "dice", "calibrate", "guided", "keep", "json",
    "export", "config", "show", "check", "doctor", "run", "demo", "read", "score", "setup", "cards", "deck",
    "profile", "source", "game", "players", "db", "session", "hexes", "lens", "corners", "out", "name", "data_dir",
    "box", "language", "screen", "brightness", "sound", "camera", "size", "default_game", "owner", "reads",
    "exports", "corrupt", "time", "localhost", "local", "opencv", "fake", "picamera", "ArUco", "GCDS", "VP",
    "png", "max", "frames", "Ctrl", "Enter", "Esc", "pixel", "RMS", "A4",
    # the numbers of phases and rings as printed (Roman numerals)
    "I", "II", "III", "IV", "V",
}
"""Words said as they are in every language: names, commands and their flags, formats, units, codes."""


@functools.cache
def component_words() -> frozenset[str]:
    """Every word of the games' titles and component names (tiles, cards, locations, races, objectives, sectors,
    species, technologies): printed in English on the components, said as they are unless the edition names them."""
    from rules.names import kinds, translated

    words: set[str] = set()
    for kind in kinds():
        for name in translated(kind, "en").values():
            words.update(WORD.findall(name))
    from rules.games import GAMES

    for game in GAMES.values():
        words.update(WORD.findall(game.title))
        for option in game.info.options:
            for choice in option.choices:
                words.update(WORD.findall(choice))
    from rules.eclipse.data import catalogue as eclipse

    for sector in eclipse().sectors.values():
        words.update(WORD.findall(sector.name))
    words.update(WORD.findall(" ".join(PLAYERS + (LONG,))))
    words.update(WORD.findall(" ".join(i18n.LANGUAGE_NAMES.values())))  # each language by its own name
    return frozenset(words)


@functools.cache
def catalog_words(lang: str) -> tuple[frozenset[str], frozenset[str]]:
    """(the English words of the catalog's messages, the words of ``lang``'s translations), lower case."""
    english: set[str] = set()
    said: set[str] = set()
    for message in messages(lang):
        for text in forms(message.id):
            english.update(w.lower() for w in WORD.findall(_no_fields(text)))
        for text in forms(message.string):
            said.update(w.lower() for w in WORD.findall(_no_fields(text or "")))
    return frozenset(english), frozenset(said)


def _no_fields(text: str) -> str:
    return re.sub(r"\{[^{}]*\}|%\([^)]*\)[a-z]|%[a-z]", " ", text)


def leaks(texts: Iterable[str], lang: str, allow: Iterable[str] = ()) -> list[tuple[str, str]]:
    """``(word, text)`` for each English word a ``lang`` player would read in ``texts`` (see the module doc):
    in Greek any Latin word of 2 letters or more that is not a name or a code; in Polish and Hungarian an
    English word of the catalog that ``lang``'s translations do not use. URLs and file paths are skipped."""
    allowed = ALLOW | component_words() | set(allow)
    english, said = catalog_words(lang)
    out = []
    for text in texts:
        bare = re.sub(r"(https?://|/|[A-Za-z]:\\)\S*|\S+\.(json|png|jpg|toml|sqlite3|npz)\b|--[a-z-]+|<[a-z-]+>"
                      r"|\b\d{8}-\d{6}-[0-9a-f]+\b",  # a session's id
                      " ", str(text))
        for word in WORD.findall(bare):
            if word in allowed or word.lower() in {a.lower() for a in allowed if a.islower()}:
                continue
            if word + "…" in bare and any(a.startswith(word) for a in allowed):
                continue  # a name cut short to fit
            if lang == "el":
                if len(word) >= 2:
                    out.append((word, str(text)))
            elif word.lower() in english and word.lower() not in said and len(word) >= 3:
                out.append((word, str(text)))
    return out


def strings(value: Any) -> Iterator[str]:
    """Every string in a (localized) view: the texts a phone shows come from these."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for v in value.values():
            yield from strings(v)
    elif isinstance(value, (list, tuple)):
        for v in value:
            yield from strings(v)


SHOWN_KEYS = {"what", "where", "rule", "todo", "fix", "message", "text", "label", "note", "why", "round_label",
              "title", "pool_label", "prompt", "ending", "category", "by", "labels", "detail", "source", "phone",
              "categories", "breakdown", "phases", "next", "findings", "questions", "misplays", "notes", "forms",
              "fields", "columns", "boards", "cells", "check", "lines", "count", "game", "camera", "status",
              "result", "players", "history", "open", "choose", "games", "enroll", "pair", "storage", "health",
              "box", "colour_words", "markers", "team_scores", "winners", "language", "choices"}


def shown_strings(view: Any, key: str | None = None) -> Iterator[str]:
    """The strings of a (localized) view a page shows: the values under the keys the pages draw (not ids, codes,
    file paths or the answers a page posts back)."""
    if isinstance(view, str):
        if key not in ("choices", "colours", "game", "kind", "mode", "stage", "state", "severity", "flow", "id",
                       "session", "folder", "photo", "phone_url", "bgstats_url", "json", "bgstats", "image",
                       "rule_kind", "key", "level", "colour", "step", "name", "player", "card", "owner", "turn",
                       "seat", "reader", "zones", "value", "code", "covers", "started_at", "round", "proposed",
                       "choice", "camera", "origin", "face", "after", "shown_from"):
            yield view
        return
    if isinstance(view, dict):
        for k, v in view.items():
            if k in ("payload", "seat_points", "frame", "open_forms", "export", "exported", "dice", "read",
                     "polygons", "tiebreak"):
                continue
            if k == "detail" and "category" in view:
                continue  # a score line's detail: pages show the category and VP (Race's and Roll's list card names)
            if k in ("breakdown", "team_scores") and isinstance(v, dict):
                yield from (str(c) for c in v)  # the categories are its keys
                continue
            yield from shown_strings(v, k)
    elif isinstance(view, (list, tuple)):
        for v in view:
            yield from shown_strings(v, key)


def dump(walk_: Walk, path: Path) -> None:
    """Every text drawn, per screen, as JSON (for a person reading the run)."""
    path.write_text(json.dumps({s.name: s.texts for s in walk_.shots}, ensure_ascii=False, indent=1), encoding="utf-8")
