"""Eclipse (first edition, Lautapelit.fi 2011) with Rise of the Ancients (2012), 2-9 players.

Players explore a galaxy of hexes around the Galactic Center for nine rounds, each of Action, Combat,
Upkeep and Cleanup. The box follows the rounds and whose turn it is, checks every hex laid (its ring,
its wormholes) and every disc and ship step, resolves combat dice, and scores the end with every row of
the scoring table, alliances included.

- :mod:`.data`: the sector hexes (package data ``rules/data/eclipse/hexes.json``) and component names;
- :mod:`.galaxy`: the map model: axial coordinates, rings, rotation, wormhole edges, portal hexes;
- :mod:`.verdict`: a rule's verdict, the record every check returns;
- :mod:`.placement`: the placement rules (explore, move, influence, start sectors, Shrines, one per hex);
- :mod:`.mapcheck`: ``companion check eclipse FILE`` (one placement case);
- :mod:`.rounds`: rounds, phases, turns, passing, the Turn Order card, simultaneous play;
- :mod:`.combat`: combat dice, Antimatter Splitter, Point Defense, allies, the Ancients' targeting;
- :mod:`.endgame`: scoring rows 1-21, alliances, the winner; ``companion score eclipse FILE``;
- :mod:`.events`, :mod:`.state`, :mod:`.map_events`, :mod:`.diplomacy`, :mod:`.game`: the engine,
  :data:`ECLIPSE_GAME`.

Sources: the Greek Rise of the Ancients rulebook (cited "Rise of the Ancients p.N") and the first-edition
base rules by section name.
"""

from rules.eclipse.endgame import final_scores
from rules.eclipse.game import ECLIPSE_GAME, EclipseGame
from rules.eclipse.mapcheck import check_placement
from rules.eclipse.state import EclipseState

__all__ = ["ECLIPSE_GAME", "EclipseGame", "EclipseState", "check_placement", "final_scores"]
