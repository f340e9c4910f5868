"""The guided dice enrollment: ``companion enroll roll-dice --guided`` (issue 6).

The box walks the owner through every colour/face pair Roll for the Galaxy's dice have (from the
rules' catalogue: white has no Wild, yellow no Explore), one pair at a time:

    "Put the white dice showing Explore in the tray, tap OK"

with the live camera picture. OK (a tap, Enter/Space, or the GPIO button) captures the current
frame as soon as the scene is still (:class:`vision.motion.StillnessDetector`), counts the dice the
Roll reader's detector finds in it ("3 dice seen") and saves it as ``DIR/<colour>-<face>/NN.png``:
the layout ``companion enroll roll-dice DIR`` builds a profile from, so the end of the walk builds
the profile with exactly that command's code.

Steps (:class:`Step`) and what each action does there::

    step     enroll_ok           enroll_another     enroll_retake        enroll_back            enroll_skip
    PROMPT   capture when still  -                  -                    previous pair          next pair, no photo
    CHECK    keep, next pair     keep, same pair    drop it, same pair   keep, previous pair    drop it, next pair

A frame in which no die is seen is shown but never saved (the profile builder would refuse it):
only Retake, Skip, Back and Quit are offered then. ``quit`` (the Quit button, Escape, ``q`` on the
terminal, Ctrl-C, the window closed) stops at once: every photo saved so far stays in ``DIR``.
Pairs that already have photos in ``DIR`` are left out of the walk, so running again with
``--keep DIR`` resumes where it stopped. A camera that stops sending frames ends the walk with
:attr:`Step.CAMERA_LOST`; the photos stay too.

The walk runs on the box's one loop (:func:`run_guided`: :class:`companion.app.MainLoop` in its enrollment
mode, :class:`companion.modes.EnrollMode`); the touchscreen, the GPIO button and the terminal reader only post
actions to its hub, an :class:`EnrollInbox`.
"""

from __future__ import annotations

import enum
import logging
import os
import sys
import threading
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ClassVar, TextIO

import cv2
import numpy as np

from companion.actions import ENROLL_ACTIONS, Action
from companion.hub import StateHub
from companion.i18n import N_, Text, _, localize, ngettext, plural
from device import BadImage, CameraSource, Frame, decode_image
from rules.roll.words import colour_word, face_word
from vision.motion import StillnessDetector

__all__ = [
    "DiceCheck", "EnrollInbox", "GuidedEnrollment", "Outcome", "Pair", "Step",
    "TerminalInput", "guided_pairs", "photos_in", "roll_dice_detector", "run_guided",
]

log = logging.getLogger(__name__)

IMAGE_SUFFIXES = (".jpg", ".jpeg", ".png", ".bmp")
"""Photo files a pair folder may hold (the same as :data:`vision.profiles.IMAGE_SUFFIXES`)."""

MIN_DIE_SCORE = 0.5
"""A detected top face counts as a die seen from this die-ness score (0-1) on: the score from which
:func:`vision.profiles.build_profile` uses a die."""

BOX_COLOUR = (80, 220, 80)  # BGR, the boxes drawn on the checked photo


class Step(enum.Enum):
    """Where the walk is."""

    PROMPT = "prompt"
    """Asking for a pair with the live picture; after OK, waiting for the scene to be still."""
    CHECK = "check"
    """A frame was captured: it is shown with the dice seen in it."""
    FINISHED = "finished"
    """Every pair was photographed or skipped; the profile can be built."""
    BUILDING = "building"
    """The profile is being built (set by the caller)."""
    SAVED = "saved"
    """The profile was saved (set by the caller)."""
    FAILED = "failed"
    """The profile could not be built (set by the caller); the photos stay."""
    STOPPED = "stopped"
    """Quit or Ctrl-C: the photos so far stay in the folder."""
    CAMERA_LOST = "camera_lost"
    """The camera stopped sending frames (or a replay ended); the photos so far stay."""


ENDED = frozenset({Step.FINISHED, Step.BUILDING, Step.SAVED, Step.FAILED, Step.STOPPED, Step.CAMERA_LOST})
"""Steps after the walk: no more actions or frames are taken."""


