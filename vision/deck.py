"""Enrolled deck profiles: identify (built from photos or scans by :mod:`vision.deck_enroll`; saved and loaded,
versioned, by :mod:`vision.deck_file`).

Identification compares a rectified crop's features (:mod:`vision.card_features`: structure maps, ink hue
histogram, ink amplitude) with every enrolled reference.

distance = (1 - ncc) + colour_weight * hellinger + amp_weight * amplitude; each card's score is its best
reference's distance (blended with the mean of its references). A crop is 'not in the deck' when the best
distance exceeds ``unknown_distance``; confidence grows with the margin to the best *other* card and shrinks
as the best distance nears the unknown threshold. Each crop is tried at 0/180 degrees (and 90/270 for square
tiles); the winning turn fixes the card's orientation.
A frame's crops are scored together (:meth:`DeckProfile.score_many`): the references are read from memory
once per frame, not once per card; a crop alone reads a compact index of them and the few it ranks
best (:mod:`vision.deck_search`, derived when the deck is first used).

Optional ArUco stickers: an enrollment image holding an ArUco marker (id >= ``sticker_ids_from``) maps that
marker id to its card; at run time a sticker on a card decides its id (see :func:`vision.cards.read_cards`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import cv2
import numpy as np

from .card_features import (
    IdConfig,
    crop_features_many,
    inner_maps,
    mask_face,
    normalise_maps,
    turn_crop,
)
from .deck_file import DeckFile
from .deck_search import DeckSearch, trimmed_ncc

__all__ = ["DeckProfile", "IdConfig", "Identification"]

PARITY_CUE_PX = 16
"""Side (px) of the grey thumbnails whose correlation with the deck's art chooses the parity of turns a square tile
is read at first (:meth:`DeckProfile.parity_cues`)."""


@dataclass(frozen=True)
class Identification:
    """Result of identifying one crop.

    Attributes:
        card_id: best card, or None when not in the deck.
        confidence: 0..1.
        distance: best distance; second: distance of the best other card.
        turns: quarter turns (clockwise, of the quad's corner order) that made the crop match.
    """

    card_id: str | None
    confidence: float
    distance: float
    second: float
    turns: int
    best_guess: str | None = None


# ----------------------------------------------------------------------------------------------- the profile


@dataclass
class DeckProfile(DeckFile):
    """Enrolled references of one deck.

    Attributes:
        name: deck name.
        aspect: long/short side ratio of the cards (1.0 = square tiles).
        card_mm: (short, long) side in mm, used to estimate mm without a table calibration.
        ref_ids: card id of each reference (N).
        struct: float32[N, C, H*W] reference structure maps (no shift border), normalised per channel.
        colour: float32[N, bins] reference hue histograms.
        markers: ArUco sticker id -> card id.
        config: identification thresholds.
        sources: reference image file names (informational).
        shape: ``"card"`` (cards and square tiles: crops are tried at quarter turns) or ``"hex"`` (sector
            hexes, :mod:`vision.hexes`: the caller rectifies one crop per 60-degree turn, so
            :meth:`distances` tries each crop as given).
        amp: float32[N, 2] reference ink amplitudes (:func:`ink_amplitude`), or None (profiles saved
            before it; hex decks): no amplitude term.
        art: card id -> uint8[h, w, 3] BGR, the card's face upright as enrolled (its first image, rectified
            to :data:`vision.card_art.ART_WIDTH` px wide, h = width x aspect): what the card shows where
            nothing covers it (:mod:`vision.card_art`); empty for profiles saved before it and hex decks.
    """

    name: str
    aspect: float
    card_mm: tuple[float, float]
    ref_ids: list[str]
    struct: np.ndarray
    colour: np.ndarray
    markers: dict[int, str] = field(default_factory=dict)
    config: IdConfig = field(default_factory=IdConfig)
    sources: list[str] = field(default_factory=list)
    shape: str = "card"
    amp: np.ndarray | None = None
    art: dict[str, np.ndarray] = field(default_factory=dict)

    @property
    def card_ids(self) -> list[str]:
        return sorted(set(self.ref_ids))

    # -- identification --------------------------------------------------------------------------

    def turns_to_try(self) -> tuple[int, ...]:
        if self.shape == "hex":
            return (0,)
        return (0, 1, 2, 3) if self.aspect < 1.15 else (0, 2)

    def turn_features(self, crop: np.ndarray) -> list[tuple[np.ndarray, np.ndarray, np.ndarray | None]]:
        """(structure maps masked to the face, colour histogram, ink amplitude) of ``crop`` at each of
        :meth:`turns_to_try` (:func:`vision.card_features.crop_features`).

        A half turn is not computed again: the maps of a crop turned 180 degrees are the maps turned 180
        degrees (the doubled-angle orientation channels are unchanged by a half turn), and its colour and
        amplitude are the same; so a card costs one feature pass, a square tile two."""
        return self.turn_features_many([crop])[0]

    def turn_features_many(self, crops: list[np.ndarray], tried: tuple[int, ...] | list[tuple[int, ...]] | None = None
                           ) -> list[list[tuple[np.ndarray, np.ndarray, np.ndarray | None]]]:
        """:meth:`turn_features` of each crop, the feature passes of all crops and turns computed together
        (:func:`vision.card_features.crop_features_many`: the same numbers as one by one); at the quarter turns
        ``tried`` only when given (default :meth:`turns_to_try`; a list: each crop's own, e.g. square tiles each read
        at its own parity of turns)."""
        cfg = self.config
        each = (list(tried) if tried and isinstance(tried[0], tuple)
                else [self.turns_to_try() if tried is None else tuple(tried)] * len(crops))
        passes = [[t for t in tr if t - 2 not in tr] for tr in each]   # a half turn t + 2 is t's maps turned
        feats = iter(crop_features_many([turn_crop(c, t) for c, ps in zip(crops, passes, strict=True) for t in ps],
                                        cfg, self.shape))
        out = []
        for crop, own in zip(crops, each, strict=True):
            got: dict[int, tuple[np.ndarray, np.ndarray, np.ndarray | None]] = {}
            for t in own:
                half = got.get(t - 2)
                if half is not None:
                    got[t] = (half[0][:, ::-1, ::-1], half[1], half[2])   # a view: the search reads t's maps
                    continue
                big, hist, a = next(feats)
                got[t] = (mask_face(big, cfg, self.shape, crop.shape[:2]), hist, a)
            out.append([got[t] for t in own])
        return out

    def distances(self, crop: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(distance float[N_refs, T], turns tried) of one crop against every reference (:meth:`distances_many`
        of one crop)."""
        return self.distances_many([crop])[0]

    def distances_many(self, crops: list[np.ndarray], off_centre: bool = False) -> list[tuple[np.ndarray, np.ndarray]]:
        """(distance float[N_refs, T], turns tried) of each crop (uint8[h, w, 3] BGR) against every reference.

        Coarse: every reference at every turn, centred (:meth:`_coarse_many`, :meth:`DeckSearch.coarse_many`):
        exact for the pairs near the best, which the deck's block-sum index ranks, the index's estimate for
        the rest. Fine: per crop, the ``shortlist`` closest (reference, turn) pairs at every shift within
        ``struct_shift`` (:meth:`DeckSearch.fine_ncc`), with occlusion trimming; the other pairs keep their
        coarse distance (an upper bound of the fine one: the centred shift is among the shifts tried).

        A square tile (4 turns) is first read at one parity of turns only (t and t + 2: one feature pass instead
        of two; :meth:`_distances_by_parity`; ``off_centre``: the crops are places a few pixels off their tile, see
        there); T is then 2."""
        tried = self.turns_to_try()
        if len(tried) == 4 and self.config.parity_alone > 0 and crops:
            return self._distances_by_parity(crops, off_centre)
        return self._distances_at(tried, self.turn_features_many(crops, tried))

    def _distances_at(self, tried: tuple[int, ...], feats: list[list[tuple[np.ndarray, np.ndarray, np.ndarray | None]]]
                      ) -> list[tuple[np.ndarray, np.ndarray]]:
        """:meth:`distances_many` of crops whose :meth:`turn_features_many` at the quarter turns ``tried`` are
        ``feats``."""
        turns = np.array(tried)
        return [(D, turns) for D in self._fine_many(self._coarse_many(feats, tried=tried), feats, tried)]

    def _distances_by_parity(self, crops: list[np.ndarray],
                             off_centre: bool = False) -> list[tuple[np.ndarray, np.ndarray]]:
        """:meth:`distances_many` of square tiles, each read at one parity of turns (t, t + 2) first: a tile whose
        best card there is within ``parity_alone`` at the centred shift (the coarse distances) is searched at every
        shift at that parity only, the others are read at the other parity, and a tile neither parity reads so is
        read at every turn (the features of both parities: the same numbers as for any deck). With ``off_centre``
        (places a few pixels off their tiles) a tile not read within ``parity_alone`` at the centred shift is searched
        at every shift at that parity all the same and kept at it when its best card there is then within
        ``parity_alone``.

        A square tile matched at the wrong parity is its art turned a quarter turn and stretched to the maps'
        aspect: on the Roll tiles of ``bench/card_ident.py`` its best distance is 0.88 or more, at the right parity
        0.02-0.3 (0.67 for a tile under a die): the parity kept is the one every turn would have chosen, and the
        best card, its distance and turn are the same, whichever parity is tried first. Each tile's parity tried
        first is the one its grey thumbnail matches best among the deck's art (:meth:`parity_cues`); for a deck
        without art, the one most tiles of the deck's last frame were read at (tiles on a table share their turn; 0
        at first).

        A place a few pixels off its tile (the card-sized place about an outline that lost part of the tile, a
        lattice cell) reads its tile far at the centred shift and close at the shift that meets it, whereas at the
        other parity a tile is its art a quarter turn off, far at every shift: on the Roll tables of
        ``bench/card_table_ab.py`` (layouts 1, 102 and 108, calibrated) each tile read at every turn that read within
        0.5 at one parity read 0.84 or more at the other, its best card and turn those of every turn. A tile read
        within ``parity_alone`` only after the shifts so costs one feature pass, not both parities' and every
        turn's search; one read within it at neither costs a shift search of each parity more, which is why only
        places known to be off their tile are searched so (the card-sized place of the second look,
        :func:`vision.card_match.refine_identifications`): a table read with no calibration has many crops that read
        no tile closely at either parity (Roll for the Galaxy's layouts 100-109: identify 174 -> 211 ms a frame
        with every crop searched so)."""
        cfg = self.config
        first = getattr(self, "_parity_first", 0)
        cues = self.parity_cues(crops)
        out: list[tuple[np.ndarray, np.ndarray] | None] = [None] * len(crops)
        feats: dict[tuple[int, int], list] = {}
        # (crop, parity) pairs to read: each crop at its first parity, then the rest at the other
        tries = [[k for k in range(len(crops)) if (first if cues is None else cues[k]) == p] for p in (0, 1)]
        every: list[int] = []
        kept = [0, 0]
        for rnd in range(2):
            # every crop still to read, each at its own parity, in one batch (one feature pass, one coarse and
            # one fine pass: (0, 2) and (1, 3) have the same half-turn structure)
            pending = sorted((k, p) for p in (0, 1) for k in tries[p])
            if not pending:
                break
            fs = self.turn_features_many([crops[k] for k, _ in pending], [(p, p + 2) for _, p in pending])
            again: list[list[int]] = [[], []]
            alone: list[tuple] = []
            off: list[tuple] = []
            coarse = self._coarse_many(fs, tried=(0, 2))
            # the centred distances decide (the shifts only lower them): a tile kept is searched at one parity
            centred = self._best_two_many([D + np.asarray(a, np.float32).reshape(-1, 1) for (D, _), a in
                                           zip(coarse, self._amp_terms([f[0][2] for f in fs]), strict=True)])
            for (k, p), f, (D, hel), (_, _, d1, _) in zip(pending, fs, coarse, centred, strict=True):
                feats[(k, p)] = f
                if d1 <= cfg.parity_alone:
                    alone.append((k, p, (D, hel), f))
                elif off_centre:
                    off.append((k, p, (D, hel), f))
                elif rnd == 0:
                    again[1 - p].append(k)
                else:
                    every.append(k)
            for (k, p, _, _), D in zip(alone, self._fine_many([a[2] for a in alone], [a[3] for a in alone],
                                                              [(a[1], a[1] + 2) for a in alone]), strict=True):
                out[k] = (D, np.array((p, p + 2)))
                kept[p] += 1
            # not read within it at the centred shift: searched at every shift at this parity too (a place a few
            # pixels off its tile), kept at it when that reads within (its own pass: the tiles kept above are
            # searched as before)
            fine = self._fine_many([a[2] for a in off], [a[3] for a in off],
                                   [(a[1], a[1] + 2) for a in off]) if off else []
            for (k, p, _, _), D, (_, _, d1, _) in zip(off, fine, self._best_two_many(fine), strict=True):
                if d1 <= cfg.parity_alone:
                    out[k] = (D, np.array((p, p + 2)))
                    kept[p] += 1
                elif rnd == 0:
                    again[1 - p].append(k)
                else:
                    every.append(k)
            tries = again
        if every:   # every turn: the features of both parities in the order of turns_to_try (0, 1, 2, 3)
            every.sort()
            both = [[feats[(k, 0)][0], feats[(k, 1)][0], feats[(k, 0)][1], feats[(k, 1)][1]] for k in every]
            for k, got in zip(every, self._distances_at((0, 1, 2, 3), both), strict=True):
                out[k] = got
        if kept[1 - first] > kept[first]:
            self._parity_first = 1 - first
        return out  # type: ignore[return-value]

    def parity_cues(self, crops: list[np.ndarray]) -> list[int] | None:
        """Per square crop (uint8[h, w, 3] BGR), the parity of quarter turns (0: turns 0 and 2, 1: turns 1 and 3)
        at which its grey thumbnail (:data:`PARITY_CUE_PX` square, zero mean, unit norm) correlates best with the
        deck's art (:attr:`art`, thumbnails made alike, each at 4 turns); None for a deck without art. A cue for
        which parity :meth:`distances_many` reads first, never a read: a wrong cue costs that tile the other
        parity's feature pass, as a tile laid a quarter turn from the others did before."""
        n = PARITY_CUE_PX
        if not self.art or not crops:
            return None
        refs = self._art_thumbs(n)                                                       # [A, n*n]
        q = np.stack([_thumb(c, n) for c in crops]) if len(crops) > 1 else _thumb(crops[0], n)[None]   # [K, n, n]
        # np.rot90(q, t, axes=(1, 2)) for t = 0..3, as the views it makes (its wrapper costs more than the copy)
        turned = np.stack([q, q[:, :, ::-1].swapaxes(1, 2), q[:, ::-1, ::-1], q.swapaxes(1, 2)[:, :, ::-1]],
                          axis=1)                                                        # [K, 4, n, n]
        best = (turned.reshape(len(crops) * 4, -1) @ refs.T).max(axis=1).reshape(len(crops), 4)
        return [int(max(b[1], b[3]) > max(b[0], b[2])) for b in best]

    def _art_thumbs(self, n: int) -> np.ndarray:
        """float32[A, n*n]: :func:`_thumb` of each card's art (cached)."""
        got = getattr(self, "_thumb_cache", None)
        if got is None or got[0] != (n, len(self.art), id(self.art)):
            got = ((n, len(self.art), id(self.art)), np.stack([_thumb(a, n).ravel() for a in self.art.values()]))
            self._thumb_cache = got
        return got[1]

    def _coarse_many(self, feats: list[list[tuple[np.ndarray, np.ndarray, np.ndarray | None]]],
                     exact_all: bool = False,
                     tried: tuple[int, ...] | None = None) -> list[tuple[np.ndarray, np.ndarray]]:
        """Per crop's :meth:`turn_features`: (centred distance float32[N_refs, T] without the amplitude term,
        Hellinger colour distance float[N_refs, T]). The correlation is :meth:`DeckSearch.coarse`'s: exact for
        the references near the best (the pooled index ranks them), the pooled estimate for the rest
        (``exact_all``: exact for every reference).

        ``tried``: the quarter turns the features are at (one per entry of each crop's list; None: each entry its
        own pass). A half turn t + 2 of a turn t in ``tried`` is not normalised again: its normalised maps are t's
        read backwards (equal but for the order of the float32 sums), and its colour distances are t's (the same
        histogram)."""
        cfg = self.config
        sc = cfg.struct_shift
        T = len(feats[0]) if feats else 0
        tried = tuple(range(T)) if tried is None or len(tried) != T else tuple(tried)
        half = [tried.index(t - 2) if t - 2 in tried else -1 for t in tried]     # the entry a half turn reads
        # every crop's own passes normalised and compared by colour at once (the same numbers: row by row)
        own = [(big, h) for f in feats for i, (big, h, _) in enumerate(f) if half[i] < 0]
        norm_all = normalise_maps(np.stack([inner_maps(big, sc) for big, _ in own]) if len(own) > 1 else
                                  inner_maps(own[0][0], sc)[None]) if own else None
        hists = (np.stack([h for _, h in own]) if len(own) > 1 else own[0][1][None]) if own else None
        hel_all = (np.sqrt(np.maximum(0.0, 1.0 - np.sqrt(hists[:, None, :] * self.colour[None]).sum(axis=2)))
                   if own else None)
        if not feats:
            return []
        # every crop's maps at its T turns one above the other [n, T, C, K], and its colour distances [n, N, T]
        n, per = len(feats), len(own) // len(feats)
        norm_own = norm_all.reshape(n, per, *norm_all.shape[1:])
        hel_own = hel_all.reshape(n, per, -1)
        qns = np.empty((n, T, *norm_all.shape[1:]), norm_all.dtype)
        hels = np.empty((n, hel_all.shape[1], T), hel_all.dtype)
        j = 0
        for i in range(T):
            if half[i] >= 0:
                qns[:, i] = qns[:, half[i], :, ::-1]
                hels[:, :, i] = hels[:, :, half[i]]
            else:
                qns[:, i] = norm_own[:, j]
                hels[:, :, i] = hel_own[:, j]
                j += 1
        nccs = self.search().coarse_many(qns, cfg.colour_weight * hels, exact_all)               # [N, T] each
        return [(((1.0 - ncc) + cfg.colour_weight * hel).astype(np.float32), hel)
                for ncc, hel in zip(nccs, hels, strict=True)]

    def _fine_many(self, coarse: list[tuple[np.ndarray, np.ndarray]],
                   feats: list[list[tuple[np.ndarray, np.ndarray, np.ndarray | None]]],
                   tried: tuple[int, ...] | list[tuple[int, ...]] | None = None) -> list[np.ndarray]:
        """Per crop, float32[N_refs, T]: its coarse distances D (``coarse``: (D, hel) of :meth:`_coarse_many`; D is
        changed in place) with its ``shortlist`` closest pairs scored at every shift (for cards only those within
        ``fine_within`` of the closest), plus the amplitude term; ``feats``: each crop's :meth:`turn_features` at the
        quarter turns ``tried`` (default :meth:`turns_to_try`; a list: each crop's own), also D's columns. The
        shortlists of all the crops are searched together (:meth:`DeckSearch.fine_ncc_many`)."""
        cfg = self.config
        tried = self.turns_to_try() if tried is None else tried
        each = tried if tried and isinstance(tried[0], tuple) else [tried] * len(feats)
        trim = cfg.occlusion_drop if cfg.occlusion_weight > 0 else 0
        picked, queries = [], []
        for (D, _), f, tried, order in zip(coarse, feats, each, self._shortlists([D for D, _ in coarse]), strict=True):
            refs_of, turn_of = np.unravel_index(order, D.shape)
            picked.append((refs_of, turn_of))
            queries.append(({tried[i]: f[i][0] for i in range(len(tried)) if tried[i] - 2 not in tried}, refs_of,
                            np.array([tried[t] for t in turn_of])))
        out = []
        for (D, hel), (refs_of, turn_of), (best, trimmed), amp in zip(
                coarse, picked, self.search().fine_ncc_many(queries, cfg.struct_shift, trim),
                self._amp_terms([f[0][2] for f in feats]), strict=True):
            if trimmed is not None:
                best = (1 - cfg.occlusion_weight) * best + cfg.occlusion_weight * np.maximum(best, trimmed)
            D[refs_of, turn_of] = (1.0 - best) + cfg.colour_weight * hel[refs_of, turn_of]
            out.append(D + np.asarray(amp, np.float32).reshape(-1, 1))
        return out

    def _shortlists(self, Ds: list[np.ndarray]) -> list[np.ndarray]:
        """Per crop's coarse distances D float32[N_refs, T]: the flat indices into D of its ``shortlist`` closest
        pairs, closest first (for cards only those within ``fine_within`` of the closest), every crop's sorted at
        once when all have the same turns (numpy sorts each row as it sorts a crop alone: the same order)."""
        cfg = self.config
        if len(Ds) > 1 and len({D.shape for D in Ds}) == 1:
            flat = np.stack(Ds).reshape(len(Ds), -1)
            orders = np.argsort(flat, axis=1)[:, :cfg.shortlist]
        else:
            flat = [D.ravel() for D in Ds]
            orders = [D.argsort(axis=None)[:cfg.shortlist] for D in Ds]
        if not (cfg.fine_within > 0 and self.shape == "card"):
            return list(orders)
        # pairs too far off for any shift to matter keep their coarse distance
        return [order[d[order] <= d[order[0]] + cfg.fine_within] for d, order in zip(flat, orders, strict=True)]

    def search(self) -> DeckSearch:
        """The deck's :class:`vision.deck_search.DeckSearch`, derived from its references on first use (and again
        when they or the channel weights change); profiles saved by any version get it."""
        key = (len(self.ref_ids), id(self.struct), self.config.channel_weights, self.config.shortlist)
        cached = getattr(self, "_search_cache", None)
        if cached is None or cached[0] != key:
            sw, sh = self.config.struct_size
            _, inv, _ = self._cards()
            cached = (key, DeckSearch(self.struct, (sw, sh), self._weights(), inv,
                                      candidates=self.config.shortlist))
            self._search_cache = cached
        return cached[1]

    def _weights(self) -> np.ndarray:
        """float32[C] the channel weights, summing to 1."""
        w = np.asarray(self.config.channel_weights, np.float32)
        return w / w.sum()

    def _amp_term(self, amp: np.ndarray | None) -> np.ndarray | float:
        """float[N]: ``amp_weight`` x the mean absolute log ratio of a crop's ink amplitude ``amp``
        (:func:`ink_amplitude`) to each reference's (0.0 without amplitudes or weight)."""
        cfg = self.config
        if amp is None or self.amp is None or self.shape != "card" or cfg.amp_weight <= 0:
            return 0.0
        q = np.log(np.maximum(amp, cfg.amp_floor)).astype(np.float32)
        d = np.abs(q[None, :] - self._ref_log_amp())
        return cfg.amp_weight * (d.sum(axis=1) / d.shape[1])   # np.mean's numbers, without its wrapper

    def _ref_log_amp(self) -> np.ndarray:
        """float32[N_refs, 2]: the references' log ink amplitudes (floored at ``amp_floor``), once per deck."""
        key = (id(self.amp), self.config.amp_floor)
        cached = getattr(self, "_log_amp_cache", None)
        if cached is None or cached[0] != key:
            cached = (key, np.log(np.maximum(self.amp, self.config.amp_floor)).astype(np.float32))
            self._log_amp_cache = cached
        return cached[1]

    def _amp_terms(self, amps: list[np.ndarray | None]) -> list[np.ndarray | float]:
        """:meth:`_amp_term` of each crop's ink amplitude, every crop's at once (the same numbers)."""
        cfg = self.config
        if len(amps) < 2 or any(a is None for a in amps) or self.amp is None or self.shape != "card" \
                or cfg.amp_weight <= 0:
            return [self._amp_term(a) for a in amps]
        q = np.log(np.maximum(np.stack(amps), cfg.amp_floor)).astype(np.float32)                  # [n, 2]
        return list(cfg.amp_weight * np.abs(q[:, None, :] - self._ref_log_amp()[None]).mean(axis=2))

    def coarse_distances(self, crop: np.ndarray) -> np.ndarray:
        """float[N_refs]: the distance of one crop, as given (no turns, no shifts, no occlusion trimming), to
        every reference -- the cheap first pass of :meth:`distances`, for callers that try many crops."""
        return self.coarse_best_many([crop], turns=False)[0]

    def coarse_best_many(self, crops: list[np.ndarray], turns: bool = True,
                         tried: tuple[int, ...] | None = None) -> list:
        """Per crop: with ``turns``, its lowest coarse distance (float) to any reference at any of
        :meth:`turns_to_try` (the half turn's maps flipped, as :meth:`distances` tries it; only the quarter turns
        ``tried`` when given: a square tile at (t, t + 2) costs one feature pass instead of two); without, its
        coarse distance float[N_refs] to every reference as given (every reference read: no estimates).

        A square tile is read at every turn (no parity first as in :meth:`distances_many`: the places and outlines
        a second look ranks are poor matches by nature, which neither parity alone reads surely)."""
        cfg = self.config
        if turns:
            feats = self.turn_features_many(crops, tried)
        else:
            feats = [[(mask_face(big, cfg, self.shape, crop.shape[:2]), hist, a)]
                     for crop, (big, hist, a) in zip(crops, crop_features_many(crops, cfg, self.shape), strict=True)]
        out = []
        at = (self.turns_to_try() if tried is None else tuple(tried)) if turns else (0,)
        for (D, _), f in zip(self._coarse_many(feats, exact_all=not turns, tried=at), feats, strict=True):
            D = D + np.asarray(self._amp_term(f[0][2]), np.float32).reshape(-1, 1)
            out.append(float(D.min()) if turns else D[:, 0])
        return out

    def _flat_struct(self) -> np.ndarray:
        """float32[N, C*K] view of the references (cached)."""
        flat = getattr(self, "_flat_cache", None)
        if flat is None or flat.shape[0] != len(self.ref_ids):
            flat = np.ascontiguousarray(self.struct.reshape(len(self.ref_ids), -1), np.float32)
            self._flat_cache = flat
        return flat

    def _trimmed_ncc(self, qn: np.ndarray, w: np.ndarray, refs: np.ndarray) -> np.ndarray:
        """Correlation of each reference with the query (at its best shift, ``qn`` float[N, C, K]) over
        the map's 2 x 3 blocks minus the ``occlusion_drop`` worst-matching ones (a hand over a card)."""
        N, C, _ = qn.shape
        r = self.struct[refs]
        dot, qq, rr = self._blocks(qn * r), self._blocks(qn * qn), self._ref_blocks()[refs]
        return trimmed_ncc(dot, qq, rr, w, self.config.occlusion_drop)

    def _blocks(self, a: np.ndarray) -> np.ndarray:
        """[N, C, K] -> [N, C, 6]: sums over the structure map's 2 x 3 blocks (one matrix product with the
        blocks' 0/1 indicator)."""
        N, C, K = a.shape
        return (a.reshape(N * C, K) @ self._block_indicator()).reshape(N, C, 6)

    def _block_indicator(self) -> np.ndarray:
        """float32[K, 6]: 1 where map pixel k lies in block j (3 rows x 2 columns, row-major; cached)."""
        sw, sh = self.config.struct_size
        ind = getattr(self, "_block_cache", None)
        if ind is None or ind.shape[0] != sw * sh:
            rows = np.minimum(np.arange(sh) // (sh // 3), 2)
            cols = np.minimum(np.arange(sw) // (sw // 2), 1)
            block = (rows[:, None] * 2 + cols[None, :]).reshape(-1)
            ind = np.zeros((sw * sh, 6), np.float32)
            ind[np.arange(sw * sh), block] = 1.0
            self._block_cache = ind
        return ind

    def _ref_blocks(self) -> np.ndarray:
        """float[N_refs, C, 6]: the references' squared maps summed per block (cached)."""
        rb = getattr(self, "_ref_blocks_cache", None)
        if rb is None or rb.shape[0] != len(self.ref_ids):
            rb = self._blocks(self.struct * self.struct)
            self._ref_blocks_cache = rb
        return rb

    def score(self, crop: np.ndarray) -> tuple[str, float, float, int]:
        """(best card id, its distance, the best other card's distance, quarter turns) for one crop."""
        return self.score_many([crop])[0]

    def score_places_many(self, crops: list[np.ndarray]) -> list[tuple[str, float, float, int]]:
        """:meth:`score_many` of places a few pixels off their cards (uint8[h, w, 3] BGR each: the second look's
        card-sized places), a square tile kept at one parity of turns once its shifts read it within
        ``parity_alone`` (:meth:`distances_many`'s ``off_centre``)."""
        return self._scored(crops, True)

    def score_many(self, crops: list[np.ndarray]) -> list[tuple[str, float, float, int]]:
        """:meth:`score` of each crop (uint8[h, w, 3] BGR, one frame's cards), the references read once for all
        (:meth:`distances_many`)."""
        return self._scored(crops, False)

    def _scored(self, crops: list[np.ndarray], off_centre: bool) -> list[tuple[str, float, float, int]]:
        """:meth:`score_many` (``off_centre``: :meth:`score_places_many`)."""
        uniq = self._cards()[0]
        got = self.distances_many(crops, off_centre)
        return [(str(uniq[best_c]), d1, d2, int(turns[best_t]))
                for (_, turns), (best_c, best_t, d1, d2) in zip(got, self._best_two_many([D for D, _ in got]),
                                                                  strict=True)]

    def _best_two(self, D: np.ndarray) -> tuple[int, int, float, float]:
        """(best card's index in the sorted card ids, column of D it is best at, its distance, the best other
        card's distance) of the distances D float32[N_refs, T] of one crop. Per card and turn: the best reference,
        blended with the mean of its references (several photos of one card agreeing count more than one lucky
        match)."""
        cfg = self.config
        _, _, count = self._cards()
        order, starts = self._card_runs()
        Ds = D[order]                                                   # each card's references in one run
        per_min = np.minimum.reduceat(Ds, starts, axis=0)
        per_sum = np.add.reduceat(Ds, starts, axis=0)
        per = (1 - cfg.ref_mean_weight) * per_min + cfg.ref_mean_weight * per_sum / count[:, None]
        best_c, best_t = divmod(int(per.argmin()), per.shape[1])
        d1 = float(per[best_c, best_t])
        if len(per) < 2:
            return best_c, best_t, d1, max(1.0, 2 * d1)
        other = per.min(axis=1)
        other[best_c] = np.inf                                          # the best other card: every card but the best
        return best_c, best_t, d1, float(other.min())

    def _best_two_many(self, Ds: list[np.ndarray]) -> list[tuple[int, int, float, float]]:
        """:meth:`_best_two` of each crop's distances (float32[N_refs, T] each), every crop's at once when all have
        the same turns (the same numbers: each card's references reduced in the same order)."""
        if len(Ds) < 2 or len({D.shape for D in Ds}) > 1:
            return [self._best_two(D) for D in Ds]
        cfg = self.config
        _, _, count = self._cards()
        order, starts = self._card_runs()
        Ds_ = np.stack(Ds)[:, order]                                    # [n, N_refs, T], each card's references a run
        per_min = np.minimum.reduceat(Ds_, starts, axis=1)
        per_sum = np.add.reduceat(Ds_, starts, axis=1)
        per = (1 - cfg.ref_mean_weight) * per_min + cfg.ref_mean_weight * per_sum / count[None, :, None]
        n, cards, T = per.shape
        flat = np.argmin(per.reshape(n, -1), axis=1)
        best_c, best_t = np.divmod(flat, T)
        d1 = per.reshape(n, -1)[np.arange(n), flat]
        other = per.min(axis=2)
        other[np.arange(n), best_c] = np.inf
        d2 = other.min(axis=1) if cards > 1 else np.maximum(1.0, 2 * d1.astype(np.float64))
        return [(int(c), int(t), float(a), float(b))
                for c, t, a, b in zip(best_c.tolist(), best_t.tolist(), d1.tolist(), d2.tolist(), strict=True)]

    def _cards(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(card ids sorted, int[N_refs] each reference's index in them, int[n_cards] references per card),
        cached."""
        c = getattr(self, "_cards_cache", None)
        if c is None or len(c[1]) != len(self.ref_ids):
            uniq, inv = np.unique(np.array(self.ref_ids), return_inverse=True)
            c = (uniq, inv.reshape(-1), np.bincount(inv.reshape(-1)))
            self._cards_cache = c
        return c

    def _card_runs(self) -> tuple[np.ndarray, np.ndarray]:
        """(int[N_refs] the references ordered by card, int[n_cards] where each card's run starts in that order),
        cached: a card's references are reduced in one run (``np.minimum.reduceat``)."""
        c = getattr(self, "_runs_cache", None)
        _, inv, count = self._cards()
        if c is None or len(c[0]) != len(inv):
            c = (np.argsort(inv, kind="stable"), np.concatenate([[0], np.cumsum(count)[:-1]]).astype(np.intp))
            self._runs_cache = c
        return c

    def decide(self, scored: tuple[str, float, float, int], unknown_at: float | None = None) -> Identification:
        """Turn a :meth:`score` into an identification: 'not in the deck' above ``unknown_at``
        (default ``config.unknown_distance``); confidence from the margin and the distance."""
        cfg = self.config
        cid, d1, d2, t = scored
        thr = cfg.unknown_distance if unknown_at is None else unknown_at
        if d1 > thr:
            conf_unknown = min(1.0, 0.5 + (d1 - thr) / max(0.5 * thr, 1e-6))
            return Identification(None, conf_unknown, d1, d2, t, cid)
        margin = max(0.0, d2 - d1)
        conf_margin = 1.0 - math.exp(-margin / cfg.conf_margin_scale)
        lo = cfg.conf_dist_soft * thr
        soft = 1.0 if d1 <= lo else max(0.0, (thr - d1) / (thr - lo))
        # a crop turned by t quarter turns clockwise matches: the card's top is corner t of the quad
        return Identification(cid, conf_margin * soft, d1, d2, t, cid)

    def identify_one(self, crop: np.ndarray, unknown_at: float | None = None) -> Identification:
        """Identify one rectified portrait crop on its own (absolute 'not in the deck' threshold)."""
        return self.decide(self.score(crop), unknown_at)

    def identify(self, crops: list[np.ndarray], mirrored: bool = False) -> list[Identification]:
        """Identify the rectified portrait crops of one frame.

        'Not in the deck' is judged against the frame: a card is unknown when its distance exceeds
        ``unknown_distance`` and also the median distance of the frame's other cards by
        ``unknown_relative`` (a dim or blurry frame raises every distance alike), and always above
        ``unknown_distance_max``. ``mirrored``: the camera image is a mirror image (selfie webcams), so
        each crop is flipped left-right before matching.
        """
        if mirrored:
            crops = [cv2.flip(c, 1) for c in crops]
        return self.decide_frame(self.score_many(crops))

    def decide_frame(self, scores: list[tuple[str, float, float, int]],
                     level: list[float] | None = None) -> list[Identification]:
        """:meth:`decide` for every :meth:`score` of one frame, with the frame-relative 'not in the deck'
        threshold of :meth:`identify` (one Identification per score, in order).

        ``level``: the distances (one per score) whose median over the frame's other cards sets that threshold
        (default: the scores' own). A second look that keeps, of many outlines per card, the one the deck
        matches best lowers the distances it searched; the frame's level is that of the outlines as found."""
        cfg = self.config
        d = np.array([sc[1] for sc in scores])
        lv = d if level is None else np.asarray(level, np.float64)
        # the median of every other card's level, one row per card (each row is lv without its own entry)
        n = len(lv)
        others = np.broadcast_to(lv, (n, n))[~np.eye(n, dtype=bool)].reshape(n, n - 1) if n > 1 else None
        meds = np.median(others, axis=1) if others is not None else None
        out = []
        for k, sc in enumerate(scores):
            thr = cfg.unknown_distance
            if meds is not None and k < len(meds):
                thr = max(thr, float(meds[k]) + cfg.unknown_relative)
            out.append(self.decide(sc, min(thr, cfg.unknown_distance_max)))
        return out

def _thumb(image: np.ndarray, n: int) -> np.ndarray:
    """float32[n, n]: ``image`` (uint8[h, w, 3] BGR) in grey, reduced to n x n px (``INTER_AREA``), with zero mean
    and unit norm (all zeros for a flat image)."""
    g = cv2.resize(cv2.cvtColor(image, cv2.COLOR_BGR2GRAY), (n, n), interpolation=cv2.INTER_AREA).astype(np.float32)
    g -= g.sum() / g.size                  # np.mean's and np.linalg.norm's numbers, without their wrappers
    v = g.ravel()
    norm = float(np.sqrt(v.dot(v)))
    return g / norm if norm > 1e-6 else g
