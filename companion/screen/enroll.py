"""The guided dice enrollment's screen (:mod:`companion.enroll_guided`): the pair asked for over the live picture,
the photo with the dice seen, the progress; OK, Another, Retake, Back, Skip, Quit; after the walk, where the
photos are."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np
import pygame

from companion.actions import Action
from companion.screen.canvas import (ACCENT, BAD, BG, DIM, GOOD, PANEL, TEXT, WARN, Button)
from companion.screen.states import Screen, ScreenState

if TYPE_CHECKING:
    from companion.screen.window import TouchScreen


DIE_COLOURS = {"white": (236, 236, 230), "red": (200, 52, 46), "purple": (132, 72, 172), "blue": (52, 102, 212),
               "brown": (128, 84, 50), "green": (60, 160, 82), "yellow": (236, 202, 52)}
"""RGB of the Roll for the Galaxy die colours on the enrollment screen's swatch."""


ENROLL_KEYS = {pygame.K_RETURN: Action.ENROLL_OK, pygame.K_KP_ENTER: Action.ENROLL_OK, pygame.K_SPACE: Action.ENROLL_OK,
               pygame.K_a: Action.ENROLL_ANOTHER, pygame.K_r: Action.ENROLL_RETAKE, pygame.K_b: Action.ENROLL_BACK,
               pygame.K_BACKSPACE: Action.ENROLL_BACK, pygame.K_s: Action.ENROLL_SKIP, pygame.K_ESCAPE: Action.QUIT,
               pygame.K_q: Action.QUIT}
"""Keys of the enrollment screen: Enter/Space OK, A another photo, R retake, B/Backspace back, S skip, Esc/Q quit."""


ENROLL_BUTTONS = ((Action.ENROLL_OK, "OK"), (Action.ENROLL_ANOTHER, "Another"), (Action.ENROLL_RETAKE, "Retake"),
                  (Action.ENROLL_BACK, "Back"), (Action.ENROLL_SKIP, "Skip"), (Action.QUIT, "Quit"))


def _photos(n: int) -> str:
    """``"1 photo"`` / ``"3 photos"``."""
    return f"{n} photo" if n == 1 else f"{n} photos"


