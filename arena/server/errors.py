"""The server's refusals: each a one-line reason and the HTTP status the contract gives it."""

from __future__ import annotations

from arena.errors import ArenaError


class Refused(ArenaError):
    """A request refused: 400, a bad request (named)."""

    status = 400


class NotSignedIn(Refused):
    """401: no valid token where one is needed (a server that is not public)."""

    status = 401


class NotYours(Refused):
    """403: it belongs to another user."""

    status = 403


class Frozen(Refused):
    """403: the competition is frozen (its final): no more uploads."""

    status = 403


class NotFound(Refused):
    """404: no such object."""

    status = 404


class Taken(Refused):
    """409: a bot name that belongs to someone else (or to the house)."""

    status = 409


class TooLarge(Refused):
    """413: a request or an archive past a size limit."""

    status = 413


class OverQuota(Refused):
    """429: a quota or a rate limit."""

    status = 429
