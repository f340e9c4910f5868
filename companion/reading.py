"""How the box reads a still table: only what changed, values that hold across the settled frames, and a record
only for a change (issue 15 "Read the table at camera speed", issue 16 "One roll, one record").

- **When**: :func:`table_stillness` is the loop's stillness detector (:data:`LOOP_MOTION`): a still table is read
  only when it differs from the last read (a hand that came and went, a shadow, a light or white-balance step is no
  read: :mod:`vision.motion` takes the light's gains out), an arm reaching in from the table's edge blocks the read
  until it leaves, and the settle is 0.2 s.
- **What**: the change boxes of the detector go to :func:`vision.incremental.read_changes`, so the dice, cards, tiles
  and hexes whose place did not change keep their identity and only the changed windows are read again
  (:func:`sighting_reader` turns a d6 reader into a :class:`vision.Reader` that can).
- **Which values**: a die read again on an earlier frame of the same settled period that gives another value is
  unreadable (:func:`steady_dice`), never the last guess; a value below :attr:`ReadRules.value_confidence` is
  unreadable (:func:`sure_dice`): the contract's "unreadable, never a guess".
- **Whether to record**: a read that shows the same dice at the same places as the previous record (within the
  reader's noise: :func:`same_dice`) is "same as before", not a new roll; a change the read cannot explain by dice
  (:func:`unexplained_changes`: a hand, a cup, anything larger than a die where no die is) blocks the read until
  it is gone.
- **After a restart**: :func:`seen_of` is what the box keeps of its last read (the stillness detector's small image of
  it and the dice as judged), :func:`resume_seen` puts it back, so a restarted box counts changes from that read: an
  unchanged table is not read again, and a changed one is read where it changed.

No I/O here; the modes (:mod:`companion.modes.dice`, :mod:`companion.camera.flow`) use these.
"""

from __future__ import annotations

import base64
import binascii
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

import cv2
import numpy as np

from vision.incremental import touches
from vision.motion import MotionConfig, StillnessDetector
from vision.observations import DiceRead, DieObservation, Sighting

__all__ = ["LOOP_MOTION", "ReadRules", "dice_read_of", "resume_seen", "same_dice", "seen_of", "sighting_reader",
           "steady_dice", "sure_dice", "table_stillness", "unexplained_changes"]

Box = tuple[int, int, int, int]

LOOP_MOTION = MotionConfig(read_unchanged=False, reach_seconds=math.inf)
"""The box's stillness settings: :class:`vision.motion.MotionConfig`'s defaults (quiet 0.2 s and 3 frames) but a
still table equal to the last read is not read again, and an arm reaching in from the edge waits until it leaves."""


def table_stillness(config: MotionConfig | None = None) -> StillnessDetector:
    """The stillness detector of the box's loop (:data:`LOOP_MOTION` unless ``config`` is given)."""
    return StillnessDetector(LOOP_MOTION if config is None else config)


@dataclass(frozen=True)
class ReadRules:
    """When two reads are the same roll, a value is sure, and a change is not a die.

    Attributes:
        same_place: two dice lie at the same place when their centres are within this fraction of a die's side
            (px / px; the reader's box jitters by a few pixels between frames, and a die it barely sees more) ...
        still_place: ... and where the table changed since (the stillness detector's change boxes), within this
            fraction: a die there that moved more was picked up and rolled again, whatever it shows.
        value_confidence: a die value read with a confidence (0-1) below this is unreadable (``None``): the d6
            reader's own ``value_threshold`` (``vision.D6Config``), applied to the die's whole confidence.
        object_dice: a changed region (px^2) larger than this many dice for each die it holds (in the read or in
            the one before; at least one) is something that is not a die (a hand, an arm, a cup) ...
        scene_fraction: ... unless the changes cover more than this fraction of the frame: a new scene (a replay's
            next photo, the camera moved), read whole (:class:`vision.incremental.ChangeConfig`'s full-read share).
    """

    same_place: float = 0.5
    still_place: float = 0.15
    value_confidence: float = 0.35
    object_dice: float = 4.0
    scene_fraction: float = 0.4

    def __post_init__(self) -> None:
        if not 0 < self.still_place <= self.same_place <= 2:
            raise ValueError(f"0 < still_place <= same_place <= 2 die sides, got {self.still_place}, {self.same_place}")
        if not 0 <= self.value_confidence <= 1:
            raise ValueError(f"value_confidence must be within 0-1, got {self.value_confidence}")
        if not self.object_dice >= 1:
            raise ValueError(f"object_dice must be at least 1, got {self.object_dice}")


# -- dice as the judgements see them ------------------------------------------------------------------


