"""A game's phase strip: one tile per phase of the round (Roll for the Galaxy's Explore ... Manage Empire, Race for the
Galaxy's phases, Among the Stars' and Eclipse's steps), its name over the players who chose it or "not revealed yet",
every word whole on the 480 x 320 screen as on the 800 x 480 one (a tile whose words need it is made wider)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import pygame

from companion.screen.canvas import ACCENT, DIM, PANEL, TEXT, wrap_words

if TYPE_CHECKING:
    from companion.screen.canvas import Canvas


PHASE_COLOURS = {"current": ACCENT, "done": (40, 46, 56), "next": PANEL, "unselected": (30, 34, 40)}
"""A phase tile's panel by its state; ``"unselected"``: a tile not revealed yet (its by-line says so too)."""

PHASE_ONE_LINE = 16
"""The least design size (px) a phase's name is drawn at on one line of its tile; a longer name (Greek "Διαχείριση
Αυτοκρατορίας", Roll for the Galaxy's Manage Empire) goes over two lines rather than shrinking further."""

BY_LEAST = 11
"""The least design size (px) of a tile's by-line (who chose the phase, or "not revealed yet"); never drawn below
:data:`companion.screen.canvas.READ_MIN_PX` real px all the same."""

Lines = tuple[list[str], int]
"""Lines of text and the design size (px) they are drawn at."""


def _fits(ts: Canvas, lines: list[str], size: int, width: int) -> bool:
    return all(ts.font(size).size(line)[0] <= width for line in lines)


def _two_lines(ts: Canvas, text: str, width: int, size: int) -> list[str] | None:
    lines = ts.wrap_lines(text, width, size)
    return lines if len(lines) <= 2 and _fits(ts, lines, size, width) else None


def _label_choices(ts: Canvas, label: str, width: int) -> list[Lines]:
    """The ways a phase's name may be drawn in ``width`` px, the preferred first: one line at 32 down to
    :data:`PHASE_ONE_LINE`, two lines at 22 down to 12, one line at 14 or 12."""
    choices: list[Lines] = [([label], size) for size in range(32, PHASE_ONE_LINE - 1, -2)
                            if _fits(ts, [label], size, width)]
    if " " in label:
        choices += [(lines, size) for size in range(22, 11, -1)
                    if (lines := _two_lines(ts, label, width, size)) is not None]
    choices += [([label], size) for size in (14, 12) if _fits(ts, [label], size, width)]
    return choices


def _by_choices(ts: Canvas, by: str, width: int) -> list[Lines]:
    """The ways a by-line may be drawn in ``width`` px: one line at 22 down to :data:`BY_LEAST`, else two lines at
    :data:`BY_LEAST` ("jeszcze nie / odkryto", "még nincs / felfedve" on the small screen)."""
    if not by:
        return [([], BY_LEAST)]
    choices: list[Lines] = [([by], size) for size in range(22, BY_LEAST - 1, -1) if _fits(ts, [by], size, width)]
    two = _two_lines(ts, by, width, BY_LEAST)
    return choices + ([(two, BY_LEAST)] if two is not None else [])


def tile_layout(ts: Canvas, label: str, by: str, box_w: int, box_h: int) -> tuple[Lines, Lines] | None:
    """How a tile of ``box_w`` x ``box_h`` px shows its ``label`` (the phase's name) at its top and its ``by``
    (players, or "not revealed yet") at its foot, every word whole: the largest name whose lines leave room for the
    by-line (on one line if it can), or None when no way keeps them whole."""
    width, room = box_w - 8, box_h - 2 * ts.s(6)
    bys = _by_choices(ts, by, width)
    for lines, size in _label_choices(ts, label, width):
        height = len(lines) * ts.font(size).get_linesize()
        for by_lines, by_size in bys:
            if height + len(by_lines) * ts.font(by_size).get_linesize() <= room:
                return (lines, size), (by_lines, by_size)
    return None


def _texts(ts: Canvas, ph: dict[str, Any]) -> tuple[str, str]:
    state = ph.get("state", "next")
    sign = ts.sign(state) + " " if state in ("current", "done") else ""  # not only the colour says it
    return " ".join((sign + str(ph.get("label", ""))).split()), ", ".join(ph.get("by") or [])


