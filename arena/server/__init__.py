"""``arena serve``: a competition server (the contract: ``shared/design/server.md``).

Authors upload bots; each upload becomes a version that is built, checked
and entered in a league that never stops; everyone watches one leaderboard.
The parent process (:mod:`arena.server.supervise`) runs the web app, the
ladder and the builder as children and restarts one that dies. The web app
is a Django project configured in code for the competition's folder
(:mod:`arena.server.site`); nothing here is imported but by ``arena serve``,
and it needs the ``server`` extra (Django, waitress).
"""
