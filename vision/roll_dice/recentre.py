"""Stage 8b of the Roll dice reader: the dice whose face was read weakly are read again where their top face fits
best (the read box had slid onto a side face or a neighbour, or was too large or too small), the box reported
unchanged."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace

import numpy as np

from ..profiles import DiceProfile
from .assemble import colour_sure, decide_each
from .config import RollDiceConfig
from .faces import best_turn, keep_ink_polarity, search_faces
from .glare import glare_masks
from .lamp import lamp_reads, spot_free_inks, spot_tells
from .nadir import nadir_point, towards_top
from .observations import RollDieObservation, TopFaces
from .shape import die_likeness, edge_angle, expected_sides, snap_top
from .tops import ink_maps, upright_patch

__all__ = ["recentre_boxes", "recentre_reads", "recentred_scores", "weak_reads"]


def weak_reads(kept: Sequence[tuple[int, RollDieObservation]], config: RollDiceConfig) -> list[int]:
    """The positions in ``kept`` (``[(top face index, read)]``, :func:`vision.roll_dice.assemble.assemble_indexed`)
    of the reads whose face is weak: unreadable, or confidence below ``recentre_confidence``."""
    return [k for k, (_, obs) in enumerate(kept) if obs.face is None or obs.confidence < config.recentre_confidence]


def recentre_boxes(frame: np.ndarray, rect: np.ndarray, body: np.ndarray, expected: float,
                   config: RollDiceConfig, away: tuple[np.ndarray, float] | None = None) -> np.ndarray:
    """``float[M, 5]``: the squares (cx, cy, side, side, angle deg; frame px) where one die's top face may lie, round
    its read box ``rect`` (``float[5]``, frame px), the box itself left out (it was read): the box shifted by
    ``recentre_shifts`` x its side along each of its own axes, at each of ``recentre_scales`` x its side; then, with
    ``recentre_snap``, the squares :func:`vision.roll_dice.shape.snap_top` fits to the top face's edges (one colour
    ``body``, log-RGB ``float[3]``, to its rim, and standing out beyond it) at the box's side (``recentre_snap_box``)
    and at ``expected``,
    the side a die has at that place of the picture (px, :func:`vision.roll_dice.shape.expected_sides`: a box too
    large holds a side face or a strip of a neighbour). When the die's edges
    (:func:`vision.roll_dice.shape.edge_angle`) lie more than ``recentre_turn`` degrees off the box's angle (modulo
    90: a box that took a side face's or a neighbour's outline), the box is tried at the edges' angle too and
    snapped from there as well (the snap itself turns a square by a few degrees only). With ``recentre_wide_shifts``,
    the top face is also looked for farther off (up to the widest shift x the side), as ``body`` lifted by each of
    ``recentre_wide_lifts`` (a box on a side face measured the side's colour; the top is that colour lit more): each
    square found (fit at least ``recentre_wide_fit``) not within ``recentre_wide_apart`` sides of one already listed
    is added, at most one a lift. ``away``: (``float[2]`` unit vector from the camera's nadir towards the die, frame
    px; how far its side faces reach towards the nadir, in sides: :func:`vision.roll_dice.nadir.towards_top`), or
    None: a box fitted to the die's whole outline lies between its top face and the side faces that hang from it
    towards the nadir, so with ``recentre_nadir_shifts`` the square of the expected side is also tried that many
    reaches x its side away from the nadir (where the reach is at least ``recentre_nadir_min``), at the edges' angle."""
    cx, cy, w, h, ang = (float(v) for v in rect)
    side = float(np.sqrt(max(w * h, 1.0)))
    a = np.deg2rad(ang)
    ca, sa = np.cos(a), np.sin(a)
    out = []
    for sc in config.recentre_scales:
        for dy in config.recentre_shifts:
            for dx in config.recentre_shifts:
                if dx == 0.0 and dy == 0.0 and sc == 1.0:
                    continue
                ox, oy = dx * side, dy * side
                out.append((cx + ox * ca - oy * sa, cy + ox * sa + oy * ca, side * sc, side * sc, ang))
    if config.recentre_snap:
        turns = [ang]
        if config.recentre_turn > 0:
            edges, _ = edge_angle(frame, rect, body, config)
            off = (edges - ang + 45.0) % 90.0 - 45.0                  # a square's angle counts modulo 90 degrees
            if abs(off) > config.recentre_turn:
                turns.append(ang + off)
                out.append((cx, cy, side, side, ang + off))
        for turn in turns:
            for size in ((side, float(expected)) if config.recentre_snap_box else (float(expected),)):
                snapped, _ = snap_top(frame, np.array([cx, cy, size, size, turn]), body, size, config)
                s = float(np.sqrt(max(snapped[2] * snapped[3], 1.0)))
                out.append((float(snapped[0]), float(snapped[1]), s, s, float(snapped[4])))
        if away is not None and config.recentre_nadir_shifts and away[1] >= config.recentre_nadir_min:
            (ux, uy), reach = away
            size = float(expected)
            for k in config.recentre_nadir_shifts:
                moved = np.array([cx + ux * k * reach * size, cy + uy * k * reach * size, size, size, turns[-1]])
                _add_snapped(out, frame, moved, body, size, config)
        if config.recentre_wide_shifts:
            # the top face lies farther off: the box's body may be a side face's, so the top is looked for as
            # the same colour lit more (a side face is that colour in shade), over a wider span
            size = float(expected)
            for lift in config.recentre_wide_lifts:
                _add_snapped(out, frame, np.array([cx, cy, size, size, turns[-1]]), body + lift, size, config,
                             tuple(config.recentre_wide_shifts), config.recentre_wide_context)
    return np.asarray(out, np.float64).reshape(-1, 5)


def _add_snapped(out: list[tuple[float, ...]], frame: np.ndarray, square: np.ndarray, body: np.ndarray, size: float,
                 config: RollDiceConfig, shifts: tuple[float, ...] | None = None,
                 context: float | None = None) -> None:
    """Append to ``out`` the square :func:`vision.roll_dice.shape.snap_top` fits from ``square`` (``float[5]``, frame
    px) to the edges of a top face of colour ``body`` at ``size`` px (``shifts``, ``context``: its coarse search's,
    None: the snap's own), squared, unless its fit is below ``recentre_wide_fit`` (no such face there) or it lies
    within ``recentre_wide_apart`` sides of a square already in ``out``."""
    snapped, fit = snap_top(frame, square, body, size, config, shifts, context)
    s = float(np.sqrt(max(snapped[2] * snapped[3], 1.0)))
    if fit < config.recentre_wide_fit or any(
            np.hypot(o[0] - snapped[0], o[1] - snapped[1]) <= config.recentre_wide_apart * s for o in out):
        return
    out.append((float(snapped[0]), float(snapped[1]), s, s, float(snapped[4])))


def recentred_scores(frame: np.ndarray, rects: np.ndarray, bodies: np.ndarray, expected: np.ndarray,
                     rot_templates: np.ndarray, template_pol: np.ndarray | None,
                     config: RollDiceConfig, away: tuple[np.ndarray, np.ndarray] | None = None,
                     spot: bool = False) -> tuple[np.ndarray, np.ndarray]:
    """Each die's face matched at every square :func:`recentre_boxes` gives, its ink measured against the body colour
    of that square (a box on a side face had the side's colour as its body), each template seeing the ink as its own
    colour prints it (:func:`vision.roll_dice.faces.search_faces`, the first match's shifts, glare left out).

    Args:
        frame: ``uint8[H, W, 3]`` BGR.
        rects: ``float[N, 5]`` the dice's read boxes (cx, cy, w, h, angle deg; frame px).
        bodies: ``float[N, 3]`` their body colours (log-RGB), for the snap.
        expected: ``float[N]`` the side a die has at each one's place (px), for the snap (unused without it).
        rot_templates: ``float32[4K, C*T*T]`` (:func:`vision.roll_dice.faces.rotated_templates`).
        template_pol: ``float[K]`` each template's print polarity, or None.
        config: ``recentre_*``, ``patch``, ``patch_margin``, the face match's settings.
        away: optional (``float[N, 2]`` unit vectors from the camera's nadir towards each die, ``float[N]`` how far
            its side faces reach, in sides: :func:`vision.roll_dice.nadir.towards_top`), for the squares away from
            the nadir (:func:`recentre_boxes`); None: none tried.
        spot: the box itself is tried too, and each square's ink is cut with the lamp's reflection taken out by its
            colour (:func:`vision.roll_dice.lamp.spot_free_inks`) and read as dark ink by every template
            (``template_pol`` unused): for dice printed dark only.

    Returns:
        (NCC ``float32[N, K]`` at each die's best square, that square ``float[N, 5]`` moved to where its best
        window matched): the best square is the one whose best template matches best (the first of equals); a die
        with no square to try (no shift, scale or snap set) has NCC -1 and its box.
    """
    n = len(rects)
    k = len(rot_templates) // 4
    if n == 0 or k == 0:
        return np.zeros((n, k), np.float32), np.asarray(rects, np.float64).reshape(n, 5).copy()
    aways = [None] * n if away is None else list(zip(*away, strict=True))
    boxes = [recentre_boxes(frame, r, b, e, config, a)
             for r, b, e, a in zip(np.asarray(rects, np.float64), bodies, expected, aways, strict=True)]
    if spot:                                                    # the box itself too: its ink was not seen so
        boxes = [np.vstack([[r[0], r[1], np.sqrt(max(r[2] * r[3], 1.0)), np.sqrt(max(r[2] * r[3], 1.0)), r[4]], b])
                 for r, b in zip(np.asarray(rects, np.float64), boxes, strict=True)]
    every = np.concatenate(boxes)
    if len(every) == 0:
        return np.full((n, k), -1.0, np.float32), np.asarray(rects, np.float64).reshape(n, 5).copy()
    p, m = config.patch, config.patch_margin
    patches = np.stack([upright_patch(frame, cx, cy, s, ang, p, m) for cx, cy, s, _, ang in every])
    inks, measured = ink_maps(patches, config, m)
    glare = glare_masks(patches, inks[:, 0], config)
    if spot:                                  # the reflection taken out by its colour; each template sees dark ink
        inks = keep_ink_polarity(spot_free_inks(patches, measured, config), np.full(len(inks), -1.0), config)
        template_pol = None
    score, corner = search_faces(inks, rot_templates, template_pol, config, config.shift_step, config.shift_refine,
                                 glare)
    ncc = best_turn(score)                                                                  # [M, K]
    top = ncc.max(1)
    out_ncc, out_rects = np.zeros((n, k), np.float32), np.zeros((n, 5))
    start = 0
    for i, b in enumerate(boxes):
        if len(b) == 0:
            out_ncc[i], out_rects[i] = -1.0, rects[i]
            continue
        j = start + int(top[start:start + len(b)].argmax())
        cx, cy, side, _, ang = every[j]
        # the best window's offset from the patch's middle, patch px -> frame px, turned back by the angle
        oy, ox = (corner[j] - (p + 2 * m - config.template) / 2.0) * (side / p)
        a = np.deg2rad(ang)
        out_ncc[i] = ncc[j]
        out_rects[i] = (cx + ox * np.cos(a) - oy * np.sin(a), cy + ox * np.sin(a) + oy * np.cos(a), side, side, ang)
        start += len(b)
    return out_ncc, out_rects


def recentre_reads(frame: np.ndarray, tops: TopFaces, colour_p: np.ndarray, ncc: np.ndarray,
                   kept: Sequence[tuple[int, RollDieObservation]], profile: DiceProfile, rot_templates: np.ndarray,
                   template_pol: np.ndarray | None, config: RollDiceConfig) -> tuple[RollDieObservation, ...]:
    """The reads ``kept`` (``[(top face index, read)]`` of :func:`vision.roll_dice.assemble.assemble_indexed`) with
    each weak face (:func:`weak_reads`) read again where its top face fits best (:func:`recentred_scores`).

    The new read (the same joint colour x face decision, :func:`vision.roll_dice.assemble.decide_each`, on the new
    NCC row, with the die's colour chances ``colour_p`` as they were) replaces the first one only when its best NCC
    beats the first one's by ``recentre_gain``, it reads a face, and its colour is the first read's colour (only a die
    whose first best NCC is below ``recentre_below`` is read again: a better match is weak for a close second face,
    not a box off its top). Every read
    keeps its box, so the dice found, the false dice and the colours are those of the first read: only faces (and
    their confidences) change, a replaced one's confidence at most ``recentre_cap``. A weak read no square read better,
    of a colour printed dark, then gets the lamp's look on its own box (:func:`vision.roll_dice.lamp.lamp_reads`: a
    soft lamp spot taken off, ``lamp_close``; only a face whose dark-printed templates matched below ``lamp_below``);
    one still unreadable whose colour is sure, the reflection taken out by its colour on its box and the squares round
    it (:func:`_spot_reads`, ``spot_*``), as is any read, weak or not, whose face came from another print's template
    (:func:`other_print_reads`, ``spot_other_print``).
    ``recentre`` off: ``kept``'s reads as they are. ``tops``: N faces; ``colour_p``: ``float[N, C]``; ``ncc``:
    ``float[N, K]``."""
    reads = [obs for _, obs in kept]
    if not config.recentre or len(rot_templates) == 0:
        return tuple(reads)
    weak = weak_reads(kept, config)
    led = other_print_reads(kept, ncc, profile, template_pol, config)
    if not weak and not led:
        return tuple(reads)
    seen = sorted(set(weak) | set(led))
    at = np.array([kept[w][0] for w in seen], np.int64)
    sized, towards = _places(frame, tops, at, config)
    pos = {w: j for j, w in enumerate(seen)}

    def expected_of(w: int) -> float:
        return float(sized[pos[w]])

    def away_of(w: int) -> tuple[np.ndarray, float] | None:
        return None if towards is None else (towards[0][pos[w]], float(towards[1][pos[w]]))

    mine = np.array([pos[w] for w in weak], np.int64)              # the weak reads' rows of ``at``
    idx, expected = at[mine], sized[mine]
    away = None if towards is None else (towards[0][mine], towards[1][mine])

    # a face already matched at recentre_below or better is weak for a close second face, not for a box off the top:
    # no square round it can beat that match by recentre_gain, so none is tried
    first = ncc[idx].max(1)
    look = np.flatnonzero(first < config.recentre_below)
    better = np.zeros(len(idx), bool)
    again = {}
    if len(look):
        new_ncc, _ = recentred_scores(frame, tops.rects[idx[look]], tops.body[idx[look]], expected[look],
                                      rot_templates, template_pol, config,
                                      None if away is None else (away[0][look], away[1][look]))
        better[look] = new_ncc.max(1) >= first[look] + config.recentre_gain
        if better.any():
            again = {int(look[j]): obs for _, j, obs in decide_each(
                tops.take(idx[look]), colour_p[idx[look]], new_ncc, profile, config, template_pol)}
    still = []                                                     # not read better elsewhere: the lamp's look
    for j, w in enumerate(weak):
        new, old = again.get(j), reads[w]
        if not better[j] or new is None or new.face is None or new.colour != old.colour:
            still.append(w)
            continue
        reads[w] = replace(new, box=old.box, confidence=min(float(new.confidence), config.recentre_cap))
    if template_pol is not None and still:
        lit = lamp_reads(frame, tops, colour_p, ncc, [kept[w] for w in still], profile, rot_templates, template_pol,
                         config)
        for w, new in zip(still, lit, strict=True):
            if new is not None:
                reads[w] = new
        left = [w for w, new in zip(still, lit, strict=True) if new is None]       # the lamp's look read none better
    else:
        left = []
    if template_pol is not None:       # unreadable still, or read from another print's template: the look by colour
        spot = [w for w in seen if w in set(left) or w in set(led)]
        for w, new in _spot_reads(frame, tops, colour_p, ncc, [kept[w] for w in spot], spot, expected_of, away_of,
                                  profile, rot_templates, template_pol, config, set(led)):
            reads[w] = new
    return tuple(reads)


def _places(frame: np.ndarray, tops: TopFaces, at: np.ndarray,
            config: RollDiceConfig) -> tuple[np.ndarray, tuple[np.ndarray, np.ndarray] | None]:
    """(the side a die has at each top face ``at`` (``int[M]`` indices of ``tops``), px, ``float[M]``; the unit
    vectors from the camera's nadir towards them and their side faces' reach,
    :func:`vision.roll_dice.nadir.towards_top`, or None) for the squares :func:`recentre_boxes` tries: zeros and None
    without ``recentre_snap``, None without ``recentre_nadir_shifts``."""
    if not config.recentre_snap:
        return np.zeros(len(at)), None
    sides = np.sqrt(tops.rects[:, 2] * tops.rects[:, 3])
    shape = die_likeness(tops.evidence, config) if tops.evidence is not None else np.ones(len(sides))
    every = expected_sides(tops.rects[:, :2], sides, np.asarray(tops.scores, np.float64) * shape, config)
    if not config.recentre_nadir_shifts:
        return every[at], None
    nadir, tilt = nadir_point(tops.rects[:, :2], every, frame.shape[:2], config.recentre_focal)
    return every[at], towards_top(tops.rects[at, :2], nadir, tilt, config.recentre_focal, frame.shape[1])


def other_print_reads(kept: Sequence[tuple[int, RollDieObservation]], ncc: np.ndarray, profile: DiceProfile,
                      template_pol: np.ndarray | None, config: RollDiceConfig) -> list[int]:
    """The positions in ``kept`` (``[(top face index, read)]``) of the reads whose face was read from another
    print's symbol: a face read, in a colour printed dark, whose first match's best template (``ncc`` ``float[N, K]``)
    is printed light (``template_pol`` ``float[K]``: -1 dark, +1 light). A die's own print never matches a
    light-printed template best; a lamp's soft spot on dark ink does (a smooth bright bump, as light ink is), so such
    a read is the spot's, whatever its confidence (:func:`_spot_reads` looks at it by colour). ``spot_other_print``
    off, no polarity or no template: none."""
    if not config.spot_other_print or template_pol is None or ncc.size == 0:
        return []
    pol = np.asarray(template_pol, np.float64)
    colour_dark = {c: pol[k] < 0 for k, (c, _) in enumerate(profile.template_pairs)}
    best = np.asarray(ncc).argmax(1)
    return [w for w, (i, obs) in enumerate(kept)
            if obs.face is not None and colour_dark.get(obs.colour, False) and pol[best[i]] > 0]


def _spot_reads(frame: np.ndarray, tops: TopFaces, colour_p: np.ndarray, ncc: np.ndarray,
                weak: Sequence[tuple[int, RollDieObservation]], at: Sequence[int],
                expected_of: Callable[[int], float], away_of: Callable[[int], tuple[np.ndarray, float] | None],
                profile: DiceProfile, rot_templates: np.ndarray, template_pol: np.ndarray,
                config: RollDiceConfig, led: set[int] = frozenset()) -> list[tuple[int, RollDieObservation]]:
    """The last look at weak reads ``weak`` (``[(top face index, read)]``, at positions ``at`` of the reads) that
    neither the squares round the box nor the lamp's look read better, and reads whose face came from another print
    (positions in ``led``, :func:`other_print_reads`): a die read unreadable, or at a position in ``led`` (any other
    face read, even a weak one, is kept: the look reads a face where there was none or where the face read was the
    spot's) whose colour prints dark, whose body alone
    makes that colour sure (:func:`vision.roll_dice.assemble.colour_sure` at least ``spot_colour_sure``) and whose
    best dark-printed template matched below ``lamp_below`` is matched again on its box and on the squares round it
    (:func:`recentred_scores`) with the lamp's reflection taken out by its colour
    (:func:`vision.roll_dice.lamp.spot_free_inks`). ``[(position, new read)]`` for those whose best dark-printed
    template then beats the first read's by ``recentre_gain`` and that read a face in the same colour, the box kept,
    the confidence at most ``recentre_cap``: found, false dice and colours never change. ``spot_colour_sure`` above 1:
    none. ``expected_of``, ``away_of``: the side a die has at a read's place and its nadir's direction, by position
    (as :func:`recentre_boxes` takes them)."""
    if config.spot_colour_sure > 1.0 or not weak or template_pol is None:
        return []
    pol = np.asarray(template_pol, np.float64)
    dark = pol < 0
    if not dark.any():
        return []
    colour_dark = {c: pol[k] < 0 for k, (c, _) in enumerate(profile.template_pairs)}
    colours = list(profile.colours)
    first = np.asarray(ncc)[:, dark].max(1)
    look = [j for j, (i, obs) in enumerate(weak)
            if (obs.face is None or at[j] in led) and colour_dark.get(obs.colour, False)
            and first[i] < config.lamp_below
            and colour_sure(colour_p[i], colours.index(obs.colour)) >= config.spot_colour_sure
            and spot_tells(tops.body[i], config)[0]]
    if not look:
        return []
    idx = np.array([weak[j][0] for j in look], np.int64)
    aways = [away_of(at[j]) for j in look]
    away = None
    if all(a is not None for a in aways):
        away = (np.array([a[0] for a in aways]), np.array([a[1] for a in aways]))
    new_ncc, _ = recentred_scores(frame, tops.rects[idx], tops.body[idx], np.array([expected_of(at[j]) for j in look]),
                                  rot_templates, None, config, away, spot=True)
    own = new_ncc[:, dark].max(1)
    better = own >= first[idx] + config.recentre_gain
    # a face read from another print's template is replaced only where the die's own print, the spot taken off,
    # matches about as well as that template matched the spot (within recentre_gain): else it is no better evidence
    read = np.array([weak[j][1].face is not None for j in look], bool)
    better &= ~read | (own >= np.asarray(ncc)[idx].max(1) - config.recentre_gain)
    if not better.any():
        return []
    again = {j: obs for _, j, obs in decide_each(tops.take(idx), colour_p[idx], new_ncc, profile, config,
                                                 template_pol)}
    out = []
    for a, j in enumerate(look):
        new, old = again.get(a), weak[j][1]
        if better[a] and new is not None and new.face is not None and new.colour == old.colour:
            out.append((at[j], replace(new, box=old.box, confidence=min(float(new.confidence), config.recentre_cap))))
    return out