def _box(die: Any) -> tuple[float, float, float, float]:
    box = die["box"] if isinstance(die, Mapping) else die.box
    x, y, w, h = (float(v) for v in box)
    return x, y, w, h


def _face(die: Any) -> tuple[Any, ...]:
    """What a die shows: a d6's value, a Roll die's colour and face (the observation or its JSON)."""
    get = die.get if isinstance(die, Mapping) else lambda k, d=None: getattr(die, k, d)
    if get("kind", "d6") == "roll":
        return get("colour"), get("face")
    return (get("value"),)


def _centre_side(die: Any) -> tuple[float, float, float]:
    x, y, w, h = _box(die)
    return x + w / 2.0, y + h / 2.0, max(w, h, 1.0)


def _pairs(a: Sequence[Any], b: Sequence[Any], rules: ReadRules) -> list[tuple[int, int]]:
    """One-to-one pairs (index in ``a``, index in ``b``) of dice at the same place, nearest first."""
    ca, cb = [_centre_side(d) for d in a], [_centre_side(d) for d in b]
    cands = []
    for i, (xa, ya, sa) in enumerate(ca):
        for j, (xb, yb, sb) in enumerate(cb):
            d = math.hypot(xa - xb, ya - yb)
            if d <= rules.same_place * min(sa, sb):
                cands.append((d, i, j))
    used_a, used_b, out = set(), set(), []
    for _, i, j in sorted(cands):
        if i not in used_a and j not in used_b:
            used_a.add(i)
            used_b.add(j)
            out.append((i, j))
    return out


def _unknown(face: tuple[Any, ...]) -> bool:
    """Whether a die's face is unreadable (a d6 value None, a Roll face None)."""
    return face[-1] is None


def _inside(die: Any, boxes: Sequence[Box]) -> bool:
    x, y, _ = _centre_side(die)
    return any(bx <= x <= bx + bw and by <= y <= by + bh for bx, by, bw, bh in boxes)


def same_dice(a: Sequence[Any], b: Sequence[Any], rules: ReadRules | None = None,
              changed: Sequence[Box] | None = None) -> bool:
    """Whether two reads show the same dice at the same places, within the reader's noise: each die one read has
    is paired with a die of the other within :attr:`ReadRules.same_place` of a side, and paired dice show the same
    (a d6's value, a Roll die's colour and face). An unreadable die is "not known", never a difference: it may
    pair with any face, and may be missing from the other read (a die at the edge of what the reader sees, found
    in one frame and not the next) -- except inside ``changed`` (frame-px boxes where the table changed since,
    :meth:`vision.motion.StillnessDetector.change_boxes`): a die there must lie within
    :attr:`ReadRules.still_place` of a side of one of the other read showing the same face (else it was rolled).
    Each read must hold a die.

    ``a``, ``b``: dice as observations (``box``, ``value`` or ``colour``/``face``) or their JSON (a ``dice_read``
    payload's ``"dice"``), boxes in the same frame's px; ``a`` the read now, ``b`` the one before.
    """
    rules = rules or ReadRules()
    changed = list(changed or ())
    fa, fb = [_face(d) for d in a], [_face(d) for d in b]
    pairs = _pairs(a, b, rules)
    for i, j in pairs:
        if _inside(a[i], changed) or _inside(b[j], changed):
            (xa, ya, sa), (xb, yb, sb) = _centre_side(a[i]), _centre_side(b[j])
            if fa[i] != fb[j] or math.hypot(xa - xb, ya - yb) > rules.still_place * min(sa, sb):
                return False
        elif fa[i] != fb[j] and not _unknown(fa[i]) and not _unknown(fb[j]):
            return False
    paired_a, paired_b = {i for i, _ in pairs}, {j for _, j in pairs}
    for dice, faces, paired in ((a, fa, paired_a), (b, fb, paired_b)):
        for k, die in enumerate(dice):
            if k not in paired and (not _unknown(faces[k]) or _inside(die, changed)):
                return False
    return len(a) > 0 and len(b) > 0


def steady_dice(now: Sequence[Any], earlier: Sequence[Any], fresh: Sequence[Any], rules: ReadRules | None = None
                ) -> tuple[Any, ...]:
    """The dice of ``now`` with the value of each ``fresh`` one (read again in this read, not kept from the read
    before) made unreadable when the same place read on an earlier frame of the same settled period (``earlier``)
    shows another value: a die whose reads disagree is unreadable, never the last guess. A die the earlier frame did
    not see keeps its value. Observations only (``dataclasses.replace``): ``value=None`` for a d6, ``face=None`` for a
    Roll die, confidence the lower of the two reads."""
    rules = rules or ReadRules()
    fresh_ids = {id(d) for d in fresh}
    out = list(now)
    for i, j in _pairs(now, earlier, rules):
        die, other = now[i], earlier[j]
        if id(die) not in fresh_ids or _face(die) == _face(other):
            continue
        conf = min(float(die.confidence), float(other.confidence))
        out[i] = replace(die, face=None, confidence=conf) if getattr(die, "kind", "d6") == "roll" \
            else replace(die, value=None, confidence=conf)
    return tuple(out)


