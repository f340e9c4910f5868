"""The Roll for the Galaxy dice reader: :class:`RollDiceReader` runs the stages (see :mod:`vision.roll_dice`)
on one frame; :func:`detect_tops` is its die detector alone (stages 2-5, shared with enrollment)."""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path

import cv2
import numpy as np

from .. import d6 as _d6
from ..errors import BadFrame, VisionError
from ..frames import validate_frame
from ..incremental import clip_box
from ..inference import Model
from ..profiles import DiceProfile
from ..timing import timed_stage
from .assemble import _ramp, assemble_indexed, die_weights, size_evidence, symbol_weights
from .blank import not_blank
from .boxed import drop_boxed
from .candidates import add_cnn_candidates, edge_map, find_candidates, load_cnn, recut_candidates, tried_sides
from .colours import colour_posteriors, estimate_light, lit_distances
from .config import RollDiceConfig
from .doubt import capped_by_side_doubt
from .faces import distinctive_templates, match_faces_polarised, relocate_faces, rotated_templates, template_polarity
from .foreground import foreground
from .glare import face_glare
from .kept import Aside, Boxes, Kept
from .light_doubt import capped_by_light_doubt
from .not_dice import _not_flat_art, _not_hanging, _not_pattern, _not_printed, _not_side, _not_texture, _not_vouched
from .observations import MEASURED_SIZE, Candidates, RollDiceRead, TopFaces
from .on_other import drop_on_other_dice
from .own_side import drop_own_sides
from .recentre import recentre_reads
from .shape import SurroundingLogs, die_likeness
from .sheen import capped_by_sheen
from .side_print import not_side_print
from .size_bounds import _below, _Look, _match_quality, _parts, _size_evidence_bound, _size_evidence_reach
from .sizes import faces_apart, joined, other_size_could, other_size_faces_weighed
from .splits import overlap_split_could, overlapped, smaller_cuts, split_live, split_overlapped
from .squares import square_candidates
from .tops import drop_duplicates, extract_tops
from .window import aligned_window, window_config

__all__ = ["RollDiceReader", "detect_tops", "load_cnn", "read_image_file", "read_roll_dice", "white_log"]


def detect_tops(frame: np.ndarray, config: RollDiceConfig, timings: dict | None = None,
                net: Model | None = None, side: float | None = None) -> TopFaces:
    """Stages 2-5 on a validated ``uint8[H, W, 3]`` BGR frame (shared by reading and enrollment);
    ``net`` is the optional CNN candidate source (:func:`load_cnn`); ``side``: the die's side (work px,
    :func:`vision.roll_dice.candidates.find_candidates`) to look for, or None to measure it on the frame's
    square blobs."""
    timings = {} if timings is None else timings
    work, mask, scale = timed_stage(timings, "foreground", foreground, frame, config)
    found = timed_stage(timings, "cnn", _cnn_boxes, frame, net, config)
    edges = timed_stage(timings, "candidates", edge_map, work, config)
    return _tops_at(frame, (work, mask, scale), edges, found, config, timings, net, side)


def _cnn_boxes(frame: np.ndarray, net: Model | None, config: RollDiceConfig) -> _d6.Candidates | None:
    """The d6 CNN detector's boxes on ``frame`` (None without a net): run once per frame, whatever size is tried."""
    return None if net is None else _d6.detect_dice(net, frame, config.cnn_config())


def _tops_at(frame: np.ndarray, fg: tuple[np.ndarray, np.ndarray, float], edges: np.ndarray,
             found: _d6.Candidates | None, config: RollDiceConfig, timings: dict, net: Model | None,
             side: float | None, keep: Kept | None = None, cut: dict | None = None) -> TopFaces:
    """Stages 3-5 from the foreground ``fg`` (work image, mask, scale), its colour edges ``edges``
    (:func:`vision.roll_dice.candidates.edge_map`) and the CNN's boxes ``found``, looking for dice of ``side`` work
    px (None: measured on the mask). ``keep``: which piles are split (:meth:`Kept.piles`) and which candidates go on
    to the top-face stage (:meth:`Kept.candidates`; None: all); the others cost no k-means and no top face. ``cut``:
    a dict that keeps the face cores found (:func:`vision.roll_dice.candidates.find_candidates`), or None."""
    stage = functools.partial(timed_stage, timings)
    work, mask, scale = fg
    cands = stage("candidates", find_candidates, work, mask, scale, config, side, edges,
                  None if keep is None else keep.piles, cut)
    cands = stage("cnn", add_cnn_candidates, frame, cands, net, config, found)
    if keep is not None and len(cands.rects):
        cands = cands.take(np.flatnonzero(keep.candidates(cands.rects)))
    tops = stage("tops", extract_tops, frame, cands, config)
    return stage("dedupe", drop_duplicates, tops, config)


@dataclass(frozen=True)
class _SizeMemory:
    """The die size a full read chose (:attr:`RollDiceRead.die_size`), its evidence then (:func:`size_evidence`),
    the frame size it was chosen on (``(H, W)`` px), how many full reads have read at it since, and the sizes not
    chosen whose faces that read holds (:meth:`RollDiceReader._other_sizes`: where faces of other sizes were added or
    swapped in, as on a tilted table, whose near dice are larger and far dice smaller than at the size chosen)."""

    size: float
    evidence: float
    shape: tuple[int, int]
    reads: int = 0
    also: tuple[float, ...] = ()


