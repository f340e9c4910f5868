"""Polish of the at-table flows: each finding once, --screenshot after every flow change, renaming a
touchscreen "Player N" from a phone."""

from __future__ import annotations

import numpy as np

from companion.app import MainLoop
from companion.flow import GameFlow, parse_players
from companion.flows import FLOWS
from companion.hub import StateHub
from companion.session import SessionStore
from companion.setup_flow import TableSetup
from device import FakeCamera
from vision.motion import StillnessDetector

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


def test_screenshot_hook_runs_after_each_flow_change_not_after_live_frames(tmp_path):
    store = SessionStore(tmp_path / "box.sqlite3")
    session = store.start("roll", FLOWS["roll"].settings(parse_players("Ann,Bob"), {}))
    flow = GameFlow(session, FLOWS["roll"])
    changes = []
    hub = StateHub()
    ticks = iter(range(10_000))
    loop = MainLoop(source=FakeCamera([np.zeros((60, 80, 3), np.uint8)] * 6), reader=None, session=session, hub=hub,
                    stillness=StillnessDetector(), flow=flow, stop_at_end=True, sleep=lambda s: None,
                    clock=lambda: float(next(ticks)), on_change=lambda: changes.append(session.last_seq))
    loop.publish()
    loop.publish()  # nothing changed: no second save
    assert changes == [0]
    hub.post_action("report", origin="phone", player="Ann", form="credits", values={"credits": 3})
    loop.step()
    assert changes == [0, 1]
    store.close()


def test_a_phone_renames_a_player_added_on_the_touchscreen(tmp_path):
    store = SessionStore(tmp_path / "box.sqlite3")
    setup = TableSetup(store, FLOWS["roll"])
    setup.handle({"action": "setup_player", "player": "Player 1"})
    setup.handle({"action": "setup_player", "player": "Bob"})
    setup.handle({"action": "setup_seat", "player": "Player 1", "point": [10, 20]}, (80, 60))
    out = setup.handle({"action": "setup_rename", "player": "Player 1", "name": " Ann "})
    assert out.error is None and out.message == "Player 1 is now Ann"
    players = setup.view()["players"]
    assert [(p["name"], p["colour"]) for p in players] == [("Ann", "red"), ("Bob", "blue")]
    assert players[0]["seated"] is True
    assert "already playing" in setup.handle({"action": "setup_rename", "player": "Ann", "name": "Bob"}).error
    assert "no player" in setup.handle({"action": "setup_rename", "player": "Zed", "name": "Cy"}).error
    store.close()