class Enroll(ScreenState):
    """The guided dice enrollment (``companion.enroll_guided``; the view's ``"enroll"`` block): the
    prompt on top, the live picture (or the captured photo with a box per die seen) on the left, the
    pair's colour and face, the check ("3 dice seen") and the progress on the right, and OK / Another /
    Retake / Back / Skip / Quit along the bottom. After the walk: what happened and where the photos are."""

    screen = Screen.ENROLL
    WALKING = ("prompt", "check")

    def buttons(self, ts: TouchScreen, view: dict[str, Any]) -> list[Button]:
        e = view.get("enroll") or {}
        if e.get("step") not in self.WALKING:
            return []
        enabled = e.get("buttons") or {}
        area = ts.rect(6, 404, 788, 70)
        gap = ts.s(8)
        width = (area.width - gap * (len(ENROLL_BUTTONS) - 1)) // len(ENROLL_BUTTONS)
        buttons = []
        for k, (action, label) in enumerate(ENROLL_BUTTONS):
            if action is Action.ENROLL_OK and e.get("step") == "check":
                label = "OK: next"
            buttons.append(Button(action, label, pygame.Rect(area.x + k * (width + gap), area.y, width, area.height),
                                  bool(enabled.get(action))))
        return buttons

    def do(self, ts: TouchScreen, view: dict[str, Any], frame: np.ndarray | None) -> None:
        surface = ts.surface
        e = view.get("enroll") or {}
        step = e.get("step")
        if step not in self.WALKING:
            self._ended(ts, e, frame)
            return
        surface.fill(BG)
        pair = e.get("pair") or {}
        seen = e.get("seen")
        if step == "check":
            head, colour = ((f"{seen} {'die' if seen == 1 else 'dice'} seen", GOOD) if seen
                            else ("No dice seen", BAD))
            ts.text_fit(f"{pair.get('colour', '').capitalize()} {pair.get('face', '').capitalize()}: {head}",
                         (ts.x(10), ts.y(10)), ts.x(780), 48, colour, min_size=26)
            hint = "Is every die boxed? OK: next pair. Another: one more photo." if seen else \
                "Check the light and that the dice are in view, then Retake."
            ts.text_fit(hint, (ts.x(10), ts.y(52)), ts.x(780), 28, DIM, min_size=16)
        else:
            ts.wrap(e.get("prompt", ""), (ts.x(10), ts.y(8)), ts.x(780), 40, TEXT)
        ts.draw_frame(frame, ts.rect(6, 84, 552, 310))
        x, y, width = ts.x(568), ts.y(84), ts.x(226)
        swatch = pygame.Rect(x, y, ts.s(96), ts.s(96))
        fill = DIE_COLOURS.get(pair.get("colour", ""), PANEL)
        pygame.draw.rect(surface, fill, swatch, border_radius=ts.s(14))
        pygame.draw.rect(surface, DIM, swatch, width=2, border_radius=ts.s(14))
        ink = (20, 20, 20) if sum(fill) > 500 else TEXT
        ts.text_fit(pair.get("face", "").upper(), swatch.center, swatch.width - 8, 28, ink, anchor="center", min_size=14)
        ts.text_fit(pair.get("colour", "").capitalize(), (swatch.right + ts.s(10), swatch.y + ts.s(8)),
                     x + width - swatch.right - ts.s(10), 34, TEXT, min_size=16)
        ts.text_fit(pair.get("face", "").capitalize(), (swatch.right + ts.s(10), swatch.y + ts.s(44)),
                     x + width - swatch.right - ts.s(10), 34, TEXT, min_size=16)
        y = swatch.bottom + ts.s(10)
        ts.text_fit(f"Pair {int(e.get('index', 0)) + 1} of {e.get('total', 0)}", (x, y), width, 30, ACCENT, min_size=16)
        y += ts.s(32)
        if step == "prompt":
            status, colour = (("Hold still...", WARN) if e.get("waiting_still") else ("Tap OK when ready", DIM))
        else:
            status, colour = (f"{seen} {'die' if seen == 1 else 'dice'} seen", GOOD) if seen else ("No dice seen", BAD)
        ts.text_fit(status, (x, y), width, 36, colour, min_size=18)
        y += ts.s(38)
        ts.text_fit(f"This pair: {_photos(e.get('pair_photos', 0))}", (x, y), width, 24, DIM, min_size=14)
        y += ts.s(24)
        ts.text_fit(f"All: {_photos(e.get('photos', 0))}, {e.get('pairs_done', 0)}/{e.get('pairs_total', 0)} pairs",
                     (x, y), width, 24, DIM, min_size=14)
        y += ts.s(28)
        message = e.get("message") or ""
        if message and step == "prompt" and not e.get("waiting_still"):
            self._small_wrap(ts, message, (x, y), width, ts.y(398))
        ts.draw_buttons(self.buttons(ts, view))

    @staticmethod
    def _small_wrap(ts: TouchScreen, text: str, pos: tuple[int, int], width: int, bottom: int) -> None:
        """Word-wrapped small dim text that stops above ``bottom`` (px)."""
        font = ts.font(20)
        x, y = pos
        line = ""
        for word in text.split():
            trial = f"{line} {word}".strip()
            if line and font.size(trial)[0] > width:
                if y + font.get_linesize() > bottom:
                    return
                ts.surface.blit(ts.render_text(line, 20, DIM), (x, y))
                y += font.get_linesize()
                line = word
            else:
                line = trial
        if line and y + font.get_linesize() <= bottom:
            ts.surface.blit(ts.render_text(line, 20, DIM), (x, y))

    @staticmethod
    def _ended(ts: TouchScreen, e: dict[str, Any], frame: np.ndarray | None) -> None:
        """After the walk: building / saved / failed / stopped / camera lost, and where the photos are."""
        step = e.get("step")
        titles = {"finished": ("Every pair done", GOOD), "building": ("Building the dice profile...", ACCENT),
                  "saved": ("Dice profile saved", GOOD), "failed": ("Profile not built", BAD),
                  "stopped": ("Enrollment stopped", WARN), "camera_lost": ("Camera lost", BAD)}
        title, colour = titles.get(step, (str(step), TEXT))
        ts.surface.fill((44, 18, 20) if step == "camera_lost" else BG)
        x, width = ts.x(24), ts.x(752)
        ts.text_fit(title, (x, ts.y(24)), width, 72, colour)
        y = ts.wrap(e.get("message") or "", (x, ts.y(110)), width, 32, TEXT) + ts.s(16)
        ts.text_fit(f"Kept: {_photos(e.get('photos', 0))} ({e.get('pairs_done', 0)} of {e.get('pairs_total', 0)} pairs), in:",
                     (x, y), width, 30, DIM, min_size=16)
        y += ts.s(32)
        ts.text_fit(e.get("folder") or "", (x, y), width, 28, TEXT, min_size=12)
        y += ts.s(44)
        if step in ("stopped", "camera_lost", "failed"):
            for line in ("Nothing is lost. To go on later:", "companion enroll roll-dice --guided --keep FOLDER",
                         "or build from the photos so far: companion enroll roll-dice FOLDER"):
                ts.text_fit(line, (x, y), width, 28, WARN if line.startswith("Nothing") else TEXT, min_size=14)
                y += ts.s(30)
