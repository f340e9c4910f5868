"""A game's screens: the table (round, phase strip, pool, the players' declared columns, LAST ROUND, the newest finding
with its rule, the dice just thrown (which hit), the camera's misplays and its oldest question, Next / Undo) and the
scores once it has ended (every row some player scored, team scores)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np
import pygame

from companion.actions import Action
from companion.camera.station_picture import picture_key
from companion.i18n import N_, _
from companion.screen.canvas import (
    BAD,
    BG,
    DIM,
    ERROR_MIN_PX,
    GOOD,
    LEVEL_WORDS,
    NAME_MIN_SIZE,
    PANEL,
    QR_SIDE,
    SEVERITY_COLOURS,
    TEXT,
    WARN,
    Button,
    seat_rgb,
)
from companion.screen.phases import draw_phase_strip
from companion.screen.states import Screen, ScreenState, can_undo, games_button

if TYPE_CHECKING:
    from companion.screen.window import TouchScreen


ERROR_MOST_LINES = 4
"""The lines a refusal under the whose-station question keeps beside its picture before the question shrinks no more
(a longer one ends with "…"; the phones show it whole)."""

NOTE_MOST_LINES = 5
"""The lines a game's note under the phase strip (Among the Stars' 2-player passing) takes at most on a window
smaller than 800 x 480, where its words are drawn no smaller (READ_MIN_PX) and so take more lines."""

QR_X = 800 - 6 - QR_SIDE
"""The QR code's left edge (design px): the game's panels end before it."""


DEFAULT_COLUMNS = [{"key": "tableau", "label": N_("Tableau")}, {"key": "credits", "label": N_("Credits")},
                   {"key": "vp", "label": N_("VP")}]
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
    Confirm / Dismiss buttons (and one button per other answer for questions with choices; "whose station is this?" one
    button per player it may be, and Dismiss)."""

    screen = Screen.TABLE
    PANEL_TOP = 196  # y of the camera panel (px, 800 x 480 layout); it ends above the bottom buttons

    def qr_rect(self, ts: TouchScreen) -> pygame.Rect:
        return ts.rect(QR_X, 232, QR_SIDE, QR_SIDE)

    def buttons(self, ts: TouchScreen, view: dict[str, Any]) -> list[Button]:
        nxt = (view.get("game") or {}).get("next") or {}
        buttons = [
            Button(Action.NEXT_PHASE, _("Next: {action}").format(action=nxt.get("label", "")), ts.rect(6, 404, 330, 70),
                   bool(nxt.get("enabled"))),
            Button(Action.UNDO, _("Undo"), ts.rect(344, 404, 150, 70), can_undo(view)),
            *games_button(ts, view, ts.rect(502, 404, 120, 70)),
        ]
        if ts.debug:
            buttons.append(Button(Action.QUIT, _("Quit"), ts.rect(630, 404, 60, 70)))
        questions = camera_attention(view)[1]
        if questions:
            q = questions[0]
            proposed = q.get("proposed")
            choices = list(q.get("choices") or [])
            # each choice as shown (the view is said already)
            labels = dict(zip(choices, q.get("labels") or choices, strict=False))
            label = _("Yes: {answer}").format(answer=labels.get(proposed, proposed)) if proposed else _("Confirm")
            # a question whose answer is a player ("whose station is this?") has no answer of its own: a tap on a player
            answers = [] if q.get("choose_player") else [(Action.CAMERA_CONFIRM, label, (("id", q["id"]),),
                                                           "camera_confirm")]
            for choice in choices:
                if choice != q.get("proposed"):
                    answers.append(
                        (
                            Action.CAMERA_CONFIRM,
                            labels.get(choice, choice),
                            (("id", q["id"]), ("choice", choice)),
                            f"camera_confirm:{choice}",
                        )
                    )
            answers.append((Action.CAMERA_DISMISS, _("Dismiss"), (("id", q["id"]),), "camera_dismiss"))
            area = ts.rect(12, 338, QR_X - 24, 56)
            gap = ts.s(8)
            width = (area.width - gap * (len(answers) - 1)) // len(answers)
            if proposed and answers[0][3] == "camera_confirm" and not ts.label_fits(answers[0][1], width, area.height):
                # a small window: "Yes: Explore" fits its button at no readable size; the question above names the
                # answer, so the button says Confirm rather than "Yes: E…"
                answers[0] = (answers[0][0], _("Confirm"), *answers[0][2:])
            for k, (action, label, payload, key) in enumerate(answers):
                buttons.append(
                    Button(
                        action,
                        label,
                        pygame.Rect(area.x + k * (width + gap), area.y, width, area.height),
                        True,
                        payload,
                        key,
                    )
                )
        return buttons

    def _camera_panel(self, ts: TouchScreen, view: dict[str, Any], top: int) -> bool:
        """Draw the camera's misplays and oldest question over the players' table; False when there is none."""
        misplays, questions = camera_attention(view)
        if not misplays and not questions:
            return False
        if not misplays and self._station_question(ts, questions, top):
            return True
        width = ts.x(QR_X - 12) - ts.s(20)
        asked, size = _question_lines(ts, questions, width)
        step = ts.font(size).get_linesize()
        extra = max(0, ts.y(306) + len(asked) * step - ts.y(336))   # real px the question needs above its line
        if not misplays:  # a question only: the players' table stays in view above it
            self._players(ts, view.get("game") or {}, ts.rect(6, top, 600, 292 - top - ts.design_y(extra)))
            top = 296 - ts.design_y(extra)
        area = ts.rect(6, top, QR_X - 12, 398 - top)
        pygame.draw.rect(ts.surface, PANEL, area, border_radius=ts.s(8))
        x, y = area.x + ts.s(12), area.y + ts.s(6)
        bottom = ts.y(334) - extra if questions else area.bottom
        for m in misplays:
            if y + ts.s(84) > bottom:
                break
            top = y
            severity = m.get("severity", "error")
            colour = SEVERITY_COLOURS.get(severity, BAD)
            head = _("MISPLAY") if severity == "error" else _("CHECK")
            lines = 2 if len(misplays) == 1 else 1  # one misplay: room to wrap instead of shrinking
            y = ts.wrap(_("{sign} {head} - {player}: {message}").format(sign=ts.sign(severity), head=head,
                                                                          player=m.get("player", "?"),
                                                                          message=m.get("message", "")),
                        (x, y), width, 24, colour, max_lines=lines)
            ts.text_fit(_("Rule: {rule}").format(rule=m.get("source") or m.get("rule", "")), (x, y), width, 20, DIM,
                        min_size=13)
            y += ts.s(22)
            if m.get("fix"):
                y = ts.wrap(_("Fix: {fix}").format(fix=m['fix']), (x, y), width, 22, GOOD, max_lines=lines)
            pygame.draw.rect(ts.surface, colour, (area.x, top, ts.s(6), y - top))
            y += ts.s(8)
        if questions:
            q = questions[0]
            first = ts.y(306) - extra
            for k, line in enumerate(asked):
                ts.text_fit(line, (x, first + k * step), width, size, TEXT, min_size=size)
            if q.get("error"):   # the refusal in one line above the question, readable on the smallest window
                least = ts.readable_size(14, ERROR_MIN_PX)
                size = max(20, least)
                ts.text_fit(q["error"], (x, first - 2 - ts.font(size).get_linesize()), width, size, BAD,
                            min_size=least)
        return True

    @staticmethod
    def _station_question(ts: TouchScreen, questions: list[dict[str, Any]], top: int) -> bool:
        """The oldest question with its station's picture (Among the Stars' "whose station is this?",
        :mod:`companion.camera.station_picture`) over the players' table: the picture on the left, the question
        wrapped beside it, its answers' buttons below (:meth:`buttons`); False when it has no picture to show."""
        q = questions[0]
        if not q.get("picture") or picture_key(q.get("id", 0)) not in ts.pictures:
            return False
        area = ts.rect(6, top, QR_X - 12, 398 - top)
        pygame.draw.rect(ts.surface, PANEL, area, border_radius=ts.s(8))
        room = pygame.Rect(area.x + ts.s(8), area.y + ts.s(6), area.width * 9 // 20, ts.y(332) - area.y - ts.s(6))
        drawn = ts.draw_picture(picture_key(q["id"]), room)
        if drawn is None:
            return False
        x = drawn.right + ts.s(12)
        width, bottom = area.right - ts.s(10) - x, ts.y(332)
        said = _("Camera: {question}").format(question=q.get("text", "?"))
        if len(questions) > 1:
            said = _("Camera: {question}  (+{count} more)").format(question=q.get("text", "?"),
                                                                     count=len(questions) - 1)
        error = str(q.get("error") or "")
        # the refusal under it, at least ERROR_MIN_PX high whatever the window (its room kept, at most
        # ERROR_MOST_LINES lines; the question's own words shrink first)
        error_size = ts.readable_size(16, ERROR_MIN_PX)
        error_step = ts.font(error_size).get_linesize()
        kept = min(len(ts.wrap_lines(error, width, error_size)), ERROR_MOST_LINES) * error_step if error else 0
        y = area.y + ts.s(6)
        for size in range(26, 13, -1):   # the largest size at which the question is whole in the room
            step = ts.font(size).get_linesize()
            most = max(1, (bottom - y - kept) // step)
            if len(ts.wrap_lines(said, width, size)) <= most or size == 14:
                y = ts.wrap(said, (x, y), width, size, TEXT, max_lines=most)
                break
        if error:
            ts.wrap(error, (x, y), width, error_size, BAD, max_lines=max(1, (bottom - y) // error_step))
        return True

    def do(self, ts: TouchScreen, view: dict[str, Any], frame: np.ndarray | None) -> None:
        surface = ts.surface
        surface.fill(BG)
        game = view.get("game") or {}
        w = surface.get_width()
        ts.text_fit(game.get("title", ""), (ts.x(10), ts.y(8)), ts.x(330), 34, DIM)
        ts.text_fit(game.get("round_label", ""), (ts.x(10), ts.y(36)), ts.x(470), 40, TEXT, min_size=16)
        if game.get("pool") is not None:
            ts.text_fit(_("{pool}: {vp}").format(pool=game.get("pool_label") or _("VP pool"), vp=game["pool"]),
                        (w - ts.x(10), ts.y(14)), ts.x(300), 48, WARN, anchor="topright", min_size=20)
        y = 76
        if game.get("last_round"):
            banner = ts.rect(6, y, 788, 40)
            pygame.draw.rect(surface, BAD, banner, border_radius=ts.s(8))
            why = "; ".join(game.get("ending") or [])
            ts.text_fit(_("{sign} LAST ROUND  {why}").format(sign=ts.sign("WARN"), why=why), banner.center,
                        banner.width - 16, 38, TEXT, anchor="center", min_size=14)
            y += 44
        draw_phase_strip(ts, game.get("phases") or [], ts.rect(6, y, 788, 70))
        y += 74
        note, room = str(game.get("note", "")), ts.x(QR_X - 16)
        if ts.font(14).size(note)[0] > room:
            # a note longer than a line at its least size (Eclipse's game end: who is still to enter their position
            # and what Next does then) is wrapped over two lines, not cut: the rows below move down. A note that
            # needs more than two lines at 18 px (Among the Stars' 2-player passing, in Greek or Hungarian) is drawn
            # at the largest size down to 14 px where it fits two lines whole, else over three lines at 14 px (its
            # words no smaller than READ_MIN_PX: Greek at 800 x 480), or on a small window as many as it needs up to
            # NOTE_MOST_LINES (Hungarian at 480 x 320 takes five); only a longer one is cut with '…'
            size = next((at for at in range(18, 13, -1) if len(ts.wrap_lines(note, room, at)) <= 2), 14)
            lines = min(max(2, len(ts.wrap_lines(note, room, size))), 3 if ts.size[1] >= 480 else NOTE_MOST_LINES)
            below = ts.wrap(note, (ts.x(10), ts.y(y)), room, size, DIM, max_lines=lines)
            y += max(26, ts.design_y(below - ts.y(y)) + 4)
        else:
            line = ts.text_fit(note, (ts.x(10), ts.y(y)), room, 26, DIM, min_size=14)
            y += max(26, ts.design_y(line.height))
        if not self._camera_panel(ts, view, y):
            throws = game.get("throws") or []
            findings = view.get("findings") or []
            asked = (game.get("next") or {}).get("asked")
            if asked:  # the Next just refused to be confirmed (who has not reported): first, where findings are read
                findings = [{"severity": "warning", "what": asked}, *findings]
            if throws:  # the dice just thrown, and below them only what is wrong (the throw says what it did)
                findings = [f for f in findings if f.get("severity") in ("error", "warning")][:1]
            # the newest finding, wrapped, ends above the buttons; the throw and the players' rows take what is left
            area = ts.rect(6, y, QR_X - 12, 400 - y)
            room = area.height - ts.s(124 if throws else 60)  # the players' header and a row or two stay in view
            height = min(ts.findings_height(findings, area.width), max(0, room))
            top = area.bottom - height
            bottom = top - ts.s(4) if throws else min(top - ts.s(4), ts.y(340))
            if throws:
                throw = pygame.Rect(area.x, bottom - ts.s(70), area.width - ts.s(4), ts.s(70))
                if not self._players(
                    ts, game, pygame.Rect(area.x, area.y, area.width - ts.s(4), throw.y - ts.s(2) - area.y)
                ):
                    throw.y = area.y  # no room for the players' rows: the throw goes up
                self._throw(ts, throws[0], throw)
            else:
                self._players(ts, game, pygame.Rect(area.x, area.y, area.width - ts.s(4), bottom - area.y))
            ts.draw_findings_with_rule(findings, pygame.Rect(area.x, top, area.width, height))
        ts.draw_buttons(self.buttons(ts, view))
        if ts.url(view):
            ts.draw_qr(ts.qr_url(view), self.qr_rect(ts))
        message = (view.get("status") or {}).get("message") or ""
        if not nxt_enabled(game) and (game.get("next") or {}).get("why"):
            message = game["next"]["why"]
        markers = (view.get("camera") or {}).get("markers")
        camera = view.get("camera") or {}
        said = camera.get("reader_briefs") or camera.get("reader_notes") or []
        if said:  # what the readers tell the players (the camera's mirror) comes before the status
            message = " ".join(said)
        elif station_notes(camera):  # each player's own are on their phone: the table sees how many
            message = f"{station_notes(camera)}  {message}".strip()
        qr = self.qr_rect(ts)
        if markers:
            message = markers.get("message") or _("calibration markers moved")
            ts.hint(_("{sign} Markers moved").format(sign=ts.sign("WARN")), (qr.centerx, qr.y - ts.s(3)), qr.width,
                    WARN, max_lines=3)
        elif ts.url(view):  # three lines at most: on a small window its words are no smaller (READ_MIN_PX)
            ts.hint(_("Phones: tap the code"), (qr.centerx, qr.y - ts.s(3)), qr.width, DIM, max_lines=3)
        left = ts.x(630) if (view.get("box") or {}).get("games") else ts.x(502)
        # to the window's foot (2 px left): a warning's pointer to the Owner page takes two lines of 12 px where one
        # is too narrow beside the Games button ("⚠ ΠΡΟΣΟΧΗ: δείτε «Σελίδα ιδιοκτήτη»" is 197 px of 164), and on a
        # small window as many as it needs, taken from the status above it (at 480 x 320 it said its level alone)
        health_top = health_line_top(ts, view, ts.x(794) - left)
        status_lines(ts, message, pygame.Rect(left, ts.y(404), ts.x(794) - left, health_top - ts.y(404)))
        ts.draw_health(view, pygame.Rect(left, health_top, ts.x(794) - left, ts.y(478) - health_top), size=18)

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
            word = _("hit") if hit else (_("miss") if hit is False else "")
            if word:
                ts.text(word, (box.centerx, box.bottom + ts.s(4)), 16, GOOD if hit else DIM, anchor="midtop")
            x += side + gap
        left = x + ts.s(8) if dice else area.x + ts.s(12)
        room = area.right - left - ts.s(8)
        ts.text_fit(str(throw.get("label", "")), (left, area.y + ts.s(8)), room, 26, TEXT, min_size=14)
        ts.text_fit(
            str(throw.get("summary", "")), (left, area.y + ts.s(38)), room, 26, GOOD if dice else WARN, min_size=14
        )

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
        design_w = width / design_px(ts)  # the half's width in design px
        name_w = name_column(ts, players, columns, design_w, min(260.0, 0.42 * design_w) if halves == 1
                             else 0.42 * design_w)
        name_w, widths = column_widths(ts, columns, design_w, name_w)
        starts = [name_w + sum(widths[:k]) for k in range(len(columns))]
        size = (36 if len(columns) <= 3 else 28) if halves == 1 else 24
        for half in range(halves):
            x0 = area.x + half * width
            ts.text_fit(_("Player"), (x0, area.y), ts.s(name_w - 10), 22, DIM)
            for k, c in enumerate(columns):
                # a heading with a capital, as "Player" beside it ("VP chips": "żetony PZ" -> "Żetony PZ")
                ts.text_fit(row_label(_(str(c.get("label", "")))), (x0 + ts.s(starts[k]), area.y),
                            ts.s(widths[k] - 6), 22, DIM, min_size=HEADING_LEAST)
            rows = players[half * per_half:(half + 1) * per_half]
            row_h = max(ts.s(16), min(ts.s(40), room // max(1, per_half)))
            y = area.y + ts.s(20)
            for p in rows:
                ts.draw_seat_dot(p.get("colour"), (x0 + ts.s(10), y + row_h // 2), ts.s(10 if row_h >= ts.s(22) else 7))
                ts.name_fit(
                    p.get("name", "?"),
                    (x0 + ts.s(22), y + row_h // 2),
                    ts.s(name_w - NAME_INSET),
                    min(32, row_h * 32 // ts.s(40) + 8),
                    WARN if p.get("waiting") else TEXT,
                    anchor="midleft",
                    around=_("{player}  (waiting)") if p.get("waiting") else "{player}",
                    optional=True,
                )
                for k, c in enumerate(columns):
                    value = p.get(str(c.get("key")))
                    ts.text_fit("-" if value is None else str(value), (x0 + ts.s(starts[k]), y + row_h // 2),
                                ts.s(widths[k] - 6), size, TEXT, anchor="midleft", min_size=12)
                y += row_h
        return True


NAME_INSET = 28
"""Design px of a players-table name column that are not the name's: the seat dot before it (22) and the gap to the
first number after it (6)."""

COLUMN_LEAST = 44
"""The least width (design px) of a number column of the players table when a name takes the room: a value of three
digits at 24 px and a gap; wider where its heading needs more at :data:`HEADING_LEAST` (Polish "Układ kafelków": a
long name is cut with "…" before a heading is)."""

HEADING_LEAST = 12
"""The least design size (px) of a players-table column heading (never below
:data:`companion.screen.canvas.READ_MIN_PX` real px)."""


def design_px(ts: TouchScreen) -> float:
    """Real px of one design px on this window (0.6 at 480 x 320, 1.0 at 800 x 480), unrounded: ``ts.s(1)`` rounds it
    to a whole px (1 at 480 x 320), which read the players table's 360 real px as 360 design px and drew it in 60 % of
    its room, cutting its headings ("Układ…", "Ταμ…")."""
    return ts.s(1000) / 1000


def heading_room(ts: TouchScreen, columns: list[Any]) -> list[float]:
    """Each number column's least width (design px): its heading whole at :data:`HEADING_LEAST` and a gap, at least
    :data:`COLUMN_LEAST`."""
    heading, unit = ts.font(HEADING_LEAST), design_px(ts)  # READ_MIN_PX may draw it larger than its design size
    return [max(COLUMN_LEAST, heading.size(row_label(_(str(c.get("label", "")))))[0] / unit + 6) for c in columns]


def column_widths(ts: TouchScreen, columns: list[Any], design_w: float, name_w: float) -> tuple[float, list[float]]:
    """``(name column, [each number column])`` widths (design px) of a players table ``design_w`` wide whose name
    column would be ``name_w``: the columns share what the name leaves evenly (120 at most each), as ever; where
    that cuts a heading (Polish "Układ kafelków" at 480 x 320 was "Układ…"), each column gets its heading's room
    (:func:`heading_room`) and the rest is shared, the name column giving way down to half its width (a name is cut
    with "…" before a heading is)."""
    least = heading_room(ts, columns)
    count = max(1, len(columns))
    even = min(120.0, (design_w - name_w) / count)
    if all(even >= w for w in least):
        return name_w, [even] * len(columns)
    name_w = max(name_w / 2, min(name_w, design_w - sum(least)))
    rest = max(0.0, design_w - name_w - sum(least)) / count
    return name_w, [w + rest for w in least]


def name_column(ts: TouchScreen, players: list[dict[str, Any]], columns: list[Any], design_w: float,
                usual: float) -> float:
    """The width (design px) of the players table's name column in a table (or half of one) ``design_w`` design px
    wide: ``usual``, or wider, as far as every number column keeps :data:`COLUMN_LEAST`, when a name (without the
    words around it, which give way) is wider than ``usual`` leaves it at :data:`NAME_MIN_SIZE`: a name is drawn whole
    wherever the table has the room ('Κωνσταντίνος' among six players was cut 'Κωνσταντί…' in the two halves), and cut
    at its end with '…' only where it has not, as the score table's headings are."""
    font = ts.font(NAME_MIN_SIZE)
    widest = max((font.size(" ".join(str(p.get("name", "?")).split()))[0] for p in players), default=0)
    unit = design_px(ts)
    needed = widest / unit + NAME_INSET + 1
    heading = ts.font(HEADING_LEAST)  # each heading whole at its least size (READ_MIN_PX may draw it larger)
    least = max([COLUMN_LEAST] + [heading.size(row_label(_(str(c.get("label", "")))))[0] / unit + 6
                                  for c in columns])
    return max(usual, min(needed, design_w - least * max(1, len(columns))))


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


def row_label(category: str) -> str:
    """A score category (the rules' lowercase word as said in the box's language: ``"credits"``, ``"κόσμοι"``) as a
    row label of the scores table, beside its ``Total``, or a players' column heading beside ``Player``: its first
    letter capital (``"Credits"``, ``"Κόσμοι"``, ``"Żetony PZ"``); a label that starts with a capital, a digit or a
    sign is left as it is."""
    return category[:1].title() + category[1:]


class Scores(ScreenState):
    """End of a flow game: the breakdown by category, each player's total, the winner."""

    screen = Screen.SCORES

    def buttons(self, ts: TouchScreen, view: dict[str, Any]) -> list[Button]:
        buttons = [Button(Action.UNDO, _("Undo"), ts.rect(6, 404, 150, 70), can_undo(view))]
        x = 164
        if (view.get("camera") or {}).get("count") is not None:  # Roll with --dice-profile: the dice count
            buttons.append(Button(Action.READ_NOW, _("Count dice"), ts.rect(x, 404, 170, 70), True, (), "count_dice"))
            x += 178
        if (view.get("box") or {}).get("games"):
            buttons += [Button(Action.EXPORT_GAME, _("Export"), ts.rect(x, 404, 140, 70)),
                        Button(Action.HISTORY, _("History"), ts.rect(x + 148, 404, 140, 70))]
            buttons += games_button(ts, view, ts.rect(x + 296, 404, 794 - x - 296, 70), _("New game"))
        if ts.debug:
            buttons.append(Button(Action.QUIT, _("Quit"), ts.rect(740, 6, 54, 54)))
        return buttons

    def do(self, ts: TouchScreen, view: dict[str, Any], frame: np.ndarray | None) -> None:
        surface = ts.surface
        surface.fill(BG)
        game = view.get("game") or {}
        result = game.get("result") or {"players": [], "winners": []}
        won = result.get("winners") or []
        ts.text_fit(
            _("{title}: game over").format(title=game.get("title", "")), (ts.x(10), ts.y(8)), ts.x(720), 34, DIM
        )
        headline = (_("Winner: {names}") if len(won) == 1 else _("Shared win: {names}")).format(names=", ".join(won))
        ts.text_fit(f"{ts.sign('winner')} {headline}", (ts.x(10), ts.y(40)), ts.x(780), 56, GOOD, min_size=18)
        counting = (view.get("camera") or {}).get("count")
        teams = result.get("team_scores") or {}
        top = 100
        if teams:  # a game that scores teams (Eclipse's alliances): each team's score
            line = _("Team scores: {scores}").format(scores=", ".join(
                _("{team} {vp} VP").format(team=team, vp=vp) for team, vp in teams.items()))
            ts.text_fit(line, (ts.x(10), ts.y(96)), ts.x(780), 26, WARN, min_size=14)
            top = 124
        tied = tie_broken(result)
        if tied:  # the totals alone do not say who won: the tie-break row under the totals does
            line = _("{names} tied on {vp} VP; the tie-break under the totals decides").format(
                names=", ".join(p["name"] for p in tied), vp=tied[0]["total"])
            ts.text_fit(line, (ts.x(10), ts.y(top - 4)), ts.x(780), 24, WARN, min_size=12)
            top += 24
        score_table(ts, result, ts.rect(6, top, 788, (366 if counting is not None else 376) - top),
                    tiebreak=bool(tied))
        ts.draw_buttons(self.buttons(ts, view))
        if counting is not None:
            ts.text_fit(counting.get("prompt") or "", (ts.x(10), ts.y(372)), ts.x(780), 24, WARN, min_size=12)
        elif (view.get("box") or {}).get("games"):
            message = (view.get("status") or {}).get("message") or _("Export saves the game's record and its BG Stats "
                                                                      "play on the box; phones download them")
            ts.text_fit(message, (ts.x(10), ts.y(380)), ts.x(780), 20, DIM, min_size=11)
        else:
            ts.text_fit(
                _("Export: companion export --json FILE / --bgstats FILE"),
                (ts.x(10), ts.y(380)),
                ts.x(780),
                22,
                DIM,
                min_size=12,
            )


def tie_broken(result: dict[str, Any]) -> list[dict[str, Any]]:
    """The players of ``result`` (:meth:`companion.flow.GameFlow.result`) sharing the highest total when the game's
    tie-break made fewer of them winners (Roll for the Galaxy p.8 Victory: dice in the cup plus credits), in seat
    order; [] when the highest total alone names the winners (one player, or a win all of them share)."""
    players = result.get("players") or []
    if not players or result.get("team_scores"):  # teams rank by their own scores (Eclipse's alliances)
        return []
    best = max(p["total"] for p in players)
    tied = [p for p in players if p["total"] == best]
    return tied if 1 < len(tied) and len(result.get("winners") or []) < len(tied) else []


def health_line_top(ts: TouchScreen, view: dict[str, Any], width: int) -> int:
    """Where (px down the window) the game screen's health line starts in its foot ``width`` px wide: design y 452,
    higher where a warning's pointer to the Owner page ("⚠ UWAGA: zob. „Strona właściciela”") needs more lines of
    12 px to be whole (a small window), the window's foot when there is no health to say (the status has it)."""
    health = (view.get("box") or {}).get("health")
    if not health:
        return ts.y(478)
    level = health.get("level")
    if level not in ("WARN", "FAIL"):
        return ts.y(452)
    short = _("{sign} {level}: see {page}").format(sign=ts.sign(level), level=_(LEVEL_WORDS[level]),
                                                    page=_("Owner page"))
    return min(ts.y(452), ts.y(478) - len(ts.wrap_lines(short, width, 12)) * ts.font(12).get_linesize())


def status_lines(ts: TouchScreen, message: str, room: pygame.Rect) -> None:
    """The status beside the bottom buttons (what was just done, why Next waits) in ``room`` (px): two lines at 20 px,
    or as many lines as fit at the largest size down to 13 px that keeps it whole ('várakozás minden játékos…' was
    cut at 20 px), one at least; only a message longer than that is cut with '…'."""
    for size in range(20, 12, -1):
        most = max(1, room.height // ts.font(size).get_linesize())
        if len(ts.wrap_lines(message, room.width, size)) <= most:
            break
    ts.wrap(message, room.topleft, room.width, size, DIM, max_lines=most)


def tiebreak_label(ts: TouchScreen, counted: str | None, width: int, size: int) -> list[tuple[str, int, int]]:
    """The tie-break row's label, ``"Tie-break: dice in cup + credits"`` (``counted``: what the game's tie-break
    counts, :attr:`rules.core.GameInfo.tiebreak`, in the box's language; None: ``"Tie-break"``), as
    ``[(line, y offset px, design size)]``: one or two lines of at most ``width`` px at the largest size from ``size``
    down to 12 that keeps it whole (at 12, two lines ending with "…")."""
    label = _("Tie-break: {what}").format(what=counted) if counted else _("Tie-break")
    for line_size in range(size, 11, -2):
        lines = ts.wrap_lines(label, width, line_size)
        if len(lines) <= 2 and all(ts.font(line_size).size(line)[0] <= width for line in lines):
            break
    else:
        line_size = 12
        lines = ts.wrap_lines(label, width, line_size, max_lines=2)
    step = ts.font(line_size).get_linesize()
    return [(line, k * step, line_size) for k, line in enumerate(lines)]


SCORE_MIN_SIZE = 18
"""The smallest design size (px) of a score table's numbers: a table with more rows than fit at it (nine players of
Eclipse with Rise of the Ancients may score in all 21 rows) sums its smallest rows into one instead."""

OTHER_ROWS = N_("Other rows (each on the phones)")
"""The label of the row summing the rows a score table has no room for."""


def line_height(ts: TouchScreen, size: int) -> int:
    """The height (px) a line of text at design size ``size`` takes: the font's line step, or the height of its
    tallest letters when they are taller (an accented capital, 'Á', is drawn a pixel above some fonts' line)."""
    font = ts.font(size)
    return max(font.get_linesize(), font.get_height(), font.size("ÁŁŐΆjgy")[1])


def score_rows(ts: TouchScreen, categories: list[str], height: int, tiebreak: bool, rule: bool,
               name_lines: int = 1) -> tuple[int, int]:
    """How a score table of ``categories`` fits ``height`` px: ``(design size of its numbers, categories kept)``, the
    largest size from 28 down to :data:`SCORE_MIN_SIZE` at which the names (on ``name_lines`` lines,
    :func:`names_staggered`), a row per category (a line of the font each), the totals, with ``tiebreak`` the
    tie-break's two lines and with ``rule`` the rulebook's line fit one under the other; when none does, at the
    smallest size, as many categories as fit beside one row summing the rest (all kept: ``len(categories)``)."""
    def line(size: int) -> int:
        return line_height(ts, size)

    def fixed(size: int) -> int:  # the names above, the totals under the rows, the tie-break's and the rule's lines
        total = max(ts.s(4) + line(min(34, size + 6)), ts.s(2) + line(min(40, size + 8)))
        broken = ts.s(2) + max(2 * line(size - 2), line(size)) if tiebreak else 0
        return name_lines * line(min(30, size + 2)) + total + broken + (ts.s(2) + line(18) if rule else 0)

    for size in range(28, SCORE_MIN_SIZE - 1, -1):
        if fixed(size) + len(categories) * line(size) <= height:
            return size, len(categories)
    rows = (height - fixed(SCORE_MIN_SIZE)) // line(SCORE_MIN_SIZE)
    return SCORE_MIN_SIZE, max(0, min(len(categories), rows - 1))


def names_staggered(ts: TouchScreen, headings: list[str], col_w: int) -> bool:
    """Whether a score table's column headings (each player's name as drawn, a winner's with its star) go on two
    lines, every other one on the second with two columns' room: when one of them, at the smallest size a name is
    drawn at (:data:`NAME_MIN_SIZE`), is wider than its own column (six Eclipse players: "Κωνσταντίνος" in 93 px)."""
    font = ts.font(NAME_MIN_SIZE)
    return len(headings) > 1 and any(font.size(text)[0] > col_w - 6 for text in headings)


def heading_spot(ts: TouchScreen, text: str, size: int, centre: int, col_w: int, table: pygame.Rect,
                 staggered: bool) -> tuple[int, int, str]:
    """Where a column's heading ``text`` (design size ``size``) goes: ``(x, room in px, anchor)``, centred over its
    column at ``centre``; staggered (:func:`names_staggered`), with the room of the two half columns beside it on
    either side, and in the last column, where the table ends, set against the table's right edge when it is too
    wide to stay centred (it still ends over its own column)."""
    if not staggered:
        return centre, col_w - 6, "midtop"
    room = 2 * min(col_w, centre - table.x, table.right - centre) - 6
    if ts.font(size).size(text)[0] <= room or table.right - centre >= col_w:
        return centre, room, "midtop"
    return table.right - 3, table.right - (centre - col_w) - 6, "topright"


def score_table(ts: TouchScreen, result: dict[str, Any], table: pygame.Rect, winners: bool = True,
                tiebreak: bool = False) -> None:
    """Each player's breakdown by category and total (the winners marked with a star, not only a colour; none while
    the game is not finished: ``winners`` False), with ``tiebreak`` a row of each player's tie-break values under the
    totals (``result["players"][k]["tiebreak"]``, the game's own, compared left to right), labelled with what they
    count (``result["tiebreak_rule"]``, :func:`tiebreak_label`), and under it the rulebook
    section the scoring follows (``result["rule"]``, in the box's language) when the game names one. Nothing is
    drawn over anything else: rows that do not fit (:func:`score_rows`) are summed into one, keeping those with the
    most VP; the totals are every row's."""
    players = [{**p, "winner": p.get("winner") and winners} for p in result.get("players") or []]
    categories = shown_categories(players)
    label_w = ts.x(230)
    col_w = (table.width - label_w) // max(1, len(players))
    rule = result.get("rule")
    sign = ts.sign("winner").replace("{", "{{").replace("}", "}}")  # a star, else "*": kept before a cut name
    arounds = [sign + " {player}" if p.get("winner") else "{player}" for p in players]
    staggered = names_staggered(ts, [a.format(player=" ".join(str(p["name"]).split())) for a, p in
                                     zip(arounds, players, strict=True)], col_w)
    size, kept = score_rows(ts, categories, table.height, tiebreak, bool(rule), 2 if staggered else 1)
    weight = {c: sum(abs(p["breakdown"].get(c, 0)) for p in players) for c in categories}
    most = set(sorted(categories, key=lambda c: -weight[c])[:kept])  # sorted is stable: the earlier row on a draw
    rows = [(row_label(c), [p["breakdown"].get(c, 0) for p in players]) for c in categories if c in most]
    folded = [c for c in categories if c not in most]
    if folded:
        rows.append((_(OTHER_ROWS), [sum(p["breakdown"].get(c, 0) for c in folded) for p in players]))
    row_h = line_height(ts, size)
    heading = min(30, size + 2)
    for k, (p, around) in enumerate(zip(players, arounds, strict=True)):
        centre = table.x + label_w + k * col_w + col_w // 2
        text = around.format(player=" ".join(str(p["name"]).split()))
        x, room, anchor = heading_spot(ts, text, min(heading, NAME_MIN_SIZE), centre, col_w, table, staggered)
        top = table.y + (k % 2) * line_height(ts, heading) if staggered else table.y
        ts.name_fit(p["name"], (x, top), room, heading, GOOD if p.get("winner") else TEXT, anchor=anchor,
                    around=around)
    y = table.y + (2 if staggered else 1) * line_height(ts, heading)
    for label, values in rows:
        ts.text_fit(label, (table.x, y), label_w - 6, size - 2, DIM, min_size=12)
        for k, value in enumerate(values):
            x = table.x + label_w + k * col_w
            ts.text_fit(str(value), (x + col_w // 2, y), col_w - 6, size, TEXT, anchor="midtop", min_size=12)
        y += row_h
    pygame.draw.line(ts.surface, DIM, (table.x, y), (table.right, y), 1)
    bottom = ts.text_fit(_("Total"), (table.x, y + ts.s(4)), label_w - 6, min(34, size + 6), TEXT).bottom
    for k, p in enumerate(players):
        x = table.x + label_w + k * col_w
        drawn = ts.text_fit(str(p["total"]), (x + col_w // 2, y + ts.s(2)), col_w - 6, min(40, size + 8),
                            GOOD if p.get("winner") else TEXT, anchor="midtop", min_size=14)
        bottom = max(bottom, drawn.bottom)
    if tiebreak:
        y = bottom + ts.s(2)
        for line, at, line_size in tiebreak_label(ts, result.get("tiebreak_rule"), label_w - 6, size - 2):
            bottom = ts.text_fit(line, (table.x, y + at), label_w - 6, line_size, WARN, min_size=line_size).bottom
        for k, p in enumerate(players):
            x = table.x + label_w + k * col_w
            drawn = ts.text_fit(" ".join(str(v) for v in p.get("tiebreak") or ()) or "-", (x + col_w // 2, y),
                                col_w - 6, size, GOOD if p.get("winner") else TEXT, anchor="midtop", min_size=12)
            bottom = max(bottom, drawn.bottom)
    if rule:  # below the totals as drawn (a long table's totals are taller than its rows)
        ts.text_fit(_("Rule: {rule}").format(rule=rule), (table.x, bottom + ts.s(2)), table.width, 18, DIM,
                    min_size=11)


def _question_lines(ts: TouchScreen, questions: list[dict[str, Any]], width: int) -> tuple[list[str], int]:
    """The oldest camera question as the touchscreen draws it ("Camera: Bob selected Explore?", with "(+2 more)"
    when more wait): ``(lines, design size)``, one line at the largest size from 30 down to 16 where it fits
    ``width`` px, else wrapped over at most two lines at 16 (at least :data:`companion.screen.canvas.READ_MIN_PX`
    real px high; a longer question's second line ends with "…"). No question: ``([], 30)``."""
    if not questions:
        return [], 30
    q = questions[0]
    if len(questions) > 1:
        said = _("Camera: {question}  (+{count} more)").format(question=q.get("text", "?"), count=len(questions) - 1)
    else:
        said = _("Camera: {question}").format(question=q.get("text", "?"))
    said = " ".join(str(said).split())
    for size in range(30, 15, -2):
        if ts.font(size).size(said)[0] <= width:
            return [said], size
    return ts.wrap_lines(said, width, 16, 2), 16


def station_notes(camera: dict[str, Any]) -> str:
    """How many notes the camera has for each player about what it sees of their cards (Among the Stars: a card not
    seen, one between cells, cards not recognised), "Camera notes (on the phones): Ann 2, Bob 1"; each
    phone shows its player's own (``camera["notes"]``). "" when there are none."""
    notes = camera.get("notes") or {}
    counts = [(name, len(said)) for name, said in notes.items() if name and isinstance(said, list) and said]
    if not counts:
        return ""
    return _("Camera notes (on the phones): {counts}").format(
        counts=", ".join(f"{name} {n}" for name, n in counts))
