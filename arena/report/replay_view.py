"""The replay viewer: a protocol v1 replay as frames, and a page that steps through them.

The frames are worked out here, from the replay's own lines (a deal gives
every hand, each play takes a card from one, a trick is won, a hand ends),
so the page's script only draws what it is given: no rule lives in
JavaScript. One frame follows each line a spectator would notice.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from copy import deepcopy
from typing import Any

from arena.report.html import page

JSON = dict[str, Any]
SUITS = {"C": "\u2663", "D": "\u2666", "H": "\u2665", "S": "\u2660"}


def card_text(card: str) -> str:
    """``"TD"`` -> ``"10♦"``: how a card is shown."""
    rank = "10" if card[0] == "T" else card[0]
    return rank + SUITS.get(card[1], card[1])


def frames(records: Sequence[JSON]) -> list[JSON]:
    """The table after each line worth seeing: seats, hands, trump, trick, caption."""
    header = records[0]
    names = [player["name"] for player in header["players"]]
    state: JSON = {
        "hand": 0,
        "dealer": None,
        "trump": None,
        "turn_up": None,
        "seats": [{"name": name, "status": "active", "cards": [], "tricks": 0} for name in names],
        "trick": [],
        "winner": None,
        "caption": f"Game {header['game']}, seed {header['seed']}",
        "placements": None,
    }
    shown = [deepcopy(state)]

    def who(seat: int) -> str:
        return str(names[seat])

    for record in records[1:]:
        kind = record["type"]
        if kind == "deal":
            state.update(
                hand=record["hand"], dealer=record["dealer"], trump=None, trick=[], winner=None
            )
            state["turn_up"] = record.get("turn_up")
            for seat, cards in enumerate(record["hands"]):
                state["seats"][seat].update(
                    cards=list(cards), status=record["statuses"][seat], tricks=0
                )
            turn_up = f", {card_text(record['turn_up'])} turned up" if record["turn_up"] else ""
            state["caption"] = (
                f"Hand {record['hand']}: {who(record['dealer'])} deals "
                f"{record['hand_size']} each{turn_up}"
            )
        elif kind == "event":
            state["caption"] = _event(record, state, who)
            if record["event"] != "trick":
                state["winner"] = None
        elif kind == "hand_end":
            for seat, status in enumerate(record["statuses"]):
                state["seats"][seat]["status"] = status
            state["trick"], state["winner"] = [], None
            tricks = ", ".join(f"{who(s)} {n}" for s, n in enumerate(record["tricks"]) if n)
            state["caption"] = f"Hand {record['hand']} over: tricks {tricks or 'none'}"
        elif kind == "game_end":
            state["placements"] = record["placements"]
            state["trick"] = []
            state["caption"] = f"Game over: {who(record['winner'])} wins"
        else:
            continue  # a move line: its event follows
        shown.append(deepcopy(state))
    return shown


def _event(record: JSON, state: JSON, who: Any) -> str:
    """Apply an event to ``state``; return its caption."""
    event = record["event"]
    if event == "play":
        seat, card = record["seat"], record["card"]
        if state["winner"] is not None:  # the trick before was shown won: a new one starts
            state["trick"] = []
        cards = state["seats"][seat]["cards"]
        if card in cards:
            cards.remove(card)
        state["trick"] = [*state["trick"], [seat, card]]
        return f"{who(seat)} plays {card_text(card)}"
    if event == "trick":
        winner = record["winner"]
        state["seats"][winner]["tricks"] += 1
        state["trick"] = [list(pair) for pair in record["cards"]]
        state["winner"] = winner
        return f"{who(winner)} wins the trick"
    if event == "trump":
        state["trump"] = suit = record["suit"]
        if record.get("seat") is None:
            return f"Trumps: {SUITS.get(suit, suit)}"
        return f"{who(record['seat'])} names trumps: {SUITS.get(suit, suit)}"
    if event == "knock":
        return f"{who(record['seat'])} knocks"
    if event == "cut":
        draws = ", ".join(f"{who(s)} {card_text(c)}" for s, c in record["draws"])
        return f"Cut for {record['purpose']}: {draws}; {who(record['winner'])} wins it"
    details = ", ".join(f"{key} {value}" for key, value in record.items() if key != "type")
    return details


VIEWER_JS = """
const frames = JSON.parse(document.getElementById("frames").textContent);
const suits = {C: "\\u2663", D: "\\u2666", H: "\\u2665", S: "\\u2660"};
const red = (card) => card[1] === "D" || card[1] === "H";
const show = (card) => (card[0] === "T" ? "10" : card[0]) + (suits[card[1]] || card[1]);
let at = 0, timer = null;
const $ = (id) => document.getElementById(id);
function cardSpan(card) {
  const span = document.createElement("span");
  span.className = "card" + (red(card) ? " red" : "");
  span.dataset.card = card;
  span.textContent = show(card);
  return span;
}
function draw() {
  const f = frames[at];
  $("step").textContent = `${at + 1} / ${frames.length}`;
  $("caption").textContent = f.caption;
  $("hand").textContent = f.hand ? `hand ${f.hand}` : "";
  const turnUp = f.turn_up ? ` (turned up: ${show(f.turn_up)})` : "";
  $("trump").textContent = (f.trump ? `trumps ${suits[f.trump] || f.trump}` : "trumps: -") + turnUp;
  const seats = $("seats");
  seats.replaceChildren();
  f.seats.forEach((seat, index) => {
    const box = document.createElement("div");
    box.className = "seat " + seat.status + (f.winner === index ? " winner" : "");
    box.dataset.seat = index;
    const title = document.createElement("div");
    title.className = "name";
    const place = f.placements ? ` - place ${f.placements[index]}` : "";
    title.textContent = `${seat.name} (${seat.status}, ${seat.tricks} tricks)${place}`;
    const hand = document.createElement("div");
    hand.className = "cards";
    seat.cards.forEach((card) => hand.append(cardSpan(card)));
    box.append(title, hand);
    seats.append(box);
  });
  const trick = $("trick");
  trick.replaceChildren();
  f.trick.forEach(([seat, card]) => {
    const item = document.createElement("span");
    item.className = "played";
    item.dataset.seat = seat;
    item.append(`${f.seats[seat].name}: `, cardSpan(card));
    trick.append(item);
  });
  $("jump").value = String(f.hand);
}
function go(to) { at = Math.max(0, Math.min(frames.length - 1, to)); draw(); }
function play() {
  if (timer) { clearInterval(timer); timer = null; $("play").textContent = "play"; return; }
  $("play").textContent = "pause";
  timer = setInterval(() => { if (at >= frames.length - 1) play(); else go(at + 1); }, 400);
}
const hands = [...new Set(frames.map((f) => f.hand).filter((h) => h))];
hands.forEach((h) => { const o = document.createElement("option"); o.value = String(h);
  o.textContent = `hand ${h}`; $("jump").append(o); });
