"""What the server keeps of its people: invites and API tokens (accounts are Django's).

Secrets are never stored as given: an invite code and an API token are kept
as their SHA-256 (each is 256 random bits, so a plain hash is enough; a
password, chosen by a person, goes through Django's slow hasher instead).
"""

from __future__ import annotations

from datetime import datetime

from django.contrib.auth.models import User
from django.db import models

#: What an invite makes of its person.
ROLES = (("author", "author"), ("organizer", "organizer"))


class Invite(models.Model):
    """A single-use code, bound to one user name, valid for a week: joining makes the
    account (or, for an existing user, resets the password)."""

    code_hash: models.CharField[str, str] = models.CharField(max_length=64, unique=True)
    name: models.CharField[str, str] = models.CharField(max_length=150)
    role: models.CharField[str, str] = models.CharField(
        max_length=16, choices=ROLES, default="author"
    )
    created: models.DateTimeField[datetime, datetime] = models.DateTimeField(auto_now_add=True)
    expires: models.DateTimeField[datetime, datetime] = models.DateTimeField()
    used: models.DateTimeField[datetime | None, datetime | None] = models.DateTimeField(
        null=True, blank=True
    )


class ApiToken(models.Model):
    """A user's key to the HTTP API, shown once when made, revocable."""

    user: models.ForeignKey[User, User] = models.ForeignKey(
        User, on_delete=models.CASCADE, related_name="api_tokens"
    )
    token_hash: models.CharField[str, str] = models.CharField(max_length=64, unique=True)
    #: The token's first characters, to tell tokens apart on the account page.
    prefix: models.CharField[str, str] = models.CharField(max_length=8)
    created: models.DateTimeField[datetime, datetime] = models.DateTimeField(auto_now_add=True)
    revoked: models.DateTimeField[datetime | None, datetime | None] = models.DateTimeField(
        null=True, blank=True
    )


#: A version's way from upload to the ladder (the contract's statuses).
STATUSES = ("queued", "building", "checking", "active", "failed", "retired")


class Bot(models.Model):
    """A bot of the competition: an author's (``owner``) or a house bot (no owner). Its
    name is taken case-insensitively (``key``): ``Ann`` and ``ann`` are one bot."""

    name: models.CharField[str, str] = models.CharField(max_length=64)
    key: models.CharField[str, str] = models.CharField(max_length=64, unique=True)
    owner: models.ForeignKey[User | None, User | None] = models.ForeignKey(
        User, null=True, blank=True, on_delete=models.PROTECT, related_name="bots"
    )
    created: models.DateTimeField[datetime, datetime] = models.DateTimeField(auto_now_add=True)
    #: Why an organizer took the bot out of the ladder ("": it plays). A disabled bot is
    #: not scheduled (no forfeits) until it is enabled again.
    disabled: models.TextField[str, str] = models.TextField(blank=True, default="")
    #: Who disabled it: ``organizer``, or ``ladder`` (it faulted in games in a row; its
    #: owner's next version made active, or an earlier one made active again, enables it).
    disabled_by: models.CharField[str, str] = models.CharField(
        max_length=16, blank=True, default=""
    )


class Version(models.Model):
    """One upload of a bot: its files in ``DIR/bots/KEY/NUMBER``, where it stands."""

    bot: models.ForeignKey[Bot, Bot] = models.ForeignKey(
        Bot, on_delete=models.CASCADE, related_name="versions"
    )
    number: models.PositiveIntegerField[int, int] = models.PositiveIntegerField()
    #: The files' digest (arena.server.archive.content_digest): the same files, one version.
    digest: models.CharField[str, str] = models.CharField(max_length=64)
    status: models.CharField[str, str] = models.CharField(
        max_length=16, choices=[(s, s) for s in STATUSES], default="queued"
    )
    #: Why it failed, in one line (empty otherwise).
    reason: models.TextField[str, str] = models.TextField(blank=True, default="")
    #: The owner's version it replaced in the ladder when it became active (its
    #: sequential test is against that one); None for a first version.
    against: models.ForeignKey[Version | None, Version | None] = models.ForeignKey(
        "self", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    #: The test's verdict as the API gives it (JSON; "" until it starts).
    verdict: models.TextField[str, str] = models.TextField(blank=True, default="")
    #: Its paired match against the ``reference_bot`` (JSON, a verdict like the one
    #: above; "" without a reference): it is ranked once this says H1.
    reference: models.TextField[str, str] = models.TextField(blank=True, default="")
    #: The sandbox layers its checks and self-play game ran in, comma-separated ("" until
    #: it is checked): what its page says the bot gets.
    sandbox: models.TextField[str, str] = models.TextField(blank=True, default="")
    #: Bytes its folder holds (as uploaded, then with what its build wrote): what counts
    #: against its author's ``stored_mb``.
    stored: models.BigIntegerField[int, int] = models.BigIntegerField(default=0)
    #: When its owner deleted its files to free room (None: they are kept); it can no
    #: longer be made active, and its games and ratings stay.
    deleted: models.DateTimeField[datetime | None, datetime | None] = models.DateTimeField(
        null=True, blank=True
    )
    created: models.DateTimeField[datetime, datetime] = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = (
            models.UniqueConstraint(fields=("bot", "number"), name="one_number_a_version"),
            models.UniqueConstraint(fields=("bot", "digest"), name="one_version_a_content"),
        )

    @property
    def name(self) -> str:
        """The league's name of the version: ``BOT`` for the first, ``BOT@N`` after."""
        return self.bot.name if self.number == 1 else f"{self.bot.name}@{self.number}"


class FailedAttempt(models.Model):
    """A failed login or join, by address: past ``login_limit`` of them in
    :data:`arena.server.accounts.THROTTLE_WINDOW`, that address is answered 429."""

    address: models.CharField[str, str] = models.CharField(max_length=64, db_index=True)
    at: models.DateTimeField[datetime, datetime] = models.DateTimeField(auto_now_add=True)


class Setting(models.Model):
    """One of the competition's switches, set while it runs (``paused``: the ladder
    plays no game while its value is "yes")."""

    key: models.CharField[str, str] = models.CharField(max_length=64, unique=True)
    value: models.TextField[str, str] = models.TextField(default="")
