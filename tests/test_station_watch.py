"""Among the Stars station watcher: camera reads -> confirmed changes; the misplays they would cause, judged by
the rules engine (the proposed build previewed through the game's engine) with rule and fix; a finding raised by
every station read is listed once, and not again beside the camera panel's misplay.

Cells are (row, column) from the Main Reactor at (0, 0). Every expectation below is worked by
hand from the rulebook digest (../shared/rules/among-the-stars.md) and the card data.
"""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np
import pytest

from companion.app import MainLoop
from companion.camera.station import SeenCard, StationWatcher, growth_order, seen_cards
from companion.flow import GameFlow
from companion.flows import FLOWS
from companion.flows.among import AMONG_CAMERA
from companion.hub import StateHub
from companion.player_names import parse_players
from companion.session import SessionStore
from device import FakeCamera
from rules.among_the_stars.data import catalogue
from rules.among_the_stars.legality import check_placement, fix_for, legal_cells
from rules.among_the_stars.station import Placed, Station
from vision.motion import StillnessDetector

MR = SeenCard("main_reactor", (0, 0), 0.99)


@pytest.fixture
def flow(tmp_path):
    with SessionStore(tmp_path / "box.sqlite3") as store:
        session = store.start("among", FLOWS["among"].settings(parse_players("Ann,Bob"), {}))
        yield GameFlow(session, FLOWS["among"])


def feed(w: StationWatcher, cards: list[SeenCard], times: int = 2):
    out = None
    for _ in range(times):
        out = w.observe([MR, *cards])
    return out


class Camera:
    """Ann's station as the camera part sees it: each read fed twice (two agreeing reads), what it makes of it."""

    def __init__(self, flow: GameFlow, player: str = "Ann") -> None:
        self.flow, self.player = flow, player
        self.watcher = AMONG_CAMERA.watcher(player, flow.engine_view(), 2, 0.6)

    def read(self, cards: list[SeenCard]):
        out = None
        for _ in range(2):
            out = AMONG_CAMERA.observe(self.watcher, self.player, [MR, *cards], self.flow.engine_view(), self.flow)
        return out

    def misplays(self, cards: list[SeenCard]) -> list[dict]:
        return self.read(cards).misplays


# -- the watcher: agreeing reads -> changes ----------------------------------------------------------------


def test_legal_card_is_accepted_after_two_agreeing_reads() -> None:
    w = StationWatcher("Ann")
    assert w.observe([MR, SeenCard("shield_generator", (0, 1), 0.95)]) is None  # one read is not enough
    change = w.observe([MR, SeenCard("shield_generator", (0, 1), 0.95)])
    assert change is not None
    assert change.added == (("Shield Generator", (0, 1)),) and change.placed == change.added
    assert {"card": "shield_generator", "cell": [0, 1]} in change.to_json()["station"]
    # the same layout again changes nothing
    assert w.observe([MR, SeenCard("shield_generator", (0, 1), 0.95)]) is None


def test_a_hand_hiding_a_card_for_one_read_changes_nothing() -> None:
    w = StationWatcher("Fi")
    feed(w, [SeenCard("customs", (0, 1), 0.9)])
    assert w.observe([MR]) is None  # hidden once
    assert w.observe([MR, SeenCard("customs", (0, 1), 0.9)]) is None  # back: no change


def test_missing_card_is_reported_once_and_kept() -> None:
    w = StationWatcher("Gu")
    feed(w, [SeenCard("customs", (0, 1), 0.9)])
    change = feed(w, [])
    assert change.missing == (("Customs", (0, 1)),)
    assert {"card": "customs", "cell": [0, 1]} in change.to_json()["station"]
    assert feed(w, []) is None  # not reported again


def test_a_card_seen_on_another_is_replaced_not_built() -> None:
    w = StationWatcher("Ka")
    feed(w, [SeenCard("customs", (0, 1), 0.9)])
    change = feed(w, [SeenCard("turret", (0, 1), 0.9)])
    assert change.replaced == (("Turret", (0, 1)),) and change.added == ()
    assert change.missing == (("Customs", (0, 1)),)
    assert {"card": "customs", "cell": [0, 1]} in change.to_json()["station"]  # one card per cell: kept


def test_unrecognised_cards_are_unsure_not_built() -> None:
    w = StationWatcher("Ha", min_confidence=0.6)
    change = feed(w, [SeenCard("customs", (0, 1), 0.3), SeenCard(None, (1, 0), 0.0), SeenCard("turret", None, 0.9),
                      SeenCard("not_a_card", (0, -1), 0.95)])
    assert change is None
    assert "the card 1 right of the Main Reactor is not recognised yet" in w.unsure
    assert "the card 1 below the Main Reactor is not recognised yet" in w.unsure
    assert "Turret lies between cells: push it flush against its neighbour (rulebook 5.1 'Grid and adjacency': a " \
        "card shares a full edge with its station)" in w.unsure
    assert any("'not_a_card'" in u and "not an Among the Stars card" in u for u in w.unsure)


