"""Stage 8 of the Roll dice reader: the joint colour x face decision per die with an "unreadable" option; a pair
the profile does not allow is never reported (the colour's own likeliest face instead) nor certain; one die per
place."""

from __future__ import annotations

from collections.abc import Sequence

import cv2
import numpy as np

from ..profiles import DiceProfile
from .colour_pick import colour_scores
from .config import RollDiceConfig
from .observations import RollDieObservation, TopFaces
from .shape import die_likeness, middle_spread, stroke_spread
from .tops import rect_box

__all__ = ["assemble", "assemble_indexed", "colour_sure", "decide_each", "die_weights", "joint_scores",
           "symbol_weights", "top_overlap"]


def joint_scores(colour_p: np.ndarray, ncc: np.ndarray, template_pairs: Sequence[tuple[str, str]],
                 colours: Sequence[str], faces: Sequence[str], config: RollDiceConfig,
                 template_pol: np.ndarray | None = None) -> np.ndarray:
    """Log-scores ``[N, C, F]`` over every colour x face (allowed or not).

    A pair with enrolled templates uses its best NCC; a pair without (e.g. white wild) uses the
    best NCC of that face on any colour, lowered by ``impossible_penalty``. With ``template_pol`` (``float[K]``,
    each template's print polarity) an enrolled pair also takes the best NCC of the same face on any colour
    printed in its colour's polarity, lowered by ``pooled_penalty``, when that is higher: a face's symbol is
    drawn alike on every colour, so the other colours' templates (other dice, other lights at enrollment) are
    more looks of it; a colour's own template still wins a near tie. The log colour chances weigh
    ``colour_weight`` times (the body decides the colour unless it is doubtful: a glare spot matching another
    colour's template better does not make a die read plainly red purple).
    """
    n = len(colour_p)
    ci = {c: i for i, c in enumerate(colours)}
    fi = {f: i for i, f in enumerate(faces)}
    m = np.full((n, len(colours), len(faces)), -1.0, np.float64)
    for k, (c, f) in enumerate(template_pairs):
        m[:, ci[c], fi[f]] = np.maximum(m[:, ci[c], fi[f]], ncc[:, k])
    enrolled = np.zeros((len(colours), len(faces)), bool)
    for c, f in template_pairs:
        enrolled[ci[c], fi[f]] = True
    any_colour = m.max(axis=1)  # [N, F]
    if template_pol is not None and config.pooled_penalty >= 0:
        pol = np.asarray(template_pol, np.float64)
        colour_pol = {c: pol[k] for k, (c, _) in enumerate(template_pairs)}
        for sign in np.unique(pol):
            same = np.full((n, len(faces)), -1.0)
            for k, (_, f) in enumerate(template_pairs):
                if pol[k] == sign:
                    same[:, fi[f]] = np.maximum(same[:, fi[f]], ncc[:, k])
            for c, a in ci.items():
                if colour_pol.get(c) == sign:
                    rows = enrolled[a]
                    m[:, a, rows] = np.maximum(m[:, a, rows], same[:, rows] - config.pooled_penalty)
    for a in range(len(colours)):
        for b in range(len(faces)):
            if not enrolled[a, b]:
                m[:, a, b] = any_colour[:, b] - config.impossible_penalty
    return config.colour_weight * np.log(np.clip(colour_p, 1e-12, 1.0))[:, :, None] + m / config.face_temperature


def _ramp(x: np.ndarray | float, lo_hi: tuple[float, float]) -> np.ndarray:
    """``x`` mapped linearly from ``lo_hi[0]`` (0) to ``lo_hi[1]`` (1), clipped to 0..1, as float64: every ramp
    setting of :class:`RollDiceConfig` is read through it (the dice stages share this one)."""
    lo, hi = lo_hi
    return np.clip((np.asarray(x, np.float64) - lo) / max(hi - lo, 1e-9), 0.0, 1.0)


