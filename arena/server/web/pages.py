"""The pages for people: server-rendered, usable without JavaScript, redacted per viewer.

They read and do what the API does, through the same library (the board,
the games, uploads, accounts, the organizer's switches), and show it with
Django's templates, which escape every text a stranger gave (a bot's name,
a reason, a build log). A person signs in with a password and a session
cookie, so every form carries Django's CSRF token; the API, which takes
only bearer tokens, needs none.

Where the competition is not public, every page but ``/login`` and
``/join/CODE`` sends an anonymous visitor to ``/login``.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from pathlib import Path
from typing import Any
from urllib.parse import quote

from django import forms
from django.conf import settings
from django.contrib.auth import login, logout, update_session_auth_hash
from django.contrib.auth.forms import AuthenticationForm, PasswordChangeForm
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.views.decorators.http import require_http_methods

from arena.results.store import DATABASE, base_name, open_existing
from arena.server.accounts import failed_attempt, join, new_token, throttled
from arena.server.archive import ArchiveRefused
from arena.server.errors import Refused
from arena.server.static import urls
from arena.server.web.api import address_of, shown

#: How often the leaderboard page fetches the standings again (a game shows within 5 s).
REFRESH_MS = 2000
#: A build log shown on a page is cut here (the whole one: the API's build-log).
LOG_CHARS = 200_000

Page = Callable[..., HttpResponse]


def folder() -> Path:
    return Path(settings.ARENA["folder"])


def viewer(request: HttpRequest) -> Any | None:
    """The signed-in user, or None."""
    return request.user if request.user.is_authenticated else None


def show(request: HttpRequest, template: str, status: int = 200, **context: Any) -> HttpResponse:
    """A page: ``template`` with the site's title and style and ``context``."""
    server = settings.ARENA["server"]
    context.setdefault("site_title", server.get("title") or "arena")
    return render(request, f"web/{template}", {"static": urls(folder()), **context}, status=status)


