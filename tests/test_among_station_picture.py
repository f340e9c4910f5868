"""Among the Stars with the camera and no zones: the picture beside "whose station is this?", so the players see which
station the box means (the words alone, "the Main Reactor with Customs", fit any station holding Customs beside its
reactor).

The table is ``tests/test_among_whose_station.py``'s (Ann's and Bob's stations side by side, nothing recorded, no
seats tapped: each player builds their own station from their own Main Reactor, Among the Stars rulebook, 3 'Setup'),
painted on a 1000x600 px frame: a green table, the station with Customs a red reactor and a blue Customs, the bare
reactor white. Where each pixel of a picture comes from is worked out by hand from the cards' corners (60x90 px).
"""

from __future__ import annotations

from types import SimpleNamespace

import cv2
import numpy as np
import pytest

from companion.app import MainLoop
from companion.camera import CameraFlow
from companion.camera.station_picture import OUTLINE, station_crop
from companion.hub import Pairing
from companion.screen import TouchScreen
from companion.web import create_app
from device import FakeCamera, Frame
from tests.test_among_camera_stations import (
    among,
    quad,
    reader,
    store,  # noqa: F401 (fixture)
)
from tests.test_among_whose_station import BARE, TWO, WITH_CUSTOMS
from tests.test_phone_browser import browser  # noqa: F401 (the fixture)
from vision.motion import StillnessDetector

TABLE, RED, BLUE, WHITE = (40, 110, 40), (30, 30, 220), (220, 60, 30), (235, 235, 235)
"""BGR: the table, the reactor with Customs, Customs, the bare reactor."""


def painted() -> np.ndarray:
    image = np.full((600, 1000, 3), TABLE, np.uint8)
    for (_card, x, y, turned), colour in zip(TWO, (RED, BLUE, WHITE), strict=True):
        cv2.fillPoly(image, [np.round(quad(x, y, turned)).astype(np.int32)], colour)
    return image


def read(cam: CameraFlow, image: np.ndarray) -> list:
    cam.schedule(0.0)
    assert cam.due(0.0)
    return cam.read(Frame(image=image, timestamp=0.0, index=0, source="synthetic"), 0.0)


def camera(flow) -> CameraFlow:
    return CameraFlow(flow, deck=SimpleNamespace(art=None), read_cards=reader(TWO))


def asked(cam: CameraFlow) -> dict[str, dict]:
    return {q["text"]: q for q in cam.view()["questions"]}


def decoded(data: bytes) -> np.ndarray:
    image = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR)
    assert image is not None
    return image


def share(image: np.ndarray, colour, tolerance: int = 40) -> float:
    """How much of ``image`` is within ``tolerance`` of ``colour`` on every channel."""
    return float((np.abs(image.astype(int) - colour).max(axis=2) <= tolerance).mean())


CUSTOMS_STATION = [quad(300, 450), quad(360, 450)]
"""The station with Customs: cards over x 270-390, y 405-495 px."""


def test_the_picture_is_the_station_with_half_a_card_of_table_round_it_outlined_and_the_rest_dimmed():
    """Half a card's long side (45 px) round x 270-390, y 405-495: x 225-435, y 360-540 (210 x 180 px), scaled by
    320/210 to 320 x 274 px. Inside the Customs card (360, 450) the picture keeps its blue; the table at the crop's
    corner is dimmed to 0.4; the station's top edge (y 405 -> 68.6 px down) is outlined with a dark edge, and the seam
    between the reactor and Customs (x 330 -> 160 px) only with the reactor's thin line, no dark edge: one outline round
    the station."""
    crop = station_crop(painted(), CUSTOMS_STATION)
    assert crop.shape == (274, 320, 3)
    scale = 320 / 210
    at = lambda x, y: (round((y - 360) * scale), round((x - 225) * scale))  # noqa: E731
    assert np.abs(crop[at(360, 450)].astype(int) - BLUE).max() <= 6
    assert np.abs(crop[at(300, 450)].astype(int) - RED).max() <= 6
    assert np.abs(crop[3, 3].astype(int) - np.array(TABLE) * 0.4).max() <= 3
    row, col = at(300, 405)
    edge = crop[row - 3:row + 4, col - 3:col + 4].reshape(-1, 3).astype(int)
    assert (np.abs(edge - OUTLINE).max(axis=1) <= 40).any()
    row, col = at(330, 450)
    seam = crop[row - 4:row + 5, col - 4:col + 5].reshape(-1, 3).astype(int)
    assert (np.abs(seam - OUTLINE).max(axis=1) <= 40).any()   # the reactor's line
    assert not (seam.max(axis=1) <= 60).any()
    top = crop[row - 137 + 68 - 6:row - 137 + 68 + 7, col - 4:col + 5].reshape(-1, 3).astype(int)
    assert (top.max(axis=1) <= 60).any()   # the station's outline, dark-edged