def _least_width(ts: Canvas, label: str, by: str, height: int, most: int) -> int:
    """The narrowest tile (px, at most ``most``) that shows ``label`` and ``by`` whole in ``height`` px."""
    words = wrap_words(label) + wrap_words(by)
    low = max((ts.font(12).size(word)[0] for word in words), default=0) + 8
    for width in range(min(low, most), most + 1, 2):
        if tile_layout(ts, label, by, width, height) is not None:
            return width
    return most


def tile_widths(ts: Canvas, phases: list[dict[str, Any]], strip: pygame.Rect, gap: int) -> list[int]:
    """The tiles' widths (px) in ``strip``: all equal when every tile's words are whole so; else a tile that needs
    more (Greek "Αυτοκρατορίας" at 480 x 320) is given what it needs and the others share the rest equally."""
    total = strip.width - gap * (len(phases) - 1)
    equal = total // len(phases)
    texts = [_texts(ts, ph) for ph in phases]
    if all(tile_layout(ts, label, by, equal, strip.height) is not None for label, by in texts):
        return [equal] * len(phases)
    needs = [_least_width(ts, label, by, strip.height, total) for label, by in texts]
    widths: list[int | None] = [None] * len(phases)
    while True:  # the tiles needing more than an equal share of what is left get their need
        free = [k for k, w in enumerate(widths) if w is None]
        if not free:
            break
        share = (total - sum(w for w in widths if w is not None)) // len(free)
        wide = [k for k in free if needs[k] > share]
        if not wide:
            for k in free:
                widths[k] = share
            break
        for k in wide:
            widths[k] = needs[k]
    result = [max(1, w or 0) for w in widths]
    if sum(result) > total:  # more than the strip holds: back to equal tiles (a word then ends with "…")
        return [equal] * len(phases)
    return result


def draw_phase_strip(ts: Canvas, phases: list[dict[str, Any]], strip: pygame.Rect) -> None:
    """The round's phase strip in ``strip`` (px): one tile per entry of the flow's ``phases`` (label, the by-line,
    state ``current``/``done``/``next``/``unselected``), or a blank panel when there are none."""
    if not phases:
        pygame.draw.rect(ts.surface, PANEL, strip, border_radius=ts.s(8))
        return
    gap = ts.s(6)
    x = strip.x
    for ph, width in zip(phases, tile_widths(ts, phases, strip, gap), strict=True):
        box = pygame.Rect(x, strip.y, width, strip.height)
        x += width + gap
        state = ph.get("state", "next")
        pygame.draw.rect(ts.surface, PHASE_COLOURS.get(state, PANEL), box, border_radius=ts.s(8))
        colour = (16, 20, 24) if state == "current" else (DIM if state in ("done", "unselected") else TEXT)
        label, by = _texts(ts, ph)
        _draw_tile(ts, label, by, box, colour)


def _draw_tile(ts: Canvas, label: str, by: str, box: pygame.Rect, colour: tuple[int, int, int]) -> None:
    """A tile's name from its top and its by-line up from its foot (:func:`tile_layout`); when nothing keeps them
    whole, each on one line down to 12 (never below READ_MIN_PX real px) ending with "…"."""
    width, top, foot = box.width - 8, box.y + ts.s(6), box.bottom - ts.s(6)
    layout = tile_layout(ts, label, by, box.width, box.height)
    if layout is None:
        ts.text_fit(label, (box.centerx, top), width, 32, colour, anchor="midtop", min_size=12)
        if by:
            ts.text_fit(by, (box.centerx, foot), width, 22, colour, anchor="midbottom", min_size=BY_LEAST)
        return
    (lines, size), (by_lines, by_size) = layout
    step = ts.font(size).get_linesize()
    for k, line in enumerate(lines):
        ts.text(line, (box.centerx, top + k * step), size, colour, "midtop", room=width)
    by_step = ts.font(by_size).get_linesize()
    for k, line in enumerate(reversed(by_lines)):
        ts.text(line, (box.centerx, foot - k * by_step), by_size, colour, "midbottom", room=width)
