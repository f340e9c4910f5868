"""A game's scores as they stand, and the records of it that leave the box: the result, the JSON export, BG Stats.

:func:`result` is the standing every view shows (the history, the phones, the touchscreen, the scores screen);
:func:`export_json` and :func:`bgstats_play` turn the session into what other tools read (``companion export``,
the phone's download, BG Stats' "push plays" link from :func:`bgstats_url`). They only read a
:class:`companion.flow.GameFlow` (its session, its game's flow module and seats, as :class:`Scored` says) and record
nothing; the flow's methods of the same names call them.
"""

from __future__ import annotations

import urllib.parse
from collections.abc import Mapping
from datetime import datetime
from typing import Any, Protocol

from companion.flow_spec import GameSpec
from companion.i18n import Moment, Text, localize
from companion.timestamps import shown, usable
from rules import Progress
from rules.scoring import standings

__all__ = ["BGSTATS_URL", "Scored", "bgstats_play", "bgstats_url", "export_json", "play_date_problem", "result"]

BGSTATS_URL = "bgstats://app.bgstatsapp.com/addPlay.html?data="
"""BG Stats' "push plays" URL: the play record, JSON, URL-encoded after ``data=``."""


class Scored(Protocol):
    """What these functions read of a game flow (a :class:`companion.flow.GameFlow`)."""

    session: Any
    spec: GameSpec
    seats: list[dict[str, str]]

    def engine_view(self) -> dict[str, Any]: ...

    def progress(self) -> Progress: ...

    def over(self) -> bool: ...

    def result(self) -> dict[str, Any]: ...


def result(flow: Scored) -> dict[str, Any]:
    """Scores as they stand: ``{"players": [{"name", "seat", "colour", "role", "total",
    "breakdown": {category: VP}, "categories": [{"category", "vp", "detail"}], "tiebreak",
    "winner"}], "winners": [names]}`` (players in seat order). The winners are the game's own
    (:func:`rules.scoring.standings`: a game with teams ranks its teams); a game that scores teams adds
    ``"team"`` to each player in one and ``"team_scores": {team: VP}``; ``"rule"``: the rulebook section the
    scoring follows, cited as findings are (``"Roll for the Galaxy, p.8 Victory"``), when the game declares one
    (:attr:`rules.core.GameInfo.score_rule`); ``"tiebreak_rule"``: what each player's ``"tiebreak"`` counts
    (``"dice in cup + credits"``, :attr:`rules.core.GameInfo.tiebreak`), when the game declares it.

    Only what every player may see counts (:meth:`rules.core.Game.public`): before the game is over, Eclipse's
    final positions and a Qualeen's secret objective already entered on the phones are left out of every total,
    tie-break and line, wherever the result is shown (the history, the phones, the touchscreen, the exports'
    standing); once it is over, all."""
    view = flow.engine_view()
    breakdowns = flow.spec.scores(flow.session.game.public(flow.session.replay().state))
    ranked = standings(flow.session.game, breakdowns)
    won = list(ranked.winners)
    seat = {s["name"]: (k + 1, s["colour"]) for k, s in enumerate(flow.seats)}
    players = []
    for b in breakdowns:
        row = {
            "name": b.player,
            "seat": seat.get(b.player, (0, ""))[0],
            "colour": seat.get(b.player, (0, ""))[1],
            "role": flow.spec.role(view, b.player),
            "total": b.total,
            "breakdown": {line.category: line.vp for line in b.lines},
            "categories": [{"category": line.category, "vp": line.vp, "detail": line.detail} for line in b.lines],
            "tiebreak": list(b.tiebreak),
            "winner": b.player in won,
        }
        if b.team is not None:
            row["team"] = b.team
        players.append(row)
    out: dict[str, Any] = {"players": players, "winners": won}
    info = flow.session.game.info
    if info.score_rule:
        out["rule"] = info.cite(info.score_rule)
    if info.tiebreak:
        out["tiebreak_rule"] = Text(info.tiebreak)
    if ranked.teams is not None:
        out["team_scores"] = dict(ranked.teams)
    return out


def export_json(flow: Scored) -> dict[str, Any]:
    """The finished game: ``{"format": "tabletop-companion/game", "version": 1, "game", "title",
    "bgg_id", "session", "started_at", "ended_at" (Unix s), "finished", "rounds", "players":
    [result players], "winners", "findings": [...], "events": [Event.to_json()]}``. A game not finished
    (still in Setup, or stopped early) has no winner yet: ``"winners"`` is empty and every player's
    ``"winner"`` is false, whatever the scores stand at. Each score line's ``"category"`` and ``"detail"`` are the
    English that tools read; its ``"said": {"category", "detail"}`` is the same in the current language (the
    phone's that downloads it, else the box's)."""
    events = flow.session.events()
    progress = flow.progress()
    # the screens' citation and tie-break label: not in format 1
    result = {k: v for k, v in flow.result().items() if k not in ("rule", "tiebreak_rule")}
    result["players"] = [{**p, "categories": [{**c, "said": localize({"category": c["category"],
                                                                        "detail": c["detail"]})}
                                              for c in p["categories"]]} for p in result["players"]]
    if not progress.over:
        result = {**result, "winners": [], "players": [{**p, "winner": False} for p in result["players"]]}
    return {
        "format": "tabletop-companion/game",
        "version": 1,
        "game": flow.spec.name,
        "title": flow.spec.title,
        "bgg_id": flow.spec.bgg_id,
        "session": flow.session.id,
        "started_at": flow.session.started_at,
        "ended_at": events[-1].at if events else flow.session.started_at,
        "finished": progress.over,
        "rounds": progress.round,
        **result,
        "findings": [f.to_json() for f in flow.session.replay().findings],
        "events": [e.to_json() for e in events],
    }

