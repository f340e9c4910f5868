"""A small Roll for the Galaxy dice set for the face tests: four colours, each with the distinct faces its die
shows (Roll for the Galaxy, rules digest §2, "Dice: colours and exact faces"), enrolled and rendered at 640x360
with dice of 38-44 px."""

from dataclasses import replace

from vision import synth

#: colour -> the distinct faces of that colour's die
FACES_BY_COLOUR = {
    "white": ("explore", "develop", "settle", "produce", "ship"),
    "red": ("explore", "develop", "settle", "wild"),
    "blue": ("explore", "produce", "ship", "wild"),
    "green": ("explore", "settle", "produce", "wild"),
}
#: enrollment photos at the scenes' size and die side (px)
ENROLL = replace(synth.ENROLL_CONFIG, width=640, height=360, die_side=(38.0, 44.0))
#: scenes with dice apart (no die touches another)
SCENE = synth.SceneConfig(width=640, height=360, die_side=(38.0, 44.0), touching=0.0)
