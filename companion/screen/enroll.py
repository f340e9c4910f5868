"""The guided dice enrollment's screen (:mod:`companion.enroll_guided`): the pair asked for over the live picture,
the photo with the dice seen, the progress; OK, Another, Retake, Back, Skip, Quit; after the walk, where the
photos are."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np
import pygame

from companion.actions import Action
from companion.i18n import N_, _, ngettext, say
from companion.screen.canvas import ACCENT, BAD, BG, DIM, GOOD, PANEL, TEXT, WARN, Button, wrap_words
from companion.screen.states import Screen, ScreenState
from rules.roll.words import colour_word, face_word

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


ENROLL_BUTTONS = (
    (Action.ENROLL_OK, N_("OK")),
    (Action.ENROLL_ANOTHER, N_("Another")),
    (Action.ENROLL_RETAKE, N_("Retake")),
    (Action.ENROLL_BACK, N_("Back")),
    (Action.ENROLL_SKIP, N_("Skip")),
    (Action.QUIT, N_("Quit")),
)


def _photos(n: int) -> str:
    """``"1 photo"`` / ``"3 photos"``."""
    return ngettext("{n} photo", "{n} photos", n).format(n=n)


def _seen(n: int) -> str:
    """``"1 die seen"`` / ``"3 dice seen"``."""
    return ngettext("{n} die seen", "{n} dice seen", n).format(n=n)


def _pair_words(pair: dict[str, Any]) -> tuple[str, str]:
    """The pair's colour and face in the players' words (the Roll for the Galaxy edition's)."""
    colour, face = pair.get("colour", ""), pair.get("face", "")
    return (say(colour_word(colour)) if colour else "", say(face_word(face)) if face else "")


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
                label = N_("OK: next")
            buttons.append(Button(action, _(label), pygame.Rect(area.x + k * (width + gap), area.y, width, area.height),
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
            head, colour = ((_seen(seen), GOOD) if seen else (_("No dice seen"), BAD))
            colour_said, face_said = _pair_words(pair)
            ts.text_fit(_("{colour} {face}: {seen}").format(colour=colour_said.capitalize(), face=face_said, seen=head),
                         (ts.x(10), ts.y(10)), ts.x(780), 48, colour, min_size=26)
            hint = _("Is every die boxed? OK: next pair. Another: one more photo.") if seen else \
                _("Check the light and that the dice are in view, then Retake.")
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
        colour_said, face_said = _pair_words(pair)
        ts.text_fit(face_said.upper(), swatch.center, swatch.width - 8, 28, ink, anchor="center", min_size=14)
        ts.text_fit(colour_said.capitalize(), (swatch.right + ts.s(10), swatch.y + ts.s(8)),
                     x + width - swatch.right - ts.s(10), 34, TEXT, min_size=16)
        ts.text_fit(face_said, (swatch.right + ts.s(10), swatch.y + ts.s(44)),
                     x + width - swatch.right - ts.s(10), 34, TEXT, min_size=16)
        y = swatch.bottom + ts.s(10)
        ts.text_fit(
            _("Pair {number} of {total}").format(number=int(e.get("index", 0)) + 1, total=e.get("total", 0)),
            (x, y),
            width,
            30,
            ACCENT,
            min_size=16,
        )
        y += ts.s(32)
        if step == "prompt":
            status, colour = ((_("Hold still..."), WARN) if e.get("waiting_still") else (_("Tap OK when ready"), DIM))
        else:
            status, colour = (_seen(seen), GOOD) if seen else (_("No dice seen"), BAD)
        ts.text_fit(status, (x, y), width, 36, colour, min_size=18)
        y += ts.s(38)
        ts.text_fit(
            _("This pair: {photos}").format(photos=_photos(e.get("pair_photos", 0))),
            (x, y),
            width,
            24,
            DIM,
            min_size=14,
        )
        y += ts.s(24)
        ts.text_fit(
            _("All: {photos}, {done}/{total} pairs").format(
                photos=_photos(e.get("photos", 0)), done=e.get("pairs_done", 0), total=e.get("pairs_total", 0)
            ),
            (x, y),
            width,
            24,
            DIM,
            min_size=14,
        )
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
        for word in wrap_words(text):  # never inside a place ("[0, 0]")
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
        titles = {"finished": (N_("Every pair done"), GOOD), "building": (N_("Building the dice profile..."), ACCENT),
                  "saved": (N_("Dice profile saved"), GOOD), "failed": (N_("Profile not built"), BAD),
                  "stopped": (N_("Enrollment stopped"), WARN), "camera_lost": (N_("Camera lost"), BAD)}
        title, colour = titles.get(step, (str(step), TEXT))
        title = _(title)
        ts.surface.fill((44, 18, 20) if step == "camera_lost" else BG)
        x, width = ts.x(24), ts.x(752)
        ts.text_fit(title, (x, ts.y(24)), width, 72, colour)
        y = ts.wrap(e.get("message") or "", (x, ts.y(110)), width, 32, TEXT) + ts.s(16)
        ts.text_fit(_("Kept: {photos} ({done} of {total} pairs), in:").format(photos=_photos(e.get("photos", 0)),
                                                                    done=e.get("pairs_done", 0),
                                                                    total=e.get("pairs_total", 0)),
                     (x, y), width, 30, DIM, min_size=16)
        y += ts.s(32)
        ts.text_fit(e.get("folder") or "", (x, y), width, 28, TEXT, min_size=12)
        y += ts.s(44)
        if step in ("stopped", "camera_lost", "failed"):
            lines = (
                _("Nothing is lost. To go on later:"),
                "companion enroll roll-dice --guided --keep FOLDER",
                _("or build from the photos so far: {command}").format(command="companion enroll roll-dice FOLDER"),
            )
            for k, line in enumerate(lines):
                ts.text_fit(line, (x, y), width, 28, WARN if k == 0 else TEXT, min_size=14)
                y += ts.s(30)
