"""The server's paths, exactly as the contract writes them (no slash redirects)."""

from __future__ import annotations

from django.urls import path

from arena.server.web import api, pages

urlpatterns = [
    path("", pages.leaderboard_page),
    path("bots/<str:name>", pages.bot_page),
    path("versions/<str:name>", pages.version_page),
    path("games/<str:game>", pages.game_page),
    path("login", pages.login_page),
    path("logout", pages.logout_page),
    path("join/<str:code>", pages.join_page),
    path("account", pages.account_page),
    path("submit", pages.submit_page),
    path("organizer", pages.organizer_page),
    path("organizer/leaderboard.csv", pages.leaderboard_csv),
    path("organizer/best.csv", pages.best_csv),
    path("api/v1/join", api.join_view),
    path("api/v1/account", api.account_view),
    path("api/v1/leaderboard", api.leaderboard_view),
    path("api/v1/bots", api.bots_view),
    path("api/v1/bots/<str:name>", api.bot_view),
    path("api/v1/bots/<str:name>/disable", api.disable_view),
    path("api/v1/bots/<str:name>/enable", api.enable_view),
    path("api/v1/bots/<str:name>/withdraw", api.withdraw_view),
    path("api/v1/versions/<str:name>/activate", api.activate_view),
    path("api/v1/versions/<str:name>/delete", api.delete_view),
    path("api/v1/versions/<str:name>/archive", api.archive_view),
    path("api/v1/ladder", api.ladder_view),
    path("api/v1/season", api.season_view),
    path("api/v1/export/leaderboard.csv", api.export_board_view),
    path("api/v1/export/best.csv", api.export_best_view),
    path("api/v1/versions/<str:name>", api.version_view),
    path("api/v1/versions/<str:name>/build-log", api.build_log_view),
    path("api/v1/games", api.games_view),
    path("api/v1/games/<str:game>/replay", api.replay_view),
]

handler404 = "arena.server.web.api.not_found"
handler500 = "arena.server.web.api.server_error"
