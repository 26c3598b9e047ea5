"""``/tempus help`` and the "?" button: what to do now, for the player who asks.

One short paragraph per decision kind: what you are deciding, the options you have now,
why each might be good, and the rule topics to read. It is built from the asking seat's
**view** only (``help_text(view, seat)``; a State is turned into that view first), so it
can be shown privately to that player and never reveals another player's cards.

The engine's rule helpers need a full state; :func:`engine.ai.sampling.determinise`
builds one from the view with random hidden parts. Only facts the seat may know are read
from it (the board, its own hand, public counts): its own legal actions do not depend on
anyone else's cards.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable
from typing import Any

from engine import actions as A
from engine import game as G
from engine.ai.sampling import determinise
from engine.combat import combat_strengths
from engine.content import CONTENT
from engine.errors import IllegalAction
from engine.hexgrid import label
from engine.legal import legal_actions
from engine.progress import new_era_index, progress_points
from engine.state import State
from engine.views import view as make_view
from games.tempus.event_text import decision_text, waiting_text
from games.tempus.labels import card_name, colour_name, era_name, terrain_name
from lang.messages import RULE_TOPICS, t

CARD_PLAYS = (A.PlayReligion, A.PlaySanitation, A.PlayTransport, A.PlayHealthCare,
              A.PlayGovernment)
MAX_HEXES = 5  # hexes named in one list

Builder = Callable[[State, int], tuple[str, tuple[str, ...]]]


def as_view(state_or_view: State | dict[str, Any], seat: int) -> dict[str, Any]:
    """The seat's own view (a given view must be that seat's)."""
    if isinstance(state_or_view, State):
        return make_view(state_or_view, seat)
    if state_or_view.get("seat") != seat:
        raise ValueError(f"help for seat {seat} needs that seat's own view")
    return state_or_view


def position(v: dict[str, Any]) -> State:
    """A full state consistent with the view (hidden parts sampled, never read)."""
    return determinise(v, random.Random(0))


def help_text(state_or_view: State | dict[str, Any], seat: int) -> str:
    """The help paragraph for ``seat``, in the current language."""
    v = as_view(state_or_view, seat)
    if v["phase"] == "over":
        return t("help.over")
    mine = [d for d in v["decisions"] if d["seat"] == seat]
    if not mine:
        return "\n".join([t("help.waiting", waiting=waiting_text(v)),
                          rules_line(("turn", "commands"))])
    d = mine[0]
    state = position(v)
    body, topics = BUILDERS[d["kind"]](state, seat)
    return "\n".join([t("help.title", what=decision_text(d, v)), body, rules_line(topics)])


def help_for_user(table: Any, user_id: int) -> str:
    """``/tempus help`` for ``user_id`` at a table of :class:`bot.table.service.TableService`."""
    seat = table.seat_of(user_id)
    if table.state is None:  # "take a seat" only to who has none
        return t("help.lobby" if seat is None else "help.lobby_seated", game=table.id)
    if seat is None:
        return t("help.spectator", game=table.id)
    return help_text(table.state, seat)


def rules_line(topics: Iterable[str]) -> str:
    links = ", ".join(t("help.link", topic=t(f"rules.topic.{x}")) for x in topics
                      if x in RULE_TOPICS)
    return t("help.rules", links=links)


# ------------------------------------------------------------------ facts
def hex_list(hexes: Iterable[int]) -> str:
    names = sorted({label(h) for h in hexes}, key=lambda s: (s[0], int(s[1:])))
    if not names:
        return t("help.none")
    shown = ", ".join(names[:MAX_HEXES])
    if len(names) > MAX_HEXES:  # "and 17 more", not a bare "(+17)"
        return t("help.hexes_more", hexes=shown, n=len(names) - MAX_HEXES)
    return shown


def next_terrain(state: State) -> str | None:
    return CONTENT.eras[min(new_era_index(state), CONTENT.flight)].terrain


def tokens_on(state: State, seat: int, terrain: str | None) -> int:
    return sum(state.count[h] for h, o in enumerate(state.owner)
               if o == seat and state.terrain[h] == terrain)


def after(state: State, seat: int, action: A.Action) -> State | None:
    try:
        return G.apply(state, seat, action)[0]
    except IllegalAction:
        return None


def card_plays(legal: list[A.Action]) -> list[A.Action]:
    return [a for a in legal if isinstance(a, CARD_PLAYS)
            or (isinstance(a, A.Attack) and a.leader is not None)]


def card_of(a: A.Action) -> int:
    """The card one of :func:`card_plays` plays (a Leader's attack: the Leader)."""
    if isinstance(a, A.Attack) and a.leader is not None:
        return a.leader
    if isinstance(a, CARD_PLAYS):
        return a.card
    raise TypeError(f"not a card play: {a!r}")


def playable_cards(legal: list[A.Action]) -> str:
    return ", ".join(card_name(c) for c in sorted({card_of(a) for a in card_plays(legal)}))


def useful_cards(state: State, seat: int, attacking: bool) -> str:
    """Own cards that add strength in the fight now (R-COMBAT-6)."""
    c = state.combat
    assert c is not None
    names = []
    for card in state.players[seat].hand:
        extra = combat_strengths(state, [card] if attacking else [],
                                 [] if attacking else [card])
        base = combat_strengths(state, [], [])
        gain = extra[0] - base[0] if attacking else extra[1] - base[1]
        if gain > 0:
            names.append(f"{card_name(card)} +{gain}")
    return ", ".join(names) or t("help.none")


def attack_strength(state: State, a: A.Attack) -> tuple[int, int]:
    """Tokens against tokens (or the city's value), before cards."""
    dst = a.dst
    dfn = state.city_value[dst] if state.city_owner[dst] >= 0 else state.count[dst]
    return state.count[a.src], dfn


# ------------------------------------------------------------------ one builder per kind
def _turn(state: State, seat: int) -> tuple[str, tuple[str, ...]]:
    legal = legal_actions(state, seat)
    plays = playable_cards(legal)
    if state.turn_actions <= 0:
        parts = [t("help.turn_done")]
        if plays:
            parts.append(t("help.cards", cards=plays))
        return " ".join(parts), ("turn", "cards")
    p = state.players[seat]
    era = state.era(seat)
    terrain = next_terrain(state)
    parts = [t("help.turn", round=state.era_number, rounds=CONTENT.flight,
               turn=state.action_round, markers=p.markers, era=era_name(p.era), move=era.move,
               distance=era.distance, growth=era.growth, draw=era.draw, limit=era.limit,
               stack=era.stack, terrain=terrain_name(terrain),
               on_terrain=tokens_on(state, seat, terrain))]
    topics = ["turn"]
    kinds = {type(a) for a in legal}
    if A.BeginMove in kinds:
        parts.append(_move_option(state, seat, terrain))
        topics.append("move")
    if A.BeginGrow in kinds:
        parts.append(_grow_option(state, seat))
        topics.append("grow")
    if A.DrawCards in kinds:
        parts.append(t("help.draw", draw=era.draw, hand=len(p.hand), limit=era.limit,
                       terrain=terrain_name(terrain)))
        over = len(p.hand) + era.draw - era.limit
        if over > 0:
            parts.append(t("help.draw_over", n=over))
        topics.append("draw")
    attacks = [a for a in legal if isinstance(a, A.Attack) and a.leader is None]
    if attacks:
        best = max(attacks, key=lambda a: attack_strength(state, a)[0]
                   - attack_strength(state, a)[1])
        att, dfn = attack_strength(state, best)
        parts.append(t("help.attack", n=len(attacks), src=label(best.src), dst=label(best.dst),
                       att=att, dfn=dfn))
        topics.append("attack")
    cities = [a for a in legal if isinstance(a, A.BuildCity)]
    if cities:
        best_city = max(cities, key=lambda a: (a.value, -a.hex))
        parts.append(t("help.city", value=best_city.value, hex=label(best_city.hex)))
        topics.append("city")
    if plays:
        parts.append(t("help.cards", cards=plays))
        topics.append("cards")
    topics.append("progress")
    return " ".join(parts), tuple(topics)


def _move_option(state: State, seat: int, terrain: str | None) -> str:
    moving = after(state, seat, A.BeginMove())
    if moving is None or G.decision_for(moving, seat) is None:
        return t("help.move.none")
    dsts = {a.dst for a in legal_actions(moving, seat) if isinstance(a, A.MoveToken)}
    if not dsts:
        return t("help.move.none")
    on_terrain = [h for h in dsts if state.terrain[h] == terrain and state.owner[h] != seat]
    if on_terrain:
        return t("help.move.terrain", terrain=terrain_name(terrain), hexes=hex_list(on_terrain))
    return t("help.move.spread", hexes=hex_list(h for h in dsts if state.owner[h] < 0))


def _grow_option(state: State, seat: int) -> str:
    growing = after(state, seat, A.BeginGrow())
    sites = [] if growing is None else [
        a.hex for a in legal_actions(growing, seat) if isinstance(a, A.GrowToken)]
    if not sites:
        return t("help.grow.none")
    n = min(state.era(seat).growth, len(sites), state.players[seat].supply)
    return t("help.grow.some", n=n, hexes=hex_list(sites))


def _moving(state: State, seat: int) -> tuple[str, tuple[str, ...]]:
    legal = legal_actions(state, seat)
    moves = [a for a in legal if isinstance(a, A.MoveToken)]
    terrain = next_terrain(state)
    if state.steps_left <= 0:  # only a card could move one more
        return t("help.move_step_none"), ("move", "cards")
    text = t("help.move_step", n=state.steps_left, distance=state.era(seat).distance,
             sources=hex_list(a.src for a in moves), terrain=terrain_name(terrain))
    reach = [a.dst for a in moves if state.terrain[a.dst] == terrain]
    if reach:
        text += " " + t("help.move_step.reach", terrain=terrain_name(terrain),
                        hexes=hex_list(reach))
    plays = playable_cards(legal)
    if plays:
        text += " " + t("help.cards", cards=plays)
    return text, ("move", "progress", "cards")


def _growing(state: State, seat: int) -> tuple[str, tuple[str, ...]]:
    legal = legal_actions(state, seat)
    sites = [a.hex for a in legal if isinstance(a, A.GrowToken)]
    if state.steps_left <= 0:  # only a card could grow one more
        return t("help.grow_step_none"), ("grow", "cards")
    text = t("help.grow_step", n=state.steps_left, hexes=hex_list(sites))
    plays = playable_cards(legal)
    if plays:
        text += " " + t("help.cards", cards=plays)
    return text, ("grow", "cards")


def _city_terrain(state: State, seat: int) -> tuple[str, tuple[str, ...]]:
    c = state.combat
    assert c is not None
    hand = state.players[seat].hand
    counts = ", ".join(
        t("help.count", terrain=terrain_name(x), n=sum(1 for k in hand
                                                       if CONTENT.cards[k].terrain == x))
        for x in ("G", "F", "W", "H"))
    return t("help.city_terrain", hex=label(c.dst), value=state.city_value[c.dst],
             src=label(c.src), counts=counts), ("attack",)


def _attack_cards(state: State, seat: int) -> tuple[str, tuple[str, ...]]:
    c = state.combat
    assert c is not None
    att, dfn = combat_strengths(state, [], [])
    return t("help.attack_cards", dst=label(c.dst), src=label(c.src), att=att, dfn=dfn,
             terrain=terrain_name(c.terrain),
             useful=useful_cards(state, seat, attacking=True)), ("attack", "cards")


def _defend_cards(state: State, seat: int) -> tuple[str, tuple[str, ...]]:
    c = state.combat
    assert c is not None and c.attack_cards is not None
    att, dfn = combat_strengths(state, [], [])
    return t("help.defend_cards", attacker=colour_name(c.attacker), dst=label(c.dst),
             src=label(c.src), n=len(c.attack_cards), att=att, dfn=dfn,
             terrain=terrain_name(c.terrain),
             useful=useful_cards(state, seat, attacking=False)), ("attack", "cards")


def _occupy(state: State, seat: int) -> tuple[str, tuple[str, ...]]:
    c = state.combat
    assert c is not None
    legal = legal_actions(state, seat)
    most = _most_in(legal)
    text = t("help.occupy", dst=label(c.dst), src=label(c.src), max=most)
    topics: tuple[str, ...] = ("attack",)
    san = [a for a in legal if isinstance(a, A.PlaySanitation)]
    if san:  # R-CARD-SAN / R-COMBAT-8 (rules 2): raise the won hex before moving in
        raised = after(state, seat, san[0])
        more = most if raised is None else _most_in(legal_actions(raised, seat))
        card = card_name(san[0].card)
        text += " " + (t("help.occupy_san", card=card, dst=label(c.dst), more=more)
                       if more > most else
                       t("help.occupy_san_idle", card=card, dst=label(c.dst)))
        topics += ("cards",)
    return text, topics


def _most_in(legal: list[A.Action]) -> int:
    """The most tokens the winner may move in (R-COMBAT-8)."""
    return max((a.count for a in legal if isinstance(a, A.Occupy)), default=0)


def _discard(state: State, seat: int) -> tuple[str, tuple[str, ...]]:
    hand = state.players[seat].hand
    return t("help.discard", hand=len(hand), n=state.discards[seat],
             limit=state.era(seat).limit,
             terrain=terrain_name(next_terrain(state))), ("draw", "progress", "cards")


def _progress(state: State, seat: int) -> tuple[str, tuple[str, ...]]:
    era = new_era_index(state)
    terrain = CONTENT.eras[era].terrain
    hand = state.players[seat].hand
    base = progress_points(state, seat, [], era)
    useful = [c for c in hand if progress_points(state, seat, [c], era) > base]
    best = progress_points(state, seat, useful, era)
    return t("help.progress", era=era_name(era), base=base, terrain=terrain_name(terrain),
             best=best), ("progress", "cards")


def _tile(state: State, seat: int) -> tuple[str, tuple[str, ...]]:
    return t("help.tile", tile=state.tile_stack[0],
             terrain=terrain_name(CONTENT.eras[1].terrain)), ("setup",)


def _start_token(state: State, seat: int) -> tuple[str, tuple[str, ...]]:
    first = CONTENT.eras[1].terrain
    good = [a.hex for a in legal_actions(state, seat) if isinstance(a, A.PlaceStartToken)
            and state.terrain[a.hex] in ("G", first)]
    left = CONTENT.starting_tokens - len(state.start_hexes)
    return t("help.start_token", left=left, terrain=terrain_name(first),
             hexes=hex_list(good)), ("setup", "grow", "progress")


BUILDERS: dict[str, Builder] = {
    G.PLACE_TILE: _tile,
    G.PLACE_START_TOKEN: _start_token,
    G.TURN: _turn,
    G.MOVING: _moving,
    G.GROWING: _growing,
    G.NAME_CITY_TERRAIN: _city_terrain,
    G.ATTACK_CARDS: _attack_cards,
    G.DEFEND_CARDS: _defend_cards,
    G.OCCUPY: _occupy,
    G.DISCARDING: _discard,
    G.PROGRESS_CARDS: _progress,
}
