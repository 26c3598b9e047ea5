"""The moment of a game in one small value: whose turn it is and what is left to do.

Built from a public view (:func:`moment`), it is the one description that the board
image's "to act" box and status (:mod:`render.panel`), the image's alt text
(:mod:`render.alt_text`) and the bot's turn message and status (``games.tempus``) all word,
each in its own words: they cannot disagree about who is asked what (the image once said
"choose an action" under a message saying the action was done).

An :class:`Ask` is one question and the seats it is put to: a decision kind of the engine
(``engine.game.DecisionKind``), refined by what is left of it (``turn_done``: the turn's
action is done, cards or the end of the turn are left; ``move_none``/``grow_none``: no step
is left but a card could add one), with the numbers its words need. A view of a past
moment (``ended_round`` set by whoever replayed it: the position as that round ended)
asks nobody anything.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from engine.content import CONTENT

#: every kind of question an :class:`Ask` can be (the decision kinds, refined)
ASK_KINDS = ("place_tile", "place_start_token", "turn", "turn_done", "move", "move_none",
             "grow", "grow_none", "name_city_terrain", "attack_cards", "defend_cards",
             "occupy", "discard", "progress_cards", "other")


@dataclass(frozen=True)
class Ask:
    """One question and the seats it is put to."""

    kind: str
    seats: tuple[int, ...]
    #: how many: tokens left to move or grow, start tokens to place, cards to discard
    count: int | None = None
    #: the hex it is about (the fight's: name the city's terrain, occupy)
    hex: int | None = None
    #: the tile to place
    tile: int | None = None


@dataclass(frozen=True)
class Moment:
    phase: str
    era: int
    #: the turn of the action phase (0 outside it)
    turn: int
    #: the questions open now, in the engine's order of the decisions
    asks: tuple[Ask, ...]
    #: the game is over: who won
    winners: tuple[int, ...] = ()
    #: the view shows the position as this round ended (a past moment): nobody is asked
    ended_round: int | None = None

    @property
    def seats(self) -> tuple[int, ...]:
        """Every seat asked something, in order."""
        return tuple(dict.fromkeys(s for a in self.asks for s in a.seats))


def ask_for(v: Mapping[str, Any], seat: int, kind: str) -> Ask:
    """The question a decision of ``kind`` puts to ``seat`` in the view ``v``."""
    combat = v.get("combat") or {}
    if kind == "place_tile":
        return Ask(kind, (seat,), tile=v.get("current_tile"))
    if kind == "place_start_token":
        return Ask(kind, (seat,), count=CONTENT.starting_tokens - len(v.get("start_hexes", [])))
    if kind == "turn":
        # the turn's action (a marker) is taken: what is left is cards or its end
        return Ask("turn" if int(v.get("turn_actions", 1)) > 0 else "turn_done", (seat,))
    if kind in ("move", "grow"):
        left = int(v.get("steps_left", 0))
        return Ask(kind if left > 0 else f"{kind}_none", (seat,), count=left)
    if kind == "discard":
        discards = v.get("discards") or {}
        return Ask(kind, (seat,), count=int(discards.get(str(seat), discards.get(seat, 0))))
    if kind in ("name_city_terrain", "occupy"):
        if "dst" not in combat:
            return Ask("other", (seat,))
        return Ask(kind, (seat,), hex=int(combat["dst"]))
    if kind in ("progress_cards", "attack_cards", "defend_cards"):
        return Ask(kind, (seat,))
    return Ask("other", (seat,))


def moment(v: Mapping[str, Any]) -> Moment:
    """The moment a public (or any seat's) view shows: the same questions put to several
    seats are one :class:`Ask` (the progress phase's secret cards)."""
    phase = str(v["phase"])
    ended = v.get("ended_round")
    turn = int(v.get("action_round", 0)) if phase == "actions" else 0
    if phase == "over" or ended is not None:
        return Moment(phase, int(v["era_number"]), turn, (),
                      tuple(v.get("winners") or ()) if phase == "over" else (),
                      None if ended is None else int(ended))
    grouped: dict[tuple[str, int | None, int | None, int | None], list[int]] = {}
    for dec in v.get("decisions", []):
        a = ask_for(v, int(dec["seat"]), str(dec["kind"]))
        grouped.setdefault((a.kind, a.count, a.hex, a.tile), []).extend(a.seats)
    asks = tuple(Ask(kind, tuple(seats), count, hex_, tile)
                 for (kind, count, hex_, tile), seats in grouped.items())
    return Moment(phase, int(v["era_number"]), turn, asks)