def test_a_zone_without_its_main_reactor_says_so_not_that_each_card_lies_between_cells() -> None:
    """Without a calibration the table is split evenly among the players: a station laid across the split leaves one
    player's part with locations but no Main Reactor, so no card there has a cell (Among the Stars rulebook, 3 Setup:
    the station is counted from its Main Reactor). One note says so, in each language, not one per card that it lies
    between cells."""
    from companion import i18n

    w = StationWatcher("Ann", min_confidence=0.6)
    assert w.observe([SeenCard("customs", None, 0.9), SeenCard("turret", None, 0.8)]) is None
    assert [str(u) for u in w.unsure] == ["no Main Reactor seen in Ann's part of the table: a station's cells are "
                                          "counted from it (is the station in its player's part of the table?)"]
    said = {lang: i18n.localize(w.unsure[0], lang) for lang in ("el", "pl", "hu")}
    assert said == {"el": "Ann: δεν φαίνεται Main Reactor σε αυτό το μέρος του τραπεζιού· τα κελιά ενός σταθμού "
                          "μετρώνται από αυτόν (είναι ο σταθμός στο μέρος του τραπεζιού όπου παίζει ο κάτοχός του;)",
                    "pl": "Ann: w tej części stołu nie widać karty Main Reactor; pola stacji liczy się od niego (czy "
                          "stacja leży w części stołu osoby, do której należy?)",
                    "hu": "Ann asztalrészén nem látszik a Főreaktor: az állomás mezőit ettől számoljuk (az állomás a "
                          "játékosa asztalrészén van?)"}
    assert feed(w, [SeenCard("turret", None, 0.9)]) is None   # the Main Reactor in view: this one is off the grid
    assert [str(u) for u in w.unsure] == ["Turret lies between cells: push it flush against its neighbour (rulebook "
                                          "5.1 'Grid and adjacency': a card shares a full edge with its station)"]


def test_new_places_in_the_order_a_station_grows() -> None:
    # (0, 2) joins the station only through (0, 1): it comes after it
    assert growth_order({(0, 0)}, {(0, 2), (0, 1), (5, 5)}) == [(0, 1), (0, 2), (5, 5)]


def test_seen_cards_from_reader_observations_by_zone() -> None:
    obs = [SimpleNamespace(id="main_reactor", cell=(0, 0), confidence=0.97, zone="Ann"),
           SimpleNamespace(id="customs", cell=[0, 1], confidence=0.8, zone="Ann"),
           SimpleNamespace(id="turret", cell=None, confidence=0.7, zone="Bo")]
    ann = seen_cards(obs, zone="Ann")
    assert ann == [SeenCard("main_reactor", (0, 0), 0.97), SeenCard("customs", (0, 1), 0.8)]
    assert len(seen_cards(obs)) == 3


def test_bad_settings_are_refused() -> None:
    with pytest.raises(ValueError, match="confirm_reads"):
        StationWatcher("x", confirm_reads=0)
    with pytest.raises(ValueError, match="min_confidence"):
        StationWatcher("x", min_confidence=1.5)


# -- the misplays: the proposed build previewed through the engine ----------------------------------------


def test_diagonal_card_is_a_misplay_with_the_nearest_legal_cells(flow) -> None:
    # Shield Generator at (1, 1) touches the Main Reactor only at a corner (rulebook 4: diagonal is
    # not adjacent). Legal cells now: the four neighbours of (0, 0). Nearest to (1, 1): (0, 1) and
    # (1, 0) at 1 step, then (-1, 0) and (0, -1) at 3 steps; ties in row then column order.
    misplays = Camera(flow).misplays([SeenCard("shield_generator", (1, 1), 0.9)])
    assert "adjacency" in {m["rule"] for m in misplays if m["severity"] == "error"}
    adj = next(m for m in misplays if m["rule"] == "adjacency")
    assert adj["fix"] == ("move it to one of these places: 1 right of the Main Reactor, 1 below the Main Reactor, "
                          "1 above the Main Reactor")
    assert adj["source"].startswith("Among the Stars, rulebook 4 'Build a location'")
    assert (adj["player"], adj["card"], adj["cell"]) == ("Ann", "Shield Generator", [1, 1])
    assert flow.session.last_seq == 0  # previewed: nothing recorded


def test_moving_the_misplaced_card_clears_it(flow) -> None:
    cam = Camera(flow)
    assert cam.misplays([SeenCard("shield_generator", (1, 1), 0.9)])
    out = cam.read([SeenCard("shield_generator", (1, 0), 0.9)])
    assert out.misplays == []
    assert [p.text for p in out.proposals] == ["Ann built Shield Generator: 1 below the Main Reactor?"]


