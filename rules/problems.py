"""What is wrong with a score or check file, by code: the English of each :class:`rules.scoring.ScoreInputError`.

Each problem has a stable code (``"not_object"``) and parameters (``got``: what the file holds there); its English
template is marked with :func:`rules.text.N_`, so ``pybabel extract`` puts it in the box's catalogs and ``companion``
says the error in a player's language from its code and parameters (``companion.i18n.message_of``: the error's
message is a :class:`rules.text.Text`), never by matching its English. The English stays in the exception (logs,
``--json`` without ``--language``). Pure: no I/O.

A parameter that is itself words (``got``: "an array", "the number 3"; ``range``: "between 0 and 9") is a
:class:`rules.text.Text` too (:func:`json_type`, :func:`shown_number`, :func:`value_range`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rules.text import N_, Text

__all__ = ["JSON_REASONS", "PROBLEMS", "json_reason", "json_type", "problem", "shown_number", "value_range"]

PROBLEMS: dict[str, str] = {
    # the shape of a JSON file (rules.scoring: Fields, check_int, json_documents, check_typed_text)
    "not_object": N_("must be a JSON object, got {got}"),
    "unknown_field": N_("is not a known field (known: {known})"),
    "missing": N_("is missing (required)"),
    "not_text": N_("must be a non-empty string, got {got}"),
    "not_array": N_("must be a JSON array, got {got}"),
    "not_whole": N_("must be a whole number, got {got}"),
    "out_of_range": N_("must be {range}, got {value}"),
    "same_name": N_("{name} is also the name of {other} ({other_name}); names must differ, ignoring case"),
    "key_twice": N_("gives the key {key} twice in one object (which one is meant?)"),
    "too_deep": N_("is nested too deeply (lists or objects inside each other about 1000 levels deep; a position "
                   "file is a few levels deep)"),
    "not_json": N_("is not JSON ({error} at line {line} column {column})"),
    "not_json_line": N_("is not JSON ({error} at column {column})"),
    "empty": N_("is empty: there is no JSON in it"),
    "untypable": N_("holds {character}: retype it"),
    "untypable_key": N_("has a key holding {character}: retype it"),
    # what the box holds (Roll for the Galaxy, Race for the Galaxy)
    "vp_chips_in_box": N_("the players hold {held} VP in chips together, but the box has only {most} VP of chips "
                          "({chips})"),
    "unknown_die_colour": N_("unknown die colour {colour} (colours: {colours})"),
    # Roll for the Galaxy (rules.roll.endgame)
    "roll.player_count": N_("must list 1 to 5 players (Roll for the Galaxy is for 2-5), got {count}"),
    "roll.tile_name": N_("must be a tile name (a string)"),
    "roll.unknown_tile": N_("unknown tile {tile}"),
    "roll.tile_twice": N_("{tile} is listed twice (also tableau[{index}])"),
    "roll.two_factions": N_("{tile} is on another faction tile than {other}; a player has one faction tile"),
    "roll.two_sides": N_("{tile} and {other} are the two sides of one tile; a tile is either a world or a development"),
    "roll.second_home": N_("{tile} is a second home world (also {home}); a player has one"),
    "roll.unknown_world": N_("unknown world {world}"),
    "roll.goods_on_development": N_("{world} is a development; goods sit on worlds"),
    "roll.world_not_in_tableau": N_("{world} is not a world in this player's tableau"),
    "roll.goods_list": N_('must be a list of die colours, e.g. ["blue"]'),
    "roll.gray_world": N_("{world} is a gray world, which holds no goods"),
    "roll.goods_with_reserves": N_("{count} goods on {world}; a world holds at most {most} with Galactic Reserves"),
    "roll.goods_without_reserves": N_("{count} goods on {world}; a world holds at most {most} without Galactic "
                                      "Reserves"),
    "roll.tile_owned_twice": N_("{tile} is also in {player}'s tableau; each tile exists once"),
    "roll.dice_count": N_("the players own {count} {colour} dice in all, but the game has only {most}"),
    # Race for the Galaxy (rules.race.scoring, rules.race.cards)
    "race.player_count": N_("Race for the Galaxy has {low}-{high} players, got {count}"),
    "race.empty_tableau": N_("is empty (every tableau holds at least its start world)"),
    "race.no_goods": N_("{card} holds no goods (only worlds with a goods kind do)"),
    "race.second_development": N_("second copy of the development {card} (a tableau holds one copy of each "
                                  "development, rulebook Develop phase)"),
    "race.too_many_copies": N_("{card} is in play {count} times but the deck has {most}"),
    "race.card_name": N_("must be a card name (a string), got {got}"),
    "race.unknown_card": N_("unknown card {card}"),
    # Among the Stars (rules.among_the_stars.endgame)
    "among.unknown_card": N_("unknown card {name}"),
    "among.unknown_objective": N_("unknown objective {name}"),
    "among.unknown_race": N_("unknown race {name}"),
    "among.station_list": N_("must be a JSON array of cards"),
    "among.cell": N_("must be [i, j], two whole numbers, got {got}"),
    "among.cell_taken": N_("cell {cell} already holds {card} ({other}); one card per cell"),
    "true_or_false": N_("must be true or false"),
    "among.face_down": N_("only a Power Reactor is laid face down to fill a split, not {card}"),
    "among.main_reactor_cell": N_("the {card} must be at [0, 0], got {cell}"),
    "among.no_main_reactor": N_("has no Main Reactor at [0, 0]"),
    "among.main_reactors": N_("has {count} Main Reactors; a station has one"),
    "among.other_game": N_("this input is for {game}, not 'among'"),
    "among.objectives_list": N_("must be a JSON array of objective names"),
    "among.objective_name": N_("must be an objective's name"),
    "among.objective_twice": N_("{objective} is listed twice"),
    "among.player_count": N_("must list 1 to 4 players (Among the Stars is for 2-4), got {count}"),
    "among.race_taken": N_("another player plays {race}: the box has one tile per race (Among the Stars rulebook, "
                           "Setup 7)"),
    "among.secret_objective": N_("only a Qualeen player keeps a secret objective"),
    "among.secret_face_up": N_("{objective} is face up on the table: a secret objective is one of the 2 extra "
                               "objectives drawn (Among the Stars, Races: Qualeen)"),
    "among.secret_revealed_unsaid": N_("{objective} kept secretly is revealed as soon as it is met ({threshold} VP; "
                                       "Qualeen, Hungarian FAQ) and this track is at {vp}: add secret_revealed, true "
                                       "when it was (its {award} VP are on the track already) or false when not "
                                       "(they are scored now)"),
    "among.secret_revealed_other": N_("only a secret Accelerated Construction is revealed before the end of the game "
                                      "(Qualeen, Hungarian FAQ): leave secret_revealed out for any other secret "
                                      "objective, or none"),
    # Eclipse (rules.eclipse.endgame)
    "true_or_false_got": N_("must be true or false, got {got}"),
    "eclipse.rise_species": N_("{species} is a Rise of the Ancients species, and rise_of_the_ancients is false"),
    "eclipse.reputation_tiles": N_("holds {count} tiles; the box has {most}"),
    "eclipse.reputation_slots": N_("holds {tiles} reputation tiles, and {ambassadors} Ambassador tiles were received, "
                                   "but the reputation track has {slots} spaces (reputation_slots): each tile kept "
                                   "takes a space; a full track keeps a new tile only in place of one (Eclipse, "
                                   "reputation tiles)"),
    "eclipse.reputation_slots_fleet": N_("holds {tiles} reputation tiles, and {ambassadors} Ambassador tiles were "
                                         "received, but the reputation track has {slots} spaces (reputation_slots) "
                                         "and {development} one more: {most}; each tile kept takes a space (Eclipse, "
                                         "reputation tiles; Rise of the Ancients p.5)"),
    "eclipse.reputation_bag": N_("brings the reputation tiles of {vp} VP to {count} (this player's and those listed "
                                 "before); the bag holds {most} (Eclipse, reputation tiles; Rise of the Ancients p.12 "
                                 "adds tiles for 7-9 players)"),
    "eclipse.token_without_development": N_("a {tile} tile lies on a hex only with the {tile} Development in "
                                            "'developments'"),
    "eclipse.rise_count": N_("is a Rise of the Ancients count, and rise_of_the_ancients is false"),
    "eclipse.hex_twice": N_("hex {hex} is listed twice; a hex holds one influence disc"),
    "eclipse.rise_hex": N_("hex {hex} is a Rise of the Ancients tile, and rise_of_the_ancients is false"),
    "eclipse.development_twice": N_("{development} is listed twice; each Development tile is unique"),
    "eclipse.rise_developments": N_("Developments are Rise of the Ancients tiles, and rise_of_the_ancients is false"),
    "eclipse.alliance_not_in_play": N_("must be null or one of alliances_in_play ({alliances}), got {got}"),
    "eclipse.alliance_side": N_('must be "face" or "traitor" for a player holding an Alliance tile, got {got}'),
    "eclipse.no_alliance_side": N_("must be null for a player holding no Alliance tile, got {got}"),
    "eclipse.one_holder": N_("{holder} holds {what} too; there is one"),
    "listed_twice": N_("{name} is listed twice"),
    "eclipse.alliance_count": N_("names {count} alliances; the box has {most}"),
    "eclipse.rise_alliances": N_("Alliances are a Rise of the Ancients module, and rise_of_the_ancients is false"),
    "eclipse.rise_modules": N_("names Rise of the Ancients modules, and rise_of_the_ancients is false"),
    "eclipse.rise_seats": N_("{count} players: the base game seats 2-6, Rise of the Ancients up to 9 (p.3), and "
                             "rise_of_the_ancients is false"),
    "eclipse.module_off": N_("belongs to the {module} module, and setup.modules leaves it out"),
    "eclipse.setup_players": N_("is {count}, but {listed} players are listed"),
    "eclipse.rise_orbital": N_("the Ancient Orbital is a Rise of the Ancients discovery"),
    "eclipse.player_count": N_("must list 1-9 players (Eclipse with Rise of the Ancients seats 2-9), got {count}"),
    "eclipse.boards": N_("{count} players chose {species}, and the player boards that show them number {boards} "
                         "(each board is double-sided; one player plays it)"),
    "eclipse.alliances_few_players": N_("Alliances are not used with {count} players (4 or more)"),
    "eclipse.alliance_tiles": N_("{count} players hold a {alliance} tile; an alliance has {most}"),
    "eclipse.alliance_members": N_("{count} players hold a {alliance} tile; with {players} players an alliance has "
                                   "at most 2 members (Rise of the Ancients p.10)"),
    "eclipse.hex_held_twice": N_("hex {hex} is also in {other}.controlled_hexes; a hex holds one influence disc"),
    "eclipse.development_held_twice": N_("{other} holds {development} too; each Development tile is unique"),
    # Eclipse files (rules.eclipse.inputs, rules.eclipse.mapcheck)
    "eclipse.game": N_('must be "eclipse", got {got}'),
    "eclipse.kind": N_("must be {kind} for this command, got {got}"),
    "eclipse.kind_other_command": N_("must be {kind} for this command, got {got} (a {got_kind} case is read by "
                                     "{command})"),
    "eclipse.sector_id": N_('must be a sector id as a string of three digits ("204"), got {got}'),
    "eclipse.unknown_sector": N_("no sector {sector} in Eclipse or Rise of the Ancients"),
    "eclipse.unknown_name": N_("no {what} named {name} in Eclipse or Rise of the Ancients"),
    "eclipse.one_of": N_("must be one of the {what}: {choices}; got {got}"),
    "eclipse.action": N_("must be one of {actions}, got {got}"),
    "eclipse.two_tiles": N_("two tiles at {cell}: this one and {other}"),
    "eclipse.sector_twice": N_("sector {sector} is also {other}; each tile is in the game once"),
    "eclipse.no_tile_from": N_("no map tile at {cell}: the action starts from a hex on the map"),
    "eclipse.to_in_explore": N_("is for a move or influence case; an explore case names the new tile in 'explored'"),
    "eclipse.explored_in_other": N_("is for an explore case; a {action} case names its target in 'to'"),
    "eclipse.no_tile_to": N_("no map tile at {cell}: a {action} goes to a hex on the map"),
    "eclipse.same_hex": N_("is the same hex as 'from'"),
}
"""Every problem's code and its English template (the catalog's msgid)."""


JSON_REASONS: dict[str, str] = {
    "Expecting value": N_("a value was expected"),
    "Expecting property name enclosed in double quotes": N_("a key in double quotes was expected"),
    "Expecting ':' delimiter": N_("a ':' was expected"),
    "Expecting ',' delimiter": N_("a ',' was expected"),
    "Extra data": N_("more text follows the end of the JSON value"),
    "Unterminated string starting at": N_("a string is not closed with a double quote"),
    "Invalid control character at": N_("a control character (a tab or a line break) inside a string"),
    "Invalid \\escape": N_("a backslash escape that JSON does not know"),
    "Invalid \\uXXXX escape": N_("a \\u escape without four hexadecimal digits"),
    "Illegal trailing comma before end of object": N_("a comma before the end of an object"),
    "Illegal trailing comma before end of array": N_("a comma before the end of an array"),
    "a number with more than 4300 digits": N_("a number with more than 4300 digits"),
}
"""Python's JSON parser's reasons (``json.JSONDecodeError.msg``, the C scanner's and the pure-Python one's first
words) and their words for a player (the catalog's msgid)."""


def json_reason(reason: str) -> str | Text:
    """Why a text is not JSON, said so it can be translated: ``reason`` (``json.JSONDecodeError.msg``) as a
    :class:`Text` of :data:`JSON_REASONS`, or unchanged (a reason this Python says that the table lacks)."""
    for english, words in JSON_REASONS.items():
        if reason == english or reason.startswith(english + " ") or reason.startswith(english + ":"):
            return Text(words)
    return reason


def problem(code: str, /, **params: Any) -> Text:
    """The problem ``code`` with its ``params``, as a :class:`Text` (English as a ``str``; ``template`` is
    ``PROBLEMS[code]``).

    Raises:
        KeyError: ``code`` is not in :data:`PROBLEMS`, or its template names a parameter not given (a
            programming error).
    """
    return Text(PROBLEMS[code], **params)


def shown_number(number: int) -> str | Text:
    """A whole number for a message: its digits, or how many there are when they would not fit a line."""
    return str(number) if abs(number) < 10**15 else Text("a number of {count} digits", count=len(str(abs(number))))


def json_type(value: Any) -> str | Text:
    """What a JSON value is, for "got ...": ``null``, ``a boolean (true)``, ``the number 3``, ``the string 'x'``,
    ``an array``, ``an object``."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return Text("a boolean ({value})", value=str(value).lower())
    if isinstance(value, int) and abs(value) >= 10**15:
        return shown_number(value)
    if isinstance(value, (int, float)):
        return Text("the number {value}", value=value)
    if isinstance(value, str):
        return Text("the string {value}", value=repr(value))
    if isinstance(value, list):
        return Text("an array")
    if isinstance(value, Mapping):
        return Text("an object")
    return type(value).__name__


def value_range(low: int | None, high: int | None) -> Text:
    """``between {low} and {high}``, ``at least {low}`` or ``at most {high}`` (one of the two may be None)."""
    if low is not None and high is not None:
        return Text("between {low} and {high}", low=low, high=high)
    if low is not None:
        return Text("at least {low}", low=low)
    return Text("at most {high}", high=high)