def symbol_weights(tops: TopFaces, ncc: np.ndarray, config: RollDiceConfig) -> np.ndarray:
    """How surely each top face is a die carrying one of the owner's symbols, ``float[N]`` 0..1: its
    candidate score x its best template NCC on the ramp ``match_ramp`` x its die-likeness
    (:func:`vision.roll_dice.shape.die_likeness`). The light is calibrated on these weights: a thing of
    die shape whose symbol no template knows (a printed square, a check of a cloth), or a symbol-like
    print that is not die-shaped, does not pull it."""
    n = len(tops.rects)
    if n == 0:
        return np.zeros(0)
    best = ncc.max(1) if ncc.size else np.zeros(n)
    shape = die_likeness(tops.evidence, config) if tops.evidence is not None else np.ones(n)
    return np.asarray(tops.scores, np.float64) * _ramp(best, config.match_ramp) * shape


def size_evidence(tops: TopFaces, ncc: np.ndarray, config: RollDiceConfig) -> float:
    """How well the top faces found at one tried die size look like the owner's dice, a number >= 0 (no unit):
    the sum over the faces of (candidate score x best template NCC on the ramp ``strong_match_ramp`` x
    die-likeness x the ramp ``middle_ramp`` of the face's :func:`vision.roll_dice.shape.middle_spread`) to the
    power ``size_power``.

    Every factor is evidence the table's print cannot give at the wrong size: one of the owner's symbols matched
    plainly (a playmat's art or a tile's picture matches none that well, nor does a die's symbol seen at half or
    twice its size), the face one colour to its rim and standing out all round
    (:func:`vision.roll_dice.shape.die_likeness`: a piece of a die cut at half its size does not stand out from
    the rest of its face; a square of twice the size holds the table), its middle printed (a check of a cloth is
    flat), and the candidate scores already lowered where a face is a tile of the table's repeating pattern
    (:func:`vision.roll_dice.not_dice._not_pattern`), so the cloth's lattice squares do not vote. The power
    makes a few plain dice outweigh many half-like faces: a size that splits each die into pieces, or merges the
    cloth's checks into die-sized squares, finds more faces but fewer sure ones. ``tops``: N faces, ``ncc``:
    ``float[N, K]``. Raises nothing; no face gives 0.

    It never falls when a face's score or best NCC rises, nor when a face is added: the size search bounds it from
    above with every NCC 1 and the scores before the pattern test (:meth:`RollDiceReader._search`), and would choose
    wrongly with a factor that broke this."""
    n = len(tops.rects)
    if n == 0:
        return 0.0
    best = ncc.max(1) if ncc.size else np.zeros(n)
    shape = die_likeness(tops.evidence, config) if tops.evidence is not None else np.ones(n)
    printed = _ramp(middle_spread(tops.ink, config), config.middle_ramp) if tops.ink is not None else np.ones(n)
    sure = np.asarray(tops.scores, np.float64) * _ramp(best, config.strong_match_ramp) * shape * printed
    return float((sure ** config.size_power).sum())


def die_weights(tops: TopFaces, ncc: np.ndarray, config: RollDiceConfig) -> np.ndarray:
    """How surely each top face is a die, ``float[N]`` 0..1: its candidate score times the strongest of

    * the symbol evidence (best template NCC on ``match_ramp``) with the shape's support (die-likeness,
      :func:`vision.roll_dice.shape.die_likeness`, from ``1 - shape_support`` to 1),
    * a strong symbol match alone (best NCC on ``strong_match_ramp``: a glare spot or a neighbour may spoil
      the shape of a die whose symbol is plain),
    * the shape alone, capped at ``shape_only`` (a die-shaped thing whose symbol no template knows).

    Every face of a Roll die carries a symbol, so a face matching no template at least ``symbol_min`` is a
    die only when its shape is plainly a die's (die-likeness at least ``shape_alone``): a blank check of a
    cloth or a blot of a playmat's art of about a die's size is not. For the same reason the whole weight is
    scaled by the ramp ``middle_ramp`` of the face's :func:`vision.roll_dice.shape.middle_spread`: a face whose
    middle is one colour (no strokes there) is not a die, however well its surroundings match a template; and by
    the ramp ``stroke_ramp`` of its :func:`vision.roll_dice.shape.stroke_spread`: a face whose middle varies only
    smoothly (a playmat's painted blot, a shaded patch of table) carries no printed strokes either.
    """
    n = len(tops.rects)
    if n == 0:
        return np.zeros(0)
    best = ncc.max(1) if ncc.size else np.zeros(n)
    shape = die_likeness(tops.evidence, config) if tops.evidence is not None else np.ones(n)
    symbol = _ramp(best, config.match_ramp) * (1.0 - config.shape_support + config.shape_support * shape)
    strong = _ramp(best, config.strong_match_ramp)
    plain = (best >= config.symbol_min) | (shape >= config.shape_alone)
    printed = (_ramp(middle_spread(tops.ink, config), config.middle_ramp)
               * _ramp(stroke_spread(tops.ink, config), config.stroke_ramp)) if tops.ink is not None else np.ones(n)
    return (np.asarray(tops.scores, np.float64) * np.maximum(np.maximum(symbol, strong), config.shape_only * shape)
            * plain * printed)


