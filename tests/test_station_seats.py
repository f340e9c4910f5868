"""Among the Stars with no player zones: stations found from the cards (each around its own Main Reactor, rulebook 5.1
'Grid and adjacency') and matched to the players (the Vak reactor, where a station was, what is built, where the
players sit), else the table is told how to let the box know.

Every layout below is drawn by hand on a 1000x600 px picture with 60x90 px cards (portrait, edge to edge), and every
expected cell and owner is worked out by hand from where the cards were put.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pytest

from companion.camera.station_seats import Seat, StationSeats
from vision.stations import find_stations, joined

W, H = 60.0, 90.0


def quad(cx: float, cy: float, turned: bool = False, w: float = W, h: float = H) -> np.ndarray:
    """A card's corners clockwise from its printed top-left: upright, or turned half round (read from the far side)."""
    tl, tr = (cx - w / 2, cy - h / 2), (cx + w / 2, cy - h / 2)
    br, bl = (cx + w / 2, cy + h / 2), (cx - w / 2, cy + h / 2)
    return np.array([br, bl, tl, tr] if turned else [tl, tr, br, bl], np.float64)


@dataclass(frozen=True)
class Obs:
    """A card read as :class:`vision.observations.CardObservation` gives it (the fields the matching uses)."""

    id: str | None
    corners: np.ndarray
    confidence: float = 0.95
    cell: tuple[int, int] | None = None
    zone: str | None = None


def card(card_id, cx, cy, turned=False, confidence=0.95) -> Obs:
    return Obs(card_id, quad(cx, cy, turned), confidence)


def cells_of(cards, found):
    return [{cards[k].id: st.cells[k] for k in st.members} for st in found.stations]


# -- stations from the cards --------------------------------------------------------------------------------------


def test_two_stations_are_found_each_with_cells_from_its_own_reactor():
    """Station 1 upright: reactor at (200, 400), Customs to its right (260, 400), Garden above (200, 310). Station 2
    read from the far side (turned half round): reactor at (700, 200); its right is the frame's left, so Turret at
    (640, 200) is [0, 1]; its down is the frame's up, so Restaurant at (700, 110) is [1, 0]."""
    cards = [card("main_reactor", 200, 400), card("customs", 260, 400), card("garden", 200, 310),
             card("main_reactor", 700, 200, True), card("turret", 640, 200, True), card("restaurant", 700, 110, True)]
    found = find_stations(np.stack([c.corners for c in cards]), [c.id for c in cards], {"main_reactor"})
    assert cells_of(cards, found) == [{"main_reactor": (0, 0), "customs": (0, 1), "garden": (-1, 0)},
                                      {"main_reactor": (0, 0), "turret": (0, 1), "restaurant": (1, 0)}]
    assert found.loose == ()


def test_an_unread_card_joins_its_neighbours_and_a_card_apart_belongs_to_no_station():
    """An unidentified card at (260, 400) links the reactor (200, 400) to Customs at (320, 400): [0, 1] and [0, 2]. A
    card alone at (900, 80) is no station's."""
    cards = [card("main_reactor", 200, 400), card(None, 260, 400, confidence=0.1), card("customs", 320, 400),
             card("garden", 900, 80)]
    found = find_stations(np.stack([c.corners for c in cards]), [c.id for c in cards], {"main_reactor"})
    assert [dict(st.cells) for st in found.stations] == [{0: (0, 0), 1: (0, 1), 2: (0, 2)}]
    assert found.loose == (3,)


def test_a_card_half_a_card_off_the_grid_is_in_the_station_with_no_cell():
    """Medical Facility at (260, 445): beside the reactor (200, 400) but half a card low, so joined to nothing; it
    lies within reach of the station, which holds it with no cell (the players are told to push it flush)."""
    cards = [card("main_reactor", 200, 400), card("medical_facility", 260, 445)]
    found = find_stations(np.stack([c.corners for c in cards]), [c.id for c in cards], {"main_reactor"})
    assert [dict(st.cells) for st in found.stations] == [{0: (0, 0), 1: None}]


def test_two_stations_pushed_together_split_at_the_card_between_them():
    """Reactors at (100, 300) and (340, 300): cards at 160 and 220 and 280 in the row between. 160 is one join from
    the first reactor and three from the second: the first's [0, 1]; 280 likewise the second's [0, -1]; 220 is two
    joins from each: no station's."""
    cards = [card("main_reactor", 100, 300), card("customs", 160, 300), card("garden", 220, 300),
             card("turret", 280, 300), card("main_reactor", 340, 300)]
    found = find_stations(np.stack([c.corners for c in cards]), [c.id for c in cards], {"main_reactor"})
    assert [dict(st.cells) for st in found.stations] == [{0: (0, 0), 1: (0, 1)}, {4: (0, 0), 3: (0, -1)}]
    assert found.loose == (2,)


