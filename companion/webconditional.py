"""A phone's conditional request answered in the order RFC 9110 gives (section 13.2.2, "Precedence of
Preconditions"): ``If-None-Match``, then ``If-Modified-Since``, are evaluated before a ``Range`` is.

A phone that holds a page file (a script, a style sheet, the words of its language) and asks again with
``If-Modified-Since`` or ``If-None-Match`` naming what it holds gets 304 Not Modified and no body, also when it asks for
a part of the file with ``Range``: the part is sent (206) only when the file changed since. werkzeug's
``Response.make_conditional``, which Flask's file answers use, answers the ``Range`` first and checks the other
conditions only when no part was sent, so a phone holding the file got 206 and the part again.

Steps of section 13.2.2 and where each is answered:

1-2. ``If-Match``, ``If-Unmodified-Since``: werkzeug (412 for an ``If-Match`` that names none of the file's tags).
3-4. ``If-None-Match`` (weak comparison), else ``If-Modified-Since``, on GET and HEAD: here, after the route (it
     knows the file's ``ETag`` and ``Last-Modified``): a 200 or 206 whose conditions are false becomes a 304.
5.   ``If-Range`` and ``Range``: werkzeug (a part only when ``If-Range`` names the file as it is).
"""

from __future__ import annotations

from flask import Flask, Response, request
from werkzeug.http import is_resource_modified

__all__ = ["NOT_MODIFIED_HEADERS", "not_modified_before_range"]

NOT_MODIFIED_HEADERS = ("Cache-Control", "Content-Location", "Date", "ETag", "Expires", "Vary")
"""The headers a 304 carries from the answer it stands for (RFC 9110 section 15.4.5)."""


def not_modified_before_range(app: Flask) -> None:
    """Register on ``app`` an ``after_request`` hook that answers 304 Not Modified to a GET or HEAD whose
    ``If-None-Match`` or ``If-Modified-Since`` says the phone holds the file as it is, whatever ``Range`` it also
    sent (RFC 9110 section 13.2.2, steps 3 and 4 before step 5). Answers other than 200 and 206, and answers with
    neither an ``ETag`` nor a ``Last-Modified``, are left as they are."""

    @app.after_request
    def not_modified_first(response: Response) -> Response:
        if request.method not in ("GET", "HEAD") or response.status_code not in (200, 206):
            return response
        environ = request.environ
        if "HTTP_IF_NONE_MATCH" not in environ and "HTTP_IF_MODIFIED_SINCE" not in environ:
            return response
        etag, _weak = response.get_etag()
        modified = response.headers.get("Last-Modified")
        if etag is None and modified is None:
            return response
        # ignore_if_range: If-Range is step 5's, not a condition of being modified; If-Modified-Since is ignored
        # when If-None-Match is sent (section 13.1.3), as werkzeug does
        if is_resource_modified(environ, etag, last_modified=modified, ignore_if_range=True):
            return response
        kept = Response(status=304)
        for name in NOT_MODIFIED_HEADERS:
            for value in response.headers.getlist(name):
                kept.headers.add(name, value)
        response.close()  # a file answer's open file
        return kept
