"""A setup option sent as the text "true" (a phone's page quoting its JSON) is refused naming what is taken: true or
false without quotes, or "on" or "off", in the player's language; nothing is recorded."""

import pytest

from companion.flows import FLOWS
from companion.i18n import say
from companion.setup_flow import TableSetup


@pytest.mark.parametrize(("lang", "said"), [
    ("en", 'an option is on or off: send true or false (without quotes), or "on" or "off"; got \'true\''),
    ("el", "μια επιλογή είναι ενεργή ή ανενεργή: στείλτε true ή false (χωρίς εισαγωγικά) ή «on» ή «off»· δόθηκε "
           "'true'"),
    ("pl", "opcja jest włączona albo wyłączona: wyślij true lub false (bez cudzysłowu) albo „on” lub „off”; podano "
           "'true'"),
    ("hu", "egy opció be- vagy kikapcsolt: küldjön true vagy false értéket (idézőjel nélkül), vagy „on” vagy „off” "
           "szöveget; a megadott érték: 'true'"),
])
def test_true_in_quotes_is_refused_naming_what_is_taken(store, lang, said):
    setup = TableSetup(store, FLOWS["eclipse"], {})
    setup.handle({"action": "setup_player", "player": "Ζωή"})
    version = setup.version
    out = setup.handle({"action": "setup_option", "option": "alliances", "value": "true"})
    assert say(out.error, lang) == said
    assert setup.version == version and out.events == [], "nothing recorded"
    assert {o["option"]: o["on"] for o in setup.view()["options"]}["alliances"] is False, "nothing changed"


@pytest.mark.parametrize(("value", "on"), [(True, True), ("on", True), (False, False), ("off", False)])
def test_what_the_refusal_names_is_taken(store, value, on):
    setup = TableSetup(store, FLOWS["eclipse"], {})
    if not on:
        setup.handle({"action": "setup_option", "option": "alliances", "value": True})
    assert setup.handle({"action": "setup_option", "option": "alliances", "value": value}).error is None
    assert {o["option"]: o["on"] for o in setup.view()["options"]}["alliances"] is on