class RollDiceReader:
    """Finds Roll for the Galaxy dice in BGR frames and reads colour and face.

    Args:
        profile: an enrollment profile (:func:`vision.profiles.build_profile` / ``DiceProfile.load``).
        config: thresholds; ``RollDiceConfig()`` when None.
        allowed: optional (colour, face) pairs the dice can show (built by the caller from
            ``dice.json``); default: the profile's own ``allowed`` pairs.
        remember_size: the frames read come from one fixed camera (the box's): a full read tries first the die
            size the last search chose and keeps it while its evidence holds (``size_keep_frac``,
            ``size_recheck_every``), so a table is searched for its dice' size once, not every frame; it looks too
            at the sizes not chosen whose faces that search's read holds (a tilted table's near or far dice), so
            it reads the searched frame as the search read it. Off (each frame searched: photos from anywhere, the
            benches' scenes) by default.
    """

    def __init__(self, profile: DiceProfile, config: RollDiceConfig | None = None,
                 allowed: Iterable[tuple[str, str]] | None = None, remember_size: bool = False):
        self.config = config if config is not None else RollDiceConfig()
        self.remember_size = bool(remember_size)
        self._memory: _SizeMemory | None = None
        if allowed is not None:
            profile = profile.with_allowed(allowed)
        self.profile = profile
        if int(profile.template_side) != int(self.config.template):
            raise VisionError(f"dice profile templates are {profile.template_side} px but the reader uses "
                              f"{self.config.template} px: enroll again with this reader's settings")
        self._protos = np.asarray(profile.colour_means, np.float64)
        tpl = np.asarray(profile.templates, np.float32).reshape(len(profile.template_pairs), -1)
        self._templates = rotated_templates(distinctive_templates(tpl, self.config), self.config)
        self._cnn = load_cnn(self.config)
        # ink polarity of each colour (majority of its templates): dark or light symbols
        pol = template_polarity(tpl, self.config)
        colours = list(profile.colours)
        self._colour_polarity = np.array([
            1.0 if sum(p for (c, _), p in zip(profile.template_pairs, pol, strict=True) if c == name) >= 0 else -1.0
            for name in colours])
        # each template is read in its colour's print polarity, whatever colour the die turns out to be
        self._template_pol = np.array([self._colour_polarity[colours.index(c)] for c, _ in profile.template_pairs])

    @property
    def prototypes(self) -> np.ndarray:
        """Enrolled body colours ``float[C, 3]`` (log-RGB), in ``profile.colours`` order."""
        return self._protos

    @property
    def turned_templates(self) -> np.ndarray:
        """The templates at their four quarter turns, ``float32[4K, C*T*T]`` (:func:`rotated_templates`)."""
        return self._templates

    @property
    def colour_polarity(self) -> np.ndarray:
        """Ink polarity per colour ``float[C]``: -1 dark symbols, +1 light (from the templates)."""
        return self._colour_polarity

    def detect(self, frame: np.ndarray, timings: dict | None = None) -> TopFaces:
        """Stages 2-5 only (the die detector): top faces of every die candidate in ``frame``
        (``uint8[H, W, 3]`` BGR). Raises :class:`BadFrame` for a bad frame."""
        return detect_tops(validate_frame(frame), self.config, timings, self._cnn)

    def _match(self, frame: np.ndarray, tops: TopFaces, cfg: RollDiceConfig,
               bar: float = -np.inf, aside: Aside | None = None) -> tuple[np.ndarray, TopFaces] | None:
        """(NCC ``[N, K]``, top faces): each die's ink against every template, each template seeing the
        ink as its own colour prints it (:func:`match_faces_polarised`: light symbols on a coloured die,
        dark ones on a white die); the poorly matching dice that a perfect symbol match would make dice looked at
        again a little around (:func:`second_look_faces`, :func:`relocate_faces`). None as soon as an upper bound of
        these faces' :func:`size_evidence` falls below ``bar`` (a die size the search will not choose:
        :meth:`_search`): the bound takes NCC 1 for every face not matched yet and for every face the second look
        may raise.

        Under a bar, the faces are matched, then looked at again, a few at a time, those that could add most
        to the evidence first (:func:`_parts`), so a size that cannot be chosen is left as soon as the faces that
        decide it are read; every face's NCC and rect are those of matching them all at once.

        ``aside``: the faces it sets aside (on a calibration marker's sheet, :class:`Aside`) are matched once and not
        looked at again: no die is reported there (a marker's black squares, 7 of the 9 faces the second look took
        on the bench's full Roll table). Given only where the die size is not searched (:meth:`_read`): a marker's
        faces vote in the size search, and a second look can move that vote."""
        n = len(tops.rects)
        todo = second_look_faces(tops, cfg)
        if aside is not None and todo.any():
            todo[todo] = aside.kept(tops.rects[todo])
        k = len(self._templates) // 4
        if bar > -np.inf and k and n:
            reach = _size_evidence_reach(tops, cfg)                # each face's share of the evidence at NCC 1
            bound = np.ones(n)                                     # each face's best NCC, bounded from above
            ncc = np.zeros((n, k), np.float32)
            for part in _parts(reach, bound, bar, cfg, np.ones(n, bool)):
                ncc[part] = match_faces_polarised(tops.ink[part], self._templates, self._template_pol, cfg,
                                                  face_glare(frame, tops.rects[part], tops.ink[part], cfg))
                best = ncc[part].max(1)
                bound[part] = np.where(todo[part] & (best < cfg.relocate_below), 1.0, best)  # raised by a second look
                if _below(_size_evidence_bound(reach, bound, cfg), bar):
                    return None
            rects = tops.rects.copy()
            again = todo & (ncc.max(1) < cfg.relocate_below)         # relocate_faces looks again at these only
            for part in _parts(reach, bound, bar, cfg, again):
                one = np.zeros(n, bool)
                one[part] = True
                got, moved = relocate_faces(frame, tops, ncc, None, self._templates, cfg, one, self._template_pol)
                ncc[part], rects[part] = got[part], moved[part]
                bound[part] = ncc[part].max(1)
                if _below(_size_evidence_bound(reach, bound, cfg), bar):
                    return None
            return ncc, TopFaces(rects, tops.scores, tops.ink, tops.body, tops.evidence)
        ncc = match_faces_polarised(tops.ink, self._templates, self._template_pol, cfg,
                                    face_glare(frame, tops.rects, tops.ink, cfg))
        if bar > -np.inf:                                          # no template or no face: NCC 1 bounds them all
            if _below(size_evidence(tops, np.ones((n, 1)), cfg), bar):
                return None
        ncc, rects = relocate_faces(frame, tops, ncc, None, self._templates, cfg, todo, self._template_pol)
        return ncc, TopFaces(rects, tops.scores, tops.ink, tops.body, tops.evidence)

    def read(self, frame: np.ndarray, white: Sequence[float] | None = None,
             explained: Callable[[list[tuple[int, int, int, int]]], Sequence[bool]] | None = None,
             window: tuple[int, int, int, int] | None = None, aside: Boxes | None = None) -> RollDiceRead:
        """Read every die in ``frame`` (``uint8[H, W, 3]`` BGR).

        ``white``: optional BGR colour (0..255 per channel, e.g. the mean of the calibration sheet's paper, a
        card's white border or a die known to be white, in this frame) of a white reference the table gives:
        the light's colour is then taken from it (:func:`vision.roll_dice.colours.estimate_light`) rather than from
        the dice alone. Returns a :class:`RollDiceRead` with per-stage timings (validate, foreground, candidates,
        cnn, tops, dedupe, faces, pattern, recut, other_sizes, unsized, surface, outline, sides, hanging, texture,
        colours, assemble, recentre) in ms. Raises :class:`BadFrame` for a bad frame, ``ValueError`` for a
        ``white`` that is not 3 finite numbers in 0..255.

        The die size is searched (:func:`tried_sides`, :func:`size_evidence`) on every frame; a reader built with
        ``remember_size`` reads first at the size its last search chose, and searches only where the evidence there
        falls below ``size_keep_frac`` x its evidence then (or ``size_min_evidence``), after ``size_recheck_every``
        reads, or on a frame of another size.

        ``explained(boxes)``: as :meth:`read_window`'s, per ``(x, y, w, h)`` frame-px box of a top face (its rotated
        rect's bounding box), whether something the caller knows explains it (the printed art of an identified tile
        under it, :func:`vision.card_art.boxes_explained_by_art`): at every die size tried, the candidates it explains
        are dropped before their top faces are cut and the piles of cores before their k-means (timed as the stage
        ``art_candidates``, the piles within ``candidates``), the top faces cut from the others it explains before the
        face match (``art_tops``); so the size model of the top faces is fitted without the art's (a die's box may move
        by a pixel from a read untold); None: none is.

        ``aside(boxes)``: per ``(x, y, w, h)`` frame-px box, whether it lies on print where the caller reports no die (a
        calibration marker with its paper, :class:`vision.roll_dice.kept.Aside`): the faces found there still vote in
        the die-size search and stay in the read (the light, their neighbours' tests; at a size remembered, not
        searched, with no second look), but once the size is chosen the recut adds no face there (:meth:`_recut`:
        its candidates and faces there are neither cut nor matched, timed as ``aside``). None: none is.

        ``window``: ``(x, y, w, h)`` frame px (clipped to the frame) where the caller knows every die lies (the table
        beside a map, :class:`vision.hexes.OffMapDice`): only that part of the frame is read, grown to the whole frame's
        resampling grid (:func:`aligned_window`) and at the scale of the whole frame (:func:`window_config`: work image,
        table model, CNN input and default die side sized as a whole read sizes them), and the die size is searched,
        remembered and kept as for the whole frame; the dice' boxes are in frame px. None: the whole frame. A window
        with nothing of the frame in it reads no die.
        """
        timings: dict[str, float] = {}
        frame = timed_stage(timings, "validate", validate_frame, frame)
        cfg = self.config
        shape = (int(frame.shape[0]), int(frame.shape[1]))
        x0, y0 = 0, 0
        if window is not None:
            clipped = clip_box(window, frame.shape)
            if clipped is None:
                return RollDiceRead(shape[1], shape[0], (), timings, None, None)
            x0, y0, x1, y1 = aligned_window(clipped, shape, self.config)
            if (x1 - x0, y1 - y0) != (shape[1], shape[0]):
                cfg = window_config(self.config, max(x1 - x0, y1 - y0) / float(max(shape)))
                frame = frame[y0:y1, x0:x1]
        mem = self._memory if self.remember_size else None
        if mem is not None and (mem.shape != shape or mem.reads >= cfg.size_recheck_every):
            mem = None

        def holds(look: _Look) -> bool:
            return look[0] >= max(cfg.size_min_evidence, cfg.size_keep_frac * mem.evidence)

        first = None if mem is None else (mem.size, holds, mem.also)
        keep = None if explained is None else Kept(None, explained, (x0, y0), timings)
        read, evidence, searched, also = self._read(frame, cfg, timings, keep=keep, white=white_log(white, cfg),
                                                    first=first,
                                                    aside=None if aside is None else Aside(aside, (x0, y0), timings))
        if self.remember_size:
            self._memory = (_SizeMemory(float(read.die_size), evidence, shape, also=also) if searched
                            else replace(mem, reads=mem.reads + 1))
        if (x0, y0) != (0, 0) or (read.width, read.height) != (shape[1], shape[0]):
            dice = tuple(replace(d, box=(d.box[0] + x0, d.box[1] + y0, d.box[2], d.box[3])) for d in read.dice)
            read = RollDiceRead(shape[1], shape[0], dice, timings, read.light, read.die_size)
        return read

    def read_window(self, frame: np.ndarray, box: tuple[int, int, int, int],
                    light: Sequence[float] | None = None,
                    wanted: Callable[[float, float], bool] | None = None,
                    size: float | None = None,
                    explained: Callable[[list[tuple[int, int, int, int]]], Sequence[bool]] | None = None,
                    ) -> RollDiceRead:
        """Read the dice of one window of ``frame`` (``(x, y, w, h)`` frame px, clipped) as a read of the whole
        frame would: the sizes that depend on the frame's size (work image, table model, CNN input, the
        default die side) are those of the whole frame, and with ``light`` (``float[4]``, the
        :attr:`RollDiceRead.light` of the last full read of the table) the colours are read under that light
        instead of one measured on the window's few dice. Boxes in frame pixels; for re-reading the part
        of a table that changed. ``wanted(x, y)`` (frame px): the places whose dice the caller will use; a
        candidate plainly elsewhere (a die next to the change that did not move: :meth:`Kept.candidates`) is
        dropped before its top face is cut, so the window's size model is fitted to the faces that could be wanted,
        and a top face centred elsewhere is dropped before the face match. ``size``: the die size the last full
        read chose (its :attr:`RollDiceRead.die_size`): the window is read at that size only, no other tried (a
        window holds too few dice to choose one); None: searched as a full read searches. ``explained(boxes)``: per
        ``(x, y, w, h)`` frame-px box of a wanted top face (its rotated rect's bounding box), whether something the
        caller knows explains it (the printed art of an identified card under it,
        :func:`vision.card_art.boxes_explained_by_art`): those are dropped before the face match too, the candidates
        it explains before their top faces are cut (timed as the stages ``art_tops`` and ``art_candidates``). Raises
        :class:`BadFrame` for a bad frame, ``ValueError`` for a ``size`` that is not a finite number >= 0."""
        if size is not None and not (np.isfinite(size) and size >= 0):
            raise ValueError(f"a die size is a finite factor >= 0 of the default side, got {size!r}")
        timings: dict[str, float] = {}
        frame = timed_stage(timings, "validate", validate_frame, frame)
        h, w = frame.shape[:2]
        clipped = clip_box(box, frame.shape)
        if clipped is None:
            return RollDiceRead(w, h, (), timings, None if light is None else tuple(map(float, light)), size)
        x0, y0, x1, y1 = clipped
        cfg = window_config(self.config, max(x1 - x0, y1 - y0) / float(max(h, w)))
        keep = None if wanted is None and explained is None else Kept(wanted, explained, (x0, y0), timings)
        r = self._read(frame[y0:y1, x0:x1], cfg, timings, light, keep, size=size, squares=False)[0]
        dice = tuple(replace(d, box=(d.box[0] + x0, d.box[1] + y0, d.box[2], d.box[3])) for d in r.dice)
        return RollDiceRead(w, h, dice, timings, r.light, r.die_size)

    def _colours(self, body: np.ndarray, weights: np.ndarray, cfg: RollDiceConfig,
                 light: Sequence[float] | None, white: np.ndarray | None = None,
                 rim: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
        """(light ``float[4]``, colour posteriors ``[N, C]``): the light measured on these dice (about the
        ``white`` reference, log-RGB, when given) unless given; ``rim``: each face's rim share, how far its body
        may be washed out (:func:`vision.roll_dice.colours.colour_posteriors`)."""
        lit = (estimate_light(body, self._protos, cfg, weights, white) if light is None
               else np.asarray(light, np.float64))
        return lit, colour_posteriors(body, self._protos, lit, cfg, rim)

    def _tops_for(self, frame: np.ndarray, fg: tuple[np.ndarray, np.ndarray, float], edges: np.ndarray,
                  found: _d6.Candidates | None, cfg: RollDiceConfig, timings: dict[str, float],
                  keep: Kept | None, size: float, cut_at: dict | None = None) -> TopFaces:
        """Stages 3-5 at ``size`` x the default side (:data:`MEASURED_SIZE`: the side measured on the frame): the
        top faces found, those ``keep`` drops dropped (the candidates it drops before their top faces are cut).
        ``cut_at``: a dict where the face cores found at ``size`` are kept (key ``size``, for :meth:`_recut`), or
        None."""
        side = None if size == MEASURED_SIZE else cfg.default_side_frac * max(fg[1].shape[:2]) * float(size)
        cut = None if cut_at is None else cut_at.setdefault(float(size), {})
        tops = _tops_at(frame, fg, edges, found, cfg, timings, self._cnn, side, keep, cut)
        if keep is not None and len(tops.rects):
            tops = tops.take(np.flatnonzero(keep.tops(tops.rects)))
        return tops

    def _look(self, frame: np.ndarray, tops: TopFaces, cfg: RollDiceConfig, timings: dict[str, float],
              size: float, bar: float = -np.inf, aside: Aside | None = None) -> _Look | None:
        """(:func:`size_evidence`, ``size``, top faces, NCC ``[N, K]``) of the top faces found at ``size``
        (:meth:`_tops_for`), read as far as the pattern test; None as soon as an upper bound of their evidence
        falls below ``bar`` (the faces before the second look, :meth:`_match`, or before the pattern test, which
        only lowers scores: a size the search will not choose is not read further). ``aside``: as :meth:`_match`'s."""
        stage = functools.partial(timed_stage, timings)
        matched = stage("faces", self._match, frame, tops, cfg, bar, aside)
        if matched is None:
            return None
        ncc, tops = matched
        if _below(size_evidence(tops, ncc, cfg), bar):
            return None
        tops = stage("pattern", _not_pattern, frame, tops, ncc, cfg)
        return size_evidence(tops, ncc, cfg), size, tops, ncc

    def _search(self, at: Callable[[float], TopFaces], fg: tuple[np.ndarray, np.ndarray, float], edges: np.ndarray,
                cfg: RollDiceConfig, timings: dict[str, float], looked: dict[float, _Look],
                frame: np.ndarray) -> _Look:
        """The look (:meth:`_look` of the top faces ``at`` finds, :meth:`_tops_for`) at the die size whose faces look
        most like the owner's dice, of those :func:`tried_sides` gives (of equals, the one whose faces match their
        symbols best, :func:`_match_quality`; then the first in ``size_hypotheses`` order); where none shows as much
        as ``size_min_evidence`` (no die, or none plain: an empty patterned table), at the side the frame's blobs give,
        as with one size only. ``edges``: the work image's colour edges
        (:func:`edge_map`); ``looked``: the sizes already looked at, not looked at again.

        The choice is that of reading every size to the end, more cheaply: the top faces of every size are found
        first, and the sizes are read on in the order of an upper bound of their evidence (:func:`size_evidence`
        with every face's NCC 1 and the scores before the pattern test: both only lower it); a size whose bound
        falls below the best evidence read so far (or below ``size_min_evidence``) cannot be chosen, and is read no
        further (:meth:`_look`)."""
        sides = timed_stage(timings, "candidates", tried_sides, fg[0], fg[1], cfg, edges)
        sizes = [MEASURED_SIZE] if sides == [None] else [float(f) for f in cfg.size_hypotheses]

        def look(size: float) -> _Look:
            if size not in looked:
                looked[size] = self._look(frame, at(size), cfg, timings, size)
            return looked[size]

        if len(sizes) == 1:
            look(sizes[0])
        else:
            found = {size: at(size) for size in dict.fromkeys(sizes) if size not in looked}
            upper = {size: size_evidence(tops, np.ones((len(tops.rects), 1)), cfg) for size, tops in found.items()}
            top = max((looked[size][0] for size in sizes if size in looked), default=-np.inf)
            for size in sorted(found, key=lambda s: -upper[s]):           # stable: equal bounds in size order
                bar = max(top, cfg.size_min_evidence)
                if _below(upper[size], bar):
                    continue
                seen = self._look(frame, found[size], cfg, timings, size, bar)
                if seen is not None:
                    looked[size] = seen
                    top = max(top, seen[0])
        read = [looked[size] for size in sizes if size in looked]
        best = max(read, key=lambda r: (r[0], _match_quality(r, cfg))) if read else None
        if (best is None or best[0] < cfg.size_min_evidence) and MEASURED_SIZE not in sizes:
            best = look(MEASURED_SIZE)
        return best

    def _recut(self, frame: np.ndarray, fg: tuple[np.ndarray, np.ndarray, float], edges: np.ndarray,
               cfg: RollDiceConfig, keep: Kept | None, best: _Look,
               cut_at: dict | None = None, aside: Aside | None = None,
               squares: bool = True) -> tuple[TopFaces, np.ndarray]:
        """(top faces, NCC ``[N, K]``) of the look ``best`` at the die size chosen, with the top faces of the dice
        whose face cores ran into the table's (:func:`vision.roll_dice.candidates.recut_candidates`, cut at that size)
        and, with ``squares``, the places where a square of a die's top side lies on the colour edges
        (:func:`vision.roll_dice.squares.square_candidates`: a die the foreground took for table, its outline open
        into it; the side the median of the look's faces a read would report, :func:`_top_side`),
        added where none of its top faces lies (farther than ``duplicate_dist`` x the smaller side), matched and
        tested for the table's pattern as the look's own faces were (:meth:`_match`, :func:`_not_pattern`), ``keep``'s
        art asked of them as of the others, and each one's die score scaled by its best template NCC on
        ``recut_match_ramp``: its outline had a gap, so only a plain symbol makes it a die (a cloth's check cut out of
        the table's core matches a symbol at NCC 0.4-0.5). Added after the size search, they never move the size
        chosen. ``cut_at``: the face cores each size's look found (:meth:`_tops_for`), cut again rather than found
        again. ``aside``: the candidates and top faces it sets aside are neither cut nor matched."""
        _, chosen, tops, ncc = best
        squares = squares and cfg.square_max > 0
        if cfg.recut_gap < 2 and not squares:
            return tops, ncc
        side = None if chosen == MEASURED_SIZE else cfg.default_side_frac * max(fg[1].shape[:2]) * float(chosen)
        cands = recut_candidates(fg[1], fg[2], cfg, side, edges, None if cut_at is None else cut_at.get(float(chosen)))
        if squares:
            square = square_candidates(edges, fg[2], _top_side(tops, ncc, fg[2], side, fg[1].shape, cfg), cfg,
                                       tops.rects, frame)
            cands = Candidates(np.concatenate([cands.rects.reshape(-1, 5), square.rects]),
                               np.concatenate([cands.scores, square.scores]), cands.work_scale)
        cands = cands.take(np.flatnonzero(faces_apart(cands.rects, tops.rects, cfg)))
        if keep is not None and len(cands.rects):
            cands = cands.take(np.flatnonzero(keep.candidates(cands.rects)))
        if aside is not None and len(cands.rects):
            cands = cands.take(np.flatnonzero(aside.kept(cands.rects)))
        if len(cands.rects) == 0:
            return tops, ncc
        more = drop_duplicates(extract_tops(frame, cands, cfg), cfg)
        more = more.take(np.flatnonzero(faces_apart(more.rects, tops.rects, cfg)))
        if keep is not None and len(more.rects):
            more = more.take(np.flatnonzero(keep.tops(more.rects)))
        if aside is not None and len(more.rects):
            more = more.take(np.flatnonzero(aside.kept(more.rects)))
        if len(more.rects):   # only those that a perfect symbol match would make a die are matched
            could = die_weights(more, np.ones((len(more.rects), 1)), cfg) >= cfg.min_confidence
            more = more.take(np.flatnonzero(could))
        if len(more.rects) == 0:
            return tops, ncc
        ncc_more, more = self._match(frame, more, cfg)
        more = _not_pattern(frame, more, ncc_more, cfg)
        if cfg.recut_match_ramp is not None:   # no outline of its own: only a plain symbol makes it a die
            best_ncc = ncc_more.max(1) if ncc_more.size else np.zeros(len(more.rects))
            more = more.lowered(_ramp(best_ncc, cfg.recut_match_ramp))
        return joined([tops, more]), np.concatenate([ncc.reshape(len(tops.rects), ncc_more.shape[1]),
                                                     ncc_more])

    def _other_sizes(self, frame: np.ndarray, cfg: RollDiceConfig, chosen: float, evidence: float, tops: TopFaces,
                     ncc: np.ndarray, seen: dict[float, TopFaces],
                     looked: dict[float, _Look], aside: Aside | None = None, sheet: Aside | None = None
                     ) -> tuple[TopFaces, np.ndarray, tuple[float, ...]]:
        """(top faces, NCC ``[N, K]``, sizes needed): ``tops`` (at the die size ``chosen``, their NCC ``ncc``) and the
        faces the other sizes tried found where the size chosen has none or only a plainly weaker face
        (:func:`vision.roll_dice.sizes.other_size_faces_weighed`), and the sizes (in ``seen``'s order) those faces need:
        none where no face of another size is added or swapped in, else those whose faces are among those added or
        swapped in (a size whose faces were weighed and each lost to another's is not named: it reads nothing the
        outcome holds, and a memory that kept it would cut it on every read, :class:`_SizeMemory`).
        ``seen``: each size's top faces (:meth:`_tops_for`). Only the faces a perfect symbol match could add or make
        replace one (:func:`vision.roll_dice.sizes.other_size_could`) are matched (:meth:`_match`; a size read to
        the end, in ``looked`` (:meth:`_look`), keeps the NCC and rects of that read, the same) and tested for the
        table's pattern (:func:`_not_pattern`) among themselves, so the faces added are the same whichever sizes the
        search read to the end. Added after the size search, they never move the size chosen. Where the size search's
        ``evidence`` is below ``size_min_evidence`` no face replaces one: no face of the frame plainly shows a die, so
        nothing says how large a die is where (an empty playmat's print matches a symbol better at one size than
        another). ``aside``: as :meth:`_match`'s (as the looks matched them).

        Before them, two faces of ``tops`` that overlap each other (two touching dice cut too large, Roll for the
        Galaxy "Roll" p.4: two dice's tops never overlap) are split into two dice where the other sizes' faces or the
        pair's faces cut again smaller (:func:`vision.roll_dice.splits.smaller_cuts`) say so
        (:func:`vision.roll_dice.splits.split_overlapped`). The faces matched for that alone
        (:func:`vision.roll_dice.splits.overlap_split_could`, the cuts too: a cut no symbol match could make take a
        place is not matched) and the cuts serve no other step, so a frame where no
        pair is split reads as without the split; a size whose face takes a pair's place is named among those needed.
        ``sheet``: the faces a read sets aside (:class:`vision.roll_dice.kept.Aside`, given whether or not the size was
        searched): a pair with a face there (a calibration marker's sheet, where no die is reported) is neither cut
        again nor matched for a split; and of the faces and cuts that could split a pair, only those under a pair
        whose two faces each have one under them are matched (:func:`vision.roll_dice.splits.split_live`)."""
        if cfg.other_size_match_ramp is None:
            return tops, ncc, ()
        if evidence < cfg.size_min_evidence:
            cfg = replace(cfg, other_size_swap_margin=None)
        others, sizes = [], []
        sure = die_weights(tops, ncc.reshape(len(tops.rects), -1), cfg) if len(tops.rects) else np.zeros(0)
        away = ~sheet.kept(tops.rects) if sheet is not None and len(tops.rects) else None
        paired = cfg.other_size_swap_margin is not None and overlapped(tops, sure, cfg, away).any()
        pool, pool_sizes = [], []   # faces for an overlapped pair's split alone
        split_of: dict[float, np.ndarray] = {}
        cuts: list[TopFaces] = []
        if paired:   # which faces could take a pair's place, and the pairs' faces cut again smaller, before any match
            for size, faces in seen.items():
                if size != chosen and len(faces.rects):
                    split_of[size] = overlap_split_could(faces, tops, sure, cfg, away)
            for ratio in cfg.other_size_split_cuts:
                rects, of = smaller_cuts(tops, sure, float(ratio), cfg, away)
                cut = extract_tops(frame, Candidates(rects, np.asarray(tops.scores, np.float64)[of], 1.0), cfg)
                cuts.append(cut.take(np.flatnonzero(overlap_split_could(cut, tops, sure, cfg, away))))
            live = split_live([f.rects[split_of[s]] for s, f in seen.items() if s in split_of]
                              + [c.rects for c in cuts], tops, sure, cfg, away)
            for s, got in zip(split_of, live, strict=False):   # only those under a pair whose two faces could be
                split_of[s][np.flatnonzero(split_of[s])[~got]] = False
            cuts = [c.take(np.flatnonzero(got)) for c, got in zip(cuts, live[len(split_of):], strict=True)]
        for size, faces in seen.items():
            if size == chosen or len(faces.rects) == 0:
                continue
            could = other_size_could(faces, tops, sure, cfg)
            split = split_of[size] & ~could if size in split_of else np.zeros(len(could), bool)
            look = looked.get(size)
            for which, into, named in ((could, others, sizes), (split, pool, pool_sizes)):
                if not which.any():
                    continue
                which = np.flatnonzero(which)
                if look is None:
                    got, some = self._match(frame, faces.take(which), cfg, aside=aside)
                else:   # the look's NCC and rects, the scores before its pattern test
                    got, some = look[3][which], replace(look[2], scores=faces.scores).take(which)
                into.append((_not_pattern(frame, some, got, cfg), got))
                named.append(size)
        for cut in cuts:   # the overlapped pairs' faces cut again smaller
            if len(cut.rects) == 0:
                continue
            got, cut = self._match(frame, cut, cfg, aside=aside)
            pool.append((_not_pattern(frame, cut, got, cfg), got))
            pool_sizes.append(None)
        tops, ncc, gave = split_overlapped(tops, ncc, others + pool, cfg, away) if paired else (
            tops, ncc, np.zeros(len(others), bool))
        tops, ncc, weighed = other_size_faces_weighed(tops, ncc, others, cfg)
        held = {r.tobytes() for r in tops.rects} if weighed.any() or gave.any() else set()
        needed = {s for s, w, (faces, _) in zip(sizes + pool_sizes, np.r_[weighed, np.zeros(len(pool), bool)] | gave,
                                                others + pool, strict=True)
                  if s is not None and w and any(r.tobytes() in held for r in faces.rects)}
        return tops, ncc, tuple(s for s in seen if s in needed)

    def _read(self, frame: np.ndarray, cfg: RollDiceConfig, timings: dict[str, float],
              light: Sequence[float] | None = None,
              keep: Kept | None = None, white: np.ndarray | None = None,
              size: float | None = None,
              first: tuple[float, Callable[[_Look], bool], tuple[float, ...]] | None = None,
              aside: Aside | None = None, squares: bool = True) -> tuple[RollDiceRead, float, bool, tuple[float, ...]]:
        """(the read, its :func:`size_evidence`, whether the die size was searched, the sizes not chosen whose faces
        it needs, :meth:`_other_sizes`) of ``frame``: at ``size`` alone when given (:attr:`RollDiceRead.die_size`),
        else at ``first``'s size (and, for the faces of other sizes, at the sizes ``first`` names last) when its look
        passes ``first``'s test, else at the size searched (:meth:`_search`, reusing that look where nothing is set
        aside); ``aside`` as :meth:`read`'s, and where the size is not searched the faces it sets aside get no second
        look (:meth:`_match`); ``squares``: whether the recut looks for dice by their square outlines (:meth:`_recut`; a
        read of a whole table does, a window's read of a change does not: its few candidates there cost more than
        the rest of the window's read)."""
        stage = functools.partial(timed_stage, timings)
        fg = stage("foreground", foreground, frame, cfg)
        found = stage("cnn", _cnn_boxes, frame, self._cnn, cfg)
        edges = stage("candidates", edge_map, fg[0], cfg)       # once per frame, whatever sizes are tried
        cut_at: dict[float, dict] = {}                          # the face cores found at each size, for the recut
        find = functools.partial(self._tops_for, frame, fg, edges, found, cfg, timings, keep, cut_at=cut_at)
        seen: dict[float, TopFaces] = {}                        # the top faces found at each size tried

        def tops_at(size: float) -> TopFaces:
            if size not in seen:
                seen[size] = find(size)
            return seen[size]

        def at(size: float) -> _Look:   # a size known, not searched: the faces set aside get no second look
            return self._look(frame, tops_at(size), cfg, timings, size, aside=aside)

        looked: dict[float, _Look] = {}
        best = None
        if size is not None:
            best = at(size)
        elif first is not None:
            look = at(first[0])
            if first[1](look):
                best = looked[first[0]] = look
                for also in first[2]:
                    tops_at(also)
            elif aside is None:   # else the search looks at it again as a search looks (the set-aside faces too)
                looked[first[0]] = look
        searched = best is None
        if searched:
            best = self._search(tops_at, fg, edges, cfg, timings, looked, frame)
        tops, ncc = stage("recut", self._recut, frame, fg, edges, cfg, keep, best, cut_at, aside, squares)
        tops, ncc, needed = stage("other_sizes", self._other_sizes, frame, cfg, best[1], best[0], tops, ncc, seen,
                                  looked, None if searched else aside, aside)
        evidence, chosen = best[0], best[1]
        if size is None:
            tops = stage("unsized", _not_vouched, tops, ncc, evidence, cfg)
        logs = SurroundingLogs(frame, cfg)                      # the faces' surroundings, cut once for both stages
        tops, returns = stage("surface", _not_printed, frame, tops, ncc, cfg, logs)
        tops = stage("outline", _not_flat_art, frame, tops, ncc, cfg, logs)
        tops = stage("sides", _not_side, frame, tops, ncc, cfg)
        tops = stage("hanging", _not_hanging, frame, tops, ncc, cfg)
        tops = stage("side_print", not_side_print, frame, tops, ncc, self._templates, self._template_pol, cfg)
        tops = stage("texture", _not_texture, frame, tops, ncc, cfg)
        weights = symbol_weights(tops, ncc, cfg)
        lit, colour_p = stage("colours", self._colours, tops.body, weights, cfg, light, white,
                              None if tops.evidence is None else tops.evidence[:, 0])
        kept = stage("assemble", assemble_indexed, tops, colour_p, ncc, self.profile, cfg, self._template_pol)
        dice = stage("recentre", recentre_reads, frame, tops, colour_p, ncc, kept, self.profile, self._templates,
                     self._template_pol, cfg)
        dice = stage("doubt", capped_by_side_doubt, frame, tops, ncc, kept, dice, cfg)
        dice = stage("sheen", capped_by_sheen, tops.body, kept, dice, self._protos, self.profile.colours, lit, cfg)
        kept, dice = stage("boxed", drop_boxed, frame, tops, ncc, kept, dice, cfg,
                           lit_distances(tops.body, self._protos, lit, cfg), self.profile.colours, returns)
        kept, dice = stage("own_side", drop_own_sides, frame, tops, kept, dice, cfg)
        kept, dice = stage("on_other", drop_on_other_dice, frame, tops, kept, dice, cfg)
        dice = stage("light_doubt", capped_by_light_doubt, tops.body, kept, dice, self._protos, self.profile.colours,
                     lit, cfg)
        dice = stage("blank", not_blank, frame.shape[:2], tops, ncc, kept, dice, cfg,
                     dict(zip(self.profile.colours, self._colour_polarity.tolist(), strict=True)))
        read = RollDiceRead(int(frame.shape[1]), int(frame.shape[0]), dice, timings, tuple(map(float, lit)),
                            float(chosen))
        return read, float(evidence), searched, needed


def _top_side(tops: TopFaces, ncc: np.ndarray, scale: float, side: float | None, shape: tuple[int, ...],
              cfg: RollDiceConfig) -> float:
    """The side (work px) of a die's top face on this frame: the median side of the faces a read would report
    (``tops``, their NCC ``ncc``; frame px, ``scale`` frame-to-work), else ``side`` (work px, the die size chosen),
    else ``default_side_frac`` of the work image's longer side (``shape``)."""
    if len(tops.rects):
        sure = die_weights(tops, ncc.reshape(len(tops.rects), -1), cfg) >= cfg.min_confidence
        if sure.any():
            r = tops.rects[sure]
            return float(np.median(np.sqrt(np.abs(r[:, 2] * r[:, 3])))) * scale
    return float(side) if side is not None else cfg.default_side_frac * max(shape[:2])


def second_look_faces(tops: TopFaces, cfg: RollDiceConfig) -> np.ndarray:
    """``bool[N]``: which of ``tops``' N faces the face match may look at again a little around when they match poorly
    (:func:`vision.roll_dice.faces.relocate_faces`): those at least ``relocate_likeness`` die-like that a perfect
    symbol match would make a die (:func:`die_weights` at NCC 1 reaches ``min_confidence``). A face whose middle
    carries no printed strokes, or whose candidate score is too low, stays below ``min_confidence`` whatever it
    matches (the later stages only lower the score; its ink is not cut again), so a second look could not make it a
    die. Raises nothing; no face gives an empty array."""
    todo = die_weights(tops, np.ones((len(tops.rects), 1)), cfg) >= cfg.min_confidence
    if tops.evidence is not None:
        todo &= die_likeness(tops.evidence, cfg) >= cfg.relocate_likeness
    return todo


def white_log(white: Sequence[float] | None, config: RollDiceConfig) -> np.ndarray | None:
    """A white reference's BGR colour (3 numbers in 0..255) as log-RGB ``float[3]`` (:func:`to_log`'s scale); None
    stays None. Raises ``ValueError`` for anything else (a frame's region, a wrong length, NaN, out of range)."""
    if white is None:
        return None
    w = np.asarray(white, np.float64)
    if w.shape != (3,) or not np.isfinite(w).all() or (w < 0).any() or (w > 255).any():
        raise ValueError(f"a white reference is one BGR colour (3 numbers in 0..255), got {np.asarray(white)!r}")
    return np.log(w + float(config.log_offset))


def read_image_file(path: str | Path) -> np.ndarray:
    """``cv2.imread`` that raises :class:`BadFrame` naming the file when it cannot be decoded."""
    img = cv2.imread(str(path), cv2.IMREAD_COLOR)
    if img is None:
        raise BadFrame(f"cannot read image {path} (missing, not an image, or corrupt)")
    return img


def read_roll_dice(images: Sequence[str | Path], profile_path: str | Path,
                   allowed: Iterable[tuple[str, str]] | None = None,
                   config: RollDiceConfig | None = None) -> list[dict]:
    """Read each image file with the profile at ``profile_path``; one JSON dict per image:
    ``{"image": str, "width", "height",
    "dice": [{"kind": "roll", "colour", "face", "value": null, "box", "confidence"}]}``.

    Raises :class:`BadFrame` for an unreadable image, :class:`VisionError` for a bad profile.
    """
    reader = RollDiceReader(DiceProfile.load(profile_path), config, allowed)
    out = []
    for p in images:
        r = reader.read(read_image_file(p)).to_json()
        out.append({"image": str(p), **r})
    return out