def assemble(tops: TopFaces, colour_p: np.ndarray, ncc: np.ndarray, profile: DiceProfile,
             config: RollDiceConfig, template_pol: np.ndarray | None = None) -> tuple[RollDieObservation, ...]:
    """Joint colour x face decision per die, with honest confidences: the reads of :func:`assemble_indexed`
    without the index of each one's top face."""
    return tuple(obs for _, obs in assemble_indexed(tops, colour_p, ncc, profile, config, template_pol))


def assemble_indexed(tops: TopFaces, colour_p: np.ndarray, ncc: np.ndarray, profile: DiceProfile,
                     config: RollDiceConfig,
                     template_pol: np.ndarray | None = None) -> list[tuple[int, RollDieObservation]]:
    """Joint colour x face decision per die, with honest confidences: ``[(index of its top face in tops, read)]``,
    the surest first.

    A face is a die when :func:`die_weights` x the chance its colour is an enrolled one reaches
    ``min_confidence``. Its face is the likeliest face (summed over the colours) when that reaches
    ``face_threshold``, its colour the likeliest with that face, every template of that face printed as the colour
    prints counting alike (:func:`vision.roll_dice.colour_pick.colour_scores`: between colours printed alike the
    body decides); the confidence is that (colour, face)
    pair's joint probability x the die's weight x the
    symbol's own certainty (its best NCC on the ramp ``face_sure_ramp``: the softmax only compares the
    templates, so a patch that matches every template badly is never sure of one). Pairs not in
    ``profile.allowed`` never reach 0.9: the colour's die has no such face, so the face read is that colour's
    likeliest own face (:func:`_likeliest_allowed`; None when none stands out), its confidence capped at
    ``confident_cap``; neither does an unreadable face, nor a face without a die's shape (die-likeness, through
    ``shape_support``).
    One die per place: of two reads closer than ``overlap_dist`` x their side, or whose top faces overlap by more
    than ``overlap_share`` of the smaller (:func:`top_overlap`), the surer one (the higher rank of
    :func:`decide_each`: the more likely a die, a read face before an unreadable one, then the surer read).
    ``template_pol``: each template's print polarity ``float[K]``, to pool a face's templates over the colours
    printed alike (:func:`joint_scores`)."""
    out = decide_each(tops, colour_p, ncc, profile, config, template_pol)
    # one die per place: two dice cannot have centres closer than about a side, nor top faces that
    # overlap (a box half on a die and half on its side face or the table is that die): keep the surer one
    out.sort(key=lambda t: -t[0])
    return [(i, obs) for _, i, obs in _one_per_place(out, tops.rects, config)]


