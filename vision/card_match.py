"""Second look at cards whose first identification is weak: candidate outlines, kept by match quality.

A card's quad from :func:`vision.card_detect.find_quads` can be off: a card frame of the table's colour makes the
foreground blob the card's inner panel only; a card seen at an angle makes the fitted quad the minimum-area
rectangle around a parallelogram; a lattice cell of touching cards can sit a few percent off. The crop then
shows part of the table or of a neighbour and the deck no longer recognises the card.

:func:`candidate_quads` proposes other outlines of the same card from the image's own straight edges
(:func:`edge_profiles`: each side moved along its normal and turned a few degrees): every combination of
each side's strongest edges nearby, or, when the card's size in pixels is known (a top-down table image),
of the pairs of opposite edges one card size apart. :func:`refine_identifications` rectifies and scores
those candidates for the cards whose first reading is weak and keeps a candidate only when the deck matches
it better (lower distance) than the original crop -- an outline the deck cannot confirm never replaces the
original; the kept outline is then centred on the card by the shift at which its reference matched
(:func:`matched_shift`, geometric verification against the enrolled image). A weak card only a few pixels off
(a lattice cell) is first centred so, step by step; when it then reads surely, no outline is searched.

Units: pixels of the image the quads are given in; quads are float[4, 2], clockwise from the card's
top-left (:func:`vision.quads.order_quad`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import cv2
import numpy as np

from .card_centre import centred, centred_many, matched_shift, shift_quad
from .card_edges import (
    edge_fitted,
    edge_profiles,
    edge_profiles_many,
    gradients,
    quads_from_sides,
    side_frame,
    side_frames,
)
from .card_outline import (
    card_sized,
    card_sized_about,
    cards_axis_deg,
    off_card_size,
    shifted_places,
    side_axis_deg,
    turned,
)
from .deck import DeckProfile
from .quads import order_quad, quad_size, rectify

__all__ = ["RefineConfig", "SearchView", "candidate_quads", "cards_axis_deg", "edge_profiles", "edge_profiles_many",
           "matched_shift", "no_card_here",
           "placed_by_deck", "refine_identifications"]


@dataclass(frozen=True)
class RefineConfig:
    """Thresholds of the second look.

    Attributes:
        search_frac: each side is searched this fraction of the card's short side inwards and outwards.
        step_frac: profile step along the side's normal, fraction of the short side.
        side_trim: this fraction of each side at either end is left out (rounded corners, neighbours).
        samples: points sampled along each side.
        peak_rel: an edge is a candidate for a side at this fraction of the side's strongest edge ...
        peaks_per_side: ... and each side tries at most this many edges.
        max_outlines: at most this many candidate outlines per card.
        known_search_frac: search_frac when the card's size is known (its edges are paired by size, so a
            wider search stays specific: a lattice cell of touching cards off by a fifth of a card).
        known_placements: with a known size, each pair of opposite sides tries this many placements (the
            pairs of edges one card apart with the most edge, each at least 3 profile steps from the others).
        size_tol: with a known card size, opposite edges are paired when their distance is within this
            relative tolerance of the size.
        weak_conf: a first reading 'not in the deck', or with confidence below this and a distance above
            ``weak_distance`` x the deck's ``unknown_distance`` (a poor match, not merely a look-alike card),
            gets a second look.
        weak_distance: see weak_conf.
        min_gain: a candidate replaces the original crop only when its distance is lower by this much (the
            distances of features at the maps' size, deck format 2, are about a quarter lower than those at the
            crop's size, and more tolerant of a misfit outline: 0.01 there) ...
        min_gain_other: ... or by this much when its best card is another than the original's (the best
            of many outlines is a little closer to some card by chance; a real misfit gains far more).
        max_candidates: at most this many candidates (after the coarse pass) are scored in full.
        shift_reach: with a known card size, a card still weak after the outlines from the edges is looked for by
            the deck itself (:func:`placed_by_deck`): the card-sized place moved up to this fraction of the card's
            sides along its axes ...
        shift_step: ... in steps of this fraction, then around the best by ``shift_fine`` (its coarse distance
            decides; the place the deck matches best is scored in full and kept as any candidate) ...
        shift_budget: ... for at most this many places of a frame, the likeliest (lowest distance) first and none
            within half a short side of a card read surely (about 0.1 s each on this machine). On 63 tables of
            the second generator the cards on gingham cloths are mostly found this way (identified on seeds
            1000-1020 93.9 % -> 95.5 %, 2000-2020 89.2 % -> 93.3 %, 3000-3020 93.0 % -> 96.9 %; extra detections
            as before). Without the deck's own threshold for a moved place: 98.4 %, 93.3 %, 98.1 %, but 42 extra
            detections instead of 24 (places on the cloth's or the playmat's art read as some card).
        turn_fine_deg: ... each place also turned to the direction of the cards read surely when it is more than
            this many degrees off it, and the best place turned by +- this much (:func:`placed_by_deck`; 0: the
            place's own turn only). Second generator, 21 tables each, identified (extra detections): seeds 1000
            95.5 -> 97.5 % (4 -> 4), 2000 93.3 -> 93.3 % (8 -> 8), 3000 96.9 -> 97.3 % (12 -> 12), and on seeds no
            one looked at 4000 95.5 -> 96.8 % (7 -> 7), 6000 94.9 -> 95.8 % (17 -> 17), 8000 94.1 -> 93.6 % (33 -> 33);
            confident wrong 0 throughout; first generator 100 % either way. CPU per read on seeds 1000-1011: 706 ->
            896 ms (issue 16).
        early_within: the card-sized place itself is tried first, centred on the card it reads when that is within
            this multiple of the deck's ``unknown_distance``; when it then reads a card surely the search by the deck
            is skipped (on the full Roll table the tile read this way is the one the search finds, 2.5 px apart).
            Second generator, 21 tables each of seeds 1000 and 3000: of 232 places searched, 5 read a card surely
            this way (read at 0.31-0.50 as they were, threshold 0.35), and 195 read beyond 2 x the threshold as they
            were (never centred: their centring cost about 20 ms each and none read surely).
        turn_ranked: ... and for a square tile the places are ranked at the turn read so far (and its half turn),
            this many of them compared at every turn (0: every place at every turn).
        centre_steps: a weak card read within ``early_within`` x the deck's ``unknown_distance`` (further, it is
            more likely a place beside a card or on none) is first centred on the card its crop reads: moved by
            :func:`matched_shift` up to this many times, each time from the crop moved to (one move reaches the
            deck's ``struct_shift`` cells of the maps, about 1.8 px on the full Among the Stars table). When the
            centred crop reads that card closer by ``min_gain`` and surely, the outlines from the edges and the
            search by the deck are skipped (0: never centred first). On the full Among the Stars tables of
            ``bench/card_table_ab.py`` (cards of a station split 2-5 px off) about 3 weak cards a frame read surely
            this way, the same cards at the same turns as the search of their edges read them; the cold read's CPU
            time about 0.8 of that search's, and the cards' corners nearer the labels (the mean over every card
            2.00 -> 1.96 px; with 1 move 2.04, 3 moves 1.95).
        resize_tol: with a known card size, a weak card of ``centre_steps`` whose quad's sides are more than this
            fraction off the card's is centred from the card-sized place about its quad instead
            (:func:`vision.card_outline.card_sized_about`), when the deck reads that place closer (``min_gain``): a
            blob that lost a corner or a strip of its card's border in the table's colour is smaller than the card,
            with a side cut slanted across it, and centring moves a quad without resizing it; the search of its edges
            costs 30-40 ms a card, this about 10. On Race for the Galaxy's and Among the Stars' layouts 11-30 of
            ``bench/card_table_ab.py`` (such quads 0.81-0.94 of the card's sides) every card read the card it read
            before, at the same turn, most with their corners nearer the labels; Race's slowest layouts about 100x ->
            60x (17) and 40-75x -> 27x (30) a JPEG decode (None: never) ...
        fit_frac: ... and each side of the place so read is then moved to its strongest edge within this fraction of
            the card's short side, turned by up to a degree (:func:`vision.card_edges.edge_fitted`), when the deck
            reads it closer (0: not fitted); a side whose strongest edge lies at the end of that reach leaves the
            place as read, unscored (no edge of the card within reach).
        settled_conf: a card-sized place (``resize_tol``) the deck reads as a card with at least this confidence
            (:meth:`vision.deck.DeckProfile.decide`; a place read 'not in the deck', however surely, is not settled)
            is centred but not fitted to its edges (``fit_frac``): a fit keeps a crop only when it reads the same
            card closer, so it cannot change the card named, and it moves each side by at most ``fit_frac`` of the
            short side; from a read this sure it changes the confidence by a few thousandths, at a cost of about
            1.5 ms a card (its edge profiles and the fitted crop scored). None: every card-sized place read surely is
            fitted.
        seen_conf: a weak place of the detector's second look (``loose``) whose centre lies within half its short
            side of a card read with at least this confidence (by either look) is that card seen again, and gets no
            second look: the reader reports one card per place (:func:`vision.cards.read_cards`), the card read
            confidently or, were the place's second look to read it as confidently, one of two readings of the
            same card (about 25 ms each on this machine; on the full Race tables of ``bench/full_table.py`` such
            places lie 4-14 px from the card's centre, their short side about 40 px). Below this the second look
            may read the card better than the place that read it first (Among the Stars, seed 4: 0.60 -> 0.998).
            1.01: every weak place is looked at again.
        no_card_beyond: with no card size known (a frame read with no calibration), a place the first look reads
            farther than this multiple of the deck's ``unknown_distance_max`` (its best card at its best turn and
            shift: 'not in the deck' on any frame, :meth:`vision.deck.DeckProfile.decide_frame`) holds no card of the
            deck (:func:`no_card_here`): it gets no second look, and no evened look
            (:func:`vision.cards.identify_and_refine`); it is reported as found, 'not in the deck'. There the second
            look only moves an outline a little (the outlines from the edges within ``search_frac`` of the short side,
            the centring within the deck's ``struct_shift``); with the card size known the search by the deck may
            find a card a third of a card off a place read so far (``shift_reach``), so every weak place is looked at
            again. None: every weak place is looked at again. On the layouts 100-109 of ``bench/card_table_ab.py``
            read with no calibration (Among the Stars, Race and Roll for the Galaxy, 3 frames each) 112 weak places
            read beyond 1.0 first (110 of them a Roll table's corner markers, about 35 ms each); the second look named
            none (their best distance after it 0.96 or more); the farthest first read a second look named was 0.95
            (an Among the Stars card a few pixels off, named at 0.26).
        angles_deg: each side is also tried turned by these angles about its midpoint.
        iterations: each candidate is searched this many times (each time around the last answer, every
            side on its strongest edge).
    """

    search_frac: float = 0.14
    step_frac: float = 0.006
    side_trim: float = 0.15
    samples: int = 24
    peak_rel: float = 0.4
    peaks_per_side: int = 2
    max_outlines: int = 6
    known_search_frac: float = 0.3
    known_placements: int = 4
    size_tol: float = 0.05
    weak_conf: float = 0.5
    weak_distance: float = 0.6
    min_gain: float = 0.006
    min_gain_other: float = 0.05
    max_candidates: int = 2
    shift_reach: float = 0.5
    shift_step: float = 0.25
    shift_fine: float = 0.1
    shift_budget: int = 12
    turn_fine_deg: float = 4.0
    turn_ranked: int = 4
    early_within: float = 2.0
    seen_conf: float = 0.9
    centre_steps: int = 2
    resize_tol: float | None = 0.05
    fit_frac: float = 0.05
    settled_conf: float | None = 0.99
    no_card_beyond: float | None = 1.0
    angles_deg: tuple[float, ...] = (-6.0, -4.0, -2.0, 0.0, 2.0, 4.0, 6.0)
    iterations: int = 2


def no_card_here(deck: DeckProfile, distance: float, view: SearchView | None = None,
                 cfg: RefineConfig | None = None) -> bool:
    """Whether a place whose first look read its best card at ``distance`` (its :meth:`vision.deck.DeckProfile.score`'s
    distance, at its best turn and shift) holds no card of ``deck``, where no card size is known (``view`` None or
    without ``card_px``): farther than ``cfg.no_card_beyond`` x the deck's ``unknown_distance_max``, where the deck
    says 'not in the deck' whatever the frame's other cards read (:meth:`vision.deck.DeckProfile.decide_frame`). Such
    a place is given no second look (:func:`refine_identifications`) and no evened look
    (:func:`vision.cards.identify_and_refine`): a cheap test the later looks agree with (see :class:`RefineConfig`'s
    ``no_card_beyond``). False for every place with the card size known, or when ``no_card_beyond`` is None."""
    cfg = cfg or RefineConfig()
    if cfg.no_card_beyond is None or (view is not None and view.card_px is not None):
        return False
    return float(distance) > cfg.no_card_beyond * float(deck.config.unknown_distance_max)


def _peaks(p: np.ndarray, rel: float, most: int) -> list[int]:
    """Indices of the local maxima of ``p`` at least ``rel`` of its maximum, strongest first (at most ``most``)."""
    if p.max() <= 0:
        return []
    left = np.concatenate([[-1.0], p[:-1]])
    right = np.concatenate([p[1:], [-1.0]])
    idx = np.nonzero((p >= left) & (p > right) & (p >= rel * p.max()))[0]
    return [int(i) for i in idx[np.argsort(-p[idx])][:most]]


def _combos(q: np.ndarray, offs: np.ndarray, S: np.ndarray, card_px: tuple[float, float] | None,
            cfg: RefineConfig, per_side: int, placements: int) -> list[tuple[int, int, int, int]]:
    """Offset indices (one per side) to try: without ``card_px`` every combination of each side's
    ``per_side`` strongest edges; with it, every combination of each pair of opposite sides' ``placements``
    strongest pairs of edges a card size apart (``size_tol``)."""
    zero = int(np.argmin(np.abs(offs)))
    if card_px is None:
        opts = [_peaks(S[k], cfg.peak_rel, per_side) or [zero] for k in range(4)]
        return [(c0, c1, c2, c3) for c0 in opts[0] for c1 in opts[1] for c2 in opts[2] for c3 in opts[3]]
    pairs = []
    for k0, size in ((0, card_px[1]), (1, card_px[0])):   # sides 0 and 2 are a card's length apart
        cur = float(np.linalg.norm(side_frame(q, k0)[0] - side_frame(q, k0 + 2)[0]))
        sep = cur + offs[:, None] + offs[None, :]            # outward offsets add to the distance
        score = np.where(np.abs(sep / size - 1.0) <= cfg.size_tol, S[k0][:, None] + S[k0 + 2][None, :], -1.0)
        best: list[tuple[int, int]] = []
        for flat in np.argsort(-score, axis=None):
            i, j = np.unravel_index(int(flat), score.shape)
            if score[i, j] <= 0 or len(best) >= placements:
                break
            if all(abs(int(i) - a) > 2 or abs(int(j) - b) > 2 for a, b in best):   # distinct placements
                best.append((int(i), int(j)))
        pairs.append(best or [(zero, zero)])
    return [(a[0], b[0], a[1], b[1]) for a in pairs[0] for b in pairs[1]]


def _refined(q0: np.ndarray, offs: np.ndarray, angles: np.ndarray, best_a: np.ndarray,
             combos: list[tuple[int, int, int, int]], grads: tuple, fine: RefineConfig,
             iterations: int) -> list[np.ndarray | None]:
    """The outline of each combination of side offsets (indices into ``offs``; each side at its best angle
    ``best_a``) of the quad ``q0``, searched ``iterations`` - 1 times more around itself with ``fine`` (its sides now
    aligned), every outline's search at once (:func:`edge_profiles_many`); None where the sides meet nowhere."""
    if not combos:
        return []
    frames0 = side_frames(q0)
    c = np.asarray(combos, np.intp)                                                       # [n, 4]
    found = quads_from_sides([frames0] * len(combos), offs[c], angles[best_a[np.arange(4)[None, :], c]])
    for _ in range(iterations - 1):
        live = [j for j, nq in enumerate(found) if nq is not None and np.isfinite(nq).all()]
        frames, o, a = [], [], []
        for j, (o2, a2, P2) in zip(live, edge_profiles_many([found[j] for j in live], grads, fine), strict=True):
            S2, b2 = P2.max(axis=1), P2.argmax(axis=1)
            pk = S2.argmax(axis=1)                                                        # each side's strongest
            frames.append(side_frames(found[j]))
            o.append(o2[pk])
            a.append(a2[b2[np.arange(4), pk]])
        for j, nq in zip(live, quads_from_sides(frames, np.array(o).reshape(-1, 4), np.array(a).reshape(-1, 4)),
                         strict=True):
            found[j] = nq
    return found


def candidate_quads(gray: np.ndarray, quad: np.ndarray, card_px: tuple[float, float] | None = None,
                    cfg: RefineConfig | None = None) -> list[np.ndarray]:
    """Other outlines of the card whose quad is ``quad``, from the straight edges of ``gray`` near its sides.

    Every side may move to any of its strongest straight edges nearby (local maxima of
    :func:`edge_profiles` at least ``peak_rel`` of the side's strongest, at most ``peaks_per_side``, turned
    by up to ``angles_deg``); each combination of the four sides is one candidate, searched once more
    around itself (``iterations``). With ``card_px`` only combinations whose opposite sides are a card size
    apart (``size_tol``) are kept.

    Args:
        gray: float32[H, W] grey image in the quad's pixels.
        quad: float[4, 2] ordered corners (side 0 = top short side).
        card_px: (short, long) size of a card in these pixels when known (a top-down table image).

    Returns:
        Distinct float[4, 2] quads in the same corner order, none equal to ``quad``, strongest edges first
        (at most ``max_outlines``).
    """
    cfg = cfg or RefineConfig()
    q0 = np.asarray(quad, np.float64).reshape(4, 2)
    grads = gradients(gray, q0, cfg)
    offs, angles, P = edge_profiles(gray, q0, cfg, grads)
    best_a = P.argmax(axis=1)                           # [4, O] best angle per side and offset
    S = P.max(axis=1)                                   # [4, O] strength at that angle
    combos = _combos(q0, offs, S, card_px, cfg, cfg.peaks_per_side, cfg.known_placements)
    combos.sort(key=lambda c: -sum(float(S[k, c[k]]) for k in range(4)))
    a0 = cv2.contourArea(q0.astype(np.float32))
    fine = RefineConfig(**{**cfg.__dict__, "search_frac": min(cfg.search_frac, 0.14) / 3})
    out: list[np.ndarray] = []
    start = 0
    while start < len(combos) and len(out) < cfg.max_outlines:
        # the next combinations, as many as outlines are still wanted, searched again together (the same outlines
        # as one by one: each is searched on its own; those past the last one kept are never searched)
        batch = combos[start:start + cfg.max_outlines - len(out)]
        start += len(batch)
        for nq in _refined(q0, offs, angles, best_a, batch, grads, fine, cfg.iterations):
            if nq is None or not np.isfinite(nq).all():
                continue
            if not (0.5 * a0 <= cv2.contourArea(nq.astype(np.float32)) <= 2.0 * a0):
                continue
            if np.abs(nq - q0).max() < 0.5 or any(np.abs(nq - o).max() < 0.5 for o in out):
                continue
            out.append(nq)
            if len(out) >= cfg.max_outlines:
                break
    return out


@dataclass
class SearchView:
    """Where the candidate outlines are searched: ``gray`` float32[H, W] (or a uint8 BGR image, turned grey
    on first use), each card's quad in it
    (``quads``), the map of a quad in it to frame pixels (``to_frame``: float[4, 2] -> float[4, 2]) and the
    card's (short, long) size in its pixels when known (``card_px``; a top-down table image)."""

    gray: np.ndarray
    quads: list[np.ndarray]
    to_frame: Callable[[np.ndarray], np.ndarray]
    card_px: tuple[float, float] | None = None


def placed_by_deck(deck: DeckProfile, frame: np.ndarray, view: SearchView, quad: np.ndarray, crop_wh: tuple[int, int],
                   mirrored: bool, cfg: RefineConfig, axis_deg: float | None = None,
                   turn: int | None = None) -> np.ndarray:
    """Where near ``quad`` (float[4, 2] px of ``view``, whose ``card_px`` is known) the deck sees a card best: the
    card-sized quad about its centre moved along its own axes by every multiple of ``shift_step`` up to
    ``shift_reach`` of the card's sides, then around the best of those by ``shift_fine``, each place cut from
    ``frame`` (``crop_wh`` px, flipped when ``mirrored``) and ranked by the deck's coarse distance (every
    reference at every turn). Returns that place (float[4, 2] px of ``view``).

    ``axis_deg``: the direction of the short sides of the cards read surely on this table (:func:`cards_axis_deg`,
    degrees counter-clockwise mod 180, px of ``view``), or None. The place's own turn comes from the pieces it was
    made of, which on a patterned cloth follow the cloth (a place turned 50 degrees off the card it holds); when
    it differs from ``axis_deg`` by more than ``turn_fine_deg``, the place is also tried turned to the cards'
    direction; and around the best place the fine moves are also tried turned by +-``turn_fine_deg`` (cards laid by
    hand are a few degrees off each other and off the place). Without ``axis_deg`` (no card read surely) the place
    keeps its own turn: nothing on the table tells another, and the best of many turned places is a little closer
    to the card by chance.

    ``turn``: the quarter turns (0-3) of the card's read so far, or None. For a square tile (4 turns tried) the
    places are ranked at that turn and the half turn from it (one feature pass per place instead of two), and only
    the ``turn_ranked`` best of them compared at every turn.

    A card whose colours the table shares (a patterned cloth, a playmat) is foreground in pieces, and a place
    from the pieces, or beside the cards found, can lie a third of a card off it, where the cloth's own straight
    edges pair at the card's size as well as the card's do; the card's face is what the cloth has not."""
    q0 = card_sized(np.asarray(quad, np.float64), view.card_px)
    n = int(round(cfg.shift_reach / cfg.shift_step))
    starts = [q0]
    if axis_deg is not None and cfg.turn_fine_deg > 0:
        period = 90.0 if abs(view.card_px[0] - view.card_px[1]) < 0.05 * max(view.card_px) else 180.0
        d = (axis_deg - side_axis_deg(q0, period) + period / 2) % period - period / 2
        if abs(d) > cfg.turn_fine_deg:
            starts.append(turned(q0, d))

    tried = deck.turns_to_try()
    ranked = (turn % 2, turn % 2 + 2) if turn is not None and len(tried) == 4 and cfg.turn_ranked > 0 else None

    def coarse(qs: list[np.ndarray]) -> np.ndarray:
        """The coarse distance of each place at every turn; with ``ranked`` turns, the places ranked at those first
        and only the ``turn_ranked`` likeliest at every turn (the others: infinite)."""
        cr = [rectify(frame, view.to_frame(x), *crop_wh) for x in qs]
        looks = [cv2.flip(c, 1) if mirrored else c for c in cr]
        if ranked is None or len(looks) <= cfg.turn_ranked:
            return np.asarray(deck.coarse_best_many(looks), np.float64)
        top = np.argsort(np.asarray(deck.coarse_best_many(looks, tried=ranked)))[: cfg.turn_ranked]
        d = np.full(len(looks), np.inf)
        d[top] = deck.coarse_best_many([looks[j] for j in top])
        return d

    steps = np.arange(-n, n + 1) * cfg.shift_step
    places = [p for s in starts for p in [s] + shifted_places(s, steps, view.card_px)]
    d = coarse(places)
    best, dbest = places[int(np.argmin(d))], float(d.min())
    fine = np.array([-1.0, 0.0, 1.0]) * cfg.shift_fine
    near = shifted_places(best, fine, view.card_px)
    if axis_deg is not None and cfg.turn_fine_deg > 0:   # turned and moved together: a card a few degrees off
        for a in (-cfg.turn_fine_deg, cfg.turn_fine_deg):
            t = turned(best, a)
            near += [t] + shifted_places(t, fine, view.card_px)
    d2 = coarse(near)
    return near[int(np.argmin(d2))] if float(d2.min()) < dbest else best


def _with_centred(deck: DeckProfile, frame: np.ndarray, quad: np.ndarray, mirrored: bool,
                  crop_wh: tuple[int, int], within: float | None = None) -> list[np.ndarray]:
    """[``quad``, and ``quad`` moved by :func:`matched_shift` of the card the deck reads there when that moves it by a
    crop pixel or more] (float[4, 2] frame px): a place the deck chose by its coarse distance on a coarse grid is up
    to half a step off the card, enough on a small card to read it above the deck's threshold; the full read of the
    place says where the card's content sits. [] when ``within`` is given and the place reads no card within that
    distance."""
    cw, ch = crop_wh
    crop = rectify(frame, quad, cw, ch)
    look = cv2.flip(crop, 1) if mirrored else crop
    s = deck.score(look)
    if within is not None and s[1] > within:
        return []
    v = matched_shift(deck, look, s[0], s[3])
    if mirrored:
        v = v * np.array([-1.0, 1.0])
    return [quad, shift_quad(quad, v, cw, ch)] if np.abs(v).max() >= 1.0 else [quad]


def _best_outline(deck: DeckProfile, frame: np.ndarray, cands: list[np.ndarray], first: tuple, best: tuple,
                  mirrored: bool, cfg: RefineConfig, crop_hw: tuple[int, int]) -> tuple[tuple, np.ndarray | None,
                                                                                     np.ndarray | None]:
    """(score, quad, crop) of the candidate outline (float[4, 2] frame px) the deck matches best when it beats
    ``best`` (a :meth:`vision.deck.DeckProfile.score`) by ``min_gain`` (``min_gain_other`` when it names another card
    than ``first``, the card's score as found); else (``best``, None, None). The ``max_candidates`` of lowest
    coarse distance are scored in full, one after the other in that order, each against the best so far.

    With no more candidates than ``max_candidates`` every one is scored, and their coarse ranking is worked out only
    when two or more beat ``best``: with one, the order cannot change the outcome (a candidate that does not beat
    ``best`` by its gain never beats one that does), so the answer is the ranked one."""
    ch, cw = crop_hw
    quad = crop = None
    if not cands:
        return best, quad, crop
    ccrops = [rectify(frame, q, cw, ch) for q in cands]
    looks = [cv2.flip(c, 1) if mirrored else c for c in ccrops]

    def ranked() -> list[int]:
        """The ``max_candidates`` of lowest coarse distance at every turn the deck tries (one: nothing to rank)."""
        if len(looks) == 1:
            return list(range(min(1, cfg.max_candidates)))
        return np.argsort(deck.coarse_best_many(looks))[: cfg.max_candidates].tolist()

    def gain(s: tuple) -> float:
        return cfg.min_gain if s[0] == first[0] else cfg.min_gain_other

    every = len(looks) <= cfg.max_candidates
    order = list(range(len(looks))) if every else ranked()
    scored = dict(zip(order, deck.score_many([looks[j] for j in order]), strict=True))
    if every and sum(scored[j][1] < best[1] - gain(scored[j]) for j in order) > 1:
        order = ranked()
    for j in order:
        s = scored[j]
        if s[1] < best[1] - gain(s):
            best, quad, crop = s, cands[j], ccrops[j]
    return best, quad, crop


class _ScoreMemo:
    """A deck whose :meth:`vision.deck.DeckProfile.score_many` remembers each crop's score (by its pixels) for as long
    as this object lives (one frame's second look): a place scored, then offered again as a candidate outline, or an
    outline moved by :func:`matched_shift` to a place scored already, is not scored twice. The crops not seen yet
    are scored together; everything else is the deck's own."""

    def __init__(self, deck: DeckProfile) -> None:
        self.deck = deck
        self.seen: dict[tuple, tuple[str, float, float, int]] = {}

    def __getattr__(self, name: str):
        return getattr(self.deck, name)

    def score(self, crop: np.ndarray) -> tuple[str, float, float, int]:
        return self.score_many([crop])[0]

    def score_many(self, crops: list[np.ndarray], off_centre: bool = False) -> list[tuple[str, float, float, int]]:
        keys = [(c.shape, np.ascontiguousarray(c).tobytes()) for c in crops]
        new = {k: c for k, c in zip(keys, crops, strict=True) if k not in self.seen}
        if new:
            places = getattr(self.deck, "score_places_many", None) if off_centre else None
            got = (places or self.deck.score_many)(list(new.values()))
            self.seen.update(zip(new, got, strict=True))
        return [self.seen[k] for k in keys]


def _search_place(deck: DeckProfile, frame: np.ndarray, view: SearchView, k: int, best: tuple, first: tuple,
                  known: list[np.ndarray], short: float, sure: Callable, mirrored: bool, cfg: RefineConfig,
                  axis_deg: float | None,
                  crop_hw: tuple[int, int]) -> tuple[tuple, np.ndarray, np.ndarray | None, np.ndarray | None]:
    """(score, place, quad, crop) of card ``k`` of ``view`` (card size known) found by the deck: the card-sized place
    (float[4, 2] px of ``view``) centred on the card it reads (:func:`_with_centred`), kept (quad float[4, 2] frame
    px and its crop) when it beats ``best`` (:func:`_best_outline`, ``first`` the card's score as found), reads a card
    by the deck's own threshold (the best of many places on a playmat's art is a little closer to some card by
    chance) and lies on no card read already (``known``: their centres, frame px; within half of ``short``, the
    card's short side in frame px); else (``best``, place, None, None).

    The card-sized place itself is tried first: where, centred, it reads a card surely (``sure`` of its
    :meth:`vision.deck.DeckProfile.decide`), the deck's search of the places around it (:func:`placed_by_deck`:
    about 30 places, each rectified and compared with every reference at every turn) is not needed. It is centred
    only when it reads a card within ``early_within`` x the deck's threshold as it is (further, it is not a card a
    little off but a place beside one: most places searched, whose centring would only add to the search's cost)."""
    ch, cw = crop_hw

    def kept(place: np.ndarray, within: float | None = None) -> tuple[tuple, np.ndarray | None, np.ndarray | None]:
        looks = _with_centred(deck, frame, view.to_frame(place), mirrored, (cw, ch), within)
        s2, nq, nc = _best_outline(deck, frame, looks, first, best, mirrored, cfg, crop_hw)
        if (nq is not None and s2[1] <= deck.config.unknown_distance
                and not any(float(np.linalg.norm(nq.mean(axis=0) - c)) < 0.5 * short for c in known)):
            return s2, nq, nc
        return best, None, None

    placed = card_sized(np.asarray(view.quads[k], np.float64), view.card_px)
    s2, nq, nc = kept(placed, cfg.early_within * deck.config.unknown_distance)
    if nq is None or not sure(deck.decide(s2)):
        placed = placed_by_deck(deck, frame, view, view.quads[k], (cw, ch), mirrored, cfg, axis_deg, best[3])
        s2, nq, nc = kept(placed)
    return s2, placed, nq, nc


def _view_axis(view: SearchView | None, sure: list[bool]) -> float | None:
    """:func:`cards_axis_deg` of the cards read surely (``sure``, one per quad of ``view``) in a view whose card size
    is known (a top-down table image); None otherwise."""
    if view is None or view.card_px is None:
        return None
    square = abs(view.card_px[0] - view.card_px[1]) < 0.05 * max(view.card_px)
    return cards_axis_deg([q for q, ok in zip(view.quads, sure, strict=True) if ok], square)


def _resized(deck: DeckProfile, frame: np.ndarray, view: SearchView | None, ks: list[int], scores: list[tuple],
             mirrored: bool, cfg: RefineConfig, crop_wh: tuple[int, int]) -> dict[int, tuple]:
    """{k: (score, quad, crop)} for each card ``k`` of ``ks`` whose quad in ``view`` (card size known; else {}) is off
    the card's size by more than ``resize_tol`` (:func:`vision.card_outline.off_card_size`): the card-sized place about
    it (:func:`vision.card_outline.card_sized_about`; float[4, 2] frame px) and its crop (``crop_wh`` px), kept when
    the deck reads it closer than the card's score as found (``scores[k]``) by ``min_gain`` (``min_gain_other`` when
    it names another card), the crops scored together, as places off their card (a square tile's read at one parity of
    turns once its shifts read it within ``parity_alone``: :meth:`vision.deck.DeckProfile.distances_many`)."""
    if view is None or view.card_px is None or cfg.resize_tol is None:
        return {}
    off = [k for k in ks if off_card_size(view.quads[k], view.card_px, cfg.resize_tol)]
    if not off:
        return {}
    qs = [view.to_frame(card_sized_about(view.quads[k], view.card_px)) for k in off]
    crops = [rectify(frame, q, *crop_wh) for q in qs]
    looks = [cv2.flip(c, 1) if mirrored else c for c in crops]
    got = deck.score_many(looks, off_centre=True) if isinstance(deck, _ScoreMemo) else (
        getattr(deck, "score_places_many", None) or deck.score_many)(looks)
    return {k: (s, q, c) for k, q, c, s in zip(off, qs, crops, got, strict=True)
            if s[1] < scores[k][1] - (cfg.min_gain if s[0] == scores[k][0] else cfg.min_gain_other)}



def _settled(deck: DeckProfile, score: tuple, cfg: RefineConfig) -> bool:
    """Whether a card-sized place whose :meth:`vision.deck.DeckProfile.score` is ``score`` reads a card with no doubt
    left (``settled_conf``; never a place read 'not in the deck', however surely)."""
    if cfg.settled_conf is None:
        return False
    r = deck.decide(score)
    return r.card_id is not None and r.confidence >= cfg.settled_conf


def _on_any(quad: np.ndarray, cards: list[np.ndarray]) -> bool:
    """Whether the centre of any of ``cards`` (float[4, 2] px quads) lies within half the short side of ``quad``
    (float[4, 2] px, ordered) of its centre: the same card."""
    c, short = quad.mean(axis=0), quad_size(quad)[0]
    return any(float(np.linalg.norm(q.mean(axis=0) - c)) < 0.5 * short for q in cards)


def refine_identifications(deck: DeckProfile, frame: np.ndarray, quads: list[np.ndarray], crops: list[np.ndarray],
                           scores: list[tuple[str, float, float, int]], mirrored: bool,
                           cfg: RefineConfig | None = None, view: SearchView | None = None,
                           loose: Sequence[bool] = ()) -> tuple[list, list[np.ndarray], list[np.ndarray]]:
    """Give the weakly identified cards of one frame a second look with other outlines.

    A card is weak when the frame's decision (:meth:`vision.deck.DeckProfile.decide_frame`) on its score
    is 'not in the deck', or has confidence below ``weak_conf`` and a distance above ``weak_distance`` x
    the deck's ``unknown_distance``. It is first centred on the card its crop reads (``centre_steps``; from the
    card-sized place about it when its quad is off the card's size, ``resize_tol``, then fitted to its edges unless
    read with no doubt left, ``settled_conf``); when that reads the card surely, that outline is kept and the rest
    skipped. Else its :func:`candidate_quads` are rectified
    like the original crop, ranked by their coarse distance, and the best ``max_candidates`` scored in
    full; the candidate with the lowest distance replaces the original quad, crop and score when it is
    lower by at least ``min_gain`` (``min_gain_other`` when it names another card). Then the outline is
    moved by :func:`matched_shift` (the offset at which the best card's reference matched) and that crop
    kept when it matches the same card at least as well (the original outline: by ``min_gain`` better). Within one
    call each crop is scored once (:class:`_ScoreMemo`: a place scored, then offered again beside its centred copy,
    is not scored twice).

    Args:
        deck: the :class:`vision.deck.DeckProfile` (cards: ``shape == "card"``; other decks are returned as
            given).
        frame: uint8[H, W, 3] BGR image the quads are in (pixels).
        quads: float[4, 2] ordered quads, one per card.
        crops: uint8[h, w, 3] rectified crops of those quads (all the same size), as read (not flipped).
        scores: :meth:`vision.deck.DeckProfile.score` of each crop (flipped first when ``mirrored``).
        mirrored: the frame is a mirror image: crops are flipped left-right before scoring.
        view: where to search the outlines (None: in the frame itself, card size unknown). With a known card
            size the search reaches ``known_search_frac`` of the short side.
        loose: per card, whether it is a place of the detector's second look (missing entries: no); see
            ``seen_conf``.

    Returns:
        (scores, quads, crops): new lists, equal to the inputs except for the cards whose outline changed.
    """
    cfg = cfg or RefineConfig()
    scores, quads, crops = list(scores), list(quads), list(crops)
    if getattr(deck, "shape", "card") != "card" or not crops:
        return scores, quads, crops
    deck = _ScoreMemo(deck)   # type: ignore[assignment]   # a crop scored once in this frame's second look
    first = deck.decide_frame(scores)
    ch, cw = crops[0].shape[:2]
    far = cfg.weak_distance * deck.config.unknown_distance

    def sure(r) -> bool:
        return r.card_id is not None and (r.confidence >= cfg.weak_conf or r.distance <= far)

    # the cards read surely: a weak place on one of them is that card again, not worth a search by the deck
    known = [quads[k].mean(axis=0) for k, r in enumerate(first) if sure(r)]
    # the cards read confidently: a weak loose place on one of them is that card seen again
    found = [q for q, r in zip(quads, first, strict=True) if r.card_id is not None and r.confidence >= cfg.seen_conf]
    again = [k < len(loose) and bool(loose[k]) and _on_any(quads[k], found) for k in range(len(first))]
    budget = cfg.shift_budget
    axis: list[float | None] = []
    first_view = view

    def cards_axis() -> float | None:
        """The direction of the cards read surely, for the search by the deck (worked out once, when needed)."""
        if not axis:
            axis.append(_view_axis(first_view, [sure(r) for r in first]))
        return axis[0]

    # the likeliest cards first; with no card size known, a place read beyond the deck's absolute bar holds no card
    weak = [k for k in sorted(range(len(first)), key=lambda j: first[j].distance)
            if not (sure(first[k]) or again[k] or no_card_here(deck, first[k].distance, view, cfg))]
    # an outline a few pixels off its card, centred on the card its crop reads, may read surely: no search of its
    # edges then
    near = [k for k in weak if first[k].distance <= cfg.early_within * deck.config.unknown_distance]
    # a quad off the card's size (a blob that lost part of its card) is centred from the card-sized place about it
    start = _resized(deck, frame, view, near, scores, mirrored, cfg, (cw, ch))
    early = dict(zip(near, centred_many(deck, frame, [start[k][1] if k in start else quads[k] for k in near],
                                         [start[k][2] if k in start else crops[k] for k in near],
                                         [start[k][0] if k in start else scores[k] for k in near], cfg.min_gain,
                                         mirrored, (cw, ch), cfg.centre_steps), strict=True))
    # centred and read surely: kept; a card-sized place is fitted to its edges first (unless read with no doubt left,
    # settled_conf), every such card's outline scored together (each decided on its own: the loop below only takes
    # them in turn)
    kept = {k: c for k in weak if (c := early.get(k) or start.get(k)) is not None and sure(deck.decide(c[0]))}
    fit = [k for k in kept if k in start and not _settled(deck, start[k][0], cfg)]
    kept.update(zip(fit, edge_fitted(deck, frame, [kept[k] for k in fit], mirrored, cfg, (cw, ch)), strict=True))
    for k in weak:
        if k in kept:
            scores[k], quads[k], crops[k] = kept[k]
            known.append(quads[k].mean(axis=0))
            continue
        if view is None:
            view = SearchView(cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY).astype(np.float32), quads, lambda q: q)
        if view.gray.ndim == 3:
            view.gray = cv2.cvtColor(view.gray, cv2.COLOR_BGR2GRAY).astype(np.float32)
        c2 = cfg if view.card_px is None else RefineConfig(**{**cfg.__dict__, "search_frac": cfg.known_search_frac})
        cands = [view.to_frame(q) for q in candidate_quads(view.gray, view.quads[k], view.card_px, c2)]
        best, nq, nc = _best_outline(deck, frame, cands, scores[k], scores[k], mirrored, cfg, (ch, cw))
        if nq is not None:
            quads[k], crops[k] = nq, nc
        short = min(quad_size(order_quad(quads[k])))
        if (view.card_px is not None and cfg.shift_reach > 0 and budget > 0 and not sure(deck.decide(best))
                and not any(float(np.linalg.norm(quads[k].mean(axis=0) - c)) < 0.5 * short for c in known)):
            budget -= 1
            best, placed, nq, nc = _search_place(deck, frame, view, k, best, scores[k], known, short, sure, mirrored,
                                                 cfg, cards_axis(), (ch, cw))
            if nq is not None:
                quads[k], crops[k] = nq, nc
            cands.append(placed)
        if not cands:
            continue
        # centre the outline (new or original) on the card as its best reference sees it
        c = centred(deck, frame, quads[k], crops[k], best, 0.0 if best is not scores[k] else cfg.min_gain,
                     mirrored, (cw, ch))
        if c is not None:
            best, quads[k], crops[k] = c
        scores[k] = best
        if sure(deck.decide(best)):
            known.append(quads[k].mean(axis=0))
    return scores, quads, crops