$("jump").addEventListener("change", (e) =>
  go(frames.findIndex((f) => String(f.hand) === e.target.value)));
$("prev").addEventListener("click", () => go(at - 1));
$("next").addEventListener("click", () => go(at + 1));
$("play").addEventListener("click", play);
document.addEventListener("keydown", (e) => {
  if (e.key === "ArrowRight") go(at + 1);
  else if (e.key === "ArrowLeft") go(at - 1);
  else if (e.key === "Home") go(0);
  else if (e.key === "End") go(frames.length - 1);
  else if (e.key === " ") { e.preventDefault(); play(); }
});
draw();
"""

VIEWER_CSS = """
.controls { display: flex; gap: 0.5rem; align-items: center; margin: 0.5rem 0 1rem; }
.controls button, .controls select { font: inherit; padding: 0.2rem 0.7rem; }
#caption { font-weight: 600; min-height: 1.5rem; }
#seats { display: grid; grid-template-columns: repeat(auto-fill, minmax(16rem, 1fr)); gap: 0.6rem; }
.seat { border: 1px solid var(--line); border-radius: 8px; padding: 0.5rem; }
.seat.dog { border-style: dashed; }
.seat.out { opacity: 0.45; }
.seat.winner { outline: 2px solid var(--accent); }
.card { display: inline-block; border: 1px solid var(--line); border-radius: 4px;
  padding: 0 0.25rem; margin: 0.1rem; background: var(--bg); }
.card.red { color: #c0262d; }
#trick { margin: 1rem 0; min-height: 2rem; display: flex; gap: 1rem; }
"""


def viewer_page(records: Sequence[JSON], *, title: str | None = None) -> str:
    """A self-contained page that steps through the replay ``records``."""
    data = json.dumps(frames(records), separators=(",", ":")).replace("</", "<\\/")
    header = records[0]
    body = (
        f"<style>{VIEWER_CSS}</style>\n"
        '<div class="controls"><button id="prev" title="previous (left arrow)">&larr; prev</button>'
        '<button id="play" title="play / pause (space)">play</button>'
        '<button id="next" title="next (right arrow)">next &rarr;</button>'
        '<select id="jump" title="jump to a hand"><option value="0">start</option></select>'
        '<span id="step"></span> <span id="hand"></span> <span id="trump"></span></div>\n'
        '<div id="caption"></div>\n<div id="trick"></div>\n<div id="seats"></div>\n'
        f'<script type="application/json" id="frames">{data}</script>\n'
        f"<script>{VIEWER_JS}</script>"
    )
    names = ", ".join(str(player["name"]) for player in header["players"])
    return page(title or f"Game {header['game']}", body, subtitle=names)