BUTTON_WORDS = {
    Action.ENROLL_OK: Text("OK"),
    Action.ENROLL_ANOTHER: Text("Another"),
    Action.ENROLL_RETAKE: Text("Retake"),
    Action.ENROLL_BACK: Text("Back"),
    Action.ENROLL_SKIP: Text("Skip"),
}
"""The walk's buttons as the touchscreen names them (a refusal names the button)."""


@dataclass(frozen=True)
class Pair:
    """One colour/face pair to photograph, e.g. ``Pair("white", "explore")``."""

    colour: str
    face: str

    @property
    def folder(self) -> str:
        """The pair's subfolder name, ``"<colour>-<face>"`` (``white-explore``)."""
        return f"{self.colour}-{self.face}"

    @property
    def label(self) -> str:
        """``"white dice showing Explore"`` (the colour and face as the players' edition names them)."""
        return Text("{colour} dice showing {face}", colour=colour_word(self.colour), face=face_word(self.face))

    def to_json(self) -> dict[str, str]:
        return {"colour": self.colour, "face": self.face, "folder": self.folder, "label": self.label}


def guided_pairs(faces_by_colour: dict[str, Sequence[str]] | None = None) -> tuple[Pair, ...]:
    """Every colour/face pair the game's dice have, in the walk's order: colours in the rulebook's
    order (white, red, purple, blue, brown, green, yellow), faces in phase order, Wild last.

    Args:
        faces_by_colour: ``{colour: faces}`` (faces may repeat, as on the real dice); default the
            Roll catalogue's dice (``rules.roll.data.catalogue()``, from ``data/roll/dice.json``).
    """
    from rules.roll.data import COLOURS, FACES

    if faces_by_colour is None:
        from rules.roll.data import catalogue

        faces_by_colour = {d.colour: d.faces for d in catalogue().dice.values()}
    colour_rank = {c: k for k, c in enumerate(COLOURS)}
    face_rank = {f: k for k, f in enumerate(FACES)}
    colours = sorted(faces_by_colour, key=lambda c: (colour_rank.get(c, len(COLOURS)), c))
    return tuple(Pair(c, f) for c in colours
                 for f in sorted(set(faces_by_colour[c]), key=lambda f: (face_rank.get(f, len(FACES)), f)))


def photos_in(folder: Path) -> list[Path]:
    """The photos in one pair folder, sorted by name (empty when the folder does not exist)."""
    if not folder.is_dir():
        return []
    return sorted(p for p in folder.iterdir() if p.is_file() and p.suffix.lower() in IMAGE_SUFFIXES)


@dataclass(frozen=True)
class DiceCheck:
    """What the detector saw in a captured frame: ``count`` dice, their top faces as rotated rects
    ``float[N, 5]`` (cx, cy, w, h in frame px, angle in degrees)."""

    count: int
    rects: np.ndarray = field(default_factory=lambda: np.zeros((0, 5)))


def roll_dice_detector() -> Callable[[np.ndarray], DiceCheck]:
    """The Roll reader's die detector (:func:`vision.roll_dice.detect_tops`, the same detection the
    profile builder uses) as ``frame uint8[H, W, 3] BGR -> DiceCheck``.

    Raises:
        vision.VisionError: the detector's model file is missing or unreadable.
    """
    from vision.frames import validate_frame
    from vision.roll_dice import RollDiceConfig, detect_tops, load_cnn

    config = RollDiceConfig()
    net = load_cnn(config)

    def detect(image: np.ndarray) -> DiceCheck:
        tops = detect_tops(validate_frame(image), config, net=net)
        keep = np.asarray(tops.scores) >= MIN_DIE_SCORE
        return DiceCheck(int(keep.sum()), np.asarray(tops.rects, float)[keep].reshape(-1, 5))

    return detect


def annotate_check(image: np.ndarray, check: DiceCheck) -> np.ndarray:
    """A copy of ``image`` (BGR) with a box around each die seen."""
    out = image.copy()
    thick = max(2, round(out.shape[1] / 400))
    for cx, cy, w, h, angle in check.rects:
        pts = cv2.boxPoints(((float(cx), float(cy)), (float(w), float(h)), float(angle)))
        cv2.polylines(out, [np.round(pts).astype(np.int32)], True, BOX_COLOUR, thick, cv2.LINE_AA)
    return out


