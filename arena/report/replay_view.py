"""The replay viewer: pages that step through protocol v1 replays card by card.

The viewer itself is ``viewer.js``: it reads a replay's own lines and keeps
the table's books (a deal gives every hand, a play takes a card from one, a
trick event names its winner), so no rule lives in JavaScript. Python's part
is to embed replays: each one deflated and base64-encoded, which shrinks a
replay's JSON lines about sixfold (to about 2.5 KB for a 4-seat game), so a
report can carry thousands of games.
"""

from __future__ import annotations

import base64
import json
import zlib
from collections.abc import Mapping, Sequence
from importlib import resources
from typing import Any

from arena.report.html import page

JSON = dict[str, Any]

VIEWER_CSS = """
.controls { display: flex; flex-wrap: wrap; gap: 0.5rem; align-items: center;
  margin: 0.5rem 0 1rem; }
.controls button, .controls select, .controls input { font: inherit; padding: 0.2rem 0.7rem; }
#caption { font-weight: 600; min-height: 1.5rem; }
#viewer { padding: 0.4rem; border-radius: 8px; }
#viewer:focus { outline: 1px dashed var(--muted); } /* its keys work: arrows, space */
#seats { display: grid; grid-template-columns: repeat(auto-fill, minmax(min(16rem, 100%), 1fr));
  gap: 0.6rem; }
.seat { border: 1px solid var(--line); border-radius: 8px; padding: 0.5rem; }
.seat .name { font-weight: 600; margin-bottom: 0.2rem; }
.seat.dog { border-style: dashed; }
.seat.out { border-style: dotted; }
.seat.out .name { color: var(--muted); }
.seat.faulted .name { color: var(--danger); }
.seat.winner { outline: 2px solid var(--accent); }
.seat .top { display: flex; justify-content: space-between; align-items: baseline; gap: 0.4rem; }
.seat .marks { display: flex; gap: 0.3rem; flex-shrink: 0; }
.mark { font-size: 0.8rem; font-weight: 600; padding: 0 0.4rem; border-radius: 999px;
  border: 1px solid var(--accent); color: var(--accent); }
.mark.leader { background: var(--accent); color: var(--bg); }
.tricks table { margin: 0 0 0.8rem; }
.tricks .label, .placements .label { color: var(--muted); font-size: 0.9rem; }
.tricks th, .tricks td { text-align: center; padding: 0.1rem 0.4rem; white-space: nowrap; }
.tricks td.won .card { outline: 2px solid var(--accent); outline-offset: 1px; }
.tricks .lead-mark { color: var(--muted); margin-right: 0.1rem; }
.tricks .knock { color: var(--muted); font-size: 0.85rem; }
.card.small { min-width: 1.7rem; height: 2rem; font-size: 0.85rem; margin: 0.05rem; }
.placements { margin: 0.6rem 0; font-weight: 600; }
.placements ol { display: flex; flex-wrap: wrap; gap: 0.3rem 1.2rem; list-style: none;
  padding: 0; margin: 0.2rem 0; font-size: 1.1rem; }
.placements .place { color: var(--accent); }
/* Cards look like cards: white, rank and suit, red or black, whatever the page's scheme. */
.card { display: inline-flex; align-items: center; justify-content: center; min-width: 2.1rem;
  height: 2.7rem; padding: 0 0.2rem; margin: 0.12rem; border: 1px solid #9ca3af;
  border-radius: 5px; background: #fff; color: #111827; font-weight: 600;
  box-shadow: 0 1px 2px rgba(0, 0, 0, 0.25); box-sizing: border-box; }
.card.red { color: #b91c1c; }
.seat.out .card { opacity: 0.6; }
#trick { margin: 1rem 0; min-height: 2.9rem; display: flex; flex-wrap: wrap; gap: 0.6rem 1rem;
  align-items: center; }
#trick[hidden] { display: none; }
#thought { border-left: 3px solid var(--accent); padding: 0.2rem 0.6rem; margin: 0.4rem 0; }
#thought pre { margin: 0.2rem 0 0.5rem; max-height: 12rem; overflow: auto; white-space: pre-wrap;
  word-break: break-word; font-size: 0.85rem; }
.thought-title { color: var(--muted); font-size: 0.9rem; }
"""

#: The viewer's place in a page: its controls, the caption, the placements (at the end),
#: the trick on the table, the hand's earlier tricks and the seats. (The hand's number is
#: ``viewer-hand``: a person's page has a ``hand`` of its own.)
VIEWER_HTML = (
    '<section id="viewer" hidden>\n'
    '<div class="controls"><button id="prev" title="previous (left arrow)">&larr; prev</button>'
    '<button id="play" title="play / pause (space)">play</button>'
    '<button id="next" title="next (right arrow)">next &rarr;</button>'
    '<select id="jump" title="jump to a hand"></select>'
    '<span id="step"></span> <span id="viewer-hand"></span> <span id="trump"></span></div>\n'
    '<div id="caption"></div>\n<div id="thought" hidden></div>\n'
    '<div id="placements" class="placements" hidden></div>\n<div id="trick"></div>\n'
    '<div id="tricks" class="tricks scroll" hidden></div>\n<div id="seats"></div>\n</section>'
)


def asset(name: str, package: str = "arena.report") -> str:
    """A script that ships inside the package: beside this module, or in ``package``."""
    return (resources.files(package) / name).read_text(encoding="utf-8")


def pack(replay: str) -> str:
    """A replay's JSON lines as the viewer's ``unpack()`` reads them: deflated, base64."""
    return base64.b64encode(zlib.compress(replay.encode("utf-8"), 9)).decode("ascii")


#: What a script element's text must not hold: ``</script`` ends it, and
#: ``<!--<script`` makes the HTML parser read on past its end. JSON may spell
#: any character as a \\u escape, so these are written that way.
_SCRIPT_UNSAFE = str.maketrans({"<": "\\u003c", ">": "\\u003e", "&": "\\u0026"})


def inline_json(value: Any) -> str:
    """``value`` as JSON that no text inside it can end its script element early."""
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False).translate(_SCRIPT_UNSAFE)


def json_script(element_id: str, value: Any) -> str:
    """``value`` as an inline JSON script element, for a page's script to read."""
    return f'<script type="application/json" id="{element_id}">{inline_json(value)}</script>'


def viewer_parts(replays: Mapping[str, str], damaged: Mapping[str, str] | None = None) -> str:
    """The viewer's style, markup, code and the packed ``replays`` (game id -> pack()).

    ``damaged`` maps the games whose replay file could not be read to why
    (:func:`arena.report.tournament_report.replay_problem`), so the viewer
    says so in words instead of failing on their text.
    """
    unreadable = f"{json_script('damaged', damaged)}\n" if damaged else ""
    return (
        f"<style>{VIEWER_CSS}</style>\n{VIEWER_HTML}\n{json_script('replays', replays)}\n"
        f"{unreadable}<script>{asset('viewer.js')}</script>"
    )


def viewer_page(records: Sequence[JSON], *, title: str | None = None) -> str:
    """A self-contained page that steps through the replay ``records``."""
    header = records[0]
    game = str(header["game"])
    text = "\n".join(json.dumps(record, separators=(",", ":")) for record in records)
    body = (
        viewer_parts({game: pack(text)})
        + f"\n<script>ArenaViewer.open(ArenaViewer.mount(), {inline_json(game)});</script>"
    )
    names = ", ".join(str(player["name"]) for player in header["players"])
    return page(title or f"Game {game}", body, subtitle=names)
