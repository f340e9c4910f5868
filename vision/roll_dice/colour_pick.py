"""Which colour a Roll die's read face is given (stage 8 of the Roll dice reader,
:func:`vision.roll_dice.assemble.decide_each`): the body decides between colours whose dice print their symbols
alike, the symbol only between colours printed differently.

A face's symbol is drawn alike on every colour (Roll for the Galaxy, "Dice faces": the six phase symbols and the
wild, whatever the die's colour); what differs from colour to colour is the ink: light symbols on some colours, dark
ones on others. So a template enrolled on a red die and one enrolled on a brown die, both printed light, are two looks
of one symbol, and which of them a die matches a little better says nothing of the die's colour: on the second
generator's tuning seeds (1000-1004, spent 120000-120003), a die's own colour's template beat another colour's
template of the same face printed alike on 53 % of 283 such pairs, by 0.008 NCC on average against a spread of about
0.05-0.1. The joint decision weighs those small NCC gaps (over ``face_temperature``) against the body's colour, and
a gap of 0.03-0.05 outweighed a body 0.6 of one colour (a red die 0.60 red by its body read brown). Here, when the
face is chosen, each colour is scored for it with the best NCC of that face among the templates printed as that
colour prints (its own or another colour's, no ``pooled_penalty``): colours printed alike then tie on the symbol and
the body decides, while a symbol printed dark still tells a colour printed dark from one printed light.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from .config import RollDiceConfig

__all__ = ["colour_scores"]


def colour_scores(colour_p: np.ndarray, ncc: np.ndarray, template_pairs: Sequence[tuple[str, str]],
                  colours: Sequence[str], faces: Sequence[str], config: RollDiceConfig,
                  template_pol: np.ndarray | None) -> np.ndarray | None:
    """Log-scores ``float[N, C, F]`` that choose a read face's colour: ``colour_weight`` x the log colour chance
    ``colour_p`` ``float[N, C]`` plus, over ``face_temperature``, for an enrolled (colour, face) pair the best NCC
    (``ncc`` ``float[N, K]``, one column per entry of ``template_pairs``) of that face among the templates printed in
    that colour's polarity (``template_pol`` ``float[K]``: -1 dark, +1 light), and for a pair no template holds the
    best NCC of that face on any colour less ``impossible_penalty`` (the colour's die has no such face, as
    :func:`vision.roll_dice.assemble.joint_scores` scores it). None when ``template_pol`` is None or
    ``alike_colour_by_body`` is off (the decision's own scores choose the colour). Raises nothing."""
    if template_pol is None or not config.alike_colour_by_body:
        return None
    n = len(colour_p)
    ci = {c: i for i, c in enumerate(colours)}
    fi = {f: i for i, f in enumerate(faces)}
    pol = np.asarray(template_pol, np.float64)
    colour_pol = {c: pol[k] for k, (c, _) in enumerate(template_pairs)}
    enrolled = np.zeros((len(colours), len(faces)), bool)
    any_colour = np.full((n, len(faces)), -1.0)
    by_print: dict[float, np.ndarray] = {}
    for k, (c, f) in enumerate(template_pairs):
        enrolled[ci[c], fi[f]] = True
        any_colour[:, fi[f]] = np.maximum(any_colour[:, fi[f]], ncc[:, k])
        same = by_print.setdefault(float(pol[k]), np.full((n, len(faces)), -1.0))
        same[:, fi[f]] = np.maximum(same[:, fi[f]], ncc[:, k])
    m = np.repeat((any_colour - config.impossible_penalty)[:, None, :], len(colours), axis=1)   # [N, C, F]
    for c, a in ci.items():
        same = by_print.get(float(colour_pol[c])) if c in colour_pol else None
        if same is not None:
            m[:, a, enrolled[a]] = same[:, enrolled[a]]
    return config.colour_weight * np.log(np.clip(colour_p, 1e-12, 1.0))[:, :, None] + m / config.face_temperature
