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
