"""The refusal under Among the Stars' "whose station is this?" question on the touchscreen, at the smallest supported
window (480 x 320, the layout made for 800 x 480 scaled by 0.6): it is read from arm's length, so it is drawn at no
less than :data:`companion.screen.canvas.ERROR_MIN_PX` real pixels, in every language, within the panel beside the
station's picture (each player builds one station: Among the Stars, rulebook 3 'Setup')."""

from __future__ import annotations

import pytest

from companion import i18n
from companion.errors import BadEntry
from companion.screen import TouchScreen
from companion.screen.canvas import ERROR_MIN_PX
from tests.test_among_camera_stations import store  # noqa: F401 (fixture)
from tests.test_among_station_picture import published  # noqa: F401 (fixture)
from tests.test_among_whose_station import BARE, WITH_CUSTOMS


@pytest.mark.parametrize("size", [(480, 320), (800, 480)])
@pytest.mark.parametrize("lang", ["el", "hu", "pl", "en"])
def test_the_refusal_under_the_whose_station_question_is_readable_at_the_smallest_window(
        hub, published, output_dir, lang, size):  # noqa: F811
    from companion.screen.game import QR_X

    loop, questions = published
    cam = loop.mode.camera
    cam.confirm(questions[WITH_CUSTOMS]["id"], "Ann")
    with pytest.raises(BadEntry) as refused:
        cam.confirm(questions[BARE]["id"], "Ann")   # a second station for Ann: refused
    # the question shows a refusal under it (as one the rules give for its event): this one, in the box's language
    next(q for q in cam.questions if q.id == questions[BARE]["id"]).error = refused.value.args[0]
    loop.publish()
    [waiting] = [q for q in hub.snapshot().view["camera"]["questions"] if q["text"] == BARE]
    assert waiting["error"] and waiting["picture"]
    i18n.set_box_language(lang)
    try:
        screen = TouchScreen(size=size, phone_url="http://192.168.1.20:8080/")
        screen.render(hub.snapshot())
        screen.save_png(output_dir / f"screen_among_station_error_{lang}_{size[0]}x{size[1]}.png")
        error = i18n.say(waiting["error"], lang)
    finally:
        i18n.set_box_language("en")
    first_word = error.split()[0]
    drawn = [(text, rect) for text, rect, _width in screen.drawn if text and error.startswith(text.rstrip("…").strip())
             and len(text) > 3]
    assert drawn and drawn[0][0].startswith(first_word), [t for t, _r, _w in screen.drawn]
    right = round(QR_X * size[0] / 800)
    for text, rect in drawn:
        assert rect.height >= ERROR_MIN_PX, (text, rect)
        assert rect.right <= right and rect.bottom <= size[1], (text, rect)


@pytest.mark.parametrize("size", [(480, 320), (800, 480)])
def test_without_the_picture_the_refusal_line_above_the_question_is_readable_too(hub, published, output_dir,  # noqa: F811
                                                                                  size):
    """A box restarted with the question kept has no picture until its next read: the question is one line and the
    refusal one line above it, at least ERROR_MIN_PX high and clear of the question's line."""
    from companion.screen.window import ScreenSnapshot

    loop, questions = published
    cam = loop.mode.camera
    cam.confirm(questions[WITH_CUSTOMS]["id"], "Ann")
    with pytest.raises(BadEntry) as refused:
        cam.confirm(questions[BARE]["id"], "Ann")
    next(q for q in cam.questions if q.id == questions[BARE]["id"]).error = refused.value.args[0]
    loop.publish()
    screen = TouchScreen(size=size, phone_url="http://192.168.1.20:8080/")
    screen.render(ScreenSnapshot(view=hub.snapshot().view))
    screen.save_png(output_dir / f"screen_among_station_error_no_picture_{size[0]}x{size[1]}.png")
    [(line, below)] = [(t, r) for t, r, _w in screen.drawn if t.startswith("Ann has a station already")]
    [(_q, question)] = [(t, r) for t, r, _w in screen.drawn if t.startswith("Camera: ")]
    assert below.height >= ERROR_MIN_PX and below.bottom <= question.top, (line, below, question)