def test_cells_follow_the_cards_as_a_camera_shrinks_the_far_ones():
    """A row seen in steep perspective: each card 8 % narrower than the one before (60, 55.2, 50.8, 46.7, 43.0,
    39.5 px), laid edge to edge from a reactor at x=100. Counted card by card the sixth is [0, 5]; one pitch for the
    whole station (about 48.8 px, the median width) would put it (230.6 px on) at 4.7, off its cell."""
    widths = [60.0 * 0.92 ** k for k in range(6)]
    xs, x = [], 100.0
    for k, w in enumerate(widths):
        if k:
            x += (widths[k - 1] + w) / 2
        xs.append(x)
    quads = np.stack([quad(cx, 300, w=w, h=w * 1.5) for cx, w in zip(xs, widths, strict=True)])
    found = find_stations(quads, ["main_reactor"] + ["customs"] * 5, {"main_reactor"})
    assert [found.stations[0].cells[k] for k in range(6)] == [(0, j) for j in range(6)]


def test_the_vak_reactor_starts_its_own_station():
    """Rulebook 11: a Vak player builds from the Vak Main Reactor; both reactor ids are anchors."""
    cards = [card("vak_main_reactor", 200, 400), card("customs", 260, 400), card("main_reactor", 700, 200)]
    found = find_stations(np.stack([c.corners for c in cards]), [c.id for c in cards],
                          {"main_reactor", "vak_main_reactor"})
    assert [(cards[st.anchor].id, len(st.members)) for st in found.stations] == [("vak_main_reactor", 2),
                                                                                 ("main_reactor", 1)]


def test_bad_input_is_named():
    with pytest.raises(ValueError, match=r"float\[N, 4, 2\]"):
        joined(np.zeros((2, 3, 2)))
    with pytest.raises(ValueError, match="tolerance"):
        joined(np.zeros((2, 4, 2)), tolerance=0.7)
    with pytest.raises(ValueError, match="2 card ids for 1 cards"):
        find_stations(np.stack([quad(0, 0)]), ["a", "b"], {"a"})


# -- whose station is whose ---------------------------------------------------------------------------------------


BOTTOM = [card("main_reactor", 500, 480), card("customs", 560, 480)]
"""A station near the bottom edge of a 1000x600 frame."""
TOP = [card("main_reactor", 500, 120, True), card("garden", 440, 120, True)]
"""A station near the top edge, read from the far side."""


def names_cells(out):
    return {p: sorted((c.id, c.cell) for c in cs) for p, cs in out.items()}


def test_the_box_does_not_split_the_table_evenly_to_guess_whose_station_is_whose():
    """Two players, no seats tapped, one station near the bottom edge and one near the top: the box's even split would
    give the bottom to Ann, but nobody at this table was shown that split; neither station is guessed, and the table
    is told."""
    seats = StationSeats()
    out = seats.assign(BOTTOM + TOP, [Seat("Ann", "main_reactor"), Seat("Bob", "main_reactor")])
    assert out == {} and seats.unknown == ("Ann", "Bob") and seats.note is not None


def test_a_station_read_from_the_far_side_counts_its_cells_from_its_own_reactor():
    """Bob's station read from the far side (turned half round): his Garden, at the frame's left of his reactor, is
    his [0, 1]; the seats tapped settle both stations."""
    seats = StationSeats()
    out = seats.assign(BOTTOM + TOP, [Seat("Ann", "main_reactor", point=(500, 590)),
                                      Seat("Bob", "main_reactor", point=(500, 10))])
    assert names_cells(out) == {"Ann": [("customs", (0, 1)), ("main_reactor", (0, 0))],
                                "Bob": [("garden", (0, 1)), ("main_reactor", (0, 0))]}
    assert seats.note is None


