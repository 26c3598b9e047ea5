"""The Attack action and its steps (R-COMBAT-1..11, R-CARD-LEA)."""

from __future__ import annotations

from .actions import Attack, CommitAttackCards, DefendCards, NameCityTerrain, Occupy
from .content import CONTENT, TERRAINS
from .errors import IllegalAction
from .events import Event, EventKind, card_list, colour
from .hexgrid import NEIGHBOURS, label
from .pieces import (
    add_tokens,
    card_type,
    lapse_raises,
    play_card,
    remove_tokens,
    require_card,
    take_cards,
    to_discard,
)
from .state import C_ATTACK, C_DEFEND, C_OCCUPY, C_TERRAIN, COMBAT, MAIN, Combat, State


def defender_of(state: State, h: int) -> int:
    """The seat with tokens or a city on ``h``, or -1."""
    return state.owner[h] if state.owner[h] >= 0 else state.city_owner[h]


def is_protected(state: State, seat: int) -> bool:
    """R-COMBAT-2: a player on 3 or fewer hexes cannot be attacked. Hexes with tokens
    count; a hex with only a city counts under rules 1 or with R-OPT-1."""
    return state.presence(seat) <= CONTENT.protected_max_hexes


def attack_targets(state: State, seat: int) -> list[tuple[int, int]]:
    """Every legal (src, dst) attack for ``seat`` (R-COMBAT-1/2)."""
    protected: dict[int, bool] = {}
    out = []
    for src, o in enumerate(state.owner):
        if o != seat:
            continue
        for dst in NEIGHBOURS[src]:
            d = defender_of(state, dst)
            if d < 0 or d == seat:
                continue
            if d not in protected:
                protected[d] = is_protected(state, d)
            if not protected[d]:
                out.append((src, dst))
    return out


def start_attack(state: State, seat: int, action: Attack, events: list[Event]) -> None:
    src, dst = action.src, action.dst
    if state.owner[src] != seat:
        raise IllegalAction.because("attack.no_tokens", src=src)
    if dst not in NEIGHBOURS[src]:
        raise IllegalAction.because("attack.not_adjacent", dst=dst, src=src)
    defender = defender_of(state, dst)
    if defender < 0 or defender == seat:
        raise IllegalAction.because("attack.no_enemy", dst=dst)
    if is_protected(state, defender):
        if state.cities_count_for_protection():
            raise IllegalAction.because("attack.protected.cities", colour=defender,
                                        n=state.presence(defender))
        raise IllegalAction.because("attack.protected", colour=defender,
                                    n=state.presence(defender))
    if action.leader is not None:
        require_card(state, seat, action.leader, "LEA")
        play_card(state, seat, action.leader)
        how = "with a Leader (no action used)"
    else:
        _use_marker(state, seat)
        how = "as an action"
    city = state.city_owner[dst] >= 0
    state.combat = Combat(
        attacker=seat,
        defender=defender,
        src=src,
        dst=dst,
        city=city,
        leader=action.leader,
        step=C_TERRAIN if city else C_ATTACK,
        terrain=None if city else state.terrain[dst],
    )
    state.stage = COMBAT
    target = f"{colour(defender)}'s city ({state.city_value[dst]})" if city else (
        f"{colour(defender)}'s {state.count[dst]} token(s)")
    events.append(Event(EventKind.ATTACK, f"{colour(seat)} attacks {target} on {label(dst)} from "
                        f"{label(src)} with {state.count[src]} token(s), {how}.", seat,
                        data={"src": label(src), "dst": label(dst), "defender": defender,
                              "tokens": state.count[src], "city": city,
                              "value": state.city_value[dst], "defender_tokens": state.count[dst],
                              "leader": action.leader is not None}))


def _use_marker(state: State, seat: int) -> None:
    if state.turn_actions <= 0:
        raise IllegalAction.because("action.taken")
    state.players[seat].markers -= 1
    state.turn_actions -= 1
    state.acted = True


def name_city_terrain(state: State, seat: int, action: NameCityTerrain,
                      events: list[Event]) -> None:
    if action.terrain not in TERRAINS:
        raise IllegalAction.because("city_terrain.unknown")
    c = state.combat
    assert c is not None
    c.terrain = action.terrain
    c.step = C_ATTACK
    events.append(Event(EventKind.CITY_TERRAIN, f"{colour(seat)} defends the city as "
                        f"{CONTENT.terrain_names[action.terrain]}.", seat,
                        data={"terrain": action.terrain}))


def commit_attack_cards(state: State, seat: int, action: CommitAttackCards,
                        events: list[Event]) -> None:
    c = state.combat
    assert c is not None
    take_cards(state, seat, action.cards)
    c.attack_cards = list(action.cards)
    c.step = C_DEFEND
    events.append(Event(EventKind.ATTACK_CARDS, f"{colour(seat)} plays {len(action.cards)} card(s) "
                        "face down.", seat, data={"count": len(action.cards)}))
    if not state.players[c.defender].hand:
        _resolve(state, [], events)