class EnrollInbox(StateHub):
    """The hub of the guided enrollment: a :class:`companion.hub.StateHub` that takes only
    :data:`companion.actions.ENROLL_ACTIONS` (the touchscreen, the GPIO button and the terminal post here as the
    touchscreen posts to the game's hub); ``quit`` may carry ``why`` ("SIGTERM", "end of input")."""

    what = "enrollment action"

    def __init__(self) -> None:
        super().__init__(ENROLL_ACTIONS)


@dataclass(frozen=True)
class Outcome:
    """How the walk ended.

    Attributes:
        step: :attr:`Step.FINISHED`, :attr:`Step.STOPPED` or :attr:`Step.CAMERA_LOST`.
        folder: the enrollment folder.
        photos: photos in the folder now (all pairs, also those from earlier runs).
        pairs_done: pairs of the game with at least one photo.
        missing: pairs of the game without a photo (skipped, or not reached).
        message: one line for people.
    """

    step: Step
    folder: Path
    photos: int
    pairs_done: int
    missing: tuple[Pair, ...]
    message: str


class GuidedEnrollment:
    """The walk's state: which pair, which step, the photo being checked. Only its owner's loop
    calls it (:func:`run_guided`); views post actions to an :class:`EnrollInbox`.

    Args:
        folder: the enrollment folder (created); photos go to ``folder/<colour>-<face>/NN.png``.
        pairs: every pair of the game (:func:`guided_pairs`); those that already have photos in
            ``folder`` are left out of the walk (resuming).
        detect: ``frame -> DiceCheck`` (:func:`roll_dice_detector`).

    Raises:
        OSError: the folder cannot be created.
    """

    def __init__(self, folder: Path, pairs: Sequence[Pair], detect: Callable[[np.ndarray], DiceCheck]) -> None:
        self.folder = Path(folder)
        self.folder.mkdir(parents=True, exist_ok=True)
        self.pairs = tuple(pairs)
        self.detect = detect
        self.already = tuple(p for p in self.pairs if photos_in(self.folder / p.folder))
        """Pairs that had photos before this walk (left out of it)."""
        self.walk = tuple(p for p in self.pairs if p not in self.already)
        """The pairs this walk asks for, in order."""
        self.index = 0
        self.step = Step.PROMPT if self.walk else Step.FINISHED
        self.waiting_still = False
        self.check: DiceCheck | None = None
        self.shown: np.ndarray | None = None  # the checked photo with its boxes (BGR)
        self.photo: Path | None = None  # the saved photo being checked (None: no die seen, not saved)
        self.message = ""
        self.revision = 0
        """Increases on every handled action and step change (views redraw / the terminal prompts on it)."""
        self._counted_at = -1
        self._count_cache: dict[Pair, int] = {}

    # ------------------------------------------------------------------ queries

    @property
    def pair(self) -> Pair | None:
        """The pair asked for now (None once the walk is over)."""
        return self.walk[self.index] if self.step in (Step.PROMPT, Step.CHECK) else None

    @property
    def ended(self) -> bool:
        """True once the walk is over (finished, stopped or the camera lost)."""
        return self.step in ENDED

    @property
    def awaiting_input(self) -> bool:
        """True when only a person can move the walk on (not waiting for a still scene)."""
        return self.step is Step.CHECK or (self.step is Step.PROMPT and not self.waiting_still)

    def enabled(self) -> dict[str, bool]:
        """Which actions do something now: ``{action: bool}`` for :data:`ENROLL_ACTIONS`."""
        prompt, check = self.step is Step.PROMPT, self.step is Step.CHECK
        seen = check and self.photo is not None
        return {
            Action.ENROLL_OK: (prompt and not self.waiting_still) or seen,
            Action.ENROLL_ANOTHER: seen,
            Action.ENROLL_RETAKE: check,
            Action.ENROLL_BACK: (prompt or check) and self.index > 0,
            Action.ENROLL_SKIP: prompt or check,
            Action.QUIT: not self.ended,
        }

    def _counts(self) -> dict[Pair, int]:
        """Photos per pair in the folder, listed again only after a change (the view is drawn every frame;
        photos are only written or removed together with a revision step)."""
        if self._counted_at != self.revision:
            self._count_cache = {p: len(photos_in(self.folder / p.folder)) for p in self.pairs}
            self._counted_at = self.revision
        return self._count_cache

    def photo_count(self) -> int:
        """Photos in the folder now, over every pair of the game."""
        return sum(self._counts().values())

    def missing(self) -> tuple[Pair, ...]:
        """Pairs of the game without a photo in the folder."""
        return tuple(p for p, n in self._counts().items() if not n)

    def outcome(self) -> Outcome:
        """The walk's result (call once it has ended)."""
        missing = self.missing()
        return Outcome(
            self.step, self.folder, self.photo_count(), len(self.pairs) - len(missing), missing, self.message
        )

    def prompt_text(self) -> str:
        """``"Put the white dice showing Explore in the tray, tap OK"`` for the current pair ("" when none)."""
        pair = self.pair
        return Text("Put the {pair} in the tray, tap OK", pair=pair.label) if pair is not None else ""

    def view(self, frame: Frame | None = None) -> dict[str, Any]:
        """The published view: ``{"enroll": {...}, "frame": {...} | None, "status": {...}}``.

        ``enroll``: ``step`` (:class:`Step` value), ``revision``, ``index`` (0-based in the walk),
        ``total`` (pairs in the walk), ``pair`` (:meth:`Pair.to_json` or None), ``prompt``,
        ``waiting_still``, ``seen`` (dice in the checked frame, or None), ``photo`` (its file name
        under the folder, or None), ``pair_photos`` (photos of this pair), ``photos`` (in the folder),
        ``pairs_done`` / ``pairs_total`` (pairs of the game with a photo / all), ``already`` (pairs
        skipped because they had photos), ``folder``, ``message``, ``buttons`` (:meth:`enabled`).
        """
        pair = self.pair
        missing = self.missing()
        return {
            "enroll": {
                "step": self.step.value,
                "revision": self.revision,
                "index": self.index,
                "total": len(self.walk),
                "pair": pair.to_json() if pair is not None else None,
                "prompt": self.prompt_text(),
                "waiting_still": self.waiting_still,
                "seen": self.check.count if (self.step is Step.CHECK and self.check is not None) else None,
                "photo": str(self.photo.relative_to(self.folder)) if (self.step is Step.CHECK and self.photo) else None,
                "pair_photos": self._counts().get(pair, 0) if pair is not None else 0,
                "photos": self.photo_count(),
                "pairs_done": len(self.pairs) - len(missing),
                "pairs_total": len(self.pairs),
                "already": len(self.already),
                "folder": str(self.folder),
                "message": self.message,
                "buttons": self.enabled(),
            },
            "frame": None if frame is None else {"width": frame.width, "height": frame.height, "index": frame.index},
            "status": {"camera": "lost" if self.step is Step.CAMERA_LOST else "ok", "message": self.message},
        }

    # ------------------------------------------------------------------ changes

    def _changed(self, message: str | None = None) -> None:
        if message is not None:
            self.message = message
        self.revision += 1

    def handle(self, action: str, why: str | None = None) -> None:
        """Apply one posted action (see the module docstring's table); a disabled one only says why.
        ``why`` words a ``quit`` ("end of input"; default "stopped").

        Raises:
            ValueError: ``action`` is not one of :data:`companion.actions.ENROLL_ACTIONS`.
        """
        if action not in ENROLL_ACTIONS:
            raise ValueError(f"unknown enrollment action {action!r}")
        action = Action(action)
        if self.ended:
            return
        if action is Action.QUIT:
            self.stop(Text("stopped ({why})", why=Text(why)) if why else Text("stopped"))
            return
        if not self.enabled()[action]:
            why = {
                Action.ENROLL_BACK: Text("this is the first pair"),
                Action.ENROLL_OK: Text("no die seen: Retake or Skip"),
                Action.ENROLL_ANOTHER: Text("no die seen: Retake or Skip"),
            }.get(action, Text("not now"))
            if action is Action.ENROLL_OK and self.waiting_still:
                why = Text("waiting for the table to be still")
            self._changed(Text("{button}: {why}", button=BUTTON_WORDS.get(action, action), why=why))
            return
        if self.step is Step.PROMPT:
            if action is Action.ENROLL_OK:
                self.waiting_still = True
                self._changed(Text("Hold still..."))
            elif action is Action.ENROLL_BACK:
                self._go(self.index - 1)
            elif action is Action.ENROLL_SKIP:
                self._advance(Text("skipped {folder}", folder=self.walk[self.index].folder))
            return
        self._on_check(action)

    def _on_check(self, action: Action) -> None:
        """An enabled action at the CHECK step: keep the photo and go on, take one more, drop it, go back or skip
        the pair (a retaken or skipped pair's photo is deleted)."""
        kept = self.photo
        if action in (Action.ENROLL_RETAKE, Action.ENROLL_SKIP) and self.photo is not None:
            self.photo.unlink(missing_ok=True)
            kept = None
        if action is Action.ENROLL_OK:
            self._advance(Text("kept {photo}", photo=kept.relative_to(self.folder)) if kept else "")
        elif action is Action.ENROLL_ANOTHER:
            self._prompt(
                self.index,
                Text("kept {photo}; one more photo of this pair", photo=kept.relative_to(self.folder)) if kept else "",
            )
        elif action is Action.ENROLL_RETAKE:
            self._prompt(self.index, Text("photo dropped: take it again"))
        elif action is Action.ENROLL_BACK:
            self._go(self.index - 1)
        elif action is Action.ENROLL_SKIP:
            self._advance(Text("skipped {folder}", folder=self.walk[self.index].folder))

    def offer(self, frame: Frame, still: bool) -> bool:
        """Give the loop's latest frame: after OK, the first still one is captured, checked and (when a
        die is seen) saved. Returns True when it was captured.

        Raises:
            OSError: the photo cannot be written (disk full, read-only folder).
        """
        if self.step is not Step.PROMPT or not self.waiting_still or not still:
            return False
        pair = self.walk[self.index]
        check = self.detect(frame.image)
        self.photo = self._save(pair, frame.image) if check.count > 0 else None
        self._show(check, frame.image)
        self.waiting_still = False
        self.step = Step.CHECK
        if self.photo is None:
            self._changed(Text("No dice seen: check the light and the tray, then Retake (or Skip)"))
        else:
            self._changed(plural("{n} die seen: saved {photo}", "{n} dice seen: saved {photo}", check.count,
                                 photo=self.photo.relative_to(self.folder)))
        return True

    def stop(self, why: str) -> None:
        """End the walk now (Quit, Ctrl-C); the photos saved so far stay."""
        if not self.ended:
            self.step = Step.STOPPED
            self.waiting_still = False
            self._changed(why)

    def camera_lost(self, why: str) -> None:
        """End the walk because the camera stopped sending frames; the photos saved so far stay."""
        if not self.ended:
            self.step = Step.CAMERA_LOST
            self.waiting_still = False
            self._changed(why)

    def set_result(self, step: Step, message: str) -> None:
        """After the walk: show the building / saved / failed step (the caller builds the profile)."""
        if step not in (Step.BUILDING, Step.SAVED, Step.FAILED):
            raise ValueError(f"set_result takes BUILDING, SAVED or FAILED, not {step}")
        self.step = step
        self._changed(message)

    # ------------------------------------------------------------------ internals

    def _save(self, pair: Pair, image: np.ndarray) -> Path:
        """Write ``image`` as the pair's next ``NN.png`` (via a temporary file, so an interrupted write
        never leaves a half photo the profile builder would choke on)."""
        folder = self.folder / pair.folder
        folder.mkdir(parents=True, exist_ok=True)
        numbers = [int(p.stem) for p in photos_in(folder) if p.stem.isdigit()]
        path = folder / f"{max(numbers, default=0) + 1:02d}.png"
        ok, data = cv2.imencode(".png", image)
        if not ok:
            raise OSError(f"cannot encode the photo for {path}")
        tmp = path.with_name(path.name + ".part")
        tmp.write_bytes(data.tobytes())
        os.replace(tmp, path)
        return path

    def _show(self, check: DiceCheck, image: np.ndarray) -> None:
        self.check = check
        self.shown = annotate_check(image, check)

    def _prompt(self, index: int, message: str) -> None:
        self.index = index
        self.step = Step.PROMPT
        self.waiting_still = False
        self.photo = None
        self.check = None
        self.shown = None
        self._changed(message)

    def _advance(self, message: str) -> None:
        if self.index + 1 >= len(self.walk):
            self.step = Step.FINISHED
            self.waiting_still = False
            self.photo = None
            self._changed(
                Text("every pair done") if not message else Text("{message}; every pair done", message=message)
            )
        else:
            self._prompt(self.index + 1, message)

    def _go(self, index: int) -> None:
        """Back to pair ``index``: its last photo is checked again when it has one, else it is asked for."""
        pair = self.walk[index]
        photos = photos_in(self.folder / pair.folder)
        if not photos:
            self._prompt(index, Text("back to {folder}", folder=pair.folder))
            return
        self.index = index
        self.step = Step.CHECK
        self.waiting_still = False
        self.photo = photos[-1]
        try:
            image = decode_image(self.photo)  # its size checked from the header first
        except BadImage:  # unreadable: treat it as no photo (the builder would refuse it anyway)
            self.photo.unlink(missing_ok=True)
            self._prompt(
                index, Text("back to {folder} (its last photo was unreadable and was removed)", folder=pair.folder)
            )
            return
        self._show(self.detect(image), image)
        self._changed(plural("back to {folder}: its last photo ({photo}), {n} die seen",
                             "back to {folder}: its last photo ({photo}), {n} dice seen", self.check.count,
                             folder=pair.folder, photo=self.photo.name))


