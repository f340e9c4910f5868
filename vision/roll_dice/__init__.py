"""Roll for the Galaxy dice reader: colour and face of every die in a BGR frame.

No symbol and no colour threshold is written into this code: colours and faces are learned from
the owner's own dice (an enrollment profile, :mod:`vision.profiles`), and the colour of each die
is calibrated against the other dice of the same frame.

Pipeline of :meth:`RollDiceReader.read` (each stage a named function of its inputs and the
:class:`RollDiceConfig`, timed by :func:`vision.timing.timed_stage`), with the module each lives in:

1. ``validate_frame`` (:mod:`vision.frames`) -- reject anything that is not ``uint8[H, W, 3]`` (:class:`BadFrame`).
2. ``foreground`` (:mod:`.foreground`) -- a blurred work-size copy, a table model (large median of a tiny
   copy) and a per-pixel "not table" mask: chroma change, brightening, or darkening beyond a soft shadow,
   all measured in log-RGB so they do not depend on the light level.
3. ``find_candidates`` (:mod:`.candidates`) -- (classical) the mask cleaned (small holes = symbols filled,
   thin lines opened away), cut at colour edges (Canny on a log-scaled copy) into flat "face cores", so
   touching dice come apart at their shared edge; fragments of one face (cut by its own symbol) merged
   back; a core of k dice areas split by k-means; at a die size given by the reader. The reader tries a few
   sizes about the one the table expects (``tried_sides``: ``size_hypotheses`` x the default side; the median
   square blob's side only where the blobs show dice larger than all of those), reads each as far as stage 6 and
   the pattern test, and keeps the size whose faces most plainly look like the owner's dice (``size_evidence``:
   a symbol matched well, a die's shape, a printed middle, not a tile of the table's pattern), so a cloth's
   checks or a playmat's print, which outnumber the dice, do not set it; where no size shows a plain die (an
   empty table), the median square blob's side. The size chosen is in the read (``RollDiceRead.die_size``): a
   re-read of a window after a change reads at it alone (``read_window(..., size=)``), and a reader of one fixed
   camera (``RollDiceReader(..., remember_size=True)``, the box's) reads the next frame at it first (and at the
   other sizes whose faces the search's read holds, stage 6'), searching again only where its evidence falls
   (``size_keep_frac``) or every ``size_recheck_every`` reads.
3b. ``add_cnn_candidates`` (:mod:`.candidates`) -- a second candidate source: the d6 CNN detector
    (``vision/models/d6_detector.onnx`` through :func:`vision.d6.detect_dice`, trained on real photos); a
    CNN box whose centre is not near a classical candidate is added (a die the classical stage missed: low
    contrast to the table, touching a die of its own colour).
4. ``extract_tops`` (:mod:`.tops`, :mod:`.shape`) -- per candidate, the top face: the pixels near its body
   colour inside the candidate, its rotated rectangle; the evidence that it is a die (``face_evidence``: one
   body colour round its rim, standing out all round its outline, a symbol in its middle that is neither
   nothing -- an empty check of a gingham -- nor everything); the size a die has at each place of the
   picture (``expected_sides``: the table is a plane, so a die's side is nearly affine in its position,
   fitted to the die-like faces); a face of odd size takes that size (``snap``, off by default, instead
   moves each face onto its die's edges); a canonical upright patch (the same function cuts the enrollment
   templates) turned into an "ink" map (signed brightness and chroma distance to the body colour) and the
   die's body colour: the densest colour of the face weighted to its rim (``body_colour``), so the body
   wins over the symbol whichever way the symbols are printed (dark on light, light on coloured).
5. ``drop_duplicates`` (:mod:`.tops`) -- one face per place; a darker, non-square neighbour of the same
   chroma is a die's visible side face.
6. ``match_faces_polarised`` (:mod:`.faces`) -- normalised cross-correlation (with a noise floor: a smooth
   patch of table matches nothing) of each ink map with each enrolled (colour, face) template, over the
   four quarter turns and small shifts, each template seeing the ink as its own colour prints it (the
   brightness of the wrong sign taken out: a glare spot on a die with dark symbols is not ink), so no
   colour has to be decided first; a glare spot clipped to white and its halo (:mod:`.glare`) are left out of
   the windows they touch, window and template compared on the other pixels only (masked NCC), whichever way
   the die is printed; a die-like face matching poorly looked at again over wider shifts and a
   few scales (``relocate_faces``: a top face found a little off its die).
6'. ``recut``, ``other_sizes`` (:func:`.candidates.recut_candidates`, :mod:`.sizes`) -- once the die size is chosen,
    the face cores that ran into the table's through a gap in a die's outline are cut again at thickened edges, the
    places where a square of the die's side lies on the colour edges (:mod:`.squares`: a die the foreground took for
    table, its outline open into it; those that look most like a die's top, with a symbol's ink in the middle and a
    step to the table across three sides, first) are candidates too, and
    the top faces another tried size found where the size chosen has none are added (a tilted camera's near dice are
    larger than its far ones); both count only with a plain symbol of the owner's dice, another size's faces only on
    a die's top that overlaps no face of the size chosen.
6a. ``unsized`` (:func:`.not_dice._not_vouched`) -- where the size search found no size at which a face plainly shows a
    die (an empty patterned table: the faces are read at the size the frame's blobs give), a face is a die only as
    far as its own symbol is plainly one of the owner's: its shape and size vouch for nothing there.
6b. ``surface`` (:func:`.not_dice._not_printed`, :func:`.shape.surface_returns`) -- once the die size is chosen, a face
    whose own body colour comes back just beyond its edges all round is a square printed on the table (a player
    board's numbered box, a playmat's ring), not a die standing on it: its die score is lowered, unless its symbol
    plainly matches one of the owner's; and a face whose surface comes back round it less fully but whose edges
    show no raised body (:func:`.raised.raised_edges`: a die's bevel and side faces are its own colour in shade, a
    cloth's check or a board's box is flat with the table) is lowered too, unless its symbol matches near perfectly.
6c. ``sides`` (:func:`.not_dice._not_side`, :func:`.sides.side_faces`) -- a face beside a better-matching die, of its
    chroma but darker, whose colour runs less than a full side beyond that die's edge (foreshortened) is that die's
    side face seen obliquely: its die score is lowered; a second die lying against the first runs a full side.
6c'. ``hanging`` (:func:`.not_dice._not_hanging`, :func:`.sides.hanging_sides`) -- a box overlapping a surer die's box,
    lying from it towards the camera's nadir (:mod:`.nadir`) where that die's side faces show, of its chroma but
    darker, is a box half on the die's top and half on its side face: its die score is lowered; two dice' top faces
    never overlap, and a second die of the same colour against the first is lit as it is.
6c''. ``side_print`` (:func:`.side_print.not_side_print`) -- a box towards the nadir from a surer, better matching
    die of its chroma, where that die's side face (its symbol squashed to the face's depth) cut a fraction of a side
    deep and stretched square matches a symbol better than the box and than the same strip cut a whole side deep (a
    second die's top there), is that die's printed side face: its die score is lowered.
6d. ``texture`` (:func:`.not_dice._not_texture`, :func:`.texture.table_repeats`) -- a face whose own box recurs on the
    table round it, away from the read's other dice, is the table's pattern (a gingham's check lying against a die,
    where the size search's pattern test sees the die in its window), not a die: its die score is lowered unless
    its symbol plainly matches one of the owner's.
7. ``calibrate_colours`` (:mod:`.colours`) -- the light's colour and level: the log-RGB offset (wide along
   the lamps' warm-cool axis, narrow across it) and saturation scale that best map the frame's dice onto
   the enrolled colour prototypes, each die weighted by how surely it is a die with a known symbol
   (``symbol_weights``) and the dice of one colour counting as a few dice at most, so a busy table (many alike
   faces of a pattern) does not pull the light; with a white reference of the frame (``read(frame, white=BGR)``:
   the calibration sheet's paper, a card's border, a die known to be white) the light's colour is searched about
   what it shows (``white_offset``) instead; then each die's colour posterior, with a "none of these"
   option, in a metric where a channel near black (a red die's blue under a warm lamp) counts less, in the
   distances as in the light's refinement, and a colour may be washed out towards white (a lamp's veil) as far as
   the face's rim is one colour: a box whose rim holds a gingham's red and white checks has a pink body that is
   their blend, never a red washed out.
8. ``assemble`` (:mod:`.assemble`) -- a face is a die when its symbol, its shape or both say so
   (``die_weights``), and its middle is printed (``middle_spread``: a flat check or blot of a patterned
   table is not) in strokes (``stroke_spread``: a playmat's soft painted blot varies, but smoothly); joint
   colour x face decision with an "unreadable" option; every confidence honest: a
   face read is sure only when its best template match is good in itself (the softmax only compares
   templates), a pair the profile does not allow and an unreadable face are never sure; one die per place
   (the more confident of two overlapping reads).
8b. ``recentre`` (:mod:`.recentre`) -- each die whose face was read weakly (unreadable, or not confident) is matched
    again at squares about its box (smaller and larger; snapped onto its top face's edges, and turned to the angle
    of its edges when the box's angle is off them), each with its own body colour, since the box may have slid onto
    a side face or a neighbour, or hold a strip of one; the best square's face replaces the first read's when it
    matches plainly better and the colour read stays. The box reported and the dice found are those of the first
    read.
8c. ``boxed`` (:func:`.boxed.drop_boxed`) -- a die whose colour leaves near its edge and comes back just beyond on
    three sides or more (a printed line with the board behind it: a numbered box of a player board's track) and whose
    symbol matches poorly is a box printed on a board, not a die: it is left out whatever its weight. So is one
    framed on two sides whose body is also unlike the frame's dice of its colour (its colour distance under the
    frame's light at least 2 more than theirs): a box read off centre, or a track's corner. A die framed on all four
    sides (a closed printed line) is left out unless its symbol matches near perfectly; only dice round which the
    stage ``surface`` saw the table come back are looked at for that line (a die standing on the table has its sides
    and shadow there).
8c'. ``own_side`` (:func:`.own_side.drop_own_sides`) -- a die lying partly (a sixth of its box or more) on a surer die
    of its own colour, whose band just inside its side turned away from that die is not its colour (less than 0.17 of
    it), is that die's side face, lit like its top and read as a second die: the box runs past the foreshortened side
    face onto the table. It is left out. A real die pressed against a like die lies wholly on its own top.
8c''. ``on_other`` (:func:`.on_other.drop_on_other_dice`) -- a die of which a fifth of its square or more is the top of
    a surer die of another colour beside it (that die's body colour, joined to the square's border) lies half on that
    die and half on the cloth or board: two dice's tops lie in one plane and never overlap, so it is left out. A
    symbol printed in that colour in its own middle is not counted.
8c'''. ``light_doubt`` (:func:`.light_doubt.capped_by_light_doubt`) -- the light found from the dice may be off a
    little (a white balance's own error, a lamp off the black-body line): each read is made no surer than its body is
    of its colour with ``light_doubt_warm`` and ``light_doubt_tint`` (log units) added to its noise along the lamps'
    warm-cool axis and across it, so a blue die a slightly cooler light would show white, or a red die a greener one
    yellow, is asked about. Only confidences change.
8d. ``blank`` (:func:`.blank.not_blank`, :func:`.blank.blank_faces`) -- a die whose middle is as flat as paper
    beside the other dice read in its colour (its stroke spread at most 0.3 of the plainest of theirs: the same
    print under the same light) and whose symbol matches poorly is an empty check of a cloth or an empty box of a
    board, not a die: it is left out, unless its die weight is 0.7 or more (its shape and symbol already make it a
    die; a lamp spot on its symbol flattens its middle). A colour read on fewer than two other dice takes as its
    bar 0.3 of the middle of the dice printed alike (the same light or dark ink), at least three of them. A face
    the frame's edge may cut off is not judged.

Thresholds are in :mod:`.config`, the result types in :mod:`.observations`, the reader in :mod:`.reader`,
and enrollment (a profile from the owner's photos, :class:`vision.profiles.DiceProfile`) in :mod:`.enroll`.
"""

from .config import RollDiceConfig
from .enroll import build_profile, enroll_roll_dice, enrollment_pairs
from .observations import Candidates, RollDiceRead, RollDieObservation, TopFaces
from .reader import RollDiceReader, detect_tops, load_cnn, read_image_file, read_roll_dice
from .tops import rect_box

__all__ = [
    "Candidates",
    "RollDiceConfig",
    "RollDiceRead",
    "RollDiceReader",
    "RollDieObservation",
    "TopFaces",
    "build_profile",
    "detect_tops",
    "enroll_roll_dice",
    "enrollment_pairs",
    "load_cnn",
    "read_image_file",
    "read_roll_dice",
    "rect_box",
]
