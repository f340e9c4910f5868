"""A phone page in Debian's Chromium (Playwright), joined to a box the test runs on 127.0.0.1."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from tests.test_phone_browser import TIMEOUT_MS, join_url

PHONE_390 = {"width": 390, "height": 844, "mobile": True, "scale": 2}
"""The 390 x 844 touch phone at twice the pixels the older phone tests drew (``joined_page(..., **PHONE_390)``)."""
PHONE_360 = {"width": 360, "height": 800, "mobile": True, "scale": 2}
"""The 360 x 800 touch phone at twice the pixels the Among the Stars, long list and Next button tests draw."""


@contextmanager
def joined_page(browser: Any, server: Any, hub: Any, *, locale: str = "en-GB", width: int = 360, height: int = 740,
                mobile: bool = False, init_script: str | None = None,
                scale: float | None = None) -> Iterator[tuple[Any, list[str]]]:
    """``(page, errors)``: a page of ``width`` x ``height`` CSS px (``mobile``: a touch phone; ``scale``: device pixels
    a CSS px, None for the browser's) in ``locale``, with ``init_script`` run before the box's own scripts, that has
    opened the join link of ``hub``'s pairing on ``server`` (``join_url``: a hub with none gets one); ``errors``
    collects the page's uncaught script errors (a test asserts it empty after). Every wait times out after
    ``TIMEOUT_MS``; the browser context is closed on leaving."""
    touch: dict[str, Any] = {"is_mobile": True, "has_touch": True} if mobile else {}
    if scale is not None:
        touch["device_scale_factor"] = scale
    context = browser.new_context(viewport={"width": width, "height": height}, locale=locale, **touch)
    try:
        if init_script is not None:
            context.add_init_script(init_script)
        page = context.new_page()
        page.set_default_timeout(TIMEOUT_MS)
        errors: list[str] = []
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        page.goto(join_url(server, hub))
        yield page, errors
    finally:
        context.close()