def run_guided(
    source: CameraSource,
    enrollment: GuidedEnrollment,
    inbox: EnrollInbox,
    *,
    stillness: StillnessDetector | None = None,
    screen: Any = None,
    pump: Callable[[], None] | None = None,
    on_change: Callable[[dict[str, Any]], None] | None = None,
    max_frames: int | None = None,
) -> Outcome:
    """The walk on the box's main loop (:class:`companion.app.MainLoop` in its enrollment mode,
    :class:`companion.modes.EnrollMode`): frames read on the camera watch's thread, the posted actions taken,
    a capture when asked and still, the touchscreen drawn.

    Args:
        source: the camera (opened by the loop's camera watch if it is not open; closed when the walk ends).
        enrollment: the walk's state.
        inbox: the hub where the views post actions.
        stillness: tells a still table from a moving one (default thresholds when None).
        screen: a :class:`companion.screen.TouchScreen`, or None (terminal only).
        pump: called once per turn of the loop, before its posted actions are taken (turns touchscreen events
            into actions; tests script the operator here).
        on_change: called with the view whenever the walk's revision changed (after drawing):
            the terminal prompt, ``--screenshot``.
        max_frames: stop (as Quit) after this many frames (tests).

    Returns:
        The :class:`Outcome`. Ctrl-C (KeyboardInterrupt) ends the walk as Quit; a camera that is lost or a
        replay that ends ends it as :attr:`Step.CAMERA_LOST` (a camera that cannot be opened too).
    """
    from companion.app import MainLoop

    loop = MainLoop(source=source, reader=None, session=None, hub=inbox,
                    stillness=stillness if stillness is not None else StillnessDetector(), screen=screen,
                    pump_screen=pump, enrollment=enrollment,
                    on_change=None if on_change is None else (lambda: on_change(inbox.snapshot().view)))
    try:
        loop.run(max_frames=max_frames)
        if not enrollment.ended:
            enrollment.stop(Text("stopped after {frames} frames (--max-frames)", frames=loop.stats.frames)
                            if max_frames is not None else Text("stopped"))
    except KeyboardInterrupt:
        enrollment.stop(Text("interrupted (Ctrl-C)"))
    loop.publish()  # the walk's last step, drawn
    return enrollment.outcome()


