"""The box's phone address drawn whole: a player types it on a phone ("http://192.168.1.20:8080/"), so it is never
cut with "…"; where one line is too narrow at its least size it goes over more lines, broken before the port and
after a dot or a slash, as an address is written over lines in print."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

import pygame

if TYPE_CHECKING:
    from companion.screen.canvas import Canvas

_PIECE = re.compile(r":?[^:/.?&=]*[/.?&=]*")
"""An address's pieces that a line may end after: "http", "://", "192.", "168.", "1.", "20", ":8080/"."""


def address_lines(ts: Canvas, url: str, width: int, size: int, least: int = 12) -> tuple[list[str], int]:
    """``url`` as lines of at most ``width`` px and the design size (px) they are drawn at: one line at the largest
    size from ``size`` down to ``least`` where it fits, else as few lines as fit at ``least`` (never below
    :data:`companion.screen.canvas.READ_MIN_PX` real px), broken between :data:`_PIECE` pieces, inside a piece
    only when the piece alone is wider than a line. The lines joined are ``url``, every character of it.

    Raises:
        ValueError: ``width`` is less than 1 px.
    """
    if width < 1:
        raise ValueError(f"an address needs a room at least 1 px wide, got {width} px")
    url = "".join(str(url).split())
    for at in range(size, least - 1, -1):
        if ts.font(at).size(url)[0] <= width:
            return [url], at
    font = ts.font(least)
    lines: list[str] = []
    line = ""
    for piece in (p for p in _PIECE.findall(url) if p):
        if font.size(line + piece)[0] <= width:
            line += piece
            continue
        if line:
            lines.append(line)
        line = ""
        for char in piece:  # a piece wider than a line alone: broken where the line is full
            if line and font.size(line + char)[0] > width:
                lines.append(line)
                line = ""
            line += char
    if line:
        lines.append(line)
    return lines, least


def draw_address(ts: Canvas, lines: list[str], size: int, pos: tuple[int, int], width: int,
                 colour: tuple[int, int, int]) -> pygame.Rect:
    """``lines`` (:func:`address_lines`) from ``pos`` (px) down, each whole; returns the rect they cover."""
    x, y = pos
    covered = pygame.Rect(x, y, 0, 0)
    step = ts.font(size).get_linesize()
    for line in lines:
        covered.union_ip(ts.text(line, (x, y), size, colour, room=width))
        y += step
    return covered
