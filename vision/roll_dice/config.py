"""Every threshold of the Roll for the Galaxy dice reader, declared once with its default and meaning: one
:class:`RollDiceConfig` made of three parts, each declared with its meanings in its own module."""

from __future__ import annotations

from dataclasses import dataclass

from .config_detect import DetectConfig
from .config_faces import FaceConfig
from .config_not_dice import NotDiceConfig

__all__ = ["DetectConfig", "FaceConfig", "NotDiceConfig", "RollDiceConfig"]


@dataclass(frozen=True)
class RollDiceConfig(DetectConfig, FaceConfig, NotDiceConfig):
    """Every threshold of the roll-dice reader, declared once, in three parts (each attribute is described where it
    is declared):

    * :class:`vision.roll_dice.config_detect.DetectConfig`: where the dice are (the foreground, the candidates, the
      die size search, the recut and square places, the faces of other sizes, the top faces, the CNN candidates);
    * :class:`vision.roll_dice.config_faces.FaceConfig`: what a die shows (the face match and its second looks, the
      light and the colours, the die weight and what a read reports);
    * :class:`vision.roll_dice.config_not_dice.NotDiceConfig`: which faces are no die (a table's pattern, a printed
      square, flat art, a side face, a printed box, a blank check, the table's texture).

    Every attribute has a default; build one with keywords (``RollDiceConfig(square_max=0)``) or
    :func:`dataclasses.replace`.
    """