def readable(view: Page) -> Page:
    """A page anyone may read where the competition is public; else signed-in people only
    (an anonymous visitor is sent to ``/login``)."""

    @wraps(view)
    def checked(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        if viewer(request) is None and not settings.ARENA["server"]["public"]:
            return HttpResponseRedirect(f"/login?next={quote(request.get_full_path())}")
        return view(request, *args, **kwargs)

    return checked


def signed_in(view: Page) -> Page:
    """A page for signed-in people only."""

    @wraps(view)
    def checked(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        if viewer(request) is None:
            return HttpResponseRedirect(f"/login?next={quote(request.get_full_path())}")
        return view(request, *args, **kwargs)

    return checked


def refused(request: HttpRequest, problem: Refused | ArchiveRefused) -> HttpResponse:
    """A refusal as a page: its line, its status."""
    return show(request, "form.html", problem.status, heading="Refused", error=str(problem))


def _played(where: Path) -> tuple[str, bool]:
    """The line of games so far of the board in ``where`` (the league's, the final's), and
    whether the ladder is paused."""
    from arena.report.leaderboard import played  # noqa: PLC0415
    from arena.server.organizer import paused  # noqa: PLC0415

    if not (where / DATABASE).is_file():
        return "no game yet", paused()
    store = open_existing(where)
    try:
        done = store.guarded(store.done)
        line = played(done, store.planned(), endless=store.endless())
    finally:
        store.close()
    return line, paused()


@require_http_methods(["GET"])
@readable
def leaderboard_page(request: HttpRequest) -> HttpResponse:
    """``/``: the live leaderboard (``?partial=1``: only its table, which the page's
    script fetches every :data:`REFRESH_MS`)."""
    from arena.server.board import fresh_for_anyone, leaderboard  # noqa: PLC0415

    template = "leaderboard_table.html" if request.GET.get("partial") else "leaderboard.html"

    def render() -> HttpResponse:
        from arena.server.ladder import FINAL  # noqa: PLC0415
        from arena.server.organizer import season  # noqa: PLC0415

        def named(where: Path) -> list[dict[str, Any]]:
            seen = leaderboard(where, viewer(request))
            return [{**row, "base": base_name(row["bot"])} for row in seen]

        final = folder() / FINAL
        line, paused = _played(folder())
        return show(
            request,
            template,
            rows=named(folder()),
            played=line,
            paused=paused,
            final_rows=named(final) if final.is_dir() else None,
            final_played=_played(final)[0] if final.is_dir() else "",
            season=season(),
            refresh_ms=REFRESH_MS,
        )

    if viewer(request) is not None:  # a signed-in page has their name and a CSRF token
        return render()
    # Everyone else gets the same page: made at most once a second for them all.
    return HttpResponse(fresh_for_anyone(template, lambda: render().content))


@require_http_methods(["GET", "POST"])
@readable
def bot_page(request: HttpRequest, name: str) -> HttpResponse:
    """``/bots/NAME``: the bot's versions and its recent games; its owner (or an
    organizer) makes an earlier version active again, deletes an old version's files or
    withdraws the bot here."""
    from arena.server import games  # noqa: PLC0415
    from arena.server.web.api import version_object, versions_of  # noqa: PLC0415
    from arena.server.web.models import Bot  # noqa: PLC0415

    bot = Bot.objects.filter(key=name.lower()).select_related("owner").first()
    if bot is None:
        return show(request, "form.html", 404, heading="Not found", error=f"No bot {name!r}.")
    who = viewer(request)
    try:
        shown(bot, who)
    except Refused as problem:
        return refused(request, problem)
    if request.method == "POST":
        from arena.server.versions import activate, delete_files, withdraw  # noqa: PLC0415
        from arena.server.web.api import find_version  # noqa: PLC0415

        if who is None:
            return HttpResponseRedirect(f"/login?next={quote(request.get_full_path())}")
        try:
            if request.POST.get("activate"):
                version = find_version(request.POST["activate"])
                if version.bot.pk != bot.pk:
                    raise Refused(f"{version.name} is not a version of {bot.name}")
                activate(who, version)
            elif request.POST.get("withdraw"):
                withdraw(who, bot.name)
            elif request.POST.get("delete"):
                version = find_version(request.POST["delete"])
                if version.bot.pk != bot.pk:
                    raise Refused(f"{version.name} is not a version of {bot.name}")
                delete_files(who, version)
        except Refused as problem:
            return refused(request, problem)
        return HttpResponseRedirect(f"/bots/{quote(bot.name)}")

    def render() -> HttpResponse:
        from arena.report.html import rating_chart  # noqa: PLC0415
        from arena.server.board import head_to_head, hidden_house, rating_history  # noqa: PLC0415

        versions = [version_object(version, who) for version in versions_of(bot)]
        names = games.league_names(bot.name)
        recent = games.recent(folder(), names, games.DEFAULT_LIMIT, who, settings.ARENA["url"])
        for game in recent:
            game["seated"] = list(zip(game["seats"], game["placements"], strict=True))
        rivals = head_to_head(folder(), names, hidden=hidden_house(who))
        history = rating_history(folder(), names)
        chart = rating_chart(history, label=f"{bot.name}'s versions over the ladder's last games")
        owner = None if bot.owner is None else bot.owner.username
        mine = (
            who is not None and bot.owner is not None and (who.is_staff or bot.owner.pk == who.pk)
        )
        return show(request, "bot.html", bot=bot, owner=owner, versions=versions, games=recent,
                    mine=mine, rivals=rivals, chart=chart if history else "")  # fmt: skip

    if who is not None:  # a signed-in page has their name, their forms, a CSRF token
        return render()
    from arena.server.board import fresh_for_anyone  # noqa: PLC0415

    # Everyone else gets the same page: made at most once a second for them all.
    return HttpResponse(fresh_for_anyone(f"bot:{bot.key}", lambda: render().content))


@require_http_methods(["GET"])
@readable
def version_page(request: HttpRequest, name: str) -> HttpResponse:
    """``/versions/ID``: status, reason (its detail for the owner), the build log for the
    owner and the organizers."""
    from arena.server.accounts import sees_private  # noqa: PLC0415
    from arena.server.builder import build_log  # noqa: PLC0415
    from arena.server.web.api import find_version, version_object  # noqa: PLC0415

    who = viewer(request)
    try:
        version = find_version(name)
        shown(version.bot, who)
    except Refused as problem:
        return refused(request, problem)
    log = None
    if sees_private(who, version.bot.owner):
        path = build_log(folder(), version.name)
        if path.is_file():
            log = path.read_text(encoding="utf-8", errors="replace")[:LOG_CHARS]
    return show(request, "version.html", v=version_object(version, who), log=log)


@require_http_methods(["GET"])
@readable
def game_page(request: HttpRequest, game: str) -> HttpResponse:
    """``/games/ID``: the replay viewer, the replay redacted for the viewer."""
    import json  # noqa: PLC0415

    from arena.report.replay_view import viewer_page  # noqa: PLC0415
    from arena.server import games  # noqa: PLC0415

    try:
        text = games.replay(folder(), game, viewer(request))
    except Refused as problem:
        return refused(request, problem)
    records = [json.loads(line) for line in text.splitlines()]
    return HttpResponse(viewer_page(records), content_type="text/html; charset=utf-8")


@require_http_methods(["GET", "POST"])
def login_page(request: HttpRequest) -> HttpResponse:
    """``/login``: a user name and a password; ``login_limit`` failures from one address
    in 10 minutes are answered 429 (as joins are)."""
    server = settings.ARENA["server"]
    form = AuthenticationForm(request, data=request.POST or None)
    if request.method == "POST":
        address = address_of(request)
        try:
            throttled(address, server["login_limit"])
        except Refused as problem:
            return refused(request, problem)
        if form.is_valid():
            login(request, form.get_user())
            wanted = request.GET.get("next", "/")
            return HttpResponseRedirect(
                wanted if wanted.startswith("/") and "//" not in wanted else "/"
            )
        failed_attempt(address)
    return show(request, "form.html", heading="Log in", form=form, button="Log in")


@require_http_methods(["POST"])
def logout_page(request: HttpRequest) -> HttpResponse:
    """``/logout`` (a form's POST, CSRF-checked)."""
    logout(request)
    return HttpResponseRedirect("/")


class JoinForm(forms.Form):
    """The person an invite names sets a password."""

    user = forms.CharField(max_length=150)
    password = forms.CharField(widget=forms.PasswordInput, min_length=1)


@require_http_methods(["GET", "POST"])
def join_page(request: HttpRequest, code: str) -> HttpResponse:
    """``/join/CODE``: the invited person chooses a password (or a new one: a reset), and
    is signed in, an API token shown once."""
    server = settings.ARENA["server"]
    form = JoinForm(request.POST or None)
    intro = "Choose your password (at least 8 characters, not a common one)."
    if request.method == "POST" and form.is_valid():
        address = address_of(request)
        try:
            throttled(address, server["login_limit"])
            user, token = join(code, form.cleaned_data["user"], form.cleaned_data["password"])
        except Refused as problem:
            if problem.status != 429:
                failed_attempt(address)
            return show(request, "form.html", problem.status, heading="Join", form=form,
                        button="Join", intro=intro, error=str(problem))  # fmt: skip
        login(request, user, backend="django.contrib.auth.backends.ModelBackend")
        return account_view(request, token=token)
    return show(request, "form.html", heading="Join", form=form, button="Join", intro=intro)


@require_http_methods(["GET", "POST"])
@signed_in
def account_page(request: HttpRequest) -> HttpResponse:
    """``/account``: API tokens (a new one shown once; revoke), the user's bots, and a
    password change."""
    from django.utils import timezone  # noqa: PLC0415

    user: Any = request.user
    token = None
    password_form = PasswordChangeForm(user)
    message = ""
    if request.method == "POST":
        if request.POST.get("new_token"):
            token = new_token(user)
        elif request.POST.get("revoke"):
            found = user.api_tokens.filter(pk=request.POST["revoke"], revoked__isnull=True)
            found.update(revoked=timezone.now())
            message = "The token is revoked."
        elif request.POST.get("password"):
            password_form = PasswordChangeForm(user, request.POST)
            if password_form.is_valid():
                update_session_auth_hash(request, password_form.save())
                message = "Your password is changed."
                password_form = PasswordChangeForm(user)
    return account_view(request, token=token, form=password_form, message=message)


def account_view(
    request: HttpRequest, *, token: str | None, form: Any = None, message: str = ""
) -> HttpResponse:
    user: Any = request.user
    return show(
        request,
        "account.html",
        token=token,
        tokens=user.api_tokens.order_by("created"),
        bots=user.bots.order_by("name"),
        password_form=form or PasswordChangeForm(user),
        message=message,
    )


class SubmitForm(forms.Form):
    """A bot folder as one archive."""

    bot = forms.FileField(label="A .zip or .tar.gz of your bot's folder (bot.toml at its top)")


@require_http_methods(["GET", "POST"])
@signed_in
def submit_page(request: HttpRequest) -> HttpResponse:
    """``/submit``: upload a bot folder as a new version (as ``POST /api/v1/bots``)."""
    from arena.server.errors import TooLarge  # noqa: PLC0415
    from arena.server.uploads import accept  # noqa: PLC0415

    server = settings.ARENA["server"]
    form = SubmitForm(request.POST or None, request.FILES or None)
    from arena.server.caches import languages  # noqa: PLC0415

    builds = "; ".join(languages(server["build_network"]))
    context: dict[str, Any] = {
        "heading": "Submit a bot",
        "button": "Upload",
        "multipart": True,
        "intro": f"What this server builds: {builds}.",
    }
    if request.method == "POST" and form.is_valid():
        given: Any = request.FILES["bot"]
        try:
            if (given.size or 0) > server["upload_mb"] * 2**20:
                raise TooLarge(f"an upload is at most {server['upload_mb']} MB here")
            version, _ = accept(request.user, given, folder(), server)
        except (Refused, ArchiveRefused) as problem:
            return show(request, "form.html", problem.status, form=form, error=str(problem),
                        **context)  # fmt: skip
        return HttpResponseRedirect(f"/versions/{quote(version.name)}")
    return show(request, "form.html", form=form, **context)


@require_http_methods(["GET", "POST"])
@signed_in
def organizer_page(request: HttpRequest) -> HttpResponse:
    """``/organizer``: pause or resume the ladder, move the season (freeze it for its
    final, open it again, close it), disable or enable a bot, make an invite, export
    the grades."""
    from arena.server import organizer as switches  # noqa: PLC0415
    from arena.server.accounts import invite  # noqa: PLC0415
    from arena.server.web.models import Bot  # noqa: PLC0415

    if not getattr(request.user, "is_staff", False):
        return show(request, "form.html", 403, heading="Organizer", error="Organizers only.")
    link = None
    try:
        if request.method == "POST":
            if "paused" in request.POST:
                switches.pause(bool(request.POST["paused"]))
            elif "frozen" in request.POST:
                switches.freeze(bool(request.POST["frozen"]))
            elif "season" in request.POST:
                switches.set_season(request.POST["season"])
            elif request.POST.get("disable"):
                switches.disable(request.POST.get("bot", ""), request.POST.get("reason", ""))
            elif request.POST.get("enable"):
                switches.enable(request.POST.get("bot", ""))
            elif request.POST.get("invite"):
                role = "organizer" if request.POST.get("role") == "organizer" else "author"
                link = f"{settings.ARENA['url']}/join/{invite(request.POST['invite'], role)}"
    except Refused as problem:
        return refused(request, problem)
    bots = Bot.objects.select_related("owner").order_by("key")
    return show(request, "organizer.html", paused=switches.paused(), season=switches.season(),
                final_rounds=settings.ARENA["server"]["final_rounds"], bots=bots,
                link=link)  # fmt: skip


@require_http_methods(["GET"])
@signed_in
def leaderboard_csv(request: HttpRequest) -> HttpResponse:
    """``/organizer/leaderboard.csv``: every row of the board (organizers only)."""
    return _export(request, "leaderboard")


def best_csv(request: HttpRequest) -> HttpResponse:
    """``/organizer/best.csv``: each author's best version (organizers only)."""
    return _export(request, "best")


def _export(request: HttpRequest, name: str) -> HttpResponse:
    from arena.server import grades  # noqa: PLC0415

    if not getattr(request.user, "is_staff", False):
        return show(request, "form.html", 403, heading="Organizer", error="Organizers only.")
    return grades.response(name, folder(), request.user)
