"""R-INFO-1/2: a recap says nothing the public log does not: no card drawn, held,
discarded face down, or still face down in a fight or a progress choice.

The test changes only secrets and checks that the recap stays the same. In random games
(the ones the board's leak test uses, with face-down attack cards and progress choices),
at many points, two cards that nobody has seen yet are swapped everywhere: in the draw
pile and in every action of the log that names them. Card ids never seen face up decide
nothing public (their strength counts only once they are revealed), so the two games have
the same public log (for two cards of different type or terrain, within the limits of ``_partner``),
which the test checks move by move, while a hand, a face-down attack
or a progress choice really differs. Every recap of the two (for each seat since its
previous decision, for a spectator since the round's start) must then be equal: the
model, its words in English and Polish, and the picture's inputs (the view and the
marks)."""

from __future__ import annotations

import dataclasses
import random
from typing import Any

import pytest

from engine.actions import Action, action_from_json
from engine.content import CONTENT
from engine.events import Event, visible
from engine.game import apply_in_place
from engine.record import Record
from engine.state import ACTIONS, OVER, PROGRESS, State
from engine.views import view
from games.tempus.recap import RecapError, Since, alt_lines, collect, recap_lines
from lang.i18n import using
from tests.render.helpers import game
from tests.render.test_no_leak import SECRET_GAMES

NAMES = ["ada", "brian", "cleo", "dan", "eve"]
#: fields of actions and events that name cards
CARD_FIELDS = ("card", "cards", "leader", "attack_cards", "defend_cards")


@dataclasses.dataclass
class SwappedRecord(Record):
    """The same game with two card ids swapped in the shuffled draw pile."""

    swap: dict[int, int] = dataclasses.field(default_factory=dict)

    def new_state(self) -> tuple[State, list[Event]]:
        state, events = super().new_state()
        state.deck = [self.swap.get(c, c) for c in state.deck]
        for p in state.players:  # (cards dealt at the start)
            p.hand = [self.swap.get(c, c) for c in p.hand]
        return state, events


def _swapped_action(action: Action, swap: dict[int, int]) -> Action:
    d = action.to_json()
    for f in CARD_FIELDS:
        v = d.get(f)
        if isinstance(v, list):
            d[f] = [swap.get(c, c) for c in v]
        elif isinstance(v, int):
            d[f] = swap.get(v, v)
    return action_from_json(d)


def _named(events: list[Event]) -> set[int]:
    """Cards a list of public events names."""
    out: set[int] = set()
    for e in events:
        for f in CARD_FIELDS:
            v = e.data.get(f)
            if isinstance(v, list):
                out |= set(v)
            elif isinstance(v, int) and not isinstance(v, bool):
                out.add(v)
    return out


def _seen(events: list[Event], v: dict[str, Any]) -> set[int]:
    """Cards a move's public events and the public view after it show face up."""
    combat = v.get("combat") or {}
    leader = combat.get("leader")
    return _named(events) | set(v["revealed_cards"]) | ({leader} if leader is not None
                                                         else set())


def _public_log(record: Record) -> tuple[list[Any], State]:
    state, _ = record.new_state()
    log: list[Any] = []
    for seat, action in record.moves:
        events = visible(apply_in_place(state, seat, action), None)
        log.append(([e.to_json() for e in events], view(state, None)))
    return log, state


def _secrets(state: State) -> dict[str, Any]:
    c = state.combat
    face_down = c.attack_cards if c is not None and c.defend_cards is None else None
    return {"hands": [sorted(p.hand) for p in state.players], "face_down": face_down,
            "progress": {k: sorted(v) for k, v in state.progress_choices.items()},
            "deck": list(state.deck)}


def _cuts(record: Record, rng: random.Random) -> list[tuple[int, list[int]]]:
    """Points of the game worth a recap: every position with face-down cards (a fight's
    attack or progress choices), and a few others; with the cards nobody has seen by
    then that are held or face down (the ones a leak would show)."""
    state, _ = record.new_state()
    seen: set[int] = set()
    out = []
    for k, (seat, action) in enumerate(record.moves):
        seen |= _seen(visible(apply_in_place(state, seat, action), None), view(state, None))
        c = state.combat
        face_down = list(c.attack_cards) if c is not None and c.attack_cards \
            and c.defend_cards is None else []
        chosen = [x for v in state.progress_choices.values() for x in v]
        held = [x for p in state.players for x in p.hand]
        secret = [x for x in face_down + chosen if x not in seen]
        if secret or (rng.random() < 0.04 and state.phase in (ACTIONS, PROGRESS)):
            hidden = secret or [x for x in held if x not in seen]
            if hidden:
                out.append((k + 1, hidden))
    return out