def bgstats_play(flow: Scored, tz: Any = None) -> dict[str, Any]:
    """The play record for BG Stats' "push plays" import.

    Shape: ``{"sourceName", "sourcePlayId", "playDate": "YYYY-MM-DD HH:MM:SS" (local time of
    the session's start; its first event's when the start as stored is no time, none when neither is:
    :func:`play_date_problem`), "durationMin" (only when both ends are times), "game": {"name", "bggId",
    "sourceGameId", "highestWins": true, "noPoints": false, "cooperative": false}, "players": [{"name", "score",
    "winner", "seatOrder" (1-based), "startPlayer", "role", "color", "team"?}], "comments"}``.

    Field names follow BG Stats' public "push plays" description as we remember it; only
    ``highestWins``/``noPoints``/``cooperative`` could be checked against a BG Stats export
    found with the search tool. ``sourcePlayId`` and ``color`` are our additions that BG Stats
    is expected to ignore if unknown; ``playDate`` is local time (BG Stats takes no zone). A game
    not finished (``export --unfinished``) has no winner. In a game that scores teams (Eclipse's alliances) a
    player in one has ``"team"`` (its name); each player's ``score`` is their own total, every member of a
    winning team is a winner, and ``comments`` gives each team's score.
    """
    events = flow.session.events()
    started = usable(flow.session.started_at)
    ended = usable(events[-1].at) if events else started
    dated = started if started is not None else usable(events[0].at) if events else None
    result = flow.result()
    over = flow.over()
    return {
        "sourceName": "tabletop-companion",
        "sourcePlayId": flow.session.id,
        # a start that is no time (a database changed by hand: Infinity, a year past 9999, a text): the first event's
        # time instead, or no date (BG Stats then asks); the length is not known, so not said (play_date_problem)
        **({"playDate": datetime.fromtimestamp(dated, tz).strftime("%Y-%m-%d %H:%M:%S")} if dated is not None else {}),
        **({"durationMin": max(1, round((ended - started) / 60))}
           if started is not None and ended is not None and ended >= started else {}),
        "game": {
            "name": flow.spec.title,
            "bggId": flow.spec.bgg_id,
            "sourceGameId": f"tabletop-companion:{flow.spec.name}",
            "highestWins": True,
            "noPoints": False,
            "cooperative": False,
        },
        "players": [
            {"name": p["name"], "score": p["total"], "winner": over and p["winner"], "seatOrder": p["seat"],
             "startPlayer": p["seat"] == 1, "role": p["role"] or "", "color": p["colour"],
             **({"team": p["team"]} if p.get("team") else {})}
            for p in result["players"]
        ],
        "comments": f"Recorded at the table by tabletop-companion (session {flow.session.id})."
        + "".join(f" {team}: {vp} VP as a team." for team, vp in (result.get("team_scores") or {}).items()),
    }


def play_date_problem(flow: Scored) -> Text | None:
    """What :func:`bgstats_play` could not date from ``flow``'s session, said for the one exporting it (its start
    as stored, which is no time, and what the play took instead), or None when its start is a time."""
    started = flow.session.started_at
    if usable(started) is not None:
        return None
    events = flow.session.events()
    first = usable(events[0].at) if events else None
    if first is not None:
        return Text("session {session}'s start time as stored ({value}) is no time (changed outside the box?); the "
                    "BG Stats play is dated by its first event, {when}, and has no length",
                    session=flow.session.id, value=shown(started), when=Moment(first, "short"))
    return Text("session {session}'s start time as stored ({value}) is no time (changed outside the box?); the BG "
                "Stats play has no date or length: BG Stats asks for the date", session=flow.session.id,
                value=shown(started))


def bgstats_url(play: Mapping[str, Any]) -> str:
    """The ``bgstats://`` link that opens BG Stats with ``play`` (:func:`bgstats_play`): its JSON written as the
    phones' and the downloaded play's are (:func:`companion.webstream.json_text`), so the link always carries valid
    JSON: a value JSON cannot carry as it is (NaN or an infinity, a whole number too long to write, a set, bytes, a
    key of another kind: from a database changed by hand) is written as the nearest valid JSON and logged once,
    and a name holding a lone surrogate, which UTF-8 cannot carry, has the play escaped instead of failing the
    link. Letters are kept as they are (UTF-8, then URL-encoded).

    Raises:
        ValueError: ``play`` holds itself (a loop; :func:`bgstats_play` never makes one).
    """
    from companion.webstream import json_text  # the phone view's module: the flow alone does not load Flask

    return BGSTATS_URL + urllib.parse.quote(json_text(play, separators=(",", ":")), safe="")

