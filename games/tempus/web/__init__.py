"""Tempus's live page (:class:`games.port.Web`): the board as SVG (:mod:`render.svg`, the
picture's own drawing in vectors), the panel as data (:mod:`.page`) and a seat's choices
in the page's terms (:mod:`.choices`)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from engine.state import State
from games.port import BoardSvg
from games.tempus.web.choices import actions, choices
from games.tempus.web.page import page
from render import svg


class TempusWeb:
    def board_svg(self, view: dict[str, Any], last_move: tuple[int, ...] | None,
                  lang: str) -> BoardSvg:
        return BoardSvg(
            map_key=svg.map_key(view["terrain"]),
            map=svg.map_layer(view["terrain"], lang=lang) + svg.hit_layer(),
            pieces=svg.pieces_layer(view, last_move=last_move, lang=lang),
            # the whole board while tiles are placed, else the land and a ring of sea
            box=svg.view_box(view, last_move=last_move))

    def page(self, view: dict[str, Any], names: Sequence[str], lang: str) -> dict[str, Any]:
        return page(view, names, lang)

    def choices(self, state: State, seat: int, legal: Sequence[Any],
                lang: str) -> dict[str, Any] | None:
        return choices(state, seat, legal, lang)

    def actions(self, data: Mapping[str, Any]) -> list[Any]:
        return list(actions(data))
