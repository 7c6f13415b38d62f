"""``arena submit``: a bot folder packed and uploaded to a competition server.

The client side of ``POST /api/v1/bots`` (the contract: ``shared/design/server.md``),
standard library only: no Django, so an author's machine or CI job needs
nothing but arena. It packs what the server unpacks (a .tar.gz of the folder,
build outputs and ``.git`` left out, so an upload holds sources only and the
same sources give the same version), sends it with the author's token and,
with ``wait``, follows the version's status until it is active or failed.
The token is never printed, and never sent anywhere but the server named.
"""

from __future__ import annotations

import io
import json
import secrets
import tarfile
import time
import urllib.error
import urllib.request
from collections.abc import Callable
from pathlib import Path
from typing import Any

from arena.bots.spec import BUILD_CACHES, MANIFEST
from arena.errors import ArenaError

#: How often ``--wait`` asks for the version's status.
POLL_S = 1.0
#: Statuses after which a version changes no more (but for retiring).
SETTLED = ("active", "failed", "retired")


class SubmitFailed(ArenaError):
    """The server refused the upload, the version failed, or the server cannot be reached."""


def pack(folder: Path) -> bytes:
    """``folder`` as a .tar.gz with ``bot.toml`` at its root, build outputs and caches
    (:data:`arena.bots.spec.BUILD_CACHES`) left out, members in a fixed order.

    Raises:
        SubmitFailed: ``folder`` is not a bot folder.
    """
    if not (folder / MANIFEST).is_file():
        raise SubmitFailed(f"{folder} has no {MANIFEST}: arena submit takes a bot folder")
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w:gz") as archive:
        for path in sorted(folder.rglob("*")):
            relative = path.relative_to(folder)
            if BUILD_CACHES & set(relative.parts) or path.is_symlink() or not path.is_file():
                continue
            info = archive.gettarinfo(str(path), arcname=relative.as_posix())
            info.uid = info.gid = 0
            info.uname = info.gname = ""
            with path.open("rb") as data:
                archive.addfile(info, data)
    return buffer.getvalue()


def _request(
    server: str, path: str, token: str, *, body: bytes | None = None, kind: str = ""
) -> tuple[int, Any]:
    """One API request: its status and JSON answer.

    Raises:
        SubmitFailed: the server cannot be reached, or answers something not JSON.
    """
    request = urllib.request.Request(server.rstrip("/") + path, data=body)
    request.add_header("Authorization", f"Bearer {token}")
    if kind:
        request.add_header("Content-Type", kind)
    try:
        with urllib.request.urlopen(request, timeout=120) as answer:
            status, text = answer.status, answer.read()
    except urllib.error.HTTPError as refused:
        status, text = refused.code, refused.read()
    except (urllib.error.URLError, OSError) as error:
        reason = getattr(error, "reason", error)
        raise SubmitFailed(f"cannot reach {server}: {reason}") from None
    try:
        return status, json.loads(text)
    except ValueError:
        raise SubmitFailed(f"{server} answered {status} with something not JSON") from None


def submit(
    folder: Path, server: str, token: str, *, wait: bool, say: Callable[[str], None]
) -> dict[str, Any]:
    """Upload ``folder`` as a new version; the server's answer (with ``wait``: the version
    once active).

    Raises:
        SubmitFailed: the server's one-line refusal, or (with ``wait``) the version's
            failure with its reason.
    """
    boundary = secrets.token_hex(16)
    body = (
        (
            f'--{boundary}\r\nContent-Disposition: form-data; name="bot"; '
            f'filename="{folder.resolve().name}.tar.gz"\r\n'
            "Content-Type: application/gzip\r\n\r\n"
        ).encode()
        + pack(folder)
        + f"\r\n--{boundary}--\r\n".encode()
    )
    status, answer = _request(
        server, "/api/v1/bots", token, body=body, kind=f"multipart/form-data; boundary={boundary}"
    )
    if status not in (200, 202):
        raise SubmitFailed(f"{server} refused the upload ({status}): {_said(answer)}")
    version = str(answer["version"])
    again = " (the same files as before)" if status == 200 else ""
    say(f"{version}: {answer['status']}{again}, {answer['url']}")
    if not wait:
        return dict(answer)
    shown = answer["status"]
    while True:
        status, answer = _request(server, f"/api/v1/versions/{version}", token)
        if status != 200:
            raise SubmitFailed(f"{server} answered {status} for {version}: {_said(answer)}")
        if answer["status"] != shown:
            shown = answer["status"]
            say(f"{version}: {shown}")
        if shown == "failed":
            raise SubmitFailed(f"{version} failed: {answer['reason']}")
        if shown in SETTLED:
            return dict(answer)
        time.sleep(POLL_S)


def _said(answer: Any) -> str:
    """The server's one-line error, or what it answered instead."""
    if isinstance(answer, dict) and isinstance(answer.get("error"), str):
        return str(answer["error"])
    return json.dumps(answer)[:200]
