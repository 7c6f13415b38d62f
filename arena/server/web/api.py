"""The HTTP API v1 (the contract's): JSON in and out, errors as ``{"error": "one line"}``.

API endpoints take only ``Authorization: Bearer TOKEN`` (no cookies, hence no
CSRF: a page of another site cannot make the browser send a bearer token).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from functools import wraps
from typing import Any

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.views.decorators.csrf import csrf_exempt

from arena.server.accounts import Refused, join, token_user

View = Callable[..., HttpResponse]


def error(status: int, text: str) -> JsonResponse:
    """The contract's error: one line, as JSON."""
    return JsonResponse({"error": text}, status=status)


def api(*methods: str, auth: bool = False) -> Callable[[View], View]:
    """An API view: only ``methods`` (else 405), no CSRF (no cookies are read), a bearer
    token where ``auth`` (else 401), and a refusal as a 400 in one line."""

    def wrap(view: View) -> View:
        @csrf_exempt
        @wraps(view)
        def checked(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
            if request.method not in methods:
                answer = error(405, f"{request.method} is not allowed here: {', '.join(methods)}")
                answer["Allow"] = ", ".join(methods)
                return answer
            if auth:
                user = bearer(request)
                if user is None:
                    return error(401, "a valid API token is needed: Authorization: Bearer TOKEN")
                request.user = user
            try:
                return view(request, *args, **kwargs)
            except Refused as refused:
                return error(400, str(refused))

        return checked

    return wrap


def bearer(request: HttpRequest) -> Any | None:
    """The user of the request's bearer token, or None (none, unknown or revoked)."""
    scheme, _, token = request.headers.get("Authorization", "").partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        return None
    return token_user(token.strip())


def body(request: HttpRequest, *keys: str) -> dict[str, str]:
    """The request's JSON object with each of ``keys`` a string.

    Raises:
        Refused: a body that is not such an object.
    """
    try:
        data = json.loads(request.body or b"null")
    except ValueError:
        raise Refused("the request body is not JSON") from None
    if not isinstance(data, dict):
        raise Refused(f"the request body must be a JSON object with {', '.join(keys)}")
    missing = [key for key in keys if not isinstance(data.get(key), str)]
    if missing:
        raise Refused(f"{missing[0]!r} is missing or not a string")
    return {key: data[key] for key in keys}


@api("POST")
def join_view(request: HttpRequest) -> HttpResponse:
    """``POST /api/v1/join {"code", "user", "password"}`` -> 201 ``{"user", "token"}``."""
    given = body(request, "code", "user", "password")
    user, token = join(given["code"], given["user"], given["password"])
    return JsonResponse({"user": user.username, "token": token}, status=201)


@api("GET", auth=True)
def account_view(request: HttpRequest) -> HttpResponse:
    """``GET /api/v1/account``: who the token is, and their tokens (never the secrets)."""
    user: Any = request.user
    tokens = [
        {"prefix": t.prefix, "created": t.created.isoformat(), "revoked": t.revoked is not None}
        for t in user.api_tokens.order_by("created")
    ]
    role = "organizer" if user.is_staff else "author"
    return JsonResponse({"user": user.username, "role": role, "tokens": tokens})


def not_found(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    """404: JSON under /api/, a line of text elsewhere (no page echoes the path)."""
    if request.path.startswith("/api/"):
        return error(404, "no such endpoint or object")
    return HttpResponse("Not found.", status=404, content_type="text/plain; charset=utf-8")


def server_error(request: HttpRequest) -> HttpResponse:
    """500, said in one line (the cause goes to the server's log, not to strangers)."""
    if request.path.startswith("/api/"):
        return error(500, "the server failed on this request; its log says why")
    return HttpResponse("Server error.", status=500, content_type="text/plain; charset=utf-8")
