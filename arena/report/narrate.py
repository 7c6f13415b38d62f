"""Narration: a game's records (protocol events, deals, hand ends) as plain text.

Works on the records of the replay format, so the same narration serves a
game being simulated, a game being refereed and a replay read from a file.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Sequence
from typing import Any

from arena.game.cards import SUIT_CHARS, SUIT_NAMES
from arena.referee import GameResult

JSON = dict[str, Any]


class Narrator:
    """Turns records into lines, one trick per line; remembers what it needs across records."""

    def __init__(self, names: Sequence[str], *, show_hands: bool = True) -> None:
        self.names = list(names)
        self.show_hands = show_hands
        self.statuses: list[str] = []
        self.hand_size = 0
        self.trick_no = 0
        self.trick_parts: list[str] = []
        #: Lines of the moves' info, waiting for the line that narrates their moves.
        self.infos: list[str] = []

    def name(self, seat: int | None) -> str:
        """The display name of a seat."""
        if seat is None:
            return "nobody"
        return self.names[seat] if 0 <= seat < len(self.names) else f"seat {seat}"

    def lines(self, record: JSON) -> list[str]:
        """The lines (possibly none) that narrate one record.

        What a bot sent with a move (its ``info``) follows the line that
        narrates the move: the trick's line for a card, the trumps' line
        for a suit.
        """
        lines = self._lines(record)
        if lines and self.infos:
            lines += self.infos
            self.infos = []
        return lines

    def _lines(self, record: JSON) -> list[str]:
        kind = record.get("type")
        if kind == "deal":
            return self._deal(record)
        if kind == "hand_start":  # a seat's own view of a deal: no other hand in it
            return self._hand_start(record)
        if kind == "move":
            if "info" in record:  # shown under the line that narrates the move
                name = self.name(record["seat"])
                self.infos.append(f"    {name} ({record['move']}): {info_text(record['info'])}")
            return []
        if kind == "event":
            return self._event(record)
        if kind == "hand_end":
            return self._hand_end(record)
        if kind == "game_end":
            return self._game_end(record)
        return []

    def _hand_start(self, record: JSON) -> list[str]:
        """A new hand, from a ``deal`` record or a seat's ``hand_start``: its first line."""
        self.statuses = list(record["statuses"])
        self.hand_size = record["hand_size"]
        self.trick_no = 0
        self.trick_parts = []
        size = record["hand_size"]
        return [
            f"Hand {record['hand']}: {size} card{'s' if size != 1 else ''} each, "
            f"{self.name(record['dealer'])} deals."
        ]

    def _deal(self, record: JSON) -> list[str]:
        lines = self._hand_start(record)
        blind = set(record.get("blind", []))
        face_up = record.get("dog_cards", {})
        for seat, status in enumerate(self.statuses):
            if status == "out":
                continue
            cards = " ".join(record["hands"][seat])
            note = ""
            if status == "dog":
                note = " (dog, blind)" if seat in blind else " (dog)"
                if str(seat) in face_up:
                    note = " (dog, card face up)"
            if self.show_hands:
                lines.append(f"  {self.name(seat)}: {cards}{note}")
        return lines

    def _event(self, record: JSON) -> list[str]:
        event = record.get("event")
        if event == "cut":
            draws = ", ".join(f"{self.name(seat)} {card}" for seat, card in record["draws"])
            if record["purpose"] == "dealer":
                return [f"Cut for the deal: {draws}; {self.name(record['winner'])} deals first."]
            return [
                f"  Cut to break the tie: {draws}; {self.name(record['winner'])} will name trumps."
            ]
        if event == "trump":
            suit = SUIT_NAMES[SUIT_CHARS.index(record["suit"])]
            if record["seat"] is None:
                return [f"  Trumps are {suit} (the turned-up card)."]
            return [f"  {self.name(record['seat'])} names {suit} as trumps."]
        if event == "play":
            self.trick_parts.append(f"{self.name(record['seat'])} {record['card']}")
            return []
        if event == "knock":
            self.trick_parts.append(f"{self.name(record['seat'])} knocks")
            return []
        if event == "trick":
            self.trick_no += 1
            parts = ", ".join(self.trick_parts)
            self.trick_parts = []
            return [f"  Trick {self.trick_no}: {parts} -> {self.name(record['winner'])}"]
        if event == "declare":
            what = "a rainbow" if record["what"] == "rainbow" else "no picture, no play"
            return [f"  {self.name(record['seat'])} declares {what}: {' '.join(record['cards'])}"]
        return []

    def _hand_end(self, record: JSON) -> list[str]:
        tricks = ", ".join(
            f"{self.name(seat)} {count}"
            for seat, count in enumerate(record["tricks"])
            if self.statuses and self.statuses[seat] != "out"
        )
        lines = [f"  Hand {record['hand']} over. Tricks: {tricks}."]
        changes = []
        for seat, status in enumerate(record["statuses"]):
            before = self.statuses[seat] if self.statuses else "active"
            if status == before and status != "dog":
                continue
            if status == "out" and before != "out":
                changes.append(f"{self.name(seat)} is knocked out")
            elif status == "dog" and before != "dog":
                changes.append(f"{self.name(seat)} gets a Dog's Life")
            elif status == "dog":
                changes.append(f"{self.name(seat)} is still a dog")
            elif status == "active" and before == "dog":
                changes.append(f"{self.name(seat)} is back in the game")
        if changes:
            lines.append(f"  {'; '.join(changes)}.")
        if record["chooser"] is not None:
            lines.append(f"  {self.name(record['chooser'])} will name trumps.")
        self.statuses = list(record["statuses"])
        return lines

    def _game_end(self, record: JSON) -> list[str]:
        order = sorted(range(len(record["placements"])), key=lambda s: record["placements"][s])
        places = ", ".join(f"{record['placements'][s]}. {self.name(s)}" for s in order)
        lines = [f"Game over: {self.name(record['winner'])} wins. Places: {places}."]
        for seat, fault in sorted(record.get("faults", {}).items(), key=lambda kv: int(kv[0])):
            lines.append(f"  {self.name(int(seat))} faulted ({fault['kind']}): {fault['detail']}")
        return lines


#: Characters of a move's info shown in a narration line (the replay keeps it whole).
INFO_CHARS = 160


def info_text(info: Any) -> str:
    """A move's ``info`` on one line: compact JSON, clipped to :data:`INFO_CHARS`."""
    text = json.dumps(info, separators=(",", ":"), ensure_ascii=False)
    return text if len(text) <= INFO_CHARS else text[: INFO_CHARS - 3] + "..."


def narrate(
    records: Iterable[JSON], names: Sequence[str], *, show_hands: bool = True
) -> Iterator[str]:
    """Every line narrating ``records`` in order."""
    narrator = Narrator(names, show_hands=show_hands)
    for record in records:
        yield from narrator.lines(record)


def result_line(result: GameResult) -> str:
    """A game's places and faults in one line: ``1. alice, 2. bob; bob faulted (timeout)``."""
    names = result.names
    order = sorted(range(len(names)), key=lambda seat: result.placements[seat])
    places = ", ".join(f"{result.placements[seat]}. {names[seat]}" for seat in order)
    faults = "".join(
        f"; {names[seat]} faulted ({fault.kind.value})"
        for seat, fault in sorted(result.faults.items())
    )
    return places + faults
