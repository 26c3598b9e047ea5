"""What a seat may do now, in the page's terms: moves from a hex to a hex, things done at
a hex, buttons, a choice of cards. Each choice carries the steps that make it (actions as
:mod:`games.tempus.codec` writes them), which the page sends back as they are; the page
only shows what is listed here, and the table service checks every step again.

A tap does what a Discord control does, in fewer steps: a stack tapped at the start of a
turn shows where its tokens may go, and the tap on a destination begins the Move and
moves the token (Discord: "Move", then a select of sources, then of destinations); a
hex tapped to grow begins the Growth and grows there. The last token of a Move or Growth
also ends it, when the rules would otherwise wait for its player to say so (R-INFO-4), as
Discord's selects do. Card plays (tone ``card``) are shown apart, behind a "Play a card"
button, as Discord's private menu has them: a tap on the map is the action's own.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from engine import actions as A
from engine import game as G
from engine.content import CONTENT
from engine.errors import IllegalAction
from engine.legal import legal_actions
from engine.state import GROW, MOVE, State
from engine.turn import waits_to_end_after
from games.tempus.codec import decode_action, encode_action
from games.tempus.labels import action_label, terrain_name
from lang import i18n
from lang.messages import t

#: most steps one choice makes: begin the action, take its step, end it
MAX_STEPS = 3
#: decisions answered with a choice of cards from the hand
CARD_ACTIONS = {
    G.ATTACK_CARDS: A.CommitAttackCards,
    G.DEFEND_CARDS: A.DefendCards,
    G.DISCARDING: A.Discard,
    G.PROGRESS_CARDS: A.ProgressCards,
}
#: the most cards a hand holds (a longer list is no choice of cards)
MAX_CARDS = 16


def _steps(*actions: A.Action) -> list[str]:
    return [encode_action(a) for a in actions]


def _then_end(state: State, seat: int, step: A.MoveToken | A.GrowToken) -> list[A.Action]:
    """``step``, and the end of its action when that step spends it but the rules would
    wait for the player to end it (a card could extend it: played before, not after)."""
    if not waits_to_end_after(state, seat, step):
        return [step]
    return [step, A.EndMove() if isinstance(step, A.MoveToken) else A.EndGrow()]


class _Choices:
    def __init__(self, state: State, seat: int) -> None:
        self.state = state
        self.seat = seat
        self.pairs: list[dict[str, Any]] = []
        self.spots: list[dict[str, Any]] = []
        self.buttons: list[dict[str, Any]] = []
        self.cards: dict[str, Any] | None = None

    def pair(self, src: int, dst: int, actions: list[A.Action], tone: str,
             label: A.Action) -> None:
        self.pairs.append({"from": src, "to": dst, "steps": _steps(*actions), "tone": tone,
                           "label": action_label(label)})

    def spot(self, at: int, actions: list[A.Action], tone: str, label: A.Action) -> None:
        self.spots.append({"at": at, "steps": _steps(*actions), "tone": tone,
                           "label": action_label(label)})

    def button(self, actions: Sequence[A.Action], text: str, tone: str = "secondary") -> None:
        self.buttons.append({"steps": _steps(*actions), "label": text, "tone": tone})

    def card_plays(self, legal: Sequence[A.Action]) -> None:
        for a in legal:
            if isinstance(a, A.PlayReligion):
                self.pair(a.own, a.target, [a], "card", a)
            elif isinstance(a, A.PlaySanitation):
                self.spot(a.hex, [a], "card", a)
            elif isinstance(a, (A.PlayTransport, A.PlayHealthCare, A.PlayGovernment)):
                self.button([a], action_label(a), "card")

    def begun(self, begin: A.Action, step: type[A.MoveToken] | type[A.GrowToken],
              end: A.Action, key: str) -> None:
        """What beginning a Move or Growth leads to, one tap each: its steps (begin and
        step in one), and its button (begin only; an idle one says it only spends the
        marker, and ends it if the rules would wait)."""
        try:
            after, _ = G.apply(self.state, self.seat, begin)
        except IllegalAction:
            return
        steps = [a for a in legal_actions(after, self.seat)
                 if isinstance(a, (A.MoveToken, A.GrowToken)) and isinstance(a, step)]
        for a in steps:
            then = [begin, *_then_end(after, self.seat, a)]
            if isinstance(a, A.MoveToken):
                self.pair(a.src, a.dst, then, "move", a)
            else:
                self.spot(a.hex, then, "grow", a)
        if steps:
            self.button([begin], t(key), "primary")
        else:
            waits = after.stage in (MOVE, GROW)
            self.button([begin, end] if waits else [begin], t(f"{key}_idle"))

    def data(self, kind: str) -> dict[str, Any]:
        return {"kind": kind, "pairs": self.pairs, "spots": self.spots,
                "buttons": self.buttons, "cards": self.cards}


def choices(state: State, seat: int, legal: Sequence[A.Action],
            lang: str) -> dict[str, Any] | None:
    """See :meth:`games.port.Web.choices`."""
    d = G.decision_for(state, seat)
    if d is None or not legal:
        return None
    c = _Choices(state, seat)
    with i18n.using(lang):
        kind = d.kind
        if kind in CARD_ACTIONS:
            hand = state.players[seat].hand
            need = state.discards.get(seat) if kind == G.DISCARDING else None
            c.cards = {"decision": str(kind), "cards": list(hand),
                       "min": need or 0, "max": need if need is not None else len(hand),
                       "prompt": t(f"web.cards.{kind}", n=need or 0),
                       "confirm": t("web.cards.confirm"), "none": t("btn.no_cards")}
        elif kind == G.TURN:
            kinds = {type(a) for a in legal}
            if A.BeginMove in kinds:
                c.begun(A.BeginMove(), A.MoveToken, A.EndMove(), "btn.move")
            if A.BeginGrow in kinds:
                c.begun(A.BeginGrow(), A.GrowToken, A.EndGrow(), "btn.grow")
            for a in legal:
                if isinstance(a, A.Attack):
                    c.pair(a.src, a.dst, [a], "attack", a)
                elif isinstance(a, A.BuildCity):
                    c.spot(a.hex, [a], "city", a)
            # a choice with one possible answer is a button too, as on the turn message
            attacks = [a for a in legal if isinstance(a, A.Attack) and a.leader is None]
            builds = [a for a in legal if isinstance(a, A.BuildCity)]
            if len(attacks) == 1:
                c.button(attacks, action_label(attacks[0]), "attack")
            if len(builds) == 1:
                c.button(builds, action_label(builds[0]), "city")
            if A.DrawCards in kinds:
                c.button([A.DrawCards()], t("btn.draw"), "primary")
            c.card_plays(legal)
            if A.EndTurn in kinds:
                c.button([A.EndTurn()], t("btn.end_turn"))
        elif kind == G.MOVING:
            for a in legal:
                if isinstance(a, A.MoveToken):
                    c.pair(a.src, a.dst, _then_end(state, seat, a), "move", a)
            c.card_plays(legal)
            c.button([A.EndMove()], t("btn.end_move"))
        elif kind == G.GROWING:
            for a in legal:
                if isinstance(a, A.GrowToken):
                    c.spot(a.hex, _then_end(state, seat, a), "grow", a)
            c.card_plays(legal)
            c.button([A.EndGrow()], t("btn.end_grow"))
        elif kind == G.NAME_CITY_TERRAIN:
            hand = state.players[seat].hand
            for a in legal:
                if isinstance(a, A.NameCityTerrain):
                    n = sum(1 for card in hand if CONTENT.cards[card].terrain == a.terrain)
                    c.button([a], t("btn.terrain_match", terrain=terrain_name(a.terrain), n=n),
                             "primary" if n else "secondary")
        elif kind == G.OCCUPY:
            for a in legal:
                if isinstance(a, A.Occupy):
                    c.button([a], t("btn.occupy", n=a.count), "primary" if a.count else
                             "secondary")
                elif isinstance(a, A.PlaySanitation):
                    c.spot(a.hex, [a], "card", a)
        elif kind == G.PLACE_START_TOKEN:
            for a in legal:
                if isinstance(a, A.PlaceStartToken):
                    c.spot(a.hex, [a], "place", a)
        elif kind == G.PLACE_TILE:
            for a in legal:
                if isinstance(a, A.PlaceTile):
                    c.spot(a.centre, [a], "place", a)
        return c.data(str(kind))


def actions(data: Mapping[str, Any]) -> list[A.Action]:
    """The actions a page asks for: ``{"steps": [...]}`` (a choice's steps as listed) or
    ``{"cards": [...], "decision": kind}`` (a choice of cards); ValueError otherwise."""
    if not isinstance(data, Mapping):
        raise ValueError("not an object")
    steps = data.get("steps")
    if steps is not None:
        if not isinstance(steps, list) or not 0 < len(steps) <= MAX_STEPS or not all(
                isinstance(s, str) and len(s) <= 100 for s in steps):
            raise ValueError("steps must be 1 to 3 short texts")
        try:
            return [decode_action(s) for s in steps]
        except (KeyError, TypeError, IndexError) as exc:
            raise ValueError(str(exc)) from None
    cards, kind = data.get("cards"), data.get("decision")
    if not isinstance(cards, list) or len(cards) > MAX_CARDS or not all(
            type(x) is int and 0 <= x < len(CONTENT.cards) for x in cards):
        raise ValueError("cards must be a list of card numbers")
    try:
        make = CARD_ACTIONS[G.DecisionKind(str(kind))]
    except (ValueError, KeyError):
        raise ValueError("no choice of cards") from None
    return [make(tuple(sorted(cards)))]