def defend_cards(state: State, seat: int, action: DefendCards, events: list[Event]) -> None:
    take_cards(state, seat, action.cards)
    _resolve(state, list(action.cards), events)


def _strength(cards: list[int], terrain: str | None, defending: bool) -> int:
    s = 0
    for card in cards:
        info = CONTENT.cards[card]
        if info.terrain == terrain:
            s += 1
        if info.type == "WEA":
            s += CONTENT.weapons_bonus
        elif info.type == "FOR" and defending:
            s += CONTENT.fortification_defence_bonus
    return s


def card_strength(card: int, terrain: str | None, defending: bool) -> int:
    """What one card adds to its side's strength in a fight on ``terrain`` (R-COMBAT-6)."""
    return _strength([card], terrain, defending)


def combat_strengths(state: State, attack_cards: list[int],
                     defend_cards: list[int]) -> tuple[int, int]:
    """R-COMBAT-6: (attacker, defender) strength of the combat in progress."""
    c = state.combat
    assert c is not None
    att = state.count[c.src] + _strength(attack_cards, c.terrain, False)
    base = state.city_value[c.dst] if c.city else state.count[c.dst]
    dfn = base + _strength(defend_cards, c.terrain, True)
    return att, dfn


def _resolve(state: State, defence: list[int], events: list[Event]) -> None:
    c = state.combat
    assert c is not None and c.attack_cards is not None
    c.defend_cards = defence
    att, dfn = combat_strengths(state, c.attack_cards, defence)
    events.append(Event(
        EventKind.COMBAT_CARDS,
        f"{colour(c.defender)} answers with {card_list(defence)}; {colour(c.attacker)} "
        f"reveals {card_list(c.attack_cards)}. Strength {att} against {dfn}.",
        c.attacker,
        data={"attack_cards": c.attack_cards, "defend_cards": defence,
              "attack": att, "defence": dfn, "defender": c.defender},
    ))
    # R-COMBAT-10: face down onto the pile, but everybody saw them revealed (R-INFO-1)
    to_discard(state, c.attack_cards)
    to_discard(state, defence)
    if att > dfn:  # R-COMBAT-7: ties go to the defender
        if c.city:
            value = state.city_value[c.dst]
            state.players[c.defender].cities.append(value)
            state.players[c.defender].cities.sort()
            state.city_owner[c.dst] = -1
            state.city_value[c.dst] = 0
            lost = f"city of value {value}"
            lost_data = {"city": True, "value": value}
        else:
            n = state.count[c.dst]
            remove_tokens(state, c.dst, n)
            state.players[c.defender].supply += n
            lost = f"{n} token(s)"
            lost_data = {"city": False, "tokens": n}
        events.append(Event(
            EventKind.COMBAT_WON, f"{colour(c.attacker)} wins; {colour(c.defender)} "
            f"loses the {lost} on {label(c.dst)}.", c.attacker,
            data={"winner": c.attacker, "loser": c.defender,
                  "dst": label(c.dst), **lost_data}))
        c.step = C_OCCUPY
    else:
        remove_tokens(state, c.src, 1)  # R-COMBAT-9
        state.players[c.attacker].supply += 1
        events.append(Event(EventKind.COMBAT_LOST, f"{colour(c.defender)} holds {label(c.dst)}; "
                            f"{colour(c.attacker)} loses one token on {label(c.src)}.",
                            c.defender, data={"winner": c.defender, "loser": c.attacker,
                                              "src": label(c.src), "dst": label(c.dst)}))
        _finish(state)


def max_occupy(state: State) -> int:
    c = state.combat
    assert c is not None
    return min(state.count[c.src], state.stack_limit(c.attacker, c.dst))


def occupy(state: State, seat: int, action: Occupy, events: list[Event]) -> None:
    c = state.combat
    assert c is not None
    most = max_occupy(state)
    if not 0 <= action.count <= most:
        raise IllegalAction.because("occupy.count", most=most, dst=c.dst)
    if action.count:
        remove_tokens(state, c.src, action.count)
        add_tokens(state, seat, c.dst, action.count)
        events.append(Event(EventKind.OCCUPY, f"{colour(seat)} moves {action.count} token(s) into "
                            f"{label(c.dst)}.", seat, data={"count": action.count,
                                                          "dst": label(c.dst)}))
    _finish(state)


def _finish(state: State) -> None:
    c = state.combat
    state.combat = None
    state.stage = MAIN
    if c is not None:
        lapse_raises(state, c.attacker)  # R-CARD-SAN: e.g. raised the won hex, moved 0 in


def leader_cards(state: State, seat: int) -> list[int]:
    return [c for c in state.players[seat].hand if card_type(c) == "LEA"]