def decide_each(tops: TopFaces, colour_p: np.ndarray, ncc: np.ndarray, profile: DiceProfile,
                config: RollDiceConfig,
                template_pol: np.ndarray | None = None) -> list[tuple[float, int, RollDieObservation]]:
    """The decision of :func:`assemble_indexed` for each top face on its own, before one die per place:
    ``[(rank, index of the top face, read)]`` in the faces' order, for the faces that are a die
    (:func:`die_weights` x the chance of an enrolled colour at least ``min_confidence``); rank: that chance, doubled
    when the face is read, times 1 + the read's confidence (of two reads of one place that are each plainly a die, the
    one whose colour and face are surer: a box slid half off a die onto its side face reads as much a die as the box on
    its top, but its symbol matches worse). ``tops``: N faces; ``colour_p``: ``float[N, C]``; ``ncc``:
    ``float[N, K]``."""
    colours, faces = list(profile.colours), list(profile.faces)
    if len(tops.rects) == 0:
        return []
    s = joint_scores(colour_p, ncc, profile.template_pairs, colours, faces, config, template_pol)
    pick = colour_scores(colour_p, ncc, profile.template_pairs, colours, faces, config, template_pol)
    n = len(s)
    flat = s.reshape(n, -1)
    # an extra "face unreadable" entry: the best colour with a fixed NCC, so a face unlike every
    # template is reported unreadable rather than as its least bad match
    best_colour = colour_p.argmax(1)
    unreadable = (config.colour_weight * np.log(np.clip(colour_p.max(1), 1e-12, 1.0))
                  + config.face_none_ncc / config.face_temperature)
    flat = np.concatenate([flat, unreadable[:, None]], axis=1)
    flat = flat - flat.max(1, keepdims=True)
    p = np.exp(flat)
    p /= p.sum(1, keepdims=True)
    allowed = set(map(tuple, profile.allowed))
    colour_known = colour_p.sum(1)  # 1 - probability of "none of the enrolled colours"
    weight = die_weights(tops, ncc, config)
    shape = die_likeness(tops.evidence, config) if tops.evidence is not None else np.ones(n)
    # a read is sure only when the symbol is plain (its best match good in itself) and the face has a
    # die's shape: a check of a gingham round a white square can match a symbol, never a die's rim
    sure = _ramp(ncc.max(1), config.face_sure_ramp) * (1.0 - config.shape_support + config.shape_support * shape)
    out = []
    for i in range(n):
        die_p = float(weight[i]) * float(colour_known[i])  # a die, of an enrolled colour
        if die_p < config.min_confidence:
            continue
        joint = p[i, :-1].reshape(len(colours), len(faces))
        face_p = joint.sum(0)  # the face whatever the colour: a clear symbol is not split by a doubtful colour
        fb = int(face_p.argmax())
        c_best = colours[int(best_colour[i])]
        if face_p[fb] >= config.face_threshold:
            cb = int(joint[:, fb].argmax() if pick is None else pick[i, :, fb].argmax())
            c, f = colours[cb], faces[fb]
            conf = min(float(joint[cb, fb]), colour_sure(colour_p[i], cb)) * die_p * float(sure[i])
        else:
            c, f, conf = c_best, None, 0.0
        guessed = False
        if f is not None and (c, f) not in allowed:
            # game knowledge: this colour's die has no such face (a glare spot or a strip of a side face changed the
            # symbol), so the face read is the likeliest one this colour's die has, never trusted
            f = _likeliest_allowed(joint[colours.index(c)], c, faces, allowed, config)
            guessed = f is not None
        if f is None or guessed:
            conf = min(float(colour_p[i, colours.index(c)]) * float(weight[i]), config.confident_cap)
        obs = RollDieObservation(c, f, rect_box(tops.rects[i]), float(np.clip(conf, 0.0, 1.0)))
        out.append((die_p * (1.0 + float(f is not None)) * (1.0 + obs.confidence), i, obs))
    return out


def colour_sure(colour_p: np.ndarray, c: int) -> float:
    """The chance (0..1) that a die of an enrolled colour is of colour index ``c``, from its body alone: its colour
    posterior ``colour_p`` ``float[C]`` (:func:`vision.roll_dice.colours.colour_posteriors`, the "none of these"
    option left out) over the chance of any enrolled colour. A read's confidence never exceeds it: the joint
    colour x face decision weighs the body ``colour_weight`` times (its posterior raised to that power), which
    picks the colour well but makes a body between two colours look surer than it is (a washed-out red die at
    0.86 brown, 0.14 red read brown at 0.97)."""
    p = np.asarray(colour_p, np.float64)
    known = float(p.sum())
    return float(p[c]) / known if known > 0 else 0.0