def test_fighter_launch_bay_next_to_the_main_reactor_must_go_back(flow) -> None:
    # Fighter Launch Bay: not within distance 3 of the Main Reactor. With only the Main Reactor
    # built, every free cell is 1 step away: no cell allows it, so the fix is to take it back.
    flb = next(m for m in Camera(flow).misplays([SeenCard("fighter_launch_bay", (0, 1), 0.9)])
               if m["rule"] == "fighter_launch_bay")
    assert flb["severity"] == "error"
    assert flb["fix"].startswith("take it back: no free cell")


def test_second_shield_generator_breaks_max(flow) -> None:
    # Shield Generator has MAX 1 per station (rulebook 10 'Location cards'); the first one, seen and not yet
    # confirmed, is on the table all the same.
    cam = Camera(flow)
    cam.read([SeenCard("shield_generator", (0, 1), 0.9)])
    misplays = cam.misplays([SeenCard("shield_generator", (0, 1), 0.9), SeenCard("shield_generator", (0, -1), 0.9)])
    m = next(m for m in misplays if m["rule"] == "max_per_station")
    assert m["cell"] == [0, -1]
    assert m["fix"].startswith("take it back")


def test_card_beside_an_observation_dome(flow) -> None:
    # Observation Dome at (0, 1): no card may be built beside it. A Turret then at (1, 1) (beside
    # the dome, and beside nothing else... (1, 0) is empty) breaks the dome's rule; the nearest legal
    # cells for the Turret are those not beside the dome: (1, 0) (1 step), then (-1, 0), (0, -1).
    cam = Camera(flow)
    cam.read([SeenCard("observation_dome", (0, 1), 0.9)])
    misplays = cam.misplays([SeenCard("observation_dome", (0, 1), 0.9), SeenCard("turret", (1, 1), 0.9)])
    dome = next(m for m in misplays if m["rule"] == "observation_dome")
    assert dome["card"] == "Turret"
    assert dome["fix"] == ("move it to one of these places: 1 below the Main Reactor, 1 above the Main Reactor, "
                           "1 left of the Main Reactor")


def test_two_cards_in_one_missed_read_are_checked_as_a_chain(flow) -> None:
    # Customs (no energy) at (0, 1) and Crew Quarters (no energy) at (0, 2): (0, 2) is only legal
    # because (0, 1) is there; checked in that order, neither is misplaced. Both in one round is a second
    # action (rulebook 4 'Round overview': one action a round), found on the second card only.
    out = Camera(flow).read([SeenCard("crew_quarters", (0, 2), 0.9), SeenCard("customs", (0, 1), 0.9)])
    assert [p.payload["cell"] for p in out.proposals] == [[0, 1], [0, 2]]
    assert [(m["card"], m["cell"]) for m in out.misplays] == [("Crew Quarters", [0, 2])]
    assert "already took an action" in out.misplays[0]["message"]


def test_energy_spent_in_the_engine_station_is_an_error(flow) -> None:
    # The Main Reactor starts with 2 cubes; two Turrets (1 energy each, within range 2) built at (0, 1) and
    # (0, -1) spend them (rulebook 4 'Build a location': energy from reactors within 2 cells). A third Turret
    # at (1, 0) cannot be paid for.
    flow.report("Ann", "location", {"card": "Turret", "cell": [0, 1]})
    flow.report("Ann", "location", {"card": "Turret", "cell": [0, -1]})
    misplays = Camera(flow).misplays([SeenCard("turret", (0, 1), 0.9), SeenCard("turret", (0, -1), 0.9),
                                      SeenCard("turret", (1, 0), 0.9)])
    energy = next(m for m in misplays if m["rule"] == "energy_range")
    assert energy["severity"] == "error" and energy["cell"] == [1, 0]


def test_a_card_seen_before_and_not_confirmed_spends_its_energy_too(flow) -> None:
    # A Turret seen at (0, 1) and not confirmed yet is on the table: with it, a Heavy Ion Cannon (2 energy) at
    # (0, -1) has 1 of the Main Reactor's 2 cubes left.
    cam = Camera(flow)
    cam.read([SeenCard("turret", (0, 1), 0.9)])
    misplays = cam.misplays([SeenCard("turret", (0, 1), 0.9), SeenCard("heavy_ion_cannon", (0, -1), 0.9)])
    assert any(m["rule"].startswith("energy") and m["cell"] == [0, -1] for m in misplays)
    # without the Turret the cannon is paid for
    assert not [m for m in Camera(flow, "Bob").misplays([SeenCard("heavy_ion_cannon", (0, -1), 0.9)])
                if m["rule"].startswith("energy")]


