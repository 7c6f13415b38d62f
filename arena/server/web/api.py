"""The HTTP API v1 (the contract's): JSON in and out, errors as ``{"error": "one line"}``.

API endpoints take only ``Authorization: Bearer TOKEN`` (no cookies, hence no
CSRF: a page of another site cannot make the browser send a bearer token).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from functools import wraps
from pathlib import Path
from typing import Any

from django.conf import settings
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.http.response import HttpResponseBase
from django.views.decorators.csrf import csrf_exempt

from arena.server.accounts import (
    client_address,
    failed_attempt,
    join,
    public_reason,
    sees_house,
    sees_private,
    throttled,
    token_user,
)
from arena.server.archive import ArchiveRefused
from arena.server.errors import NotFound, NotSignedIn, NotYours, Refused, TooLarge
from arena.server.uploads import accept

View = Callable[..., HttpResponseBase]


def error(status: int, text: str) -> JsonResponse:
    """The contract's error: one line, as JSON."""
    return JsonResponse({"error": text}, status=status)


def api(*methods: str, auth: bool = False) -> Callable[[View], View]:
    """An API view: only ``methods`` (else 405), no CSRF (no cookies are read), a bearer
    token where ``auth`` (else 401), and a refusal (:mod:`arena.server.errors`) as its
    status with its line."""

    def wrap(view: View) -> View:
        @csrf_exempt
        @wraps(view)
        def checked(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponseBase:
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
                return error(refused.status, str(refused))
            except ArchiveRefused as refused:  # a bad upload, named
                return error(refused.status, str(refused))

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


def address_of(request: HttpRequest) -> str:
    """Who is asking (:func:`arena.server.accounts.client_address`), for the limit on
    failed logins and joins."""
    return client_address(
        request.META.get("REMOTE_ADDR", ""),
        request.headers.get("X-Forwarded-For", ""),
        settings.ARENA["server"]["trusted_proxies"],
    )


@api("POST")
def join_view(request: HttpRequest) -> HttpResponse:
    """``POST /api/v1/join {"code", "user", "password"}`` -> 201 ``{"user", "token"}``; an
    address with ``login_limit`` failures in 10 minutes is answered 429 (codes are 256
    bits: the limit is against a password guessed for a reset, and against load)."""
    server = settings.ARENA["server"]
    address = address_of(request)
    throttled(address, server["login_limit"])
    try:
        given = body(request, "code", "user", "password")
        user, token = join(given["code"], given["user"], given["password"])
    except Refused:
        failed_attempt(address)
        raise
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


def reader(request: HttpRequest) -> Any | None:
    """Who reads the leaderboard, a bot, a version or a game: the token's user, or None
    (anyone) where the competition is public.

    Raises:
        NotSignedIn: no valid token, and the competition is not public (401).
    """
    viewer = bearer(request)
    if viewer is None and not settings.ARENA["server"]["public"]:
        raise NotSignedIn("this competition is not public: Authorization: Bearer TOKEN")
    return viewer


@api("GET")
def leaderboard_view(request: HttpRequest) -> HttpResponse:
    """``GET /api/v1/leaderboard``: the ladder's rows, each with ``owner``, ``version`` and
    ``status``, fault details for their owners only (:mod:`arena.server.board`)."""
    from arena.server.board import fresh_for_anyone, leaderboard  # noqa: PLC0415
    from arena.server.ladder import FINAL  # noqa: PLC0415

    viewer = reader(request)
    folder = Path(settings.ARENA["folder"])
    which = request.GET.get("board", "league")
    if which not in ("league", "final"):
        raise Refused(f"board must be league or final, not {which!r}")
    if which == "final":
        folder = folder / FINAL
        if not folder.is_dir():
            raise NotFound("no final has been played here: the season was never frozen")
    if viewer is not None:  # an owner sees their rows' fault details
        return JsonResponse(leaderboard(folder, viewer), safe=False)
    body = fresh_for_anyone(which, lambda: json.dumps(leaderboard(folder, None)).encode())
    return HttpResponse(body, content_type="application/json")


@api("GET", "POST")
def season_view(request: HttpRequest) -> HttpResponse:
    """``GET /api/v1/season`` -> ``{"state", "final_rounds", "final"}``: the season's state
    (:func:`arena.server.organizer.season`) and, once frozen, its final's games played
    and planned; ``POST {"state": "open"|"paused"|"frozen"|"closed"}`` (organizers
    only, with a token) moves it."""
    from arena.server import organizer as switches  # noqa: PLC0415
    from arena.server.ladder import final_progress  # noqa: PLC0415

    if request.method == "POST":
        user = bearer(request)
        if user is None:
            raise NotSignedIn("a valid API token is needed: Authorization: Bearer TOKEN")
        request.user = user
        organizer(request)
        switches.set_season(body(request, "state")["state"])
    else:
        reader(request)
    folder = Path(settings.ARENA["folder"])
    return JsonResponse(
        {
            "state": switches.season(),
            "final_rounds": settings.ARENA["server"]["final_rounds"],
            "final": final_progress(folder),
        }
    )


@api("GET")
def games_view(request: HttpRequest) -> HttpResponse:
    """``GET /api/v1/games?bot=NAME&limit=N`` (N default 20, at most 200): the ladder's
    last games (of any version of bot NAME), newest first, redacted for the viewer
    (:mod:`arena.server.games`)."""
    from arena.server import games  # noqa: PLC0415

    viewer = reader(request)
    given = request.GET.get("limit", str(games.DEFAULT_LIMIT))
    if not given.isdigit() or not 1 <= int(given) <= games.MOST:
        raise Refused(f"limit must be a whole number from 1 to {games.MOST}, not {given!r}")
    bot = request.GET.get("bot")
    if bot is not None and (house := games.house_bot(bot)) is not None:
        shown(house, viewer)
    names = None if bot is None else games.league_names(bot)
    found = games.recent(
        Path(settings.ARENA["folder"]), names, int(given), viewer, settings.ARENA["url"]
    )
    return JsonResponse(found, safe=False)


@api("GET")
def replay_view(request: HttpRequest, game: str) -> HttpResponse:
    """``GET /api/v1/games/ID/replay``: the game's replay (JSON lines), redacted for the
    viewer (:mod:`arena.server.games`)."""
    from arena.server import games  # noqa: PLC0415

    lines = games.replay(Path(settings.ARENA["folder"]), game, reader(request))
    return HttpResponse(lines, content_type="application/jsonl; charset=utf-8")


def version_object(version: Any, viewer: Any | None) -> dict[str, Any]:
    """A version as ``viewer`` (a user, or None) may see it: the contract's fields, the
    ladder's figures null until it has played a game, a failure's detail its owner's and
    the organizers' only (it can quote what the bot or its build printed)."""
    from arena.server.board import rating  # noqa: PLC0415

    owner = version.bot.owner
    rated = rating(Path(settings.ARENA["folder"]), version.name)
    reason = version.reason if sees_private(viewer, owner) else public_reason(version.reason)
    return {
        "bot": version.bot.name,
        "version": version.name,
        "owner": None if owner is None else owner.username,
        "status": version.status,
        "reason": reason,
        "ranked": ranked(version),
        "games": 0 if rated is None else rated["games"],
        "mu": None if rated is None else rated["mu"],
        "sigma": None if rated is None else rated["sigma"],
        "score": None if rated is None else rated["score"],
        "verdict": json.loads(version.verdict) if version.verdict else None,
        # Added: its paired match against the reference bot (what ``ranked`` follows;
        # null without a reference bot, and for a house bot).
        "reference": reference_of(version),
        # Added to the contract's fields: the sandbox layers the version's bot got (null
        # until it is checked; a house bot's are the ladder's own).
        "sandbox": version.sandbox.split(", ") if version.sandbox else None,
        # Added: whether its owner deleted its files (POST /api/v1/versions/ID/delete).
        "deleted": version.deleted is not None,
    }


def reference_of(version: Any) -> dict[str, Any] | None:
    """The version's match against today's ``reference_bot`` (None without one, or
    before it began: a match against an earlier reference says nothing now)."""
    from arena.server.verdicts import against_prefix  # noqa: PLC0415

    reference = settings.ARENA["server"]["reference_bot"]
    if reference is None or not version.reference.startswith(against_prefix(reference)):
        return None
    found: dict[str, Any] = json.loads(version.reference)
    return found


def ranked(version: Any) -> bool:
    """The contract's ``ranked``: false until a paired match against the
    ``reference_bot`` ended H1 (:func:`arena.server.verdicts.ranked`)."""
    from arena.server import verdicts  # noqa: PLC0415

    return verdicts.ranked(version, settings.ARENA["server"]["reference_bot"])


@api("POST", auth=True)
def bots_view(request: HttpRequest) -> HttpResponse:
    """``POST /api/v1/bots`` (multipart field ``bot``: a .zip or .tar.gz of a bot folder)
    -> 202 ``{"bot", "version", "status", "url"}``, or 200 with the version the same files
    made before. A request past ``upload_mb`` is refused from its Content-Length, before
    its body is read."""
    server = settings.ARENA["server"]
    length = request.headers.get("Content-Length", "")
    if not length.isdigit():
        raise Refused("an upload needs a Content-Length")
    if int(length) > server["upload_mb"] * 2**20:
        raise TooLarge(f"an upload is at most {server['upload_mb']} MB here")
    given = request.FILES.get("bot")
    if given is None:
        raise Refused("no file in the multipart field 'bot'")
    version, new = accept(request.user, given, Path(settings.ARENA["folder"]), server)
    answer = version_object(version, request.user)
    url = f"{settings.ARENA['url']}/versions/{version.name}"
    return JsonResponse(
        {key: answer[key] for key in ("bot", "version", "status")} | {"url": url},
        status=202 if new else 200,
    )


@api("GET")
def version_view(request: HttpRequest, name: str) -> HttpResponse:
    """``GET /api/v1/versions/ID``: a version (ID: ``BOT`` or ``BOT@N``)."""
    viewer = reader(request)
    version = find_version(name)
    shown(version.bot, viewer)
    return JsonResponse(version_object(version, viewer))


@api("GET", auth=True)
def build_log_view(request: HttpRequest, name: str) -> HttpResponse:
    """``GET /api/v1/versions/ID/build-log``: the build's output, as text; its owner's and
    the organizers' only (it holds what the build printed)."""
    from arena.server.builder import build_log  # noqa: PLC0415

    version = find_version(name)
    if not sees_private(request.user, version.bot.owner):
        raise NotYours(f"the build log of {version.name} is its owner's")
    log = build_log(Path(settings.ARENA["folder"]), version.name)
    if not log.is_file():
        raise NotFound(f"{version.name} has no build log (no build ran)")
    return HttpResponse(log.read_bytes(), content_type="text/plain; charset=utf-8")


@api("GET", auth=True)
def archive_view(request: HttpRequest, name: str) -> HttpResponseBase:
    """``GET /api/v1/versions/ID/archive``: the version's folder as a .tar.gz (its files as
    uploaded, with what its build wrote); its owner's and the organizers' only (the
    contract's table: an author's code is theirs)."""
    import tarfile  # noqa: PLC0415
    import tempfile  # noqa: PLC0415

    from django.http import FileResponse  # noqa: PLC0415

    from arena.server.uploads import SCRATCH, files_of  # noqa: PLC0415

    version = find_version(name)
    if not sees_private(request.user, version.bot.owner):
        raise NotYours(f"the files of {version.name} are its owner's")
    folder = Path(settings.ARENA["folder"])
    home = None if version.pk is None else files_of(folder, version.bot.key, version.number)
    if home is None or version.deleted is not None or not home.is_dir():
        raise NotFound(f"{version.name} has no files here (a house bot's, or deleted)")
    # Packed on the folder's own file system (not /tmp), then streamed and removed.
    packed = tempfile.TemporaryFile(dir=folder / SCRATCH)  # noqa: SIM115 - the response closes it
    with tarfile.open(fileobj=packed, mode="w:gz") as archive:
        archive.add(home, arcname=version.name.replace("@", "-"))
    packed.seek(0)
    return FileResponse(
        packed, as_attachment=True, filename=f"{version.name.replace('@', '-')}.tar.gz",
        content_type="application/gzip",
    )  # fmt: skip


@api("GET")
def bot_view(request: HttpRequest, name: str) -> HttpResponse:
    """``GET /api/v1/bots/NAME``: the bot and its versions, newest first."""
    from arena.server.web.models import Bot  # noqa: PLC0415

    viewer = reader(request)
    bot = Bot.objects.filter(key=name.lower()).select_related("owner").first()
    if bot is None:
        raise NotFound(f"no bot {name!r} here")
    shown(bot, viewer)
    versions = [version_object(version, viewer) for version in versions_of(bot)]
    owner = None if bot.owner is None else bot.owner.username
    answer = {"bot": bot.name, "owner": owner, "disabled": bot.disabled,
              "disabled_by": bot.disabled_by, "versions": versions}  # fmt: skip
    return JsonResponse(answer)


def shown(bot: Any, viewer: Any | None) -> None:
    """Refuse ``bot``'s results to ``viewer`` where it is a house bot that ``hide_house``
    keeps for the organizers (:func:`arena.server.accounts.sees_house`).

    Raises:
        NotYours: a house bot the viewer may not see (403).
    """
    if bot.owner_id is None and not sees_house(viewer):
        raise NotYours(f"{bot.name} is a house bot: its results are the organizers' here")


def organizer(request: HttpRequest) -> Any:
    """The request's user, who must be an organizer.

    Raises:
        NotYours: an author (403).
    """
    user: Any = request.user
    if not user.is_staff:
        raise NotYours("only an organizer may do this")
    return user


def bool_field(request: HttpRequest, key: str) -> bool:
    """The JSON body's boolean ``key``.

    Raises:
        Refused: no such boolean.
    """
    try:
        data = json.loads(request.body or b"null")
    except ValueError:
        raise Refused("the request body is not JSON") from None
    if not isinstance(data, dict) or not isinstance(data.get(key), bool):
        raise Refused(f"the request body must be a JSON object with {key!r}: true or false")
    return bool(data[key])


@api("GET", "POST", auth=True)
def ladder_view(request: HttpRequest) -> HttpResponse:
    """``GET /api/v1/ladder`` -> ``{"paused", "frozen"}``; ``POST {"paused": true|false}``
    or ``{"frozen": true|false}`` (organizers only) pauses the ladder or lets it play
    again, freezes the competition for its final or lets it go on
    (:mod:`arena.server.organizer`)."""
    from arena.server import organizer as switches  # noqa: PLC0415

    if request.method == "POST":
        organizer(request)
        try:
            given = json.loads(request.body or b"null")
        except ValueError:
            raise Refused("the request body is not JSON") from None
        if isinstance(given, dict) and "frozen" in given:
            switches.freeze(bool_field(request, "frozen"))
        else:
            switches.pause(bool_field(request, "paused"))
    return JsonResponse(
        {"paused": switches.paused(), "frozen": switches.frozen(), "state": switches.season()}
    )


@api("GET", auth=True)
def export_board_view(request: HttpRequest) -> HttpResponseBase:
    """``GET /api/v1/export/leaderboard.csv`` (organizers only): every row of the board
    as CSV (:mod:`arena.server.grades`), for a grading script."""
    from arena.server import grades  # noqa: PLC0415

    return grades.response("leaderboard", Path(settings.ARENA["folder"]), organizer(request))


@api("GET", auth=True)
def export_best_view(request: HttpRequest) -> HttpResponseBase:
    """``GET /api/v1/export/best.csv`` (organizers only): each author's best version."""
    from arena.server import grades  # noqa: PLC0415

    return grades.response("best", Path(settings.ARENA["folder"]), organizer(request))


@api("POST", auth=True)
def disable_view(request: HttpRequest, name: str) -> HttpResponse:
    """``POST /api/v1/bots/NAME/disable {"reason"}`` (organizers only): the bot leaves the
    ladder at the next round, unscheduled, until enabled."""
    from arena.server import organizer as switches  # noqa: PLC0415

    organizer(request)
    bot = switches.disable(name, body(request, "reason")["reason"])
    return JsonResponse({"bot": bot.name, "disabled": bot.disabled})


@api("POST", auth=True)
def enable_view(request: HttpRequest, name: str) -> HttpResponse:
    """``POST /api/v1/bots/NAME/enable`` (organizers only): the bot plays again."""
    from arena.server import organizer as switches  # noqa: PLC0415

    organizer(request)
    bot = switches.enable(name)
    return JsonResponse({"bot": bot.name, "disabled": bot.disabled})


@api("POST", auth=True)
def activate_view(request: HttpRequest, name: str) -> HttpResponse:
    """``POST /api/v1/versions/ID/activate`` (its owner or an organizer): an earlier
    version plays again, the active one retiring (:mod:`arena.server.versions`)."""
    from arena.server.versions import activate  # noqa: PLC0415

    version = activate(request.user, find_version(name))
    return JsonResponse(version_object(version, request.user))


@api("POST", auth=True)
def delete_view(request: HttpRequest, name: str) -> HttpResponse:
    """``POST /api/v1/versions/ID/delete`` (its owner or an organizer): a retired or
    failed version's files are deleted, to free room under ``stored_mb``."""
    from arena.server.versions import delete_files  # noqa: PLC0415

    version = delete_files(request.user, find_version(name))
    return JsonResponse(version_object(version, request.user))


@api("POST", auth=True)
def withdraw_view(request: HttpRequest, name: str) -> HttpResponse:
    """``POST /api/v1/bots/NAME/withdraw`` (its owner or an organizer): the bot leaves the
    ladder, its active version retired."""
    from arena.server.versions import withdraw  # noqa: PLC0415

    bot = withdraw(request.user, name)
    versions = [version_object(version, request.user) for version in versions_of(bot)]
    return JsonResponse({"bot": bot.name, "versions": versions})


def versions_of(bot: Any) -> list[Any]:
    """A bot's versions, newest first; a house bot's one made-up version (see
    :func:`find_version`)."""
    from arena.server.web.models import Version  # noqa: PLC0415

    found = list(Version.objects.filter(bot=bot).select_related("bot").order_by("-number"))
    if not found and bot.owner is None:
        found = [Version(bot=bot, number=1, status="active")]
    return found


def find_version(name: str) -> Any:
    """The version ``BOT`` or ``BOT@N``; a house bot's one version, always active, is
    made up (it has no row: the organizer's config is its only upload).

    Raises:
        NotFound: no such version.
    """
    from arena.server import games  # noqa: PLC0415
    from arena.server.web.models import Version  # noqa: PLC0415

    bot, _, number = name.partition("@")
    if number and not number.isdigit():
        raise NotFound(f"no version {name!r} here")
    found = (
        Version.objects.select_related("bot", "bot__owner")
        .filter(bot__key=bot.lower(), number=int(number or 1))
        .first()
    )
    if number == "1":  # the first version is called BOT, not BOT@1
        raise NotFound(f"no version {name!r} here")
    if found is None and not number:  # a house bot: one version, always active
        house = games.house_bot(bot)
        found = None if house is None else Version(bot=house, number=1, status="active")
    if found is None:
        raise NotFound(f"no version {name!r} here")
    return found


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
