"""Component ids: which game, at which version, which op, with what argument.

A button's custom id is ``tempus:GAME:VERSION:OP[:ARG]``, a select's
``tempus-s:GAME:VERSION:INDEX:OP[:ARG]`` (the index keeps ids of one message unique).
``tempus`` is the bot's namespace for its ids, whatever game the table plays: messages
posted long ago keep working, and the id never needs the game's name (the stored game
row says which game a table plays).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

MAX_ID = 100

# Numbers are ASCII digits, at most 18 of them (within SQLite's 64-bit integers), so that
# every id these patterns match also parses: a forged id is either refused by its pattern
# or handled like any other (and then refused by the table service).
_NUM = r"[0-9]{1,18}"
BUTTON_RE = re.compile(
    rf"tempus:(?P<game>{_NUM}):(?P<ver>{_NUM}):(?P<op>[a-z_]+)(?::(?P<arg>.*))?")
SELECT_RE = re.compile(
    rf"tempus-s:(?P<game>{_NUM}):(?P<ver>{_NUM}):(?P<idx>{_NUM}):(?P<op>[a-z_]+)"
    r"(?::(?P<arg>.*))?")


@dataclass(frozen=True, slots=True)
class ComponentId:
    game: int
    version: int
    op: str
    arg: str = ""
    index: int | None = None  # selects only

    def render(self) -> str:
        tail = f":{self.arg}" if self.arg else ""
        if self.index is None:
            out = f"tempus:{self.game}:{self.version}:{self.op}{tail}"
        else:
            out = f"tempus-s:{self.game}:{self.version}:{self.index}:{self.op}{tail}"
        if len(out) > MAX_ID:
            raise ValueError(f"component id too long ({len(out)} > {MAX_ID}): {out}")
        return out


def parse_component_id(custom_id: str) -> ComponentId | None:
    m = BUTTON_RE.fullmatch(custom_id)
    if m:
        return ComponentId(int(m["game"]), int(m["ver"]), m["op"], m["arg"] or "")
    m = SELECT_RE.fullmatch(custom_id)
    if m:
        return ComponentId(int(m["game"]), int(m["ver"]), m["op"], m["arg"] or "", int(m["idx"]))
    return None
