"""The board in words: image descriptions (alt text) and the position hex by hex.

:func:`board_alt_text` is the ``description`` of a posted board image (Discord shows it
to screen readers; at most :data:`MAX_ALT` = 1,024 characters): whose turn it is, the
scores and what changed. :func:`describe_position` is the whole position, hex by hex,
for ``/tempus board text:True``. :func:`crop_alt_text` and :func:`preview_alt_text`
describe the pictures of private menus (a map detail with its targets outlined, the board
with a tile placed).

These read only public fields of a view (counts of cards, never card ids), so they are
the same for a seat's own view as for the spectator view and can never name a hidden
card (R-INFO-1, R-INFO-2). The one exception is :func:`hand_alt_text`, the description
of a seat's own hand picture, which is sent to that player only and names the cards it
shows. Every word comes from :mod:`render.words`.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from engine.content import CONTENT
from engine.hexgrid import COLUMNS, ROWS, label

from .moment import moment
from .panel import combat_line, raise_owner, to_act_lines
from .terrain_art import LAKE, OPEN_SEA
from .terrain_layer import hex_kinds
from .words import (
    DEFAULT_LANG,
    card_type_name,
    colour_name,
    era_name,
    names,
    terrain_name,
    word,
)

#: Discord's limit for an attachment's description.
MAX_ALT = 1024
ELLIPSIS = "\u2026"


def _status(v: dict[str, Any], lang: str) -> str:
    ended = moment(v).ended_round
    if ended is not None:  # a past moment: as the image and the message say it
        return word("status.ended", lang, n=ended)
    phase = v["phase"]
    if phase in ("tiles", "tokens"):
        return f"{word('status.setup', lang)}, {word(f'phase.{phase}', lang)}"
    era = word("status.era", lang, n=v["era_number"])
    if phase == "actions":
        return f"{era}, {word('status.round', lang, n=v['action_round'])}"
    return f"{era}, {word(f'phase.{phase}', lang)}" if phase in ("progress", "over") else era


def _to_act(v: dict[str, Any], lang: str) -> str:
    lines = [what for _, what in to_act_lines(v, lang)]
    if v["phase"] == "over":
        return lines[0] + "." if lines else ""
    return word("alt.to_act", lang, lines="; ".join(lines)) if lines else ""


def _scores(v: dict[str, Any], lang: str) -> str:
    scores = word("list_sep", lang).join(
        word("alt.score", lang, name=colour_name(s, lang), vp=p["victory_points"])
        for s, p in enumerate(v["players"]))
    return word("alt.scores", lang, scores=scores)


def _clip(text: str, limit: int) -> str:
    if len(text) <= limit:
        return text
    return text[: max(0, limit - 1)].rstrip() + ELLIPSIS


def board_alt_text(view: dict[str, Any], changed: list[str] | None = None,
                   lang: str = DEFAULT_LANG) -> str:
    """The description of a board image: the status, who acts, the scores, then the
    caller's short ``changed`` lines (what just happened, in ``lang``) as far as they
    fit; at most :data:`MAX_ALT` characters."""
    head = " ".join(p for p in (word("alt.board", lang, status=_status(view, lang)),
                                _to_act(view, lang), _scores(view, lang)) if p)
    head = _clip(head, MAX_ALT)
    lines = [" ".join(line.split()) for line in (changed or []) if line and line.strip()]
    if not lines:
        return head
    intro = " " + word("alt.changed", lang, lines="")
    room = MAX_ALT - len(head) - len(intro)
    if room < 20:
        return head
    kept: list[str] = []
    used = 0
    for line in lines:
        piece = line if line.endswith((".", "!", "?", ELLIPSIS)) else line + "."
        extra = len(piece) + (1 if kept else 0)
        if used + extra > room:
            if not kept:  # the first line alone is too long: cut it
                kept.append(_clip(piece, room))
            elif used + 2 <= room:
                kept.append(ELLIPSIS)
            break
        kept.append(piece)
        used += extra
    return head + intro + " ".join(kept)


def describe_position(view: dict[str, Any], lang: str = DEFAULT_LANG) -> list[str]:
    """The whole position in words, one line per item, for screen readers: status, who
    acts, each player, the piles, then every hex that is not open sea, row by row."""
    v = view
    lines = [word("alt.board", lang, status=_status(v, lang))]
    to_act = _to_act(v, lang)
    if to_act:
        lines.append(to_act)
    lines.append(word("desc.start", lang, name=colour_name(v["start_player"], lang)))
    for s, p in enumerate(v["players"]):
        cities = " ".join(str(c) for c in p["cities"]) or word("player.no_cities", lang)
        lines.append(word(
            "desc.player", lang, name=colour_name(s, lang), era=p["era"],
            era_name=era_name(p["era"], lang), vp=p["victory_points"], markers=p["markers"],
            cards=p["hand_size"], supply=p["supply"],
            on_board=p.get("tokens_on_board", ""), cities=cities))
    extra = combat_line(v, lang)
    if extra:
        lines.append(extra + ".")
    if v["phase"] == "progress" and v.get("progress_submitted"):
        lines.append(word("progress_chosen", lang,
                          names=names(list(v["progress_submitted"]), lang)) + ".")
    lines.append(word("desc.piles", lang, deck=v["deck_size"], discard=v["discard_size"]))
    if v["phase"] == "tiles":
        lines.append(word("desc.tiles", lang, n=v["tiles_left"]))
    lines += _hexes(v, lang)
    return lines


def _hex_contents(v: dict[str, Any], h: int, lang: str) -> str:
    parts = []
    if v["city_owner"][h] >= 0:
        parts.append(word("desc.city", lang, name=colour_name(v["city_owner"][h], lang),
                          value=v["city_value"][h]))
    if v["owner"][h] >= 0 and v["count"][h] > 0:
        parts.append(word("desc.tokens", lang, name=colour_name(v["owner"][h], lang),
                          count=v["count"][h]))
    if v["bonus"][h] > 0:
        seat = raise_owner(v, h)  # rules 2: only the card player's limit is raised
        parts.append(word("desc.bonus", lang, n=v["bonus"][h]) if seat < 0 else
                     word("desc.bonus_of", lang, n=v["bonus"][h], name=colour_name(seat, lang)))
    return word("list_sep", lang).join(parts) if parts else word("desc.empty", lang)


def _hexes(v: dict[str, Any], lang: str) -> list[str]:
    kinds = hex_kinds(tuple(v["terrain"]))
    shown = [h for h in range(COLUMNS * ROWS) if kinds[h] != OPEN_SEA]
    if not shown:
        return [word("desc.no_land", lang)]
    out = [word("desc.map", lang)]
    for h in shown:
        kind = kinds[h]
        what = word("desc.empty", lang) if kind == LAKE else _hex_contents(v, h, lang)
        out.append(word("desc.hex", lang, hex=label(h), terrain=terrain_name(kind, lang),
                        what=what))
    out.append(word("desc.sea", lang))
    return out


def hex_line(v: dict[str, Any], h: int, lang: str = DEFAULT_LANG,
             kinds: list[str] | None = None) -> str:
    """Hex ``h`` in words, as the position hex by hex says it: ``E5 grassland: Red, 3
    tokens.`` (water is empty); ``kinds``: the map's :func:`hex_kinds`, if known."""
    kind = (kinds or hex_kinds(tuple(v["terrain"])))[h]
    what = (word("desc.empty", lang) if kind in (LAKE, OPEN_SEA)
            else _hex_contents(v, h, lang))
    return word("desc.hex", lang, hex=label(h), terrain=terrain_name(kind, lang), what=what)