def test_stations_that_nothing_tells_apart_are_not_read_and_the_table_is_told_how_to_set_them():
    """Two stations side by side, nothing built, no seats: the box does not guess; neither player
    gets a station, the note names both players and the camera's question, and each station is listed to be asked
    about, with both players as its answers."""
    cards = [card("main_reactor", 300, 480), card("main_reactor", 700, 480)]
    seats = StationSeats()
    out = seats.assign(cards, [Seat("Ann", "main_reactor"), Seat("Bob", "main_reactor")])
    assert out == {}
    assert seats.unknown == ("Ann", "Bob")
    assert "for Ann, Bob:" in seats.note and "whose station is this?" in seats.note
    assert [(u.at, u.anchor, u.cards, u.players) for u in seats.unclaimed] == [
        ((300.0, 480.0), "main_reactor", (), ("Ann", "Bob")), ((700.0, 480.0), "main_reactor", (), ("Ann", "Bob"))]


def test_what_is_built_tells_the_stations_apart():
    """The same two bare-looking stations, but Bob has Customs recorded at [0, 1] and the left one shows Customs there:
    it is Bob's, and the other is Ann's (the only one left for her)."""
    cards = [card("main_reactor", 300, 480), card("customs", 360, 480), card("main_reactor", 700, 480)]
    seats = StationSeats()
    out = seats.assign(cards, [Seat("Ann", "main_reactor"), Seat("Bob", "main_reactor", {(0, 1): "customs"})])
    assert names_cells(out) == {"Bob": [("customs", (0, 1)), ("main_reactor", (0, 0))],
                                "Ann": [("main_reactor", (0, 0))]}
    assert seats.note is None


def test_a_card_built_elsewhere_counts_against_the_station():
    """Ann has Garden recorded at [0, 1]; the left station holds Customs there, the right one Garden: the right one is
    Ann's."""
    cards = [card("main_reactor", 300, 480), card("customs", 360, 480),
             card("main_reactor", 700, 480), card("garden", 760, 480)]
    seats = StationSeats()
    out = seats.assign(cards, [Seat("Ann", "main_reactor", {(0, 1): "garden"}), Seat("Bob", "main_reactor")])
    assert names_cells(out)["Ann"] == [("garden", (0, 1)), ("main_reactor", (0, 0))]
    assert names_cells(out)["Bob"] == [("customs", (0, 1)), ("main_reactor", (0, 0))]


def test_the_seats_tapped_in_the_players_step_settle_the_stations():
    """Both stations in the bottom half; Ann tapped her seat at (750, 590), Bob at (250, 590): the right station is
    Ann's, the left Bob's."""
    cards = [card("main_reactor", 300, 480), card("main_reactor", 700, 480), card("turret", 760, 480)]
    seats = StationSeats()
    out = seats.assign(cards, [Seat("Ann", "main_reactor", point=(750, 590)),
                               Seat("Bob", "main_reactor", point=(250, 590))])
    assert names_cells(out) == {"Ann": [("main_reactor", (0, 0)), ("turret", (0, 1))],
                                "Bob": [("main_reactor", (0, 0))]}


def test_a_station_stays_its_players_where_it_was():
    """Read 1 settles the stations by the tapped seats; on read 2 the players are not given their seats, and a station
    still lies where each player's was read (one moved 10 px): each keeps their own."""
    first = [card("main_reactor", 300, 480), card("main_reactor", 700, 480)]
    seats = StationSeats()
    seats.assign(first, [Seat("Ann", "main_reactor", point=(750, 590)), Seat("Bob", "main_reactor", point=(250, 590))])
    again = [card("main_reactor", 310, 480), card("customs", 370, 480), card("main_reactor", 700, 480)]
    out = seats.assign(again, [Seat("Ann", "main_reactor"), Seat("Bob", "main_reactor")])
    assert names_cells(out) == {"Ann": [("main_reactor", (0, 0))],
                                "Bob": [("customs", (0, 1)), ("main_reactor", (0, 0))]}


def test_a_vak_station_is_the_vak_players():
    """Rulebook 11 'Races': only the Vak player builds from the Vak Main Reactor, so both stations are settled though
    they lie in one part of the table."""
    cards = [card("main_reactor", 300, 480), card("vak_main_reactor", 700, 480)]
    seats = StationSeats()
    out = seats.assign(cards, [Seat("Ann", "main_reactor"), Seat("Bob", "vak_main_reactor")])
    assert {p: cs[0].id for p, cs in out.items()} == {"Ann": "main_reactor", "Bob": "vak_main_reactor"}
    assert seats.note is None