def sure_dice(dice: Sequence[Any], rules: ReadRules | None = None) -> tuple[Any, ...]:
    """``dice`` with every value read below :attr:`ReadRules.value_confidence` made unreadable (d6 ``value``, Roll
    ``face``; the die stays, found)."""
    rules = rules or ReadRules()
    out = []
    for d in dice:
        if float(d.confidence) < rules.value_confidence:
            if getattr(d, "kind", "d6") == "roll" and d.face is not None:
                d = replace(d, face=None)
            elif getattr(d, "kind", "d6") != "roll" and d.value is not None:
                d = replace(d, value=None)
        out.append(d)
    return tuple(out)


def unexplained_changes(boxes: Sequence[Box] | None, now: Sequence[Any], before: Sequence[Any],
                        frame_size: tuple[int, int], rules: ReadRules | None = None) -> list[Box]:
    """The change boxes (frame px, the detector's since the read before) that no die explains: larger than
    :attr:`ReadRules.object_dice` dice for each die they hold now or held before (at least one; a die they held before
    and no longer hold counts twice: it was rolled within the change, and the read may have missed where). A hand
    resting over the tray, a cup, a phone put down: the read waits until it is gone. A box touching the frame's edge
    is left to the stillness detector (an arm reaching in waits there until it leaves; a strip along the edge is the
    camera's framing). [] without boxes (a first read, a read asked for), without a die to size them by, or for a
    new scene (changes over :attr:`ReadRules.scene_fraction` of the ``frame_size`` (width, height) px)."""
    rules = rules or ReadRules()
    dice = list(now) + list(before)
    if not boxes or not dice:
        return []
    if sum(w * h for _, _, w, h in boxes) > rules.scene_fraction * frame_size[0] * frame_size[1]:
        return []
    side = float(np.median([_centre_side(d)[2] for d in dice]))
    fw, fh = frame_size
    out = []
    for box in boxes:
        bx, by, bw, bh = box
        if bx <= 0 or by <= 0 or bx + bw >= fw or by + bh >= fh:
            continue
        was, now_in = sum(_inside(d, [box]) for d in before), sum(_inside(d, [box]) for d in now)
        # a die gone from its place counts twice: it lies somewhere in the change (rolled where the read missed it)
        held = now_in + was + max(0, was - now_in)
        if bw * bh > rules.object_dice * max(1, held) * side * side:
            out.append((int(bx), int(by), int(bw), int(bh)))
    return out


# -- a d6 reader as a vision.Reader ----------------------------------------------------------------------


@dataclass(frozen=True, eq=False)
class _PlainDice:
    """A dice reader with only ``read(frame) -> DiceRead`` as a :class:`vision.incremental.IncrementalReader`: every
    read is a full one, and after a change only the dice in the changed places are taken from it (the others stay as
    the read before saw them), as a reader that reads only the changes does."""

    reader: Any
    name: str = "d6"

    def read(self, frame: np.ndarray) -> Sighting:
        r = self.reader.read(frame)
        if isinstance(r, Sighting):
            return r
        return Sighting(self.name, int(r.width), int(r.height), dice=tuple(r.dice),
                        timings_ms=dict(getattr(r, "timings_ms", {}) or {}))

    def read_changes(self, frame: np.ndarray, previous: Sighting, boxes: Sequence[Box]) -> Sighting:
        """``previous``'s dice that touch none of ``boxes`` (frame px), and the dice of a full read of ``frame`` that
        touch one and lie on none of those."""
        now = self.read(frame)
        kept = [d for d in previous.dice if not touches(_box(d), boxes)]
        new = [d for d in now.dice if touches(_box(d), boxes) and not any(touches(_box(d), [_box(k)]) for k in kept)]
        return replace(now, dice=tuple(kept + new))


def sighting_reader(reader: Any) -> Any:
    """``reader`` as a :class:`vision.Reader`: a :class:`vision.D6Reader` as its :class:`vision.readers.D6Adapter`
    (reads only what changed), a reader that already is one as it is, anything else with ``read(frame)`` giving
    ``dice`` wrapped (full reads, of which a change takes only the dice where the table changed)."""
    from vision import D6Reader
    from vision.readers import D6Adapter

    if isinstance(reader, D6Reader):
        return D6Adapter(reader)
    if hasattr(reader, "read_changes") and hasattr(reader, "name"):
        return reader
    return _PlainDice(reader)