def test_a_station_at_the_frames_edge_is_cut_at_the_edge_and_never_made_larger_than_twice_its_pixels():
    image = painted()
    crop = station_crop(image, [quad(30, 45)], side=320)   # a card in the top-left corner: x 0-60+45, y 0-90+45
    assert crop.shape == (round(135 * 2), round(105 * 2), 3)


@pytest.mark.parametrize("outline, problem", [
    ([], "four (x, y) corners"),
    ([[(0, 0), (1, 0), (1, 1)]], "four (x, y) corners"),
    ([[(0, 0), (1, 0), (1, float("nan")), (0, 1)]], "not a finite number"),
    ([quad(5000, 5000)], "outside the 1000x600 px frame"),
    ("not a station", "four (x, y) corners"),
])
def test_an_outline_the_picture_cannot_be_cut_from_is_refused_naming_the_problem(outline, problem):
    with pytest.raises(ValueError, match=problem.replace("(", r"\(").replace(")", r"\)")):
        station_crop(painted(), outline)


def test_a_frame_of_another_shape_is_refused():
    with pytest.raises(ValueError, match="uint8"):
        station_crop(np.zeros((600, 1000), np.uint8), CUSTOMS_STATION)


def test_each_whose_station_question_names_the_picture_of_its_own_station(store):  # noqa: F811
    """The question about the station with Customs shows red and blue and no white; the bare reactor's, white and
    neither of the others (the stations lie 280 px apart, more than the picture's margin)."""
    cam = camera(among(store))
    read(cam, painted())
    questions = asked(cam)
    pictures = cam.pictures()
    assert sorted(pictures) == sorted(f"station-{q['id']}" for q in questions.values())
    for text, q in questions.items():
        assert q["picture"].startswith(f"/picture/station-{q['id']}.jpg?v=")
        picture = decoded(pictures[f"station-{q['id']}"])
        assert max(picture.shape[:2]) <= 320
        if text == WITH_CUSTOMS:
            assert share(picture, BLUE) > 0.05 and share(picture, RED) > 0.05 and share(picture, WHITE) == 0
        else:
            assert text == BARE
            assert share(picture, WHITE) > 0.05 and share(picture, BLUE) == 0 and share(picture, RED) == 0


def test_a_station_that_did_not_move_keeps_its_picture_and_an_answered_question_has_none(store):  # noqa: F811
    cam = camera(among(store))
    read(cam, painted())
    first = {t: q["picture"] for t, q in asked(cam).items()}
    read(cam, painted())
    assert {t: q["picture"] for t, q in asked(cam).items()} == first   # a phone fetches it once
    answered = asked(cam)[WITH_CUSTOMS]["id"]
    cam.confirm(answered, "Ann")
    assert f"station-{answered}" not in cam.pictures()


def test_questions_of_other_kinds_have_no_picture(store):  # noqa: F811
    """Ann's station told apart by her answer: "Ann built Customs ...?" names no picture (the player knows her own)."""
    cam = camera(among(store))
    read(cam, painted())
    cam.confirm(asked(cam)[WITH_CUSTOMS]["id"], "Ann")
    read(cam, painted())
    (q,) = cam.view()["questions"]
    assert q["kind"] != "station_claimed" and q["picture"] is None and cam.pictures() == {}


@pytest.fixture
def published(store, hub):  # noqa: F811
    """The painted table read once by the box's loop and published: ``(loop, view's questions by text)``."""
    flow = among(store)
    cam = camera(flow)
    loop = MainLoop(source=FakeCamera([painted()]), reader=None, session=flow.session, hub=hub,
                    stillness=StillnessDetector(), flow=flow, camera_flow=cam, sleep=lambda s: None)
    read(cam, painted())
    loop.publish()
    return loop, {q["text"]: q for q in hub.snapshot().view["camera"]["questions"]}


SECRET = "join-secret-0123456789"


def test_a_joined_phone_fetches_the_picture_once_and_bad_names_are_refused(hub, published):
    _loop, questions = published
    q = questions[WITH_CUSTOMS]
    app = create_app(hub)
    app.testing = True
    phone = app.test_client()
    assert phone.get(q["picture"]).status_code == 403   # not joined: the camera's pictures are the joined phones'
    hub.set_pairing(Pairing("g1", SECRET, {}))
    assert phone.get(f"/join/{SECRET}").status_code == 303
    got = phone.get(q["picture"])
    assert got.status_code == 200 and got.mimetype == "image/jpeg"
    assert got.data == hub.snapshot().pictures[f"station-{q['id']}"]
    assert "immutable" in got.headers["Cache-Control"]   # its version is in the address
    assert phone.get(f"/picture/station-{q['id']}.jpg").headers["Cache-Control"] == "no-store"
    for name, said in (("station-0", "no such picture"), ("station-x", "no such picture"),
                       ("frame", "no such picture"), ("station-99999999999", "no such picture"),
                       ("station-999", "no picture of camera question 999: it is no longer waiting")):
        answer = phone.get(f"/picture/{name}.jpg")
        assert answer.status_code == 404 and answer.is_json and said in answer.get_json()["error"], name
        assert answer.headers["Cache-Control"] == "no-store"


