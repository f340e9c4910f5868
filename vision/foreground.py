"""The table's colour model and the foreground mask of what lies on the table (cards, tiles, hexes).

The table is sampled along the image's border (a strip of ``border_frac`` of the short side): a plain table
(felt, wood in a light fall-off) is one colour with its own spread; a patterned one (a gingham cloth's red, white
and mixed checks, a printed playmat) is several. :func:`table_colour_model` fits one robust Gaussian in Lab, and,
when the border's colours form clearly separate groups, up to ``fg_modes`` of them (k-means, each group its own
Gaussian); :func:`foreground_mask` marks the pixels far (Mahalanobis distance) from every group. With one model
for a gingham cloth its spread covers a light or washed-out card (the card is lost), and the checks farthest from
its centre (the white ones) are taken for cards; with a model per colour of the cloth both go.

A box reads the same table again and again: :class:`TableMemory` keeps the model of one read for the next ones
while it still explains the border (its cloth and light do not change between reads), and fits it again when
it stops doing so.

Colours are OpenCV's 8-bit Lab (L, a, b in 0-255); distances are in units of the model's standard deviation.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import cv2
import numpy as np

__all__ = ["TableColour", "TableMemory", "border_strip", "foreground_mask", "table_colour_model"]


@dataclass(frozen=True)
class TableColour:
    """One colour of the table: ``centre`` float32[3] (Lab) and ``whiten`` float32[3, 3], the upper Cholesky factor
    of the inverse covariance (``whiten.T @ whiten``): ``|whiten @ (x - centre)|`` is the Mahalanobis distance."""

    centre: np.ndarray
    whiten: np.ndarray


class TableMemory:
    """The table's colours (:func:`table_colour_model`, after :func:`foreground_mask`'s choice between one and
    several) of the last read that fitted them, kept for the next reads of the same table.

    A read reuses them while they explain its border about as well as they explained the border they were fitted
    on: the share of the border's pixels (the same sample the fit takes, ``fg_mode_samples``) within 3 standard
    deviations of the nearest colour falls by less than ``config.fg_reuse_drop`` (a light that changed, a card laid
    across the border, another table: they fall by more, and the colours are fitted again). One memory per table
    and per view of it (the camera's frame, the calibrated top-down image; colours kept from an image of another
    size or number of colours are not reused): the border of a window cut from the table is no table border."""

    def __init__(self) -> None:
        self.kept: tuple[tuple, list[TableColour], float] | None = None   # view, colours, share they explained
        self.fits = 0

    def recall(self, view: tuple, strip: np.ndarray, config: Any) -> list[TableColour] | None:
        """The kept colours if they were fitted on the same ``view`` (the image's shape and ``fg_modes``) and
        still explain ``strip`` (uint8[3, N] Lab, :func:`border_strip`), else None."""
        kept = self.kept
        if kept is None or kept[0] != view:
            return None
        _, colours, share = kept
        return colours if explained_share(strip, colours, config) >= share - config.fg_reuse_drop else None

    def keep(self, view: tuple, strip: np.ndarray, colours: list[TableColour], config: Any) -> None:
        """Keep ``colours``, fitted on ``strip`` of ``view``, for the next reads."""
        self.kept = (view, colours, explained_share(strip, colours, config))
        self.fits += 1


def explained_share(strip: np.ndarray, colours: list[TableColour], config: Any) -> float:
    """The share (0-1) of a sample of ``strip`` (uint8[3, N] Lab; every ``N // fg_mode_samples``-th pixel) within
    3 standard deviations (Mahalanobis) of the nearest of ``colours``."""
    sub = strip[:, ::max(1, strip.shape[1] // int(config.fg_mode_samples))].astype(np.float32)
    near = np.zeros(sub.shape[1], bool)
    for col in colours:
        y = col.whiten @ (sub - col.centre[:, None])
        near |= (y * y).sum(axis=0) < 9.0
    return float(np.count_nonzero(near)) / max(1, sub.shape[1])


def border_strip(lab: np.ndarray, frac: float) -> np.ndarray:
    """uint8[C, N]: the pixels of ``lab`` (uint8[H, W, C]) in a strip of ``frac`` of the short side (at least 2 px)
    along each of the four sides (the corners twice)."""
    h, w, c = lab.shape
    b = max(2, int(frac * min(h, w)))
    return np.ascontiguousarray(np.concatenate([lab[:b].reshape(-1, c), lab[-b:].reshape(-1, c),
                                                lab[:, :b].reshape(-1, c), lab[:, -b:].reshape(-1, c)]).T)


def _counts(v: np.ndarray) -> np.ndarray:
    """int[C, 256]: the histogram of each row of ``v`` (uint8[C, N])."""
    return np.stack([np.bincount(row, minlength=256) for row in v]) if v.shape[1] else np.zeros((v.shape[0], 256), int)


def _median_of_counts(counts: np.ndarray, n: int) -> np.ndarray:
    """float32[C]: the median of each row's values from its histogram ``counts`` (int[C, 256], each summing to n > 0),
    as ``np.median`` gives it (the mean of the two middle values for an even n)."""
    out = np.empty(counts.shape[0], np.float32)
    for i, row in enumerate(counts):
        cum = np.cumsum(row)
        lo = int(np.searchsorted(cum, (n - 1) // 2 + 1))   # the ((n - 1) // 2)-th smallest (0-based)
        hi = int(np.searchsorted(cum, n // 2 + 1))         # the (n // 2)-th smallest
        out[i] = np.float32(lo) if lo == hi else (np.float32(lo) + np.float32(hi)) / np.float32(2)
    return out


class _Moments:
    """The pixel count, sums float64[3], sums of products float64[3, 3] and histograms int[3, 256] of a strip's pixels
    (uint8[3, N]), from which those of any subset follow by taking away the rest's: a refit without the few pixels
    beyond 3 standard deviations reads only those. Every sum is of integers below 2^53, so exact in float64."""

    def __init__(self, strip: np.ndarray) -> None:
        self.strip = strip
        x = strip.astype(np.float64)
        self.n, self.s1, self.s2, self.counts = strip.shape[1], x.sum(axis=1), x @ x.T, _counts(strip)

    def of(self, keep: np.ndarray) -> tuple[int, np.ndarray, np.ndarray, np.ndarray]:
        """(n, sums, sums of products, histograms) of the pixels where ``keep`` (bool[N]) holds."""
        out = int(np.count_nonzero(~keep))
        if out == 0:
            return self.n, self.s1, self.s2, self.counts
        if out > self.n // 2:   # most left out: the kept pixels' own sums
            sub = self.strip[:, keep]
            x = sub.astype(np.float64)
            return sub.shape[1], x.sum(axis=1), x @ x.T, _counts(sub)
        sub = self.strip[:, ~keep]
        x = sub.astype(np.float64)
        return self.n - out, self.s1 - x.sum(axis=1), self.s2 - x @ x.T, self.counts - _counts(sub)


def _colour(centre: np.ndarray, cov: np.ndarray) -> TableColour:
    ci = np.linalg.inv(cov).astype(np.float32)
    whiten = np.linalg.cholesky(ci.astype(np.float64)).T.astype(np.float32)   # ci = whiten.T @ whiten
    return TableColour(np.asarray(centre, np.float32), whiten)


def _robust_gaussian(strip: np.ndarray, floor: float) -> TableColour:
    """One Gaussian (median centre, covariance + ``floor`` on the diagonal) of ``strip`` (uint8[3, N]), refitted
    without the pixels beyond 3 standard deviations (cards or markers touching the border) until it settles."""
    border = strip.astype(np.float32)
    keep = np.ones(border.shape[1], bool)
    moments = _Moments(strip)
    for _ in range(4):
        n, s1, s2, counts = moments.of(keep)
        bg = _median_of_counts(counts, n)
        # the covariance np.cov gives of the kept pixels (a shift by bg changes none), from their exact sums
        cov = (s2 - np.outer(s1, s1) / n) / (n - 1) + np.eye(3) * floor
        ci = np.linalg.inv(cov).astype(np.float32)
        d = border - bg[:, None]
        md = np.sqrt(np.maximum(((ci @ d) * d).sum(axis=0), 0.0))
        new_keep = md < 3.0
        if new_keep.sum() < 0.3 * len(new_keep) or np.array_equal(new_keep, keep):
            break
        keep = new_keep
    return _colour(bg, cov)


def _kmeans(x: np.ndarray, k: int, iterations: int = 12) -> np.ndarray:
    """int[N] group of each row of ``x`` (float[N, 3]): Lloyd's k-means from ``k`` seeds spread along the data's
    main axis (its quantiles there), so the same pixels always give the same groups."""
    mu = x.mean(axis=0)
    _, _, vt = np.linalg.svd(x - mu, full_matrices=False)
    proj = (x - mu) @ vt[0]
    order = np.argsort(proj)
    centres = x[order[((np.arange(k) + 0.5) / k * len(x)).astype(int)]]
    labels = np.zeros(len(x), int)
    for _ in range(iterations):
        d2 = ((x[:, None, :] - centres[None, :, :]) ** 2).sum(axis=2)
        new = d2.argmin(axis=1)
        if _ and np.array_equal(new, labels):
            break
        labels = new
        centres = np.array([x[labels == j].mean(axis=0) if np.any(labels == j) else centres[j] for j in range(k)])
    return labels


def _loglik(x: np.ndarray, labels: np.ndarray, k: int, floor: float, min_share: float) -> float:
    """Mean log-likelihood per pixel (nats) of ``x`` (float[N, 3]) under ``k`` Gaussians fitted to its groups
    (``labels``), each pixel taken by its likeliest group (the classification likelihood); -inf when a group holds
    less than ``min_share`` of the pixels."""
    n = len(x)
    best = np.full(n, -np.inf)
    for j in range(k):
        p = x[labels == j]
        if len(p) < max(10, min_share * n):
            return -np.inf
        mu = p.mean(axis=0)
        cov = np.cov((p - mu).T) + np.eye(3) * floor
        d = x - mu
        md2 = (d @ np.linalg.inv(cov) * d).sum(axis=1)
        ll = np.log(len(p) / n) - 0.5 * np.log(np.linalg.det(cov)) - 0.5 * md2
        best = np.maximum(best, ll)
    return float(best.mean())


def table_colour_model(strip: np.ndarray, config: Any) -> list[TableColour]:
    """The table's colours from its border pixels ``strip`` (uint8[3, N] Lab, :func:`border_strip`).

    One robust Gaussian (:func:`_robust_gaussian`), unless ``config.fg_modes`` > 1 and the pixels split into k
    groups (k-means, k = 2 .. ``fg_modes``, on at most ``fg_mode_samples`` of them) that explain them better by at
    least ``fg_mode_gain`` nats per pixel for each group more (a patterned cloth; a plain table split in two gains
    about nothing), each group holding at least ``fg_mode_share`` of the border (a card cut by the border is no
    colour of the table); then one robust Gaussian per group.
    """
    floor = float(config.fg_cov_floor)
    modes = int(getattr(config, "fg_modes", 1))
    if modes > 1 and strip.shape[1] >= 50 * modes:
        step = max(1, strip.shape[1] // int(config.fg_mode_samples))
        sub = strip[:, ::step]
        x = sub.T.astype(np.float64)
        base = _loglik(x, np.zeros(len(x), int), 1, floor, 0.0)
        best, best_ll = None, base
        for k in range(2, modes + 1):
            labels = _kmeans(x, k)
            ll = _loglik(x, labels, k, floor, float(config.fg_mode_share))
            if ll >= base + (k - 1) * float(config.fg_mode_gain) and ll > best_ll:
                best, best_ll = (k, labels), ll
        if best is not None:
            k, labels = best
            return [_robust_gaussian(np.ascontiguousarray(sub[:, labels == j]), floor) for j in range(k)]
    return [_robust_gaussian(strip, floor)]


def _mask(lab: np.ndarray, colours: list[TableColour], config: Any) -> np.ndarray:
    """uint8[H, W] (0/255): the pixels of ``lab`` (uint8[H, W, 3] Lab) far from every colour of ``colours``
    (before the opening of :func:`foreground_mask`). Each step that needs no earlier frame-sized result again
    writes over it (a fresh frame-sized buffer costs about as much as the step that fills it)."""
    ones = np.ones((1, 3), np.float32)
    xs, dist2 = [], None
    for col in colours:
        x = cv2.subtract(lab, tuple(float(v) for v in col.centre) + (0.0,), dtype=cv2.CV_32F)
        y = cv2.transform(x, col.whiten)
        d2 = cv2.transform(cv2.multiply(y, y, dst=y), ones)
        dist2 = d2 if dist2 is None else cv2.min(dist2, d2, dst=dist2)
        xs.append(x)
        del y, d2   # fewer live frame-sized buffers: the next ones reuse their memory (about 20% of the time)
    dist = cv2.sqrt(dist2, dst=dist2)
    scaled = dist * 10.0
    d8 = np.minimum(scaled, 255.0, out=scaled).astype(np.uint8)
    otsu, _ = cv2.threshold(d8, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    thr = float(np.clip(otsu / 10.0, config.fg_min_dist, config.fg_max_dist))
    euclid2 = None
    for x in xs:
        e2 = cv2.transform(cv2.multiply(x, x, dst=x), ones)
        euclid2 = e2 if euclid2 is None else cv2.min(euclid2, e2, dst=euclid2)
    return ((dist > thr) | (euclid2 > config.fg_euclid * config.fg_euclid)).astype(np.uint8) * 255


def foreground_mask(img: np.ndarray, config: Any, memory: TableMemory | None = None) -> np.ndarray:
    """uint8[H, W] mask (0/255) of the pixels of ``img`` (uint8[H, W, 3] BGR) unlike the table.

    The distance of a pixel is its Mahalanobis distance (Lab, blurred 5 x 5) from the nearest of the table's colours
    (:func:`table_colour_model` of the border strip), thresholded by Otsu within [``fg_min_dist``,
    ``fg_max_dist``]; a pixel more than ``fg_euclid`` (plain Lab units) from every colour's centre is foreground
    whatever its spread; specks (3 x 3 opening) are dropped. ``config``: a :class:`vision.card_detect.CardsConfig`.

    Several colours are kept only if they take the table's pattern, not the cards: what they remove from the
    one-colour model's foreground over the whole image is at most ``fg_mode_inside`` times what they remove in the
    border strip (a colour of the table clears its pattern alike everywhere; a printed playmat whose colours the
    cards share clears the cards too, and the inside loses far more than the border).

    A colour's covariance absorbs the table's own variation (wood grain and light fall-off mostly change
    lightness), so a dark card frame of another hue still stands out. The distance is the length of the colour
    difference after the model's whitening, on OpenCV's per-pixel matrix transform.

    ``memory``: the colours of an earlier read of the same table, reused while they still explain the border
    (:class:`TableMemory`), and where they do not, the colours fitted here, kept for the next read."""
    lab = cv2.cvtColor(cv2.GaussianBlur(img, (5, 5), 0), cv2.COLOR_BGR2LAB)
    strip = border_strip(lab, config.border_frac)
    view = (img.shape, int(getattr(config, "fg_modes", 1)))
    kept = memory.recall(view, strip, config) if memory is not None else None
    if kept is not None:
        return cv2.morphologyEx(_mask(lab, kept, config), cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
    colours = table_colour_model(strip, config)
    mask = _mask(lab, colours, config)
    if len(colours) > 1:
        single = [_robust_gaussian(strip, float(config.fg_cov_floor))]
        one = _mask(lab, single, config)

        def share(m: np.ndarray) -> tuple[float, float]:
            edge = border_strip(m[..., None], config.border_frac)
            return float(np.count_nonzero(edge)) / edge.size, float(np.count_nonzero(m)) / m.size

        (b1, a1), (bk, ak) = share(one), share(mask)
        if a1 - ak > float(config.fg_mode_inside) * max(b1 - bk, 0.0):
            mask, colours = one, single
    if memory is not None:
        memory.keep(view, strip, colours, config)
    return cv2.morphologyEx(mask, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
