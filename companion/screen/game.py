"""A game's screens: the table (round, phase strip, pool, the players' declared columns, LAST ROUND, the newest finding
with its rule, the dice just thrown (which hit), the camera's misplays and its oldest question, Next / Undo) and the
scores once it has ended (every row some player scored, team scores)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np
import pygame

from companion.actions import Action
from companion.screen.canvas import (ACCENT, BAD, BG, DIM, GOOD, PANEL, SEVERITY_COLOURS, TEXT, WARN, Button, seat_rgb)
from companion.screen.states import Screen, ScreenState, can_undo

if TYPE_CHECKING:
    from companion.screen.window import TouchScreen


PHASE_COLOURS = {"current": ACCENT, "done": (40, 46, 56), "next": PANEL}


DEFAULT_COLUMNS = [{"key": "tableau", "label": "Tableau"}, {"key": "credits", "label": "Credits"}, {"key": "vp", "label": "VP"}]
"""The player columns of a view that names none (``companion.flow_spec.STANDARD_COLUMNS``)."""


def camera_attention(view: dict[str, Any]) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """(misplays, questions) of the view's camera block (``companion.camera``)."""
    camera = view.get("camera") or {}
    return list(camera.get("misplays") or []), list(camera.get("questions") or [])


def nxt_enabled(game: dict[str, Any]) -> bool:
    """Whether the flow's Next button can be pressed now."""
    return bool((game.get("next") or {}).get("enabled"))