def _hex_items(v: dict[str, Any], hexes: Iterable[int], lang: str) -> str:
    """``E5 grassland (Red, 3 tokens), F6 grassland (empty)``: hexes left to right."""
    kinds = hex_kinds(tuple(v["terrain"]))
    shown = sorted(set(hexes), key=lambda h: (h % COLUMNS, h // COLUMNS))
    return word("list_sep", lang).join(
        word("alt.hex", lang, hex=label(h), terrain=terrain_name(kinds[h], lang),
             what=word("desc.empty", lang) if kinds[h] in (LAKE, OPEN_SEA)
             else _hex_contents(v, h, lang))
        for h in shown)


def crop_alt_text(view: dict[str, Any], hexes: Iterable[int], highlight: Iterable[int] = (),
                  lang: str = DEFAULT_LANG) -> str:
    """The description of a private menu's map detail (:func:`render.board.render_crop`
    of the public ``view``): the hexes the choice is about and its outlined targets, each
    with what stands on it; at most :data:`MAX_ALT` characters."""
    focus, targets = list(hexes), sorted(set(highlight))
    parts = [word("alt.crop", lang, hexes=_hex_items(view, focus or targets, lang))]
    if targets:
        parts.append(word("alt.targets", lang, n=len(targets),
                          hexes=_hex_items(view, targets, lang)))
    return _clip(" ".join(parts), MAX_ALT)


def preview_alt_text(view: dict[str, Any], highlight: Iterable[int],
                     lang: str = DEFAULT_LANG) -> str:
    """The description of a tile preview (the board of the public ``view`` with the tile
    placed, its hexes ``highlight``-ed): where the tile lies and the terrain of each hex,
    then the status line of the board."""
    kinds = hex_kinds(tuple(view["terrain"]))
    cells = sorted(set(highlight), key=lambda h: (h % COLUMNS, h // COLUMNS))
    where = word("list_sep", lang).join(f"{label(h)} {terrain_name(kinds[h], lang)}"
                                        for h in cells)
    text = " ".join([word("alt.preview", lang, hexes=where),
                     word("alt.board", lang, status=_status(view, lang))])
    return _clip(text, MAX_ALT)


def hand_alt_text(view: dict[str, Any], lang: str = DEFAULT_LANG) -> str:
    """The description of the hand picture of ``view["seat"]`` (that seat's own view,
    sent to that player only): the cards it shows, by type and background terrain."""
    seat = view.get("seat")
    if seat is None:
        return word("hand.spectator", lang)
    player = view["players"][seat]
    cards = list(player.get("hand", []))
    name = colour_name(seat, lang)
    if not cards:
        return word("alt.hand_empty", lang, name=name)
    limit = CONTENT.eras[min(player["era"], CONTENT.flight - 1)].limit
    listed = word("list_sep", lang).join(
        word("card.in_list", lang, name=card_type_name(CONTENT.cards[c].type, lang),
             terrain=terrain_name(CONTENT.cards[c].terrain, lang)) for c in cards)
    return _clip(word("alt.hand", lang, name=name, n=len(cards), limit=limit, cards=listed),
                 MAX_ALT)