class TerminalInput:
    """Drives the walk from a terminal: prints each step and reads one line per question.

    Keys: Enter (or ``ok``) = OK, ``a`` = another photo, ``r`` = retake, ``b`` = back, ``s`` = skip,
    ``q`` = quit; the end of input (Ctrl-D, a closed pipe) is Quit. A line is read only when the walk
    waits for a person (:attr:`GuidedEnrollment.awaiting_input`), one per :attr:`GuidedEnrollment.revision`,
    so lines typed ahead are answered in order. The reading thread only posts to the inbox.

    Args:
        inbox: where the answers go.
        stream: where lines come from (default ``sys.stdin``).
        out: where prompts go (default ``sys.stdout``).
    """

    KEYS: ClassVar[dict[str, Action]] = {"": Action.ENROLL_OK, "ok": Action.ENROLL_OK, "a": Action.ENROLL_ANOTHER,
                                         "r": Action.ENROLL_RETAKE, "b": Action.ENROLL_BACK, "s": Action.ENROLL_SKIP,
                                         "q": Action.QUIT}
    HELP = N_("Enter = OK, a = another photo, r = retake, b = back, s = skip, q = quit")

    def __init__(self, inbox: EnrollInbox, stream: TextIO | None = None, out: TextIO | None = None) -> None:
        self.inbox = inbox
        self.stream = stream if stream is not None else sys.stdin
        self.out = out if out is not None else sys.stdout
        self._cond = threading.Condition()
        self._wanted = -1
        self._served = -1
        self._thread = threading.Thread(target=self._read, name="enroll-terminal", daemon=True)

    def start(self) -> TerminalInput:
        """Start the reading thread (a daemon: it never keeps the program alive)."""
        self._thread.start()
        return self

    def show(self, view: dict[str, Any]) -> None:
        """Print the step of ``view`` (an ``on_change`` callback) and, when a person is needed, ask for a line."""
        e = localize(view["enroll"])  # the box's language
        step = e["step"]
        where = f"[{e['index'] + 1}/{e['total']}]"
        if step == Step.PROMPT.value and e["waiting_still"]:
            self._print("  " + _("hold still..."))
        elif step == Step.PROMPT.value:
            if e["message"]:
                self._print(f"  {e['message']}")
            if e["pair_photos"]:
                said = ngettext(
                    "Put the {pair} in the tray, then press Enter ({n} photo already)  (s skip, b back, q quit)",
                    "Put the {pair} in the tray, then press Enter ({n} photos already)  (s skip, b back, q quit)",
                    e["pair_photos"],
                ).format(pair=e["pair"]["label"], n=e["pair_photos"])
            else:
                said = _("Put the {pair} in the tray, then press Enter  (s skip, b back, q quit)").format(
                    pair=e["pair"]["label"]
                )
            self._print(f"{where} {said}")
        elif step == Step.CHECK.value:
            self._print(f"  {e['message']}")
            if e["seen"]:
                self._print(
                    "  "
                    + _("Enter = next pair, a = another photo, r = retake, s = skip (drops it), b = back, q = quit")
                )
            else:
                self._print("  " + _("r = retake, s = skip, b = back, q = quit"))
        elif e["message"]:
            self._print(e["message"])
        if step in (Step.PROMPT.value, Step.CHECK.value) and not e["waiting_still"]:
            with self._cond:
                self._wanted = max(self._wanted, e["revision"])
                self._cond.notify_all()

    def _print(self, text: str) -> None:
        print(text, file=self.out, flush=True)

    def _read(self) -> None:
        while True:
            with self._cond:
                self._cond.wait_for(lambda: self._wanted > self._served)
                self._served = self._wanted
            while True:
                line = self.stream.readline()
                if not line:  # end of input: stop, keeping the photos
                    self.inbox.post_action(Action.QUIT, origin="terminal", why=N_("end of input"))
                    return
                action = self.KEYS.get(line.strip().lower())
                if action is not None:
                    self.inbox.post_action(action, origin="terminal")
                    break
                self._print(f"  ? {_(self.HELP)}")


def describe_pairs(pairs: Iterable[Pair], limit: int = 8) -> str:
    """``"white-wild, red-ship (+3 more)"`` for messages."""
    names = [p.folder for p in pairs]
    shown = ", ".join(names[:limit])
    return _("{pairs} (+{n} more)").format(pairs=shown, n=len(names) - limit) if len(names) > limit else shown
