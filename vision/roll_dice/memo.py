"""Per-face measures of one read's ink patches, measured once and kept while those patches live.

A read's top faces (:class:`vision.roll_dice.observations.TopFaces`) keep one ink array from the top-face stage to the
end of the read, and the stages after it weigh the same faces again and again: each die-weight
(:func:`vision.roll_dice.assemble.die_weights`, about fifteen times a read on a full Roll table) measures the spread of
every face's middle and of its strokes (:func:`vision.roll_dice.shape.middle_spread`,
:func:`vision.roll_dice.shape.stroke_spread`) on ink that has not changed. :class:`InkMemo` keeps such a measure of an
ink array that cannot change (read-only and owning its pixels: the top-face stage makes its ink so), keyed by the
array itself and the settings the measure reads, and gives a copy of the same numbers back; any other array (a
writeable one, a view, the faces a stage took out of them) is measured as before. The numbers are the same to the bit
either way (``tests/test_roll_dice_memo.py``)."""

from __future__ import annotations

import threading
import weakref
from collections import OrderedDict
from collections.abc import Callable, Hashable

import numpy as np

__all__ = ["InkMemo", "frozen"]


def frozen(ink: np.ndarray) -> bool:
    """Whether ``ink`` cannot change under a measure kept of it: read-only and owning its data (no writeable array
    shares its pixels)."""
    return isinstance(ink, np.ndarray) and not ink.flags.writeable and ink.base is None


class InkMemo:
    """A measure ``float[N]`` per face of ink arrays ``[N, ...]``, kept for the last ``size`` (array, settings) pairs.

    :meth:`of` gives ``compute(ink)`` (a copy of it when kept), keeping it for a :func:`frozen` array only; an entry
    names its array by a weak reference, so an array no longer in use is never matched by another that takes its
    memory. Safe from several threads (a race measures twice, never mixes two arrays' numbers). Raises what
    ``compute`` raises."""

    def __init__(self, size: int = 16) -> None:
        if size < 1:
            raise ValueError(f"an ink memo keeps at least one measure, got size {size!r}")
        self.size = int(size)
        self._kept: OrderedDict[tuple[int, Hashable], tuple[weakref.ref, np.ndarray]] = OrderedDict()
        self._lock = threading.Lock()

    def of(self, ink: np.ndarray, key: Hashable, compute: Callable[[np.ndarray], np.ndarray]) -> np.ndarray:
        """``compute(ink)``, measured once per :func:`frozen` ``ink`` and ``key`` (the settings ``compute`` reads)."""
        if not frozen(ink):
            return compute(ink)
        at = (id(ink), key)
        with self._lock:
            got = self._kept.get(at)
        if got is not None and got[0]() is ink:
            return got[1].copy()
        value = np.asarray(compute(ink))
        kept = value.copy()
        kept.setflags(write=False)
        with self._lock:
            self._kept[at] = (weakref.ref(ink), kept)
            self._kept.move_to_end(at)
            while len(self._kept) > self.size:
                self._kept.popitem(last=False)
        return value