def _likeliest_allowed(joint: np.ndarray, colour: str, faces: Sequence[str], allowed: set[tuple[str, str]],
                       config: RollDiceConfig) -> str | None:
    """The face of ``faces`` a die of ``colour`` has (its pair in ``allowed``) with the highest joint probability
    ``joint`` ``float[F]`` (that colour's row of the read's joint colour x face probabilities), when it holds at least
    ``allowed_face_share`` of what the faces that colour's die has hold together; None when no face of that colour is
    allowed or none stands out so (the face is then unreadable)."""
    own = np.array([(colour, f) in allowed for f in faces], bool)
    if not own.any():
        return None
    p = np.where(own, joint, -1.0)
    k = int(p.argmax())
    total = float(joint[own].sum())
    if total <= 0 or float(joint[k]) < config.allowed_face_share * total:
        return None
    return faces[k]


def _one_per_place(out: list[tuple[float, int, RollDieObservation]], rects: np.ndarray,
                   config: RollDiceConfig) -> list[tuple[float, int, RollDieObservation]]:
    """The reads ``out`` (surest first: (rank, top face index, read)) with each dropped whose centre lies within
    ``overlap_dist`` x the smaller side of a read kept before it, or whose top face overlaps one by more than
    ``overlap_share`` (:func:`top_overlap`). The centre distances of every pair come from one array operation and
    the overlap is measured only for the pairs close enough to meet (the same reads as a pair-by-pair loop)."""
    rects = np.asarray(rects, np.float64)
    side = np.sqrt(rects[:, 2] * rects[:, 3])
    dist = np.hypot(rects[:, None, 0] - rects[None, :, 0], rects[:, None, 1] - rects[None, :, 1])   # [N, N] px
    apart = dist > config.overlap_dist * np.minimum(side[:, None], side[None, :])
    reach = np.maximum(rects[:, 2], rects[:, 3])
    meet = dist < 0.7072 * (reach[:, None] + reach[None, :])           # farther: :func:`top_overlap` is 0
    kept: list[tuple[float, int, RollDieObservation]] = []
    idx: list[int] = []
    for entry in out:
        i = entry[1]
        if idx:
            k = np.asarray(idx, np.int64)
            if not apart[i, k].all() or any(top_overlap(rects[i], rects[j]) > config.overlap_share
                                             for j in k[meet[i, k]].tolist()):
                continue
        kept.append(entry)
        idx.append(i)
    return kept


def top_overlap(a: np.ndarray, b: np.ndarray) -> float:
    """Share of the smaller of two top faces that the other covers, 0..1: ``a``, ``b`` are rotated rects
    ``float[5]`` (cx, cy, w, h, angle deg; frame px). Two dice's top faces never overlap (they are solid
    cubes side by side), so a share above a sliver means one die seen twice."""
    if np.hypot(a[0] - b[0], a[1] - b[1]) >= 0.7072 * (max(a[2], a[3]) + max(b[2], b[3])):
        return 0.0  # farther apart than their half diagonals: they cannot meet
    ra = ((float(a[0]), float(a[1])), (float(a[2]), float(a[3])), float(a[4]))
    rb = ((float(b[0]), float(b[1])), (float(b[2]), float(b[3])), float(b[4]))
    kind, pts = cv2.rotatedRectangleIntersection(ra, rb)
    if kind == cv2.INTERSECT_NONE or pts is None or len(pts) < 3:
        return 0.0
    inter = float(cv2.contourArea(cv2.convexHull(pts.astype(np.float32))))
    smaller = min(float(a[2] * a[3]), float(b[2] * b[3]))
    return inter / smaller if smaller > 0 else 0.0
