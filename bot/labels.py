"""Readable names for cards, terrains, hexes and actions (built on the message catalogue)."""

from __future__ import annotations

from typing import Any

from engine import actions as A
from engine.content import CONTENT
from engine.hexgrid import label

from .messages import t


def terrain_name(letter: str | None) -> str:
    return CONTENT.terrain_names.get(letter or "", "sea")


def card_name(card: int) -> str:
    c = CONTENT.cards[card]
    return f"{CONTENT.card_types[c.type].name} ({terrain_name(c.terrain)})"


def card_text(card: int) -> str:
    return CONTENT.card_types[CONTENT.cards[card].type].text


def card_list(cards: tuple[int, ...] | list[int]) -> str:
    return ", ".join(card_name(c) for c in cards) if cards else t("act.no_cards")


def action_label(action: A.Action) -> str:
    """A short sentence for ``action`` (select options, autocomplete, acknowledgements)."""
    kw: dict[str, Any] = {}
    for name in ("src", "dst", "hex", "centre", "target", "own"):
        if hasattr(action, name):
            kw[name] = label(getattr(action, name))
    for name in ("rotation", "value", "count"):
        if hasattr(action, name):
            kw[name] = getattr(action, name)
    if hasattr(action, "card"):
        kw["card"] = card_name(action.card)  # type: ignore[attr-defined]
    if hasattr(action, "cards"):
        kw["cards"] = card_list(action.cards)  # type: ignore[attr-defined]
    if isinstance(action, A.NameCityTerrain):
        kw["terrain"] = terrain_name(action.terrain)
    if isinstance(action, A.Attack) and action.leader is not None:
        return t("act.attack_leader", card=card_name(action.leader), **kw)
    if isinstance(action, A.PlayGovernment):
        return t(f"act.play_government.{action.mode}", **kw)
    return t(f"act.{action.type}", **kw)


def clip(text: str, n: int = 100) -> str:
    return text if len(text) <= n else text[: n - 1] + "…"
