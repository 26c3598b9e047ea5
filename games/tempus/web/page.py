"""What Tempus's page shows besides the board, as data, from a view: the same words and
numbers as the picture's panel (:mod:`render.panel`) and its descriptions
(:mod:`render.alt_text`), laid out by the page.

Reads the public fields of a view, and the hand of the view's own seat (none in a
spectator's view): a spectator's page holds nothing a seat's hand or the deck would tell.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engine.content import CONTENT
from engine.hexgrid import NUM_HEXES, label
from render import palette as P
from render.alt_text import hex_line
from render.moment import moment
from render.panel import combat_line, piles_line, status_line, to_act_lines
from render.terrain_art import LAKE, OPEN_SEA, fill_of
from render.terrain_layer import hex_kinds
from render.words import (
    card_type_name,
    card_type_text,
    colour_letter,
    colour_name,
    era_name,
    names,
    terrain_name,
    word,
)


def _hex(c: Sequence[int]) -> str:
    return f"#{c[0]:02x}{c[1]:02x}{c[2]:02x}"


def stack_limit(view: dict[str, Any], seat: int, h: int) -> int:
    """Most tokens ``seat`` may have on ``h`` (its era's limit plus its raise there), as
    the state's ``stack_limit`` says it, from the public view."""
    if view["phase"] == "tokens":
        base = CONTENT.eras[0].stack
    else:
        base = CONTENT.eras[min(view["players"][seat]["era"], CONTENT.flight)].stack
    bonus = view["bonus"][h]
    seats = view.get("bonus_seat")
    if bonus and int(view.get("rules_version", 1)) >= 2 and seats is not None \
            and seats[h] != seat:
        bonus = 0
    return base + bonus


def _places(view: dict[str, Any], lang: str) -> dict[str, dict[str, Any]]:
    """Every hex that is not open sea (and every open sea hex with something on it): its
    line in words and the stack limits that matter there (the owner's, the viewer's)."""
    kinds = hex_kinds(tuple(view["terrain"]))
    viewer = view.get("seat")
    out: dict[str, dict[str, Any]] = {}
    for h in range(NUM_HEXES):
        if kinds[h] == OPEN_SEA and view["owner"][h] < 0:
            continue
        limits = []
        if kinds[h] not in (LAKE, OPEN_SEA):
            who = [s for s in dict.fromkeys((view["owner"][h], viewer)) if s is not None
                   and s >= 0]
            limits = [word("who_what", lang, who=colour_name(s, lang),
                           what=f"{word('key.stack_limit', lang)} {stack_limit(view, s, h)}")
                      for s in who]
        out[str(h)] = {"label": label(h), "text": hex_line(view, h, lang, kinds),
                       "limits": limits,
                       "terrain": kinds[h], "owner": view["owner"][h]}
    return out


def _players(view: dict[str, Any], names_: Sequence[str], lang: str) -> list[dict[str, Any]]:
    to_act = {d["seat"] for d in view.get("decisions", [])}
    out = []
    for s, p in enumerate(view["players"]):
        colour = P.player_rgb(s)
        out.append({
            "seat": s, "name": names_[s] if s < len(names_) else "",
            "colour": colour_name(s, lang), "letter": colour_letter(s, lang),
            "rgb": _hex(colour), "ink": _hex(P.ink_on(colour)),
            "era": p["era"], "era_name": era_name(p["era"], lang),
            "values": [p["markers"], p["hand_size"], p["supply"], len(p["cities"]),
                       p["victory_points"]],
            "cities": " ".join(str(c) for c in p["cities"]) or word("player.no_cities", lang),
            "to_act": s in to_act, "start": s == view["start_player"],
        })
    return out


def _eras(view: dict[str, Any], lang: str) -> list[dict[str, Any]]:
    seats: dict[int, list[int]] = {}
    for s, p in enumerate(view["players"]):
        seats.setdefault(p["era"], []).append(s)
    top = max((p["era"] for p in view["players"]), default=0)
    nxt = top + 1 if view["phase"] in ("actions", "progress") else -1
    return [{"n": e.index, "name": era_name(e.index, lang),
             "rgb": _hex(fill_of(e.terrain)) if e.terrain else None,
             "terrain": terrain_name(e.terrain, lang) if e.terrain else "",
             "seats": seats.get(e.index, []), "next": e.index == nxt}
            for e in CONTENT.eras]


def hand(view: dict[str, Any], lang: str) -> list[dict[str, Any]] | None:
    """The cards of the view's own seat (None: a spectator's view, which holds none)."""
    seat = view.get("seat")
    if seat is None:
        return None
    out = []
    for c in view["players"][seat].get("hand", []):
        card = CONTENT.cards[c]
        out.append({"id": c, "type": card.type, "name": card_type_name(card.type, lang),
                    "terrain": terrain_name(card.terrain, lang),
                    "rgb": _hex(fill_of(card.terrain)),
                    "text": card_type_text(card.type, lang)})
    return out


def page(view: dict[str, Any], names_: Sequence[str], lang: str) -> dict[str, Any]:
    """Everything the page shows besides the board (see :meth:`games.port.Web.page`)."""
    m = moment(view)
    extra = combat_line(view, lang)
    if extra is None and view["phase"] == "progress" and view.get("progress_submitted"):
        extra = word("progress_chosen", lang, names=names(list(view["progress_submitted"]),
                                                          lang))
    return {
        "status": status_line(view, lang),
        "over": view["phase"] == "over",
        "to_act": [{"seats": seats, "text": text} for seats, text in to_act_lines(view, lang)],
        "ended": m.ended_round,
        "players": _players(view, names_, lang),
        "columns": [word(k, lang) for k in ("col.actions", "col.cards", "col.supply",
                                            "col.cities", "col.vp")],
        "eras": _eras(view, lang),
        "piles": piles_line(view, lang),
        "extra": extra,
        "places": _places(view, lang),
        "seat": view.get("seat"),
        "hand": hand(view, lang),
        "words": {k: word(k, lang) for k in ("players", "era_track", "to_act", "game_over",
                                             "title", "player.start")},
    }
