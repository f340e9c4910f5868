"""Nothing players read on the touchscreen is drawn below :data:`companion.screen.canvas.READ_MIN_PX` real px on the
smallest supported window (480 x 320: the 800 x 480 layout scaled by 0.6), in every language: the
one-line "Camera: …" question wraps over two lines instead of shrinking to 10 px (Polish and Hungarian run longest),
the status lines, table headings and button words are drawn at 12 px or more, wrapped or ending with "…". Roll for
the Galaxy p.3 Assign: the camera asks "Bob selected Explore?" from Bob's dice."""

from __future__ import annotations

import pytest

from companion import i18n
from companion.screen import TouchScreen
from companion.screen.canvas import READ_MIN_PX
from tests.test_camera_browser import bob_asked_about_his_phase


@pytest.mark.parametrize("size", [(480, 320), (800, 480)])
@pytest.mark.parametrize("lang", ["en", "el", "pl", "hu"])
def test_every_text_of_a_roll_game_with_a_camera_question_is_readable(store, hub, output_dir, lang, size):
    bob_asked_about_his_phase(store, hub)
    i18n.set_box_language(lang)
    try:
        screen = TouchScreen(size=size, phone_url="http://192.168.1.20:8080/")
        screen.render(hub.snapshot())
        screen.save_png(output_dir / f"screen_readable_{lang}_{size[0]}x{size[1]}.png")
        [question] = hub.snapshot().view["camera"]["questions"]
        asked = i18n.say(i18n.Text("Camera: {question}", question=question["text"]), lang)
    finally:
        i18n.set_box_language("en")
    drawn = [(text, rect, room) for text, rect, room in screen.drawn if text.strip()]
    small = [(text, rect.height) for text, rect, _room in drawn if rect.height < READ_MIN_PX]
    if size == (480, 320):   # the 800 x 480 layout keeps the sizes it was made with
        assert small == [], small
    for text, rect, room in drawn:      # nothing runs out of its room or the window
        assert room is None or rect.width <= room + 1, (text, rect, room)
        assert rect.right <= size[0] and rect.bottom <= size[1], (text, rect)
    start = next(k for k, (text, _rect, _room) in enumerate(drawn) if text.startswith(asked.split()[0]))
    lines = [drawn[start][:2]]
    rest = asked[len(lines[0][0]):].strip()
    if rest and drawn[start + 1][0].strip() and rest.startswith(drawn[start + 1][0].rstrip("…").strip()):
        lines.append(drawn[start + 1][:2])
    said = " ".join(text for text, _rect in lines)
    assert said == asked or (said.endswith("…") and len(lines) == 2)   # whole, or two lines cut at the end
    if size == (480, 320) and lang in ("pl", "hu"):  # the longest: wrapped rather than shrunk
        assert len(lines) == 2 and said == asked, lines
        assert lines[1][1].top >= lines[0][1].bottom - 2


def test_a_buttons_long_word_breaks_with_a_hyphen_rather_than_shrinking(store, hub):
    bob_asked_about_his_phase(store, hub)
    i18n.set_box_language("pl")
    try:
        screen = TouchScreen(size=(480, 320), phone_url="http://192.168.1.20:8080/")
        screen.render(hub.snapshot())
    finally:
        i18n.set_box_language("en")
    texts = [text for text, _rect, _room in screen.drawn]
    broken = [head[:-1] + tail for head, tail in zip(texts, texts[1:], strict=False)
              if head.endswith("-") and len(head) > 3]
    assert "Kolonizacja" in broken, texts   # Settle's word on a 58 px button: two halves, each 3 letters or more


@pytest.mark.parametrize("lang", ["el", "pl", "hu"])
def test_a_yes_button_too_long_for_a_small_window_says_confirm_and_the_question_names_the_answer(store, hub, lang):
    """At 480 x 320 "Igen: Felfedezés" (Yes: Explore) drew as "Igen: F…"; the question above names the phase, so the
    button says Confirm whole. At 800 x 480 it keeps "Yes: Explore"."""
    bob_asked_about_his_phase(store, hub)
    i18n.set_box_language(lang)
    try:
        small = TouchScreen(size=(480, 320), phone_url="http://192.168.1.20:8080/")
        small.render(hub.snapshot())
        large = TouchScreen(size=(800, 480), phone_url="http://192.168.1.20:8080/")
        large.render(hub.snapshot())
        confirm, explore = i18n.say(i18n.Text("Confirm"), lang), i18n.say(i18n.Text("Explore"), lang)
        labels = small.buttons["camera_confirm"].label, large.buttons["camera_confirm"].label
    finally:
        i18n.set_box_language("en")
    assert labels[0] == confirm and confirm != "Confirm", labels
    texts = [t for t, _r, _w in small.drawn]
    halves = [head[:-1] + tail for head, tail in zip(texts, texts[1:], strict=False) if head.endswith("-")]
    assert confirm in texts or confirm in halves, texts   # drawn whole, on two lines if need be
    assert labels[1].endswith(explore), labels