def test_credits_too_few_means_take_it_back(flow) -> None:
    flow.report("Ann", "credits", {"delta": -6})  # 10 - 6 = 4 credits; Command Centre costs 5
    m = next(m for m in Camera(flow).misplays([SeenCard("command_centre", (0, 1), 0.9)]) if m["rule"] == "credits")
    assert m["fix"].startswith("take it back: it costs more credits")


def test_legal_cells_and_fix_in_the_rules() -> None:
    cat = catalogue()
    st = Station((Placed(cat.card("main_reactor"), (0, 0), cubes=2),))
    # Solar Panels must be beside a reactor: any neighbour of the Main Reactor.
    assert legal_cells(st, cat.card("solar_panels")) == [(-1, 0), (0, -1), (0, 1), (1, 0)]
    # Fighter Launch Bay: nowhere yet.
    assert legal_cells(st, cat.card("fighter_launch_bay")) == []
    # A legal placement needs no fix.
    turret = cat.card("turret")
    assert fix_for(check_placement(st, turret, (0, 1)), st, turret, (0, 1)) == ""


# -- a station finding is listed once ------------------------------------------------------------
# Fighter Launch Bay next to the Main Reactor breaks its card text (not within distance 3 of the Main Reactor)
STATION = [{"card": "Main Reactor", "cell": [0, 0], "cubes": 0},
           {"card": "Fighter Launch Bay", "cell": [0, 1], "year": 1}]


def among(tmp_path):
    store = SessionStore(tmp_path / "box.sqlite3")
    session = store.start("among", FLOWS["among"].settings(parse_players("Ann,Bob"), {}))
    return store, GameFlow(session, FLOWS["among"])


def test_a_finding_raised_by_every_station_read_is_listed_once(tmp_path):
    store, flow = among(tmp_path)
    for _ in range(3):  # three accepted camera reads of the same station
        flow.session.append("station_read", {"station": STATION}, player="Ann", origin="camera")
    whats = [f["what"] for f in flow.findings()]
    assert len([w for w in whats if "Fighter Launch Bay" in w]) == 1
    assert len(whats) == len(set(whats))
    store.close()


class FakeCameraFlow:
    """The camera block of a view showing one misplay (what companion.camera publishes)."""

    def __init__(self, misplays):
        self.misplays = misplays

    def view(self):
        return {"questions": [], "misplays": self.misplays}


def test_a_misplay_on_the_camera_panel_is_not_listed_again_in_the_findings(tmp_path):
    store, flow = among(tmp_path)
    flow.session.append("station_read", {"station": STATION}, player="Ann", origin="camera")
    [finding] = [f for f in flow.findings() if "Fighter Launch Bay" in f["what"]]
    misplay = {"player": "Ann", "card": "Fighter Launch Bay", "cell": [0, 1], "message": "too close"}
    loop = MainLoop(source=FakeCamera([np.zeros((60, 80, 3), np.uint8)]), reader=None, session=flow.session,
                    hub=StateHub(), stillness=StillnessDetector(), flow=flow, camera_flow=FakeCameraFlow([misplay]))
    view = loop.view()
    assert finding["what"] not in [f["what"] for f in view["findings"]]
    assert view["findings"] == view["game"]["findings"]
    # answered: the panel drops it and the findings list shows it (once)
    loop.camera_flow = FakeCameraFlow([])
    assert [f["what"] for f in loop.view()["findings"]].count(finding["what"]) == 1
    store.close()


def test_a_card_already_built_keeps_its_cell_when_another_read_names_a_copy_the_box_has_not():
    """Galactic Bank (2 in the box, rulebook 2 'Components') built at [0, 1] and [1, 0], read a little less sure there
    now, and a new card at [0, -1] read as a third Galactic Bank, surer: the misread is the question, not the built
    card. Before, the built card at [1, 0] was dropped for the surer misread and the station said it had moved to
    [0, -1]: the real card there never added, the one at [1, 0] gone from the station."""
    from companion.camera.station import StationWatcher
    from companion.camera.watch import SeenCard

    w = StationWatcher("Łucja", confirm_reads=1)
    built = [SeenCard("main_reactor", (0, 0), 0.99), SeenCard("galactic_bank", (0, 1), 0.95),
             SeenCard("galactic_bank", (1, 0), 0.9)]
    assert w.observe(built) is not None
    change = w.observe([SeenCard("main_reactor", (0, 0), 0.99), SeenCard("galactic_bank", (0, 1), 0.8),
                        SeenCard("galactic_bank", (1, 0), 0.7), SeenCard("galactic_bank", (0, -1), 0.97)])
    assert change is None or (change.moved == () and change.added == ())
    assert w.layout == {(0, 0): "main_reactor", (0, 1): "galactic_bank", (1, 0): "galactic_bank"}
    assert [str(u) for u in w.unsure] == ["the card 1 left of the Main Reactor is not recognised yet"]
