"""Texts built from views: status, hands, final scores (never from the raw state)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engine.content import CONTENT
from engine.rules import PROTECTION_COUNTS_CITIES
from games.port import Seat
from games.tempus.event_text import waiting_text
from games.tempus.labels import (
    card_text,
    card_type_name,
    colour_name,
    era_name,
    seat_names,
    terrain_name,
)
from lang.messages import join_names, t
from render.moment import moment

#: rounds in a game: the leading cube moves one era per round, Starting box to Flight
ROUNDS = CONTENT.flight


def cities_built(v: dict[str, Any], seat: int) -> int:
    return sum(1 for o in v["city_owner"] if o == seat)


def protection_text(v: dict[str, Any]) -> str:
    """Who cannot be attacked now (R-COMBAT-2), during the actions and only when someone
    is: "These players cannot be attacked now (tokens on 3 or fewer hexes): Blue." A hex
    with only the player's city counts under rules 1 and with R-OPT-1 (the same test as
    ``State.cities_count_for_protection``); otherwise only hexes with tokens count."""
    if v.get("phase") != "actions":
        return ""
    cities = int(v.get("rules_version", 1)) < 2 or bool(
        v.get("options", {}).get(PROTECTION_COUNTS_CITIES))
    owner, city_owner = v["owner"], v["city_owner"]
    safe = []
    for seat in range(len(v["players"])):
        held = sum(1 for h, o in enumerate(owner)
                   if o == seat or (cities and city_owner[h] == seat))
        if held <= CONTENT.protected_max_hexes:
            safe.append(seat)
    if not safe:
        return ""
    return t("status.safe.cities" if cities else "status.safe", n=len(safe),
             names=join_names([colour_name(s) for s in safe]))


def era_phrase(index: int) -> str:
    """A player's era for the status: "era Writing"; the Starting box is no era yet."""
    return t("status.era.start") if index == 0 else t("status.era", era=era_name(index))


def markers_phrase(n: int, phase: str = "actions") -> str:
    """Action markers still to use this round ("none left" rather than "0 ... left");
    while the map and the starting tokens are laid, that the actions come later (no marker
    was ever used then)."""
    if phase in ("tiles", "tokens"):
        return t("status.markers.setup")
    return t("status.markers", n=n) if n > 0 else t("status.markers.none")


def status_text(game_id: int, v: dict[str, Any], seats: Sequence[Seat], *,
                hints: bool = True, ended_round: int | None = None) -> str:
    """The position in text; ``hints``: the game's hint option (a line when it is off);
    ``ended_round``: ``v`` is the position as that round ended (a past moment: its view
    already counts the next round, and nobody is waited for any more)."""
    names = seat_names(seats)  # computers named in the reader's language
    phase = v["phase"]
    if ended_round is None:  # a replayed past moment says so itself (render.moment)
        ended_round = moment(v).ended_round
    if ended_round is not None:
        lines = [t("status.head.ended", game=game_id, round=ended_round, rounds=ROUNDS)]
    else:
        phase_text = t(f"status.phase.{phase}", turn=v.get("action_round", 0))
        lines = [t("status.head", game=game_id, round=v["era_number"], rounds=ROUNDS,
                   phase=phase_text)]
    for i, p in enumerate(v["players"]):
        lines.append(t(
            "status.player",
            mark=t("status.start_mark") if i == v["start_player"] else "",
            colour=colour_name(i), name=names[i] if i < len(names) else "?",
            era=era_phrase(p["era"]), markers=markers_phrase(p["markers"], phase),
            hand=p["hand_size"], supply=p["supply"], cities=cities_built(v, i),
            vp=p["victory_points"]))
    lines.append(t("status.deck", deck=v["deck_size"], discard=v["discard_size"]))
    # the rules version is the bot's bookkeeping: players read only what it changes, and
    # only when it changes something now (someone cannot be attacked)
    safe = protection_text(v)
    if safe:
        lines.append(safe)
    if not hints:
        lines.append(t("status.hints_off"))
    waiting = waiting_text(v) if ended_round is None else ""
    if waiting:
        lines.append(t("status.waiting", waiting=waiting))
    return "\n".join(lines)


def hand_text(game_id: int, v: dict[str, Any]) -> str:
    seat = v["seat"]
    hand = v["players"][seat]["hand"]
    if not hand:
        return t("hand.empty", game=game_id)
    era = CONTENT.eras[min(v["players"][seat]["era"], CONTENT.flight - 1)]
    lines = [t("hand.title", game=game_id, n=len(hand), limit=era.limit)]
    for c in hand:
        lines.append(t("hand.card", name=card_type_name(c),
                       terrain=terrain_name(CONTENT.cards[c].terrain), text=card_text(c)))
    return "\n".join(lines)


def final_lines(game_id: int, v: dict[str, Any], seats: Sequence[Seat]) -> list[str]:
    """The ranking with the tie-breaks of R-END-3: points, cards in hand, cities."""
    names = seat_names(seats)  # computers named in the reader's language
    players = v["players"]
    cities = [cities_built(v, i) for i in range(len(players))]
    keys = {i: (p["victory_points"], p["hand_size"], cities[i]) for i, p in enumerate(players)}
    order = sorted(keys, key=lambda i: keys[i], reverse=True)
    lines = [t("end.title", game=game_id)]
    rank = 0
    for pos, i in enumerate(order):
        if pos == 0 or keys[i] != keys[order[pos - 1]]:
            rank = pos + 1
        lines.append(t("end.row", rank=rank, colour=colour_name(i), name=names[i],
                       vp=players[i]["victory_points"], hand=players[i]["hand_size"],
                       cities=cities[i]))
    winners = v.get("winners") or [order[0]]
    won = join_names([f"{colour_name(w)} ({names[w]})" for w in winners])
    lines.append(t("end.winner" if len(winners) == 1 else "end.winners", names=won))
    lines.append(t("end.tiebreak"))
    return lines