def dice_read_of(sighting: Sighting, dice: Sequence[Any] | None = None) -> DiceRead:
    """The :class:`vision.DiceRead` of a sighting (``dice`` instead of its own when given)."""
    return DiceRead(sighting.width, sighting.height, tuple(sighting.dice if dice is None else dice),
                    dict(sighting.timings_ms))


# -- what the box keeps of its last read across a restart ------------------------------------------------------


def seen_of(stillness: StillnessDetector, sighting: Sighting, events: int) -> dict[str, Any] | None:
    """What the box keeps of its last read (JSON): ``{"events": the session's last seq then, "width", "height": the
    frame's px, "reference": the detector's small image of the read (:meth:`vision.motion.StillnessDetector.
    read_reference`) as base64 PNG, "dice": [DieObservation.to_json(), ...] as judged}``; None when the detector has
    no read or ``sighting`` holds something other than d6 dice."""
    reference = stillness.read_reference()
    if reference is None or any(not isinstance(d, DieObservation) for d in sighting.dice):
        return None
    ok, png = cv2.imencode(".png", reference)
    if not ok:
        return None
    return {"events": int(events), "width": int(sighting.width), "height": int(sighting.height),
            "reference": base64.b64encode(png.tobytes()).decode("ascii"), "dice": [d.to_json() for d in sighting.dice]}


def resume_seen(seen: Mapping[str, Any] | None, stillness: StillnessDetector, newest_read: int,
                name: str = "d6") -> Sighting | None:
    """Put back what :func:`seen_of` kept when no roll was recorded after it (``newest_read``: the seq of the
    session's newest dice read, taken back or not; 0 when none): the detector counts changes from that read again, and
    its dice are returned as the reader's ``name`` sighting (the read before the next one). An Undo or a correction
    since does not make it stale: the camera saw the same table, and a running box does not read an unchanged table
    after an Undo either (a "Read now" does). None, with the detector untouched, when there is nothing to resume, a
    roll was recorded after it, or what was kept does not decode (the next still table is read whole)."""
    if not isinstance(seen, Mapping):
        return None
    try:
        if _whole(seen.get("events"), 0, 2**62) < newest_read:
            return None
        width, height = _whole(seen["width"], 1, _MAX_SIDE), _whole(seen["height"], 1, _MAX_SIDE)
        if not isinstance(seen["reference"], str) or not isinstance(seen["dice"], list):
            return None
        png = np.frombuffer(base64.b64decode(seen["reference"], validate=True), np.uint8)
        reference = cv2.imdecode(png, cv2.IMREAD_COLOR) if png.size else None
        dice = tuple(_kept_die(d, width, height) for d in seen["dice"])
        if reference is None:
            return None
        stillness.resume_read(reference, (height, width, 3))
    except (KeyError, TypeError, ValueError, cv2.error, binascii.Error):
        return None
    return Sighting(name, width, height, dice=dice)


#: The largest frame side a kept read may name, px (a 50-megapixel photo is under 10000 px a side).
_MAX_SIDE = 100_000


def _whole(value: Any, low: int, high: int) -> int:
    """``value`` when it is a JSON integer in ``[low, high]`` (not a bool, a float or a string).

    Raises:
        ValueError: it is not.
    """
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise ValueError(f"not a whole number in [{low}, {high}]: {value!r}")
    return value


def _kept_die(d: Any, width: int, height: int) -> DieObservation:
    """One die of a kept read, as :meth:`DieObservation.to_json` wrote it: kind ``"d6"``, value 1..6 or null, box
    ``[x, y, w, h]`` whole px with ``w, h >= 1`` overlapping the ``width`` x ``height`` frame, confidence a finite
    number in [0, 1].

    Raises:
        ValueError: anything else (a kept read edited or corrupted on the disk).
    """
    if not isinstance(d, Mapping) or d.get("kind") != "d6" or not isinstance(d.get("box"), list) or len(d["box"]) != 4:
        raise ValueError(f"not a kept die: {d!r}")
    value = None if d.get("value") is None else _whole(d["value"], 1, 6)
    x, y = (_whole(v, -_MAX_SIDE, _MAX_SIDE) for v in d["box"][:2])
    w, h = (_whole(v, 1, _MAX_SIDE) for v in d["box"][2:])
    confidence = d.get("confidence")
    if isinstance(confidence, bool) or not isinstance(confidence, (int, float)) or not 0.0 <= confidence <= 1.0:
        raise ValueError(f"not a confidence in [0, 1]: {confidence!r}")
    if x + w <= 0 or y + h <= 0 or x >= width or y >= height:
        raise ValueError(f"a kept die's box outside the {width} x {height} frame: {d['box']!r}")
    return DieObservation("d6", value, (x, y, w, h), float(confidence))