def test_a_player_whose_reactor_is_not_seen_is_left_out_without_a_question():
    """Three players with seats tapped: Ann at the bottom (500, 590), Bob at the top left (100, 10), Cid at the top
    right (900, 10); Ann's reactor is not read, so two stations: the one at (150, 150) is Bob's and the one at
    (850, 150) Cid's (the nearest seats); Ann's station is not read this time, and nobody is asked, since no station
    is left unclaimed."""
    seats = StationSeats()
    cards = [card("main_reactor", 150, 150), card("main_reactor", 850, 150), card("turret", 910, 150)]
    out = seats.assign(cards, [Seat("Ann", "main_reactor", point=(500, 590)),
                               Seat("Bob", "main_reactor", point=(100, 10)),
                               Seat("Cid", "main_reactor", point=(900, 10))])
    assert names_cells(out) == {"Bob": [("main_reactor", (0, 0))],
                                "Cid": [("main_reactor", (0, 0)), ("turret", (0, 1))]}
    assert seats.unknown == ("Ann",) and seats.note is None


def test_the_adjacency_is_read_in_table_mm_with_a_calibration():
    """With a calibration the cards are joined in table mm: a calibration that halves every distance still finds the
    one station and its cells."""

    class Half:
        def to_mm(self, pts):
            return np.asarray(pts, np.float64) / 2

    seats = StationSeats()
    out = seats.assign(BOTTOM, [Seat("Ann", "main_reactor")], calibration=Half())
    assert names_cells(out) == {"Ann": [("customs", (0, 1)), ("main_reactor", (0, 0))]}


def test_a_reactor_read_turned_round_does_not_turn_its_station():
    """The reactor at (200, 400) read unsure (0.4) and turned half round, its station's Customs (260, 400) and Garden
    (200, 310) read sure and upright: the station reads upright, so Customs is [0, 1] and Garden [-1, 0] (turned with
    the reactor they would be [0, -1] and [1, 0])."""
    cards = [card("main_reactor", 200, 400, True, 0.4), card("customs", 260, 400), card("garden", 200, 310)]
    found = find_stations(np.stack([c.corners for c in cards]), [c.id for c in cards], {"main_reactor"},
                          confidences=[c.confidence for c in cards])
    assert cells_of(cards, found) == [{"main_reactor": (0, 0), "customs": (0, 1), "garden": (-1, 0)}]


def test_where_two_stations_touch_a_card_one_join_nearer_the_other_reactor_is_no_stations():
    """Rulebook 10 'Limited Space': stations never touch, so where they do the box cannot tell where one ends. Ann's
    reactor at (200, 400) with Customs, Garden and Turret to its right (260, 320, 380: her [0, 1] to [0, 3]); Bob's
    reactor at (500, 400) with Restaurant to its left (440: his [0, -1]); Turret and Restaurant touch. Turret is three
    joins from Ann's reactor and two from Bob's: before, it was Bob's [0, -2] and he was asked about it. Now a card
    goes to a reactor only when it is at least two joins nearer to it than to the other: Customs (1 against 4) is
    Ann's, Restaurant (1 against 4) Bob's; Garden (2 against 3) and Turret (3 against 2) are no station's."""
    cards = [card("main_reactor", 200, 400), card("customs", 260, 400), card("garden", 320, 400),
             card("turret", 380, 400), card("restaurant", 440, 400), card("main_reactor", 500, 400)]
    found = find_stations(np.stack([c.corners for c in cards]), [c.id for c in cards], {"main_reactor"})
    assert cells_of(cards, found) == [{"main_reactor": (0, 0), "customs": (0, 1)},
                                      {"main_reactor": (0, 0), "restaurant": (0, -1)}]
    assert found.loose == (2, 3)


def test_a_card_read_unsure_as_a_main_reactor_starts_no_station():
    """Ann's reactor at (200, 400) read sure, Customs to its right; at (700, 400) a card the reader names a Main
    Reactor at 0.3 (below the camera's bar of 0.6: often the card beside the real reactor), Turret to its right. Before,
    Bob's station was counted from that card and he was asked about Turret at its [0, 1]; now no station grows from it,
    Bob's station is not read this time and nobody is asked about it."""
    cards = [card("main_reactor", 200, 400), card("customs", 260, 400),
             card("main_reactor", 700, 400, confidence=0.3), card("turret", 760, 400)]
    seats = StationSeats()
    out = seats.assign(cards, [Seat("Ann", "main_reactor", point=(200, 590)),
                               Seat("Bob", "main_reactor", point=(700, 590))])
    assert names_cells(out) == {"Ann": [("customs", (0, 1)), ("main_reactor", (0, 0))]}
    assert seats.unknown == ("Bob",) and seats.note is None
