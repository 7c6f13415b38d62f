"""A full disk as the web app answers it: 507 in one line, nothing of the request kept.

An upload is spooled to ``DIR/uploads`` while it arrives (past 2.5 MB), then
unpacked beside it; either write can find the disk full. :class:`RoomyUploadHandler`
removes its spooled file at once when a write fails (Django's would stay until
its object is collected), the unpacker removes what it unpacked, and
:class:`DiskFullMiddleware` answers the request with 507 Insufficient Storage and
one line, for the API and for pages alike, instead of a 500 and a traceback.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Any

from django.core.files.uploadhandler import TemporaryFileUploadHandler
from django.http import HttpRequest, HttpResponse, JsonResponse

from arena.server.room import disk_full

#: The one line a request that found the disk full gets.
FULL = "the server's disk is full: nothing of this request was kept; try again later"


class RoomyUploadHandler(TemporaryFileUploadHandler):
    """Django's handler for large uploads, which removes its file when a write fails."""

    def receive_data_chunk(self, raw_data: bytes, start: int) -> bytes | None:
        try:
            return super().receive_data_chunk(raw_data, start)
        except OSError:
            self.file.close()  # a NamedTemporaryFile: closed, it is removed
            raise


class DiskFullMiddleware:
    """507 for a request that found the disk full: in its view, or while a page's form is
    read (before the CSRF check reads it, which would make it a 500)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_view(
        self, request: HttpRequest, view: Any, args: Any, kwargs: Any
    ) -> HttpResponse | None:
        # The API reads its bodies in its views (after checking their size); a page's form
        # is read here, first.
        if request.method != "POST" or request.path.startswith("/api/"):
            return None
        try:
            request.POST  # noqa: B018 - reads the form (and its files) now
        except Exception as error:
            if not disk_full(error):
                raise
            return self.process_exception(request, error)
        return None

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        if not disk_full(exception):
            return None
        print(f"arena serve: {request.method} {request.path}: {FULL}", file=sys.stderr)
        if request.path.startswith("/api/"):
            return JsonResponse({"error": FULL}, status=507)
        from arena.server.web.pages import show  # noqa: PLC0415

        return show(request, "form.html", 507, heading="Disk full", error=FULL)