def test_the_touchscreen_draws_the_station_beside_the_question(hub, published, output_dir):
    """The oldest question's picture on the panel's left, its outline's amber in it; the question wrapped beside it,
    each of its words drawn within the panel (left of the QR code)."""
    from companion.screen.game import QR_X

    loop, _questions = published
    screen = TouchScreen(phone_url="http://192.168.1.20:8080/")
    snapshot = hub.snapshot()
    screen.render(snapshot)
    screen.save_png(output_dir / "screen_among_station_picture.png")
    pixels = np.transpose(np.asarray(__import__("pygame").surfarray.array3d(screen.surface)), (1, 0, 2))  # RGB
    panel = pixels[180:330, 10:300]
    amber = np.array(OUTLINE[::-1])
    assert (np.abs(panel.astype(int) - amber).max(axis=2) <= 40).sum() > 50
    words = [(text, rect) for text, rect, _width in screen.drawn if "Whose station" in text or "Camera:" in text]
    assert words and all(rect.right <= QR_X for _text, rect in words)
    said = " ".join(text for text, _rect in words)
    assert "Whose station is this" in said and "…" not in said


def test_without_its_picture_the_touchscreen_asks_the_question_as_before(hub, published):
    """A box restarted with the question kept has no picture until its next read: the question is asked in one line."""
    from companion.screen.window import ScreenSnapshot

    screen = TouchScreen(phone_url="http://192.168.1.20:8080/")
    screen.render(ScreenSnapshot(view=hub.snapshot().view))
    assert any(text.startswith("Camera: Whose station") for text, _rect, _width in screen.drawn)


@pytest.mark.browser
def test_a_greek_phone_shows_each_station_beside_its_question_within_360_px(browser, hub, published,  # noqa: F811
                                                                              output_dir):
    """Each question on a joined Greek phone shows its station's picture (decoded, whole within 360 px); a phone that
    has not joined is not sent the camera's pictures and shows none."""
    from playwright.sync_api import expect

    from companion.web import serve
    from tests.browser_pages import PHONE_360, joined_page
    from tests.test_phone_browser import TIMEOUT_MS

    server = serve(create_app(hub), host="127.0.0.1", port=0)
    try:
        with joined_page(browser, server, hub, locale="el-GR", **PHONE_360) as (page, errors):
            pictures = page.locator("#questions li img.station-picture")
            expect(pictures).to_have_count(2)
            for k in range(2):
                img = pictures.nth(k)
                img.scroll_into_view_if_needed()
                page.wait_for_function("(img) => img.complete && img.naturalWidth > 0", arg=img.element_handle(),
                                       timeout=TIMEOUT_MS)
                box = img.bounding_box()
                assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 360 and box["height"] > 100
                expect(img).to_have_attribute("alt", "Ο σταθμός της ερώτησης, με περίγραμμα στην εικόνα της κάμερας")
            assert page.evaluate("document.documentElement.scrollWidth") <= 360
            page.locator("#camera-section").screenshot(path=str(output_dir / "phone_among_station_picture_el.png"))
            assert errors == []
        context = browser.new_context(viewport={"width": 360, "height": 800})
        try:
            stranger = context.new_page()
            stranger.goto(server.url)
            expect(stranger.locator("#questions li")).to_have_count(2)
            expect(stranger.locator("#questions li img")).to_have_count(0)
        finally:
            context.close()
    finally:
        server.shutdown()


def test_a_waiting_questions_picture_not_made_yet_is_said_so_and_the_phone_is_told_to_retry(hub, published):
    # the box restarted: the question is waiting again (from the record) but its picture comes with the camera's next
    # read; a phone whose page was drawn before asks for it meanwhile
    _loop, questions = published
    q = questions[WITH_CUSTOMS]
    hub.set_pictures({})
    hub.publish(hub.snapshot().view)
    app = create_app(hub)
    app.testing = True
    phone = app.test_client()
    hub.set_pairing(Pairing("g1", SECRET, {}))
    assert phone.get(f"/join/{SECRET}").status_code == 303
    answer = phone.get(q["picture"])
    assert answer.status_code == 503 and answer.is_json
    assert answer.get_json()["error"] == (f"no picture of camera question {q['id']} yet: it is made at the camera's "
                                          "next read; try again shortly")
    assert int(answer.headers["Retry-After"]) > 0 and answer.headers["Cache-Control"] == "no-store"
    greek = phone.get(q["picture"], headers={"Accept-Language": "el"})
    assert greek.status_code == 503 and "yet" not in greek.get_json()["error"]
    # a waiting question of another kind never has a picture; a question gone is no longer waiting
    hub.publish({"camera": {"questions": [{"id": 41, "kind": "location_built"}]}})
    answer = phone.get("/picture/station-41.jpg")
    assert answer.status_code == 404 and "camera question 41 has no picture" in answer.get_json()["error"]
    answer = phone.get(q["picture"])
    assert answer.status_code == 404 and "it is no longer waiting" in answer.get_json()["error"]
