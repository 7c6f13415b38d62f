"""Invites, joining and API tokens: the contract's account rules, on Django's accounts.

An invite code is 256 random bits, single use, valid for :data:`INVITE_DAYS`
days and bound to one user name: joining with another name is refused. For
an existing user an invite is a password reset. A token is 256 random bits
too, shown once and kept as its hash (:mod:`arena.server.web.models`).
"""

from __future__ import annotations

import hashlib
import secrets
from datetime import timedelta
from typing import Any

from arena.server.errors import OverQuota, Refused

#: How long an invite stays good.
INVITE_DAYS = 7
#: Failed logins and joins are counted over this window (``[server] login_limit``).
THROTTLE_WINDOW = timedelta(minutes=10)
#: What a token starts with: a leaked one is easy to recognize in a log or a repository.
TOKEN_PREFIX = "arena_"


def digest(secret: str) -> str:
    """How a code or token is kept: its SHA-256, hex."""
    return hashlib.sha256(secret.encode()).hexdigest()


def invite(name: str, role: str = "author") -> str:
    """A new invite code for the user ``name`` (a new author or organizer, or a password
    reset for an existing user).

    Raises:
        Refused: a name Django would not take as a user name.
    """
    from django.contrib.auth.validators import UnicodeUsernameValidator  # noqa: PLC0415
    from django.core.exceptions import ValidationError  # noqa: PLC0415
    from django.utils import timezone  # noqa: PLC0415

    from arena.server.web.models import Invite  # noqa: PLC0415

    try:
        UnicodeUsernameValidator()(name)
    except ValidationError:
        raise Refused(f"{name!r} cannot name a user: letters, digits and @ . + - _ only") from None
    if not 1 <= len(name) <= 150:
        raise Refused("a user name has 1 to 150 characters")
    code = secrets.token_urlsafe(32)
    Invite.objects.create(
        code_hash=digest(code),
        name=name,
        role=role,
        expires=timezone.now() + timedelta(days=INVITE_DAYS),
    )
    return code


def join(code: str, user: str, password: str) -> tuple[Any, str]:
    """Use an invite: the account (made, or its password reset) and a new API token.

    Raises:
        Refused: an unknown, used or expired code, a code bound to another name, or a
            password Django's validators refuse (their first reason).
    """
    from django.contrib.auth.models import User  # noqa: PLC0415
    from django.contrib.auth.password_validation import validate_password  # noqa: PLC0415
    from django.core.exceptions import ValidationError  # noqa: PLC0415
    from django.db import transaction  # noqa: PLC0415
    from django.utils import timezone  # noqa: PLC0415

    from arena.server.web.models import Invite  # noqa: PLC0415

    with transaction.atomic():
        found = Invite.objects.filter(code_hash=digest(code)).first()
        if found is None or found.used is not None or found.expires <= timezone.now():
            raise Refused("this invite code is unknown, used or expired: ask for a new one")
        if found.name != user:
            raise Refused(f"this invite is for another user name than {user!r}")
        account = User.objects.filter(username=user).first()
        try:
            validate_password(password, account or User(username=user))
        except ValidationError as error:
            raise Refused(f"password refused: {error.messages[0]}") from None
        if account is None:
            account = User.objects.create_user(username=user, password=password)
        else:
            account.set_password(password)
        account.is_staff = account.is_staff or found.role == "organizer"
        account.save()
        found.used = timezone.now()
        found.save(update_fields=["used"])
        return account, new_token(account)


def new_token(user: Any) -> str:
    """A new API token for ``user``: returned once, kept as its hash."""
    from arena.server.web.models import ApiToken  # noqa: PLC0415

    token = TOKEN_PREFIX + secrets.token_urlsafe(32)
    ApiToken.objects.create(user=user, token_hash=digest(token), prefix=token[:8])
    return token


def token_user(token: str) -> Any | None:
    """The user a token belongs to, or None (unknown or revoked)."""
    from arena.server.web.models import ApiToken  # noqa: PLC0415

    found = (
        ApiToken.objects.select_related("user")
        .filter(token_hash=digest(token), revoked__isnull=True)
        .first()
    )
    return None if found is None or not found.user.is_active else found.user


def sees_private(viewer: Any | None, owner: Any | None) -> bool:
    """Whether ``viewer`` (a user, or None) may see what only an owner and the organizers
    may (the contract's table: stderr, move info, fault details, build logs, reasons'
    details): the owner, or an organizer."""
    if viewer is None:
        return False
    return bool(viewer.is_staff) or (owner is not None and owner.pk == viewer.pk)


def sees_house(viewer: Any | None) -> bool:
    """Whether ``viewer`` (a user, or None) may see the house bots' results (their
    board rows, pages, versions, games list and head-to-head lines): anyone, unless
    ``[server] hide_house`` keeps them for the organizers (staff results a class does
    not see, as Battlecode keeps them)."""
    from django.conf import settings  # noqa: PLC0415 - Django, set up by the caller

    if not settings.ARENA["server"]["hide_house"]:
        return True
    return viewer is not None and bool(viewer.is_staff)


def public_reason(reason: str) -> str:
    """A failed version's reason as anyone may read it: its summary, before the first
    ``": "`` (the detail can quote what the bot or its build printed)."""
    return reason.split(": ", 1)[0]


def client_address(remote: str, forwarded: str, trusted: list[str]) -> str:
    """Who is asking: the connection's address, or, where it is a ``trusted`` proxy, the
    nearest address in ``X-Forwarded-For`` that is not one (what a client writes there
    itself is believed only as far as a trusted proxy vouches for it)."""
    if remote not in trusted:
        return remote
    hops = [hop.strip() for hop in forwarded.split(",") if hop.strip()]
    for hop in reversed(hops):
        if hop not in trusted:
            return hop
    return remote


def throttled(address: str, limit: int) -> None:
    """Refuse an address with ``limit`` failed logins or joins in the window.

    Raises:
        OverQuota: 429, saying when to try again.
    """
    from django.utils import timezone  # noqa: PLC0415

    from arena.server.web.models import FailedAttempt  # noqa: PLC0415

    since = timezone.now() - THROTTLE_WINDOW
    recent = FailedAttempt.objects.filter(address=address, at__gte=since)
    if recent.count() >= limit:
        minutes = THROTTLE_WINDOW.seconds // 60
        raise OverQuota(
            f"{limit} failed logins or joins from your address in {minutes} minutes: "
            "try again later"
        )


def failed_attempt(address: str) -> None:
    """Count a failed login or join from ``address`` (old ones are dropped here too)."""
    from django.utils import timezone  # noqa: PLC0415

    from arena.server.web.models import FailedAttempt  # noqa: PLC0415

    FailedAttempt.objects.filter(at__lt=timezone.now() - THROTTLE_WINDOW).delete()
    FailedAttempt.objects.create(address=address)
