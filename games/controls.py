"""A Discord-free model of message controls: buttons, selects, panels.

The table service describes what a player may click as a :class:`Panel`; the Discord layer
turns it into components (ids from :mod:`games.custom_ids`), the offline console into
numbered menus. Limits of Discord are enforced here: 5 rows, 5 buttons a row, 25 options a select,
80 characters for a button's label, 100 for other labels, values and ids.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from enum import StrEnum
from typing import Any, Literal

MAX_ROWS = 5
MAX_BUTTONS_PER_ROW = 5
MAX_OPTIONS = 25
#: a button's label (a select option's label may have 100)
MAX_LABEL = 80


class Op(StrEnum):
    """What a control does when used: the ``op`` of its custom id. Each op has one handler
    in the table service's click table (bot.table.clicks); a ``StrEnum``, so ids and
    comparisons with the plain strings stay as they were."""

    ACT = "act"  # arg (button) or the chosen value (select) is an encoded action
    CARDS = "cards"  # arg: decision kind; chosen values: card ids (a button: no cards)
    MENU = "menu"  # open a private menu: arg is the menu spec, a select appends ":value"
    UNDO = "undo"  # take back the last step of this turn
    HELP = "help"  # the "?" button: /tempus help, privately
    QUIT = "quit"  # leave a running game for good (from the confirmation /tempus leave shows)
    JOIN = "join"
    LEAVE = "leave"
    ADDBOT = "addbot"
    START = "start"
    CANCEL = "cancel"
    REMATCH = "rematch"  # the button on a result: a new lobby (bot.table.rematch)
    RECAP = "recap"  # "What happened?": a recap for whoever clicks, privately
    MUTE = "mute"  # no pings for the clicking person in the game's current turn
    LESSON = "lesson"  # a lesson's page: arg is the game's choice (games.port.Lessons)
    LESSON_LEAVE = "lesson_leave"  # leave the lesson (it can be resumed)
    LESSON_TABLE = "lesson_table"  # after the lesson: open a real table with computers
    BOARD = "board"  # the clicker's link to the game's live page, privately

    @classmethod
    def named(cls, text: str) -> Op | None:
        """The op a custom id names (None: no control has it, e.g. a forged id; the table
        refuses such a click)."""
        try:
            return cls(text)
        except ValueError:
            return None

    @property
    def answers_privately(self) -> bool:
        """Whether a click on it is answered to the clicking person alone: it opens a
        private menu, help or a recap, or mutes their pings; it changes nothing public. A
        front end acknowledges it with a private "thinking" reply (unless it was clicked
        in a private message, which it answers in place), not as an update of the
        clicked message, whose token then carries none of the game's board writes."""
        return self in _ANSWERED_PRIVATELY

    @property
    def of_lesson(self) -> bool:
        """Whether it is a control of a lesson's page: its custom id's game number is the
        lesson's, and the click's answer is the next page, in place of the clicked one."""
        return self in LESSON_OPS

    @property
    def decides(self) -> bool:
        """Whether using it makes (or takes back) a decision of the game. Used from a
        private menu, that menu then says itself what happened: it must not also be
        retired as "no longer current" by the announcement of that very decision."""
        return self in _DECIDING


_ANSWERED_PRIVATELY = frozenset({Op.MENU, Op.HELP, Op.RECAP, Op.MUTE, Op.BOARD})
_DECIDING = frozenset({Op.ACT, Op.CARDS, Op.QUIT, Op.UNDO})
#: the ops of a lesson's page (bot.table.lessons): a lesson is no game's table, and each
#: of them answers by replacing the page clicked with the next one
LESSON_OPS = frozenset({Op.LESSON, Op.LESSON_LEAVE, Op.LESSON_TABLE})

# the ops by their old names, as the Discord layer, the console and the panels import them
ACT, CARDS, MENU, UNDO, HELP, QUIT = Op.ACT, Op.CARDS, Op.MENU, Op.UNDO, Op.HELP, Op.QUIT
MUTE = Op.MUTE
JOIN, LEAVE, ADDBOT, START, CANCEL = Op.JOIN, Op.LEAVE, Op.ADDBOT, Op.START, Op.CANCEL
LOBBY_OPS = (JOIN, LEAVE, ADDBOT, START, CANCEL)
RECAP = Op.RECAP
BOARD = Op.BOARD

#: a button's look; a closed set as a ``Literal`` (the panels pass plain strings)
Style = Literal["primary", "secondary", "success", "danger"]
#: the picture a panel carries: the board, a hand, a crop of the board, or the board with
#: the changes of a recap marked (render.recap)
Image = Literal["board", "hand", "crop", "recap"]


@dataclass(frozen=True, slots=True)
class Button:
    label: str
    op: str
    arg: str = ""
    style: Style = "secondary"


@dataclass(frozen=True, slots=True)
class Option:
    label: str
    value: str
    description: str = ""


@dataclass(frozen=True, slots=True)
class Select:
    placeholder: str
    op: str
    arg: str
    options: tuple[Option, ...]
    min_values: int = 1
    max_values: int = 1


Row = tuple[Button, ...] | Select


@dataclass
class Panel:
    """Text plus controls; ``image`` names a picture the publisher renders from a view."""

    text: str
    rows: list[Row] = field(default_factory=list)
    image: Image | None = None
    image_view: dict[str, Any] | None = None
    highlight: tuple[int, ...] = ()
    #: for a "crop" picture: the hexes the menu is about (e.g. the stack that moves)
    focus: tuple[int, ...] = ()
    #: for a "recap" picture: the changes to mark (render.recap.Mark tuples) and what they
    #: are in words, for the picture's description
    marks: tuple[tuple[int, ...], ...] = ()
    alt: list[str] = field(default_factory=list)

    def controls(self) -> list[Button | Select]:
        out: list[Button | Select] = []
        for row in self.rows:
            if isinstance(row, Select):
                out.append(row)
            else:
                out.extend(row)
        return out


def with_button(panel: Panel, button: Button) -> Panel:
    """``panel`` with one more ``button`` in its last button row, or in a row of its own;
    unchanged if Discord's limits leave no room (a turn message's extra buttons, such as
    help, are conveniences the rest of the panel never depends on)."""
    rows = list(panel.rows)
    if rows and isinstance(rows[-1], tuple) and len(rows[-1]) < MAX_BUTTONS_PER_ROW:
        rows[-1] = (*rows[-1], button)
    elif len(rows) < MAX_ROWS:
        rows.append((button,))
    else:
        return panel
    return replace(panel, rows=rows)


def button_rows(buttons: list[Button]) -> list[Row]:
    return [tuple(buttons[i:i + MAX_BUTTONS_PER_ROW])
            for i in range(0, len(buttons), MAX_BUTTONS_PER_ROW)]


def clip(text: str, n: int = 100) -> str:
    return text if len(text) <= n else text[: n - 1] + "…"


def shown(text: str, n: int = 40) -> str:
    """Someone's input, safe to quote back in a refusal: printable, one line, short."""
    clean = "".join(c if c.isprintable() else " " for c in str(text)).replace("`", "'")
    clean = " ".join(clean.split())
    return clean if len(clean) <= n else clean[: n - 1] + "…"