class Table(ScreenState):
    """The game-tracking screen of a flow (see ``companion.flow`` for the view's ``game`` shape).

    With the camera (``view["camera"]``): a misplay it saw is shown at once over the players' table
    with the rule and the fix; the oldest waiting question ("Ann built Customs at [0, 1]?") gets
    Confirm / Dismiss buttons (and one button per other answer for questions with choices)."""

    screen = Screen.TABLE
    PANEL_TOP = 196  # y of the camera panel (px, 800 x 480 layout); it ends above the bottom buttons

    def qr_rect(self, ts: TouchScreen) -> pygame.Rect:
        return ts.rect(700, 250, 94, 94)

    def buttons(self, ts: TouchScreen, view: dict[str, Any]) -> list[Button]:
        nxt = (view.get("game") or {}).get("next") or {}
        buttons = [
            Button(Action.NEXT_PHASE, f"Next: {nxt.get('label', '')}", ts.rect(6, 404, 330, 70), bool(nxt.get("enabled"))),
            Button(Action.UNDO, "Undo", ts.rect(344, 404, 150, 70), can_undo(view)),
        ]
        if ts.debug:
            buttons.append(Button(Action.QUIT, "Quit", ts.rect(502, 404, 100, 70)))
        _, questions = camera_attention(view)
        if questions:
            q = questions[0]
            proposed = q.get("proposed")
            label = f"Yes: {proposed.capitalize()}" if proposed else "Confirm"
            answers = [(Action.CAMERA_CONFIRM, label, (("id", q["id"]),), "camera_confirm")]
            for choice in q.get("choices") or []:
                if choice != q.get("proposed"):
                    answers.append((Action.CAMERA_CONFIRM, choice.capitalize(), (("id", q["id"]), ("choice", choice)),
                                    f"camera_confirm:{choice}"))
            answers.append((Action.CAMERA_DISMISS, "Dismiss", (("id", q["id"]),), "camera_dismiss"))
            area = ts.rect(12, 338, 676, 56)
            gap = ts.s(8)
            width = (area.width - gap * (len(answers) - 1)) // len(answers)
            for k, (action, label, payload, key) in enumerate(answers):
                buttons.append(Button(action, label, pygame.Rect(area.x + k * (width + gap), area.y, width, area.height),
                                      True, payload, key))
        return buttons

    def _camera_panel(self, ts: TouchScreen, view: dict[str, Any], top: int) -> bool:
        """Draw the camera's misplays and oldest question over the players' table; False when there is none."""
        misplays, questions = camera_attention(view)
        if not misplays and not questions:
            return False
        if not misplays:  # a question only: the players' table stays in view above it
            self._players(ts, view.get("game") or {}, ts.rect(6, top, 600, 292 - top))
            top = 296
        area = ts.rect(6, top, 688, 398 - top)
        pygame.draw.rect(ts.surface, PANEL, area, border_radius=ts.s(8))
        x, y, width = area.x + ts.s(12), area.y + ts.s(6), area.width - ts.s(20)
        bottom = ts.y(334) if questions else area.bottom
        for m in misplays:
            if y + ts.s(84) > bottom:
                break
            colour = SEVERITY_COLOURS.get(m.get("severity"), BAD)
            pygame.draw.rect(ts.surface, colour, (area.x, y, ts.s(6), ts.s(82)))
            head = "MISPLAY" if m.get("severity", "error") == "error" else "CHECK"
            ts.text_fit(f"{head} - {m.get('player', '?')}: {m.get('message', '')}", (x, y), width, 28, colour, min_size=17)
            ts.text_fit(f"Rule: {m.get('source') or m.get('rule', '')}", (x, y + ts.s(26)), width, 24, DIM, min_size=15)
            if m.get("fix"):
                ts.text_fit(f"Fix: {m['fix']}", (x, y + ts.s(52)), width, 26, GOOD, min_size=15)
            y += ts.s(88)
        if questions:
            q = questions[0]
            more = f"  (+{len(questions) - 1} more)" if len(questions) > 1 else ""
            ts.text_fit(f"Camera: {q.get('text', '?')}{more}", (x, ts.y(306)), width, 30, TEXT, min_size=16)
            if q.get("error"):
                ts.text_fit(q["error"], (x, ts.y(302) - ts.s(18)), width, 20, BAD, min_size=14)
        return True

    def do(self, ts: TouchScreen, view: dict[str, Any], frame: np.ndarray | None) -> None:
        surface = ts.surface
        surface.fill(BG)
        game = view.get("game") or {}
        w = surface.get_width()
        ts.text_fit(game.get("title", ""), (ts.x(10), ts.y(8)), ts.x(330), 34, DIM)
        ts.text_fit(game.get("round_label", ""), (ts.x(10), ts.y(36)), ts.x(470), 40, TEXT)
        if game.get("pool") is not None:
            ts.text(f"{game.get('pool_label', 'VP pool')}: {game['pool']}", (w - ts.x(10), ts.y(14)), 48, WARN, anchor="topright")
        y = 76
        if game.get("last_round"):
            banner = ts.rect(6, y, 788, 40)
            pygame.draw.rect(surface, BAD, banner, border_radius=ts.s(8))
            why = "; ".join(game.get("ending") or [])
            ts.text_fit(f"LAST ROUND  {why}", banner.center, banner.width - 16, 38, TEXT, anchor="center")
            y += 44
        phases = game.get("phases") or []
        strip = ts.rect(6, y, 788, 70)
        if phases:
            gap = ts.s(6)
            width = (strip.width - gap * (len(phases) - 1)) // len(phases)
            for k, ph in enumerate(phases):
                box = pygame.Rect(strip.x + k * (width + gap), strip.y, width, strip.height)
                state = ph.get("state", "next")
                pygame.draw.rect(surface, PHASE_COLOURS.get(state, PANEL), box, border_radius=ts.s(8))
                colour = (16, 20, 24) if state == "current" else (DIM if state == "done" else TEXT)
                ts.text_fit(ph.get("label", ""), (box.centerx, box.y + ts.s(6)), box.width - 8, 32, colour, anchor="midtop", min_size=16)
                by = ", ".join(ph.get("by") or [])
                if by:
                    ts.text_fit(by, (box.centerx, box.bottom - ts.s(6)), box.width - 8, 22, colour, anchor="midbottom", min_size=14)
        else:
            pygame.draw.rect(surface, PANEL, strip, border_radius=ts.s(8))
        y += 74
        ts.text_fit(game.get("note", ""), (ts.x(10), ts.y(y)), ts.x(780), 26, DIM, min_size=16)
        y += 26
        if not self._camera_panel(ts, view, y):
            throws = game.get("throws") or []
            findings = view.get("findings") or []
            if throws:  # the dice just thrown, and below them only what is wrong (the throw says what it did)
                findings = [f for f in findings if f.get("severity") in ("error", "warning")][:1]
                bottom = 270 if findings else 326
                if not self._players(ts, game, ts.rect(6, y, 600, bottom - y)):
                    bottom = y  # no room for the players' rows: the throw goes up
                self._throw(ts, throws[0], ts.rect(6, bottom + 2, 688, 70))
            else:
                self._players(ts, game, ts.rect(6, y, 600, 340 - y))
            ts.draw_findings_with_rule(findings, ts.rect(6, 372, 788, 28))
        ts.draw_buttons(self.buttons(ts, view))
        if ts.url(view):
            ts.draw_qr(ts.qr_url(view), self.qr_rect(ts))
        message = (view.get("status") or {}).get("message") or ""
        if not nxt_enabled(game) and (game.get("next") or {}).get("why"):
            message = game["next"]["why"]
        markers = (view.get("camera") or {}).get("markers")
        if markers:
            message = markers.get("message") or "calibration markers moved"
            ts.text_fit("Markers moved: recalibrate", (ts.x(700), ts.y(232)), ts.x(94), 20, WARN, min_size=12)
        elif ts.url(view):
            ts.text_fit("Phones: tap", (ts.x(747), ts.y(234)), ts.x(94), 20, DIM, anchor="midtop", min_size=12)
        ts.text_fit(message, (ts.x(610), ts.y(420)), ts.x(184), 22, DIM, min_size=14)

    @staticmethod
    def _throw(ts: TouchScreen, throw: dict[str, Any], area: pygame.Rect) -> None:
        """The dice just thrown (``game["throws"][0]``, :class:`companion.flow_spec.Throw`): each die in its colour with
        its face, a hit ringed in green, a miss dimmed; what was thrown and the outcome beside them."""
        pygame.draw.rect(ts.surface, PANEL, area, border_radius=ts.s(8))
        side, gap = ts.s(34), ts.s(6)
        dice = throw.get("dice") or []
        shown = dice[: max(1, (area.width // 2) // (side + gap))]
        x = area.x + ts.s(10)
        top = area.y + (area.height - side) // 2 - ts.s(6)
        for d in shown:
            box = pygame.Rect(x, top, side, side)
            hit = d.get("hit")
            body = seat_rgb(d.get("colour"))
            if hit is False:
                body = tuple(int(c * 0.45) for c in body)
            pygame.draw.rect(ts.surface, body, box, border_radius=ts.s(6))
            if hit:
                pygame.draw.rect(ts.surface, GOOD, box.inflate(ts.s(6), ts.s(6)), ts.s(3), border_radius=ts.s(8))
            face = "?" if d.get("face") is None else str(d["face"])
            ts.text(face, box.center, 26, (16, 20, 24), anchor="center")
            word = "hit" if hit else ("miss" if hit is False else "")
            if word:
                ts.text(word, (box.centerx, box.bottom + ts.s(4)), 16, GOOD if hit else DIM, anchor="midtop")
            x += side + gap
        left = x + ts.s(8) if dice else area.x + ts.s(12)
        room = area.right - left - ts.s(8)
        ts.text_fit(str(throw.get("label", "")), (left, area.y + ts.s(8)), room, 26, TEXT, min_size=14)
        ts.text_fit(str(throw.get("summary", "")), (left, area.y + ts.s(38)), room, 26, GOOD if dice else WARN, min_size=14)

    @staticmethod
    def _players(ts: TouchScreen, game: dict[str, Any], area: pygame.Rect) -> bool:
        """The players' rows: name (waiting ones marked) and the columns the game declares (``game["columns"]``;
        Tableau, Credits, VP when it declares none), narrower when there are more than three; in two halves side by
        side when the rows do not fit one under the other (up to nine seats). Returns False (nothing drawn) when
        they do not fit even so."""
        players = game.get("players") or []
        columns = game.get("columns") or DEFAULT_COLUMNS
        room = area.height - ts.s(20)
        halves = 1 if not players or room // len(players) >= ts.s(22) else 2
        per_half = -(-len(players) // halves) if players else 0
        if per_half and room // per_half < ts.s(16):
            return False
        width = area.width // halves
        scale = width / area.width
        name_w = 260 * scale if halves == 1 else 0.42 * width / ts.s(1)
        step = (120 if len(columns) <= 3 else (600 - 260) / len(columns)) * scale if halves == 1 \
            else (width / ts.s(1) - name_w) / max(1, len(columns))
        size = (36 if len(columns) <= 3 else 28) if halves == 1 else 24
        for half in range(halves):
            x0 = area.x + half * width
            ts.text("Player", (x0, area.y), 22, DIM)
            for k, c in enumerate(columns):
                ts.text_fit(str(c.get("label", "")), (x0 + ts.s(name_w + k * step), area.y), ts.s(step - 6), 22, DIM,
                            min_size=12)
            rows = players[half * per_half:(half + 1) * per_half]
            row_h = max(ts.s(16), min(ts.s(40), room // max(1, per_half)))
            y = area.y + ts.s(20)
            for p in rows:
                pygame.draw.circle(ts.surface, seat_rgb(p.get("colour")), (x0 + ts.s(8), y + row_h // 2), ts.s(7))
                name = p.get("name", "?") + ("  (waiting)" if p.get("waiting") else "")
                ts.text_fit(name, (x0 + ts.s(22), y + row_h // 2), ts.s(name_w - 25), min(32, row_h * 32 // ts.s(40) + 8),
                            WARN if p.get("waiting") else TEXT, anchor="midleft", min_size=12)
                for k, c in enumerate(columns):
                    value = p.get(str(c.get("key")))
                    ts.text_fit("-" if value is None else str(value), (x0 + ts.s(name_w + k * step), y + row_h // 2),
                                ts.s(step - 6), size, TEXT, anchor="midleft", min_size=12)
                y += row_h
        return True


def shown_categories(players: list[dict[str, Any]]) -> list[str]:
    """The score rows the touchscreen shows: every category of any player's breakdown (players of one game may have
    rows of their own: an Eclipse species' row), in order, without the rows nobody scored in (the phones and the
    export keep every row)."""
    out: list[str] = []
    for p in players:
        for c in p.get("categories") or []:
            if c["category"] not in out:
                out.append(c["category"])
    return [c for c in out if any(p["breakdown"].get(c, 0) for p in players)] or out


class Scores(ScreenState):
    """End of a flow game: the breakdown by category, each player's total, the winner."""

    screen = Screen.SCORES

    def buttons(self, ts: TouchScreen, view: dict[str, Any]) -> list[Button]:
        buttons = [Button(Action.UNDO, "Undo", ts.rect(6, 404, 200, 70), can_undo(view))]
        if (view.get("camera") or {}).get("count") is not None:  # Roll with --dice-profile: the dice count
            buttons.append(Button(Action.READ_NOW, "Count dice", ts.rect(214, 404, 200, 70), True, (), "count_dice"))
        if ts.debug:
            buttons.append(Button(Action.QUIT, "Quit", ts.rect(422, 404, 110, 70)))
        return buttons

    def do(self, ts: TouchScreen, view: dict[str, Any], frame: np.ndarray | None) -> None:
        surface = ts.surface
        surface.fill(BG)
        game = view.get("game") or {}
        result = game.get("result") or {"players": [], "winners": []}
        won = result.get("winners") or []
        ts.text_fit(f"{game.get('title', '')}: game over", (ts.x(10), ts.y(8)), ts.x(780), 34, DIM)
        headline = ("Winner: " if len(won) == 1 else "Shared win: ") + ", ".join(won)
        ts.text_fit(headline, (ts.x(10), ts.y(40)), ts.x(780), 56, GOOD)
        teams = result.get("team_scores") or {}
        top = 100
        if teams:  # a game that scores teams (Eclipse's alliances): each team's score
            line = "Team scores: " + ", ".join(f"{team} {vp} VP" for team, vp in teams.items())
            ts.text_fit(line, (ts.x(10), ts.y(96)), ts.x(780), 26, WARN, min_size=14)
            top = 124
        players = result.get("players") or []
        categories = shown_categories(players)
        bottom = 366 if (view.get("camera") or {}).get("count") is not None else 396
        table = ts.rect(6, top, 788, bottom - top)
        label_w = ts.x(230)
        col_w = (table.width - label_w) // max(1, len(players))
        rows = len(categories) + 2
        row_h = min(ts.s(34), table.height // max(1, rows))
        size = max(14, min(28, int(row_h / ts.s(1) * 0.85)))  # design px: rows of 34 take 28 px text
        for k, p in enumerate(players):
            x = table.x + label_w + k * col_w
            colour = GOOD if p.get("winner") else TEXT
            ts.text_fit(p["name"], (x + col_w // 2, table.y), col_w - 6, min(30, size + 2), colour, anchor="midtop",
                        min_size=12)
        y = table.y + row_h
        for cat in categories:
            ts.text_fit(cat, (table.x, y), label_w - 6, size - 2, DIM, min_size=12)
            for k, p in enumerate(players):
                x = table.x + label_w + k * col_w
                ts.text(str(p["breakdown"].get(cat, 0)), (x + col_w // 2, y), size, TEXT, anchor="midtop")
            y += row_h
        pygame.draw.line(surface, DIM, (table.x, y), (table.right, y), 1)
        ts.text("Total", (table.x, y + ts.s(2)), min(34, size + 6), TEXT)
        for k, p in enumerate(players):
            x = table.x + label_w + k * col_w
            ts.text(str(p["total"]), (x + col_w // 2, y + ts.s(2)), min(40, size + 8), GOOD if p.get("winner") else TEXT,
                    anchor="midtop")
        ts.draw_buttons(self.buttons(ts, view))
        count = (view.get("camera") or {}).get("count")
        if count is not None:
            ts.text_fit(count.get("prompt") or "", (ts.x(10), ts.y(372)), ts.x(780), 24, WARN, min_size=14)
            ts.text_fit("Export: companion export --json FILE / --bgstats FILE", (ts.x(424), ts.y(420)), ts.x(370), 22, DIM, min_size=12)
        else:
            ts.text_fit("Export: companion export --json FILE / --bgstats FILE", (ts.x(350), ts.y(430)), ts.x(440), 22, DIM, min_size=14)
