"""The page a person plays on: the table drawn with cards, and the replay viewer for the end.

One self-contained document (style and script inline, nothing fetched but
its own state), built from the shared page frame, the replay viewer's parts
and ``table.js``, which draws the seat's view and sends clicks.
"""

from __future__ import annotations

from arena.report.html import page
from arena.report.replay_view import VIEWER_CSS, VIEWER_HTML, asset

TABLE_CSS = """
#table { display: grid; gap: 0.8rem; }
#top { display: flex; flex-wrap: wrap; gap: 1rem; align-items: center; }
#seatlist { display: grid; grid-template-columns: repeat(auto-fill, minmax(13rem, 1fr));
  gap: 0.5rem; }
.who { border: 1px solid var(--line); border-radius: 8px; padding: 0.4rem 0.6rem; }
.who.me { border-color: var(--accent); border-width: 2px; }
.who.out { opacity: 0.45; }
.who.dog { border-style: dashed; }
.who.turn { box-shadow: 0 0 0 3px #f59e0b; }
.who .nm { font-weight: 600; }
.who .st { color: var(--muted); font-size: 0.9rem; }
.felt { background: #0f5132; border-radius: 12px; padding: 0.8rem; min-height: 7.4rem;
  display: flex; gap: 0.8rem; align-items: flex-end; flex-wrap: wrap; color: #f8fafc; }
.felt .slot { display: flex; flex-direction: column; align-items: center; gap: 0.2rem;
  font-size: 0.85rem; }
.pcard { width: 3.4rem; height: 4.9rem; border-radius: 7px; background: #fff; color: #111;
  border: 1px solid #9ca3af; box-shadow: 0 1px 3px rgba(0,0,0,.35); position: relative;
  display: inline-flex; align-items: center; justify-content: center; font-size: 1.7rem;
  user-select: none; font-family: system-ui, sans-serif; }
.pcard .rk { position: absolute; top: 0.15rem; left: 0.3rem; font-size: 1rem; font-weight: 700; }
.pcard .rb { position: absolute; bottom: 0.15rem; right: 0.3rem; font-size: 1rem;
  font-weight: 700; transform: rotate(180deg); }
.pcard.red { color: #c0262d; }
.pcard.back { background: repeating-linear-gradient(45deg, #1e3a8a 0 6px, #2563eb 6px 12px); }
.pcard.small { width: 2.4rem; height: 3.4rem; font-size: 1.2rem; }
.pcard.small .rk, .pcard.small .rb { font-size: 0.8rem; }
#hand { display: flex; flex-wrap: wrap; gap: 0.4rem; min-height: 5.2rem; }
#hand button.pcard { cursor: default; padding: 0; font: inherit; font-size: 1.7rem; }
#hand button.pcard.legal { cursor: pointer; transform: translateY(-0.4rem);
  box-shadow: 0 0 0 3px #f59e0b, 0 4px 8px rgba(0,0,0,.3); }
#hand button.pcard:disabled { opacity: 0.55; }
#hand.waiting button.pcard:disabled { opacity: 1; }
#actions { display: flex; flex-wrap: wrap; gap: 0.5rem; align-items: center; min-height: 2.2rem; }
#actions button { font: inherit; padding: 0.35rem 0.9rem; border-radius: 6px; cursor: pointer; }
#prompt { font-weight: 600; }
#problem { color: var(--danger); font-weight: 600; min-height: 1.4rem; }
#story { color: var(--muted); font-size: 0.9rem; max-height: 14rem; overflow-y: auto;
  border-top: 1px solid var(--line); padding-top: 0.4rem; white-space: pre-wrap; }
#result { font-size: 1.1rem; font-weight: 600; }
#leave { margin-left: auto; }
"""

TABLE_HTML = """
<section id="table">
<div id="top"><span id="handinfo"></span><span id="trumpinfo"></span>
<span id="turnup"></span><button id="leave" type="button">Leave the table</button></div>
<div id="seatlist"></div>
<div class="felt" id="felt"></div>
<div><span id="prompt"></span></div>
<div id="actions"></div>
<div id="problem" role="alert"></div>
<div id="hand"></div>
<div id="result" hidden></div>
<div id="story"></div>
</section>
<h2 id="replaytitle" hidden>The whole game, every hand shown</h2>
"""


def table_page(name: str) -> str:
    """The page of the person playing as ``name``."""
    body = (
        f"<style>{TABLE_CSS}{VIEWER_CSS}</style>\n{TABLE_HTML}\n{VIEWER_HTML}\n"
        f"<script>{asset('viewer.js')}</script>\n"
        f"<script>{asset('table.js', 'arena.human')}</script>"
    )
    return page(f"Knockout Whist: {name} at the table", body, subtitle="arena play")
