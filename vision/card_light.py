"""A look at a weakly read card with its light evened out: shadows and coloured light across a card.

A card's features (:mod:`vision.card_features`) even out a light that falls off smoothly across the card (a plane
per colour channel, fitted to the paper) and then white-balance the whole card by its paper. A shadow with an edge
across the card (a hand, a phone, the box's lid) or a band of warm light from one side and cool light from the
other is no plane: the paper under it stays darker or tinted after the white balance, and its darkness and colour
read as ink (an open shape in a shadow reads as a hatched one; a purple shape in a blue cast as a red one).

:func:`even_light` divides the crop, per colour channel, by an estimate of the paper's own light at every pixel:
the crop's morphological closing (the ink, narrower than the closing's disc, is filled in with the paper around it)
smoothed, at a reduced size. Two looks: with a disc of a fifth of the card's short side the solid shapes, hatched
fills and strokes of a card's print are filled in, while a shadow or cast wider than the disc is divided out; a
band of shade or of tinted light narrower than that (an arm's shade, a warm lamp's light across a card in a cool
shade) is filled in with the paper round it and stays, so a fine look with a disc of 0.07 of the side (wider than
strokes and hatching, narrower than such a band) divides it out, and flattens the solid shapes wider than its disc.
Art larger than a look's disc (a full-art card, a solid shape in the fine look) is flattened too: a look reads a
card only when the deck matches it better than the card as found and than the other look (:func:`evened_scores`),
and is then never a sure read (``max_confidence``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import cv2
import numpy as np

__all__ = ["LightConfig", "even_light", "evened_scores"]


@dataclass(frozen=True)
class LightConfig:
    """Thresholds of the evened look.

    Attributes:
        weak_conf: a card read 'not in the deck', or with a confidence below this, gets the evened look (an open
            shape half in a shadow reads close to both its open and its hatched card: a low confidence, at any
            distance).
        radius: the closing's disc radius, as a fraction of the crop's short side (larger than half the widest
            stroke or shape of the print; smaller than the shadows to be divided out) ...
        fine_radius: ... and that of the fine look (larger than half a stroke or a hatching's pitch; smaller than a
            narrow band of shade); 0: no fine look.
        work_side: the paper's light is estimated on the crop resized to this many pixels on its short side.
        level_percentile: the evened crop is scaled so that this percentile of the light estimate (per channel)
            keeps its value (the card's overall level and colour stay for the features' own white balance).
        min_gain: an evened look replaces a card's score only when its distance is lower by this much ...
        min_gain_other: ... or by this much when it names another card than the card's own score (as the outline
            search, :class:`vision.card_match.RefineConfig`).
        max_confidence: a card read only by its evened look is reported with at most this confidence (which dark
            regions are shadow and which are print is a guess: never a sure read).
    """

    weak_conf: float = 0.5
    radius: float = 0.2
    fine_radius: float = 0.07
    work_side: int = 64
    level_percentile: float = 85.0
    min_gain: float = 0.006
    min_gain_other: float = 0.05
    max_confidence: float = 0.6


def even_light(crop: np.ndarray, config: LightConfig | None = None, radius: float | None = None) -> np.ndarray:
    """``crop`` (uint8[h, w, 3] BGR, a rectified card) divided per channel by the paper's light at each pixel
    (see the module), scaled back to the crop's level: uint8[h, w, 3]. ``radius``: the closing's disc radius as a
    fraction of the short side (default ``config.radius``).

    Raises:
        ValueError: ``crop`` is not an [h, w, 3] image of at least 4 x 4 pixels.
    """
    cfg = config or LightConfig()
    if crop.ndim != 3 or crop.shape[2] != 3 or min(crop.shape[:2]) < 4:
        raise ValueError(f"even_light takes an [h, w, 3] crop of at least 4 x 4 px, not {crop.shape}")
    h, w = crop.shape[:2]
    s = cfg.work_side / min(h, w)
    small = cv2.resize(crop, (max(4, round(w * s)), max(4, round(h * s))),
                       interpolation=cv2.INTER_AREA).astype(np.float32)
    r = max(1, int(round((cfg.radius if radius is None else radius) * cfg.work_side)))
    disc = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * r + 1, 2 * r + 1))
    light = cv2.morphologyEx(small, cv2.MORPH_CLOSE, disc, borderType=cv2.BORDER_REPLICATE)
    light = cv2.GaussianBlur(light, (0, 0), r / 2.0)
    light = np.maximum(cv2.resize(light, (w, h), interpolation=cv2.INTER_LINEAR), 4.0)
    level = np.percentile(light.reshape(-1, 3), cfg.level_percentile, axis=0).astype(np.float32)
    return np.clip(crop.astype(np.float32) / light * level, 0.0, 255.0).astype(np.uint8)


def evened_scores(deck: Any, crops: Sequence[np.ndarray], scores: list[tuple[str, float, float, int]],
                  weak: Sequence[bool], mirrored: bool,
                  config: LightConfig | None = None) -> tuple[list[tuple[str, float, float, int]], list[bool]]:
    """The scores (:meth:`vision.deck.DeckProfile.score`) of a frame's cards, those of the ``weak`` ones replaced by
    the score of their crop with its light evened (:func:`even_light`; flipped left-right first when ``mirrored``;
    of its two looks, ``radius`` and ``fine_radius``, the one the deck matches better) where the deck matches that
    better by ``min_gain`` (``min_gain_other`` when it names another card). The looks of all the weak cards are
    scored in one call.

    Returns (scores, evened): a new list of scores, and per card whether its score is now its evened look's (the
    caller caps such a card's confidence at ``max_confidence``)."""
    cfg = config or LightConfig()
    scores = list(scores)
    evened = [False] * len(scores)
    idx = [k for k, wk in enumerate(weak) if wk]
    if not idx:
        return scores, evened
    radii = [r for r in (cfg.radius, cfg.fine_radius) if r > 0]
    looks = [even_light(cv2.flip(crops[k], 1) if mirrored else crops[k], cfg, r) for k in idx for r in radii]
    got = _score_all(deck, looks)
    best = [min(got[i * len(radii):(i + 1) * len(radii)], key=lambda s: s[1]) for i in range(len(idx))]
    for k, s in zip(idx, best, strict=True):
        gain = cfg.min_gain if s[0] == scores[k][0] else cfg.min_gain_other
        if s[1] < scores[k][1] - gain:
            scores[k], evened[k] = s, True
    return scores, evened


def _score_all(deck: Any, crops: list[np.ndarray]) -> list[tuple[str, float, float, int]]:
    score_many: Callable | None = getattr(deck, "score_many", None)
    return score_many(crops) if score_many is not None else [deck.score(c) for c in crops]