#: types whose presence in a hand the engine still lets show: a move ends by itself
#: without Transport in hand once its steps are spent, a growth without Sanitation or
#: Healthcare (engine.turn); a card of these types is swapped only with its own type
SHOWN_TYPES = ("TRA", "SAN", "HEA")


def _kind(card: int) -> str:
    t = CONTENT.cards[card].type
    return t if t in SHOWN_TYPES else "any"


def _partner(card: int, unseen: list[int], rng: random.Random) -> int | None:
    """An unseen card of another type or on another terrain, among the types the table
    cannot tell apart: since rules 4 a turn ends by itself only with an empty hand
    (engine.turn.nothing_left), so whether a hand holds a playable Leader, Religion,
    Sanitation or Government no longer shows; the terrain counts in a fight's or a
    progress phase's strength only once the cards are revealed."""
    c = CONTENT.cards[card]
    others = [x for x in unseen if _kind(x) == _kind(card)
              and (CONTENT.cards[x].type, CONTENT.cards[x].terrain) != (c.type, c.terrain)]
    return rng.choice(others) if others else None


def _recaps(record: Record, state: State) -> list[tuple[Since, Any, list[str]]]:
    sinces = [Since.decision(s) for s in range(record.num_players)]
    if state.phase in (ACTIONS, PROGRESS, OVER):
        sinces.append(Since.round_start(state.era_number))
    out = []
    for since in sinces:
        try:
            r = collect(record, since)
        except RecapError:
            continue
        words = []
        for lang in ("en", "pl"):
            with using(lang):
                words += recap_lines(r, NAMES) + alt_lines(r)
        out.append((since, r, words))
    return out


@pytest.mark.parametrize("players,seed", SECRET_GAMES)
def test_swapping_unseen_cards_changes_no_recap(players: int, seed: int) -> None:
    record = game(players, seed)
    rng = random.Random(seed)
    cuts = _cuts(record, rng)
    assert cuts, "no position with cards nobody has seen"
    compared = face_down = 0
    for k, hidden in cuts[:: max(1, len(cuts) // 7)]:
        prefix = dataclasses.replace(record, moves=record.moves[:k])
        log, state = _public_log(prefix)
        seen = {x for events, v in log for x in _seen([Event(**e) for e in events], v)}
        unseen = [x for x in range(len(CONTENT.cards)) if x not in seen]
        a = rng.choice(hidden)
        b = _partner(a, unseen, rng)
        if b is None:
            continue
        swap = {a: b, b: a}
        other = SwappedRecord(**{f.name: getattr(prefix, f.name)
                                 for f in dataclasses.fields(Record)}, swap=swap)
        other.moves = [(s, _swapped_action(x, swap)) for s, x in prefix.moves]
        other_log, other_state = _public_log(other)
        assert other_log == log, "the swap changed the public log: the test is wrong"
        if _secrets(other_state) == _secrets(state):
            continue  # both cards in one hand: nothing secret changed
        mine, theirs = _recaps(prefix, state), _recaps(other, other_state)
        assert mine == theirs
        compared += len(mine)
        face_down += state.combat is not None and state.combat.attack_cards is not None \
            and state.combat.defend_cards is None or bool(state.progress_choices)
    assert compared >= 10
    assert face_down, "no comparison with cards face down in a fight or progress choice"


def test_the_recap_names_only_cards_seen_face_up() -> None:
    """In every recap of these games, each card id the model holds was named by a public
    event before it (a played card, a fight's reveal, a progress reveal)."""
    for players, seed in SECRET_GAMES[:4]:
        record = game(players, seed)
        seen_by: list[set[int]] = []
        state, _ = record.new_state()
        seen: set[int] = set()
        for seat, action in record.moves:
            seen |= _seen(visible(apply_in_place(state, seat, action), None),
                          view(state, None))
            seen_by.append(set(seen))
        for k in range(40, len(record.moves), 37):
            prefix = dataclasses.replace(record, moves=record.moves[:k])
            r = collect(prefix, Since.decision(record.moves[k - 1][0] ^ 1))
            named: set[int] = set()
            for item in r.items:
                for f in getattr(item, "fights", []):
                    named |= set(f.attack_cards or ()) | set(f.defend_cards or ())
                named |= {p.card for p in getattr(item, "played", [])}
                named |= {c for _, cards, _ in getattr(item, "reveals", []) for c in cards}
            assert named <= seen_by[k - 1]
            assert r.view["seat"] is None and all("hand" not in p for p in r.view["players"])
