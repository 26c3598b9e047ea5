"""Engine events and decisions in words of the current language.

The engine writes each event's English ``text`` for logs, plus its ``kind`` and ``data``.
The bot renders what it posts from kind and data through the catalogue (``event.*``),
so a Polish table reads Polish. An unknown kind, or data missing a fact the sentence
needs, falls back to the engine's text: a new engine event is never lost, only untranslated
until its message is added.

Public rendering never names cards that the rules keep face down: a hand-limit discard
(R-INFO-1) says only how many cards went.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping
from typing import Any

from engine.events import Event, EventKind
from engine.rules import TABLE_OPTIONS
from games.tempus.labels import card_list, colour_name, era_name, terrain_name
from lang.messages import join_names, t
from render.moment import ask_for

log = logging.getLogger(__name__)

Renderer = Callable[[Event], str]


def _colour(e: Event) -> str:
    assert e.seat is not None
    return colour_name(e.seat)


def _card(e: Event) -> str:
    kind = e.data["type"]
    if kind == "GOV":
        return t(f"event.card.GOV.{e.data['mode']}", colour=_colour(e))
    if kind == "REL":
        return t("event.card.REL", colour=_colour(e), victim=colour_name(e.data["victim"]),
                 target=e.data["target"], own=e.data["own"])
    if kind == "SAN":
        return t("event.card.SAN", colour=_colour(e), hex=e.data["hex"])
    return t(f"event.card.{kind}", colour=_colour(e))


def _attack(e: Event) -> str:
    d = e.data
    common = {"colour": _colour(e), "defender": colour_name(d["defender"]), "src": d["src"],
              "dst": d["dst"], "n": d["tokens"]}
    if d["city"]:
        text = t("event.attack.city", value=d["value"], **common)
    else:
        text = t("event.attack.tokens", k=d["defender_tokens"], **common)
    return f"{text} {t('event.attack.leader')}" if d.get("leader") else text


def _combat_won(e: Event) -> str:
    d = e.data
    common = {"winner": colour_name(d["winner"]), "loser": colour_name(d["loser"]),
              "dst": d["dst"]}
    if d["city"]:
        return t("event.combat_won.city", value=d["value"], **common)
    return t("event.combat_won.tokens", n=d["tokens"], **common)


def _game_over(e: Event) -> str:
    scores = ", ".join(t("event.score", colour=colour_name(s), vp=vp)
                       for s, vp in enumerate(e.data["scores"]))
    winners = list(e.data["winners"])
    names = join_names([colour_name(s) for s in winners])
    key = "event.game_over" if len(winners) == 1 else "event.game_over.shared"
    return t(key, scores=scores, names=names)


def _start(e: Event) -> str:
    text = t("event.start", players=e.data["players"], colour=_colour(e))
    # named by what they do (the catalogue's table_option.*), not by their rule ids
    on = [t(f"table_option.{k}") for k, v in (e.data.get("options") or {}).items()
          if v and k in TABLE_OPTIONS]
    return f"{text} {t('event.start.options', options=', '.join(on))}" if on else text


def _combat_cards(e: Event) -> str:
    """"Blue answers with Weapons (hills); Red reveals no cards. Strength 2 against 3.":
    a side that played nothing says so in words, not "reveals: no cards"."""
    defender, attacker = colour_name(e.data["defender"]), _colour(e)
    defend, attack = e.data["defend_cards"], e.data["attack_cards"]
    answer = (t("event.combat.answer", defender=defender, cards=card_list(defend)) if defend
              else t("event.combat.answer_none", defender=defender))
    reveal = (t("event.combat.reveal", attacker=attacker, cards=card_list(attack)) if attack
              else t("event.combat.reveal_none", attacker=attacker))
    return t("event.combat_cards", answer=answer, reveal=reveal, att=e.data["attack"],
             dfn=e.data["defence"])


RENDER: dict[EventKind, Renderer] = {
    EventKind.START: lambda e: _start(e),
    EventKind.MAP: lambda e: t("event.map", tiles=e.data["tiles"]),
    EventKind.TILE: lambda e: t("event.tile", colour=_colour(e), tile=e.data["tile"],
                        centre=e.data["centre"], rotation=e.data["rotation"]),
    EventKind.TILE_REMOVED: lambda e: t("event.tile_removed", tile=e.data["tile"]),
    EventKind.TOKENS: lambda e: t("event.tokens", tokens=e.data["tokens"], colour=_colour(e)),
    EventKind.START_TOKEN: lambda e: t("event.start_token", colour=_colour(e), hex=e.data["hex"]),
    EventKind.ERA: lambda e: t("event.round", round=e.data["era_number"], colour=_colour(e)),
    EventKind.TURN: lambda e: t("event.turn", colour=_colour(e), turn=e.data["action_round"]),
    EventKind.MOVE: lambda e: t("event.move", colour=_colour(e), n=e.data["n"]),
    EventKind.MOVE_TOKEN: lambda e: t("event.move_token", colour=_colour(e), src=e.data["src"],
                              dst=e.data["dst"]),
    EventKind.GROW: lambda e: t("event.grow", colour=_colour(e), n=e.data["n"]),
    EventKind.GROW_TOKEN: lambda e: t("event.grow_token", colour=_colour(e), hex=e.data["hex"]),
    EventKind.CARD: _card,
    EventKind.DISCARD_OWED: lambda e: t("event.discard_owed", colour=_colour(e), n=e.data["n"],
                                limit=e.data["limit"]),
    EventKind.CITY: lambda e: t("event.city", colour=_colour(e), value=e.data["value"],
                        hex=e.data["hex"], n=e.data["tokens"]),
    EventKind.CATCH_UP: lambda e: t("event.catch_up", colour=_colour(e),
                            era=era_name(e.data["era_index"])),
    EventKind.PROGRESS: lambda e: t("event.progress", era=era_name(e.data["era_index"]),
                            terrain=terrain_name(e.data["terrain"])),
    EventKind.PROGRESS_CHOICE: lambda e: t("event.progress_choice", colour=_colour(e)),
    EventKind.PROGRESS_REVEAL: lambda e: (
        t("event.progress_reveal", colour=_colour(e), cards=card_list(e.data["cards"]),
          points=e.data["points"]) if e.data["cards"] else
        t("event.progress_reveal.none", colour=_colour(e), points=e.data["points"])),
    EventKind.ADVANCE: lambda e: t("event.advance", colour=_colour(e), era=era_name(e.data["era"])),
    EventKind.DISCARD: lambda e: t("event.discard", colour=_colour(e), n=e.data["count"]),
    EventKind.DISCARD_PRIVATE: lambda e: t("event.discard_private",
                                           cards=card_list(e.data["cards"])),
    EventKind.GAME_OVER: _game_over,
    EventKind.RESHUFFLE: lambda e: t("event.reshuffle", n=e.data["n"]),
    EventKind.DRAW: lambda e: t("event.draw", colour=_colour(e), n=e.data["count"]),
    EventKind.DRAW_PRIVATE: lambda e: t("event.draw_private", cards=card_list(e.data["cards"])),
    EventKind.ATTACK: _attack,
    # "as grassland": Polish needs the genitive here ("jako łąki")
    EventKind.CITY_TERRAIN: lambda e: t("event.city_terrain", colour=_colour(e),
                                terrain=t(f"city_as.{e.data['terrain']}")),
    EventKind.ATTACK_CARDS: lambda e: (
        t("event.attack_cards", colour=_colour(e), n=e.data["count"]) if e.data["count"]
        else t("event.attack_cards.none", colour=_colour(e))),
    EventKind.COMBAT_CARDS: _combat_cards,
    EventKind.COMBAT_WON: _combat_won,
    EventKind.COMBAT_LOST: lambda e: t("event.combat_lost", defender=colour_name(e.data["winner"]),
                               attacker=colour_name(e.data["loser"]), src=e.data["src"],
                               dst=e.data["dst"]),
    EventKind.OCCUPY: lambda e: t("event.occupy", colour=_colour(e), n=e.data["count"],
                          dst=e.data["dst"]),
}


def event_text(e: Event) -> str:
    """``e`` in the current language (the engine's English text if it cannot be rendered)."""
    render = RENDER.get(e.kind)
    if render is None:
        return e.text
    try:
        return render(e)
    except (KeyError, TypeError, AssertionError, ValueError, IndexError):
        log.warning("event %s: cannot render from %r; using the engine text", e.kind, e.data)
        return e.text


def event_lines(events: list[Event]) -> list[str]:
    return [event_text(e) for e in events]


# ------------------------------------------------------------------ decisions
def decision_text(d: Mapping[str, Any] | Any, v: Mapping[str, Any]) -> str:
    """Who must decide what, e.g. ``Red: discard 2 cards``, from a decision (the engine's
    :class:`~engine.game.Decision` or a view's ``{"seat", "kind", "prompt"}``) and a view
    (any seat's, or the spectator's: only public facts are used). What is asked is the
    decision's :class:`~render.moment.Ask`, as the board image words it too."""
    get: Callable[[str], Any] = d.get if isinstance(d, Mapping) else (lambda k: getattr(d, k))
    seat, kind = int(get("seat")), str(get("kind"))
    colour = colour_name(seat)
    try:
        ask = ask_for(v, seat, kind)
        if ask.kind == "place_tile":
            return t("decision.place_tile", colour=colour, tile=ask.tile)
        if ask.kind == "place_start_token":
            return t("decision.place_start_token", colour=colour, left=ask.count)
        if ask.kind in ("move", "grow", "move_none", "grow_none", "discard"):
            # none left: only a card could add one (never "up to 0 more")
            return t(f"decision.{ask.kind}", colour=colour, n=int(ask.count or 0))
        if ask.kind in ("name_city_terrain", "occupy") and ask.hex is not None:
            from engine.hexgrid import label

            return t(f"decision.{ask.kind}", colour=colour, hex=label(ask.hex))
        if ask.kind == "other":
            raise KeyError(kind)
        return t(f"decision.{ask.kind}", colour=colour)
    except (KeyError, TypeError, ValueError):
        prompt = get("prompt")
        return str(prompt) if prompt else colour


def waiting_text(v: Mapping[str, Any]) -> str:
    """Every decision owed now, joined (for "Waiting for: ...")."""
    return ", ".join(decision_text(d, v) for d in v["decisions"])
