"""The Django project of a competition, configured in code for its folder.

No ``manage.py`` and no settings module: :func:`setup` configures Django
for one folder (its database, its secret key, the hosts and origins of
``[server] url``) and the server's processes call it before anything else.
Paths are exactly the contract's, so ``APPEND_SLASH`` is off (no slash
redirects); the admin is not installed (``/organizer`` is the contract's
page). SQLite in WAL mode with a busy timeout, writers in immediate
transactions, so that the web app, the ladder and ``--invite`` can share
the file.

:func:`migrate` brings the database to this arena's schema at start, after
a copy of it, and refuses a folder written by a newer arena (it has
migrations this code does not know).
"""

from __future__ import annotations

import sqlite3
import time
from contextlib import closing
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from arena.server import static
from arena.server.config import ServerConfig
from arena.server.folder import SERVER_DB, Secrets, ServerError

#: The Django apps: accounts, sessions, and arena's own.
APPS = [
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "arena.server.web",
]


def site_url(config: ServerConfig, host: str, port: int) -> str:
    """Where people reach the server: ``[server] url``, else ``http://HOST:PORT``."""
    given = config.server.get("url")
    return str(given).rstrip("/") if given else f"http://{host}:{port}"


def setup(folder: Path, config: ServerConfig, secrets: Secrets, url: str) -> None:
    """Configure Django for the competition in ``folder`` (once per process)."""
    import django  # noqa: PLC0415 - the server extra, imported only by arena serve
    from django.conf import settings  # noqa: PLC0415

    if settings.configured:
        return
    parts = urlsplit(url)
    hosts = sorted({parts.hostname or "localhost", "localhost", "127.0.0.1"})
    settings.configure(**django_settings(folder, config, secrets, url, hosts))
    django.setup()


def django_settings(
    folder: Path, config: ServerConfig, secrets: Secrets, url: str, hosts: list[str]
) -> dict[str, Any]:
    """The settings of :func:`setup`."""
    origin = "{0.scheme}://{0.netloc}".format(urlsplit(url))
    return {
        "DEBUG": False,
        "SECRET_KEY": secrets.django_key,
        "ALLOWED_HOSTS": hosts,
        "CSRF_TRUSTED_ORIGINS": [origin],
        "INSTALLED_APPS": APPS,
        "MIDDLEWARE": [
            "django.middleware.security.SecurityMiddleware",
            # The pages' style and scripts (arena.server.static), before sessions: a file
            # costs no database read.
            "whitenoise.middleware.WhiteNoiseMiddleware",
            "django.contrib.sessions.middleware.SessionMiddleware",
            # A full disk is 507 in one line (arena.server.web.disk), also while a form is
            # read: so before the CSRF check, which reads it.
            "arena.server.web.disk.DiskFullMiddleware",
            "django.middleware.csrf.CsrfViewMiddleware",
            "django.contrib.auth.middleware.AuthenticationMiddleware",
            "django.middleware.clickjacking.XFrameOptionsMiddleware",
        ],
        "ROOT_URLCONF": "arena.server.web.urls",
        # The pages' templates, in arena.server.web's templates/ (autoescaped: every text
        # a stranger gave is escaped where it is shown).
        "TEMPLATES": [
            {
                "BACKEND": "django.template.backends.django.DjangoTemplates",
                "APP_DIRS": True,
                "OPTIONS": {
                    "context_processors": [
                        "django.template.context_processors.request",
                        "django.contrib.auth.context_processors.auth",
                        "django.template.context_processors.csrf",
                    ]
                },
            }
        ],
        "STATIC_URL": static.URL,
        "STATIC_ROOT": str(folder / static.STATIC),
        "WHITENOISE_IMMUTABLE_FILE_TEST": static.immutable,
        "LOGIN_URL": "/login",
        "APPEND_SLASH": False,
        "USE_TZ": True,
        "DEFAULT_AUTO_FIELD": "django.db.models.BigAutoField",
        "DATABASES": {
            "default": {
                "ENGINE": "django.db.backends.sqlite3",
                "NAME": str(folder / SERVER_DB),
                "OPTIONS": {
                    "timeout": 30,
                    "transaction_mode": "IMMEDIATE",
                    "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
                },
            }
        },
        "AUTH_PASSWORD_VALIDATORS": [
            {"NAME": f"django.contrib.auth.password_validation.{name}"}
            for name in (
                "UserAttributeSimilarityValidator",
                "MinimumLengthValidator",
                "CommonPasswordValidator",
                "NumericPasswordValidator",
            )
        ],
        # Uploads past 2.5 MB spool here, on the folder's file system (not /tmp).
        "FILE_UPLOAD_TEMP_DIR": str(folder / "uploads"),
        "FILE_UPLOAD_HANDLERS": [
            "django.core.files.uploadhandler.MemoryFileUploadHandler",
            "arena.server.web.disk.RoomyUploadHandler",
        ],
        # A session cookie no script reads, sent on no other site's requests (SameSite=Lax:
        # a link from elsewhere still arrives signed in), and over TLS only behind https.
        "SESSION_COOKIE_HTTPONLY": True,
        "SESSION_COOKIE_SAMESITE": "Lax",
        "CSRF_COOKIE_SAMESITE": "Lax",
        "SESSION_COOKIE_SECURE": url.startswith("https://"),
        "CSRF_COOKIE_SECURE": url.startswith("https://"),
        "LOGGING_CONFIG": None,
        "ARENA": {"folder": str(folder), "url": url, "server": config.server},
    }


def migrate(folder: Path) -> Path | None:
    """Bring the server's database to this arena's schema; the copy made first (None: no
    migration was needed, or the database is new).

    Raises:
        ServerError: the database has migrations this arena does not know (a newer
            arena wrote it).
    """
    from django.core.management import call_command  # noqa: PLC0415
    from django.db import connection  # noqa: PLC0415
    from django.db.migrations.executor import MigrationExecutor  # noqa: PLC0415

    executor = MigrationExecutor(connection)
    known = set(executor.loader.disk_migrations)
    unknown = sorted(
        f"{app}.{name}"
        for app, name in executor.loader.applied_migrations
        if (app, name) not in known
    )
    if unknown:
        raise ServerError(
            f"{folder} was written by a newer arena (its database has migrations "
            f"{', '.join(unknown)}): upgrade arena to serve it"
        )
    plan = executor.migration_plan(executor.loader.graph.leaf_nodes())
    if not plan:
        return None
    database = folder / SERVER_DB
    copy = None
    if executor.loader.applied_migrations:
        copy = folder / f"{SERVER_DB}.before-migrate-{time.strftime('%Y%m%d-%H%M%S')}"
        _backup(database, copy)
    call_command("migrate", verbosity=0, interactive=False)
    return copy


def _backup(database: Path, copy: Path) -> None:
    """A consistent copy of a live SQLite database (the backup API), owner-only."""
    with closing(sqlite3.connect(database)) as source, closing(sqlite3.connect(copy)) as target:
        source.backup(target)
    copy.chmod(0o600)
