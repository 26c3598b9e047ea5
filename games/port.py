"""The port: everything the host (``bot/``: the table, publishing, timing, storage, the front
ends) may ask of a game, and nothing more.

A game is one folder under ``games/`` whose ``GAME`` is a :class:`Game`: its
:class:`Rules` (what may happen: new games, actions, who decides, views, records, the
computer players) and its :class:`Presentation` (how it is shown: words, panels, images,
the result). The host holds states, actions and events as opaque values it gets from and
hands back to the same game; it stores what :meth:`Rules.action_to_json` and
:meth:`State.to_json` give. ``games.registry`` finds a game by the name stored with each
table (the ``games.game`` column).

Like boardgame.io's ``Game`` handed to its ``Master``: the host runs any game that fills
this in, and knows nothing else about it.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from games.controls import Panel

#: a game's public or private view: plain JSON-able data (views are what leave the rules)
View = dict[str, Any]


class State(Protocol):
    """A game's position, opaque to the host but for copying and storing it."""

    def copy(self) -> Any: ...

    def to_json(self) -> dict[str, Any]: ...


class Action(Protocol):
    """One decision a seat submits, opaque to the host but for storing it."""

    def to_json(self) -> dict[str, Any]: ...


class Event(Protocol):
    """Something that happened; ``private_to`` is the one seat that may see it (None:
    everyone)."""

    @property
    def private_to(self) -> int | None: ...


class Decision(Protocol):
    """A seat owes a decision of a kind (the game's own names)."""

    @property
    def seat(self) -> int: ...

    @property
    def kind(self) -> str: ...


class Seat(Protocol):
    """What a game may know of who plays a seat (``bot.store.SeatRow`` is one)."""

    @property
    def seat(self) -> int: ...

    @property
    def user_id(self) -> int | None: ...

    @property
    def ai_level(self) -> str | None: ...

    @property
    def name(self) -> str: ...

    @property
    def is_ai(self) -> bool: ...

    @property
    def level(self) -> str | None: ...


class Rating(Protocol):
    """A person's rating before or after a game, as a result post shows it."""

    @property
    def ordinal(self) -> float: ...


class Offload(Protocol):
    """Where heavy work (a computer's search, a picture) runs: the host's worker pool."""

    def run(self, fn: Callable[..., Any], *args: Any) -> Awaitable[Any]: ...


class Refused(Exception):
    """The rules refuse an action; ``reason`` says why, worded in the language current
    when it is turned into text (a refusal may be worded later, for whoever reads it);
    ``cause`` is the game's own refusal, for an operator's log."""

    def __init__(self, reason: object, cause: BaseException | None = None) -> None:
        super().__init__(reason)
        self.reason = reason
        self.cause = cause


class Declined(Exception):
    """The game declines a request that is not an action (a menu that does not exist now,
    a recap of a round not begun): ``key`` and ``kwargs`` are its message in the
    catalogue."""

    def __init__(self, key: str, **kwargs: Any) -> None:
        super().__init__(key)
        self.key = key
        self.kwargs = kwargs


class NotYourTurn(Refused):
    """The seat owes no decision that this action answers."""


class UndoRefused(Refused):
    """The rules refuse to take back a step."""


class Timeline(Protocol):
    """The steps of a game that could still be taken back (the game's undo rule)."""

    @property
    def seat(self) -> int | None: ...

    def record(self, before: Any, seat: int, action: Any, events: list[Any],
               after: Any) -> None: ...

    def undo_allowed(self, seat: int) -> bool: ...

    def refusal(self, seat: int) -> object: ...

    def last_before(self) -> Any: ...

    def undo(self, seat: int) -> Any: ...


@dataclass(frozen=True)
class Started:
    """A new game: its first position and events, and what the game stores with it."""

    state: Any
    events: list[Any]
    #: the table's options to store from now on (e.g. the rules version it is played by)
    options: dict[str, Any]
    #: the salt and the published commitment of the seed (None: the game commits to none)
    salt: str | None = None
    commitment: str | None = None


class Rules(Protocol):
    """What may happen in a game: pure, synchronous and deterministic. States, actions
    and events are the game's own values; the host only passes them back."""

    @property
    def min_players(self) -> int: ...

    @property
    def max_players(self) -> int: ...

    @property
    def undo_json(self) -> dict[str, Any]:
        """The stored log entry of an undo."""
        ...

    def owns(self, state: object) -> bool:
        """Whether ``state`` is a position of this game."""
        ...

    def default_options(self) -> dict[str, Any]:
        """A new table's options (its lobby may change them)."""
        ...

    def start(self, players: int, options: Mapping[str, Any]) -> Started: ...

    def twin(self, state: Any, seat: int | None, seed: int) -> Any:
        """The same position with everything ``seat`` cannot see (None: a spectator) dealt
        anew: what any text or picture made for that seat must not tell apart."""
        ...

    def first_state(self, options: Mapping[str, Any], players: int) -> Any: ...

    def state_from_json(self, data: Mapping[str, Any]) -> Any: ...

    def apply(self, state: Any, seat: int, action: Any) -> tuple[Any, list[Any]]:
        """The state after ``action`` and its events; ``state`` is unchanged. Raises
        :class:`Refused` (:class:`NotYourTurn`)."""
        ...

    def apply_in_place(self, state: Any, seat: int, action: Any) -> list[Any]: ...

    def to_act(self, state: Any) -> list[int]: ...

    def decisions(self, state: Any) -> Sequence[Decision]: ...

    def decision_for(self, state: Any, seat: int) -> Decision | None: ...

    def legal_actions(self, state: Any, seat: int) -> list[Any]: ...

    def view(self, state: Any, seat: int | None) -> View:
        """What ``seat`` may know (None: a spectator): the only way anything of a state
        reaches a person."""
        ...

    def visible(self, events: list[Any], seat: int | None) -> list[Any]: ...

    def is_over(self, state: Any) -> bool: ...

    def turn_key(self, state: Any) -> str:
        """Which turn (or phase) a position is in: steps with the same key belong together."""
        ...

    def round_key(self, state: Any) -> str:
        """Which round a position is in: the turns of one round share a turn message."""
        ...

    def action_from_json(self, data: Mapping[str, Any]) -> Any: ...

    def is_undo(self, data: Mapping[str, Any]) -> bool: ...

    def forced(self, state: Any, seat: int, *, may_undo: bool) -> Any | None:
        """The one answer ``seat`` has to its decision as far as the public view can tell
        (nothing a hand holds may make an answer forced), else None; ``may_undo``: the
        seat is offered Undo now."""
        ...

    def changed_hands(self, before: Any | None, after: Any) -> list[int]:
        """The seats whose secret hand changed (each gets its hand anew)."""
        ...

    def timeline(self) -> Timeline: ...

    def record(self, options: Mapping[str, Any], players: Sequence[dict[str, Any]],
               moves: list[tuple[int, Any]], salt: str | None) -> Any: ...


@dataclass(frozen=True)
class Game:
    """A game as the host runs it: its name (the stored ``games.game`` value) and its
    halves, each the interface of one part of the host."""

    name: str
    #: what may happen (the table's commit path, loading, catching up, storage's checks)
    rules: Rules
    #: the table's words and controls: seat names, event lines, panels and menus
    show: Presentation
    #: the computer players (the table's computer seats and their clocks)
    computers: Computers
    #: what a stored log means outside play (storage's checks and copies, the history)
    records: Records
    #: pictures, the looking commands' texts and results (the front ends and publishing)
    media: Media
    #: the lesson for newcomers and the tips of their first games (None: the game has none)
    lessons: Lessons | None = None
    #: the game's live page (bot/web): its board as vector graphics, its panels as data,
    #: a seat's choices in the page's terms (None: the game has no page)
    web: Web | None = None


class Presentation(Protocol):
    """How the table words and shows a game: in the language current when called (the
    host chooses it: the game's for public posts, a person's for what only they see).
    Panels and lines are built from what their reader may know (views, public events);
    the state is passed where the game needs it to know what to offer the seat asked."""

    # names and lines
    def seat_name(self, seat: int) -> str:
        """A seat as every player knows it (Tempus: its colour)."""
        ...

    def action_label(self, action: Any) -> str: ...

    def steps_label(self, actions: Sequence[Any]) -> str:
        """What one control that makes several steps does, in words."""
        ...

    def event_line(self, event: Any) -> str: ...

    def event_lines(self, events: list[Any], seat: int | None = None) -> list[str]:
        """The lines of the events ``seat`` may see (None: the public ones)."""
        ...

    def highlight(self, events: list[Any]) -> tuple[int, ...]:
        """What the board picture marks for these events."""
        ...

    def last_move(self, action: Any) -> tuple[int, ...] | None:
        """The board picture's overlay for the last action (None: nothing to show)."""
        ...

    def map_name(self, options: Mapping[str, Any]) -> str: ...

    def lobby_lines(self, options: Mapping[str, Any]) -> list[str]:
        """The game's own table options, as a lobby lists them."""
        ...

    # panels and menus
    def public_panel(self, state: Any, seats: Sequence[Seat],
                     public_view: View | None = None) -> Panel:
        """The turn message: whose decision it is and the public controls."""
        ...

    def secret_panel(self, state: Any, seat: int) -> Panel:
        """A choice of ``seat``'s secret hand, sent to its person alone."""
        ...

    def asks_in_private(self, state: Any, seat: int) -> bool:
        """Whether ``seat`` owes a choice that only its person may see."""
        ...

    def menu(self, state: Any, seat: int, spec: str, game_id: int) -> Panel:
        """The private menu ``spec`` for ``seat`` (raises :class:`Declined`)."""
        ...

    def with_undo(self, panel: Panel, who: str | None) -> Panel: ...

    def with_help(self, panel: Panel) -> Panel: ...

    def with_mute(self, panel: Panel) -> Panel: ...

    def with_recap(self, panel: Panel) -> Panel: ...

    def help_for_user(self, table: Any, user_id: int) -> str: ...

    # clicks
    def decode(self, text: str) -> list[Any]:
        """The actions a control's argument or a select's value stands for (ValueError if
        it is malformed)."""
        ...

    def cards_action(self, kind: str, cards: tuple[int, ...]) -> Any:
        """The answer to a choice of cards of decision ``kind`` (KeyError or ValueError
        for a kind that is none)."""
        ...

    def tell_forced(self, lines: list[str], seat: int, action: Any) -> None:
        """Put the log's line for an answer the table took for ``seat`` into ``lines``."""
        ...

    # recaps
    def worth_a_recap(self, moves: Sequence[tuple[int, object]], deciding: Sequence[int]
                      ) -> bool: ...

    def recap_windows(self, state: Any, seat: int | None, covered: int) -> list[Any]:
        """What "What happened?" covers for ``seat`` (None: a spectator), the first window
        that is not empty wins."""
        ...

    @property
    def collect_recap(self) -> Callable[[Any, Any], Any]:
        """Replays a record and gathers a window's recap (raises :class:`Declined`): a
        module-level function, so that it runs in a worker process."""
        ...

    def recap_empty(self, recap: Any) -> bool: ...

    def recap_panel(self, recap: Any, names: Sequence[str]) -> Panel: ...


class Computers(Protocol):
    """The computer players: their levels, and a seat's next action."""

    @property
    def random_level(self) -> str:
        """The level that picks at random among the legal actions (never fails: the
        fallback when another level does)."""
        ...

    @property
    def think(self) -> Callable[[View, str, int, float | None], dict[str, Any]]:
        """A level's choice from a seat's view, as JSON: a module-level function, so that
        it runs in a worker process."""
        ...

    def levels(self) -> tuple[str, ...]:
        """The levels a host may choose, strongest last."""
        ...

    def default_level(self) -> str: ...

    def random_action(self, state: Any, seat: int, seed: int) -> Any: ...

    def parse(self, thought: dict[str, Any]) -> Any:
        """The action :attr:`think` returned."""
        ...


class BadLog(Exception):
    """A stored game that its game cannot replay: its options set up no game (``entry``
    None) or its log's entry ``entry`` (counted from 0) is refused. ``cause`` is the game's
    own exception, which an operator's report quotes as it is."""

    def __init__(self, entry: int | None, cause: BaseException) -> None:
        super().__init__(entry, cause)
        self.entry = entry
        self.cause = cause

    def __str__(self) -> str:
        where = "the setup" if self.entry is None else f"entry {self.entry}"
        return f"{where}: {self.cause}"


@dataclass(frozen=True)
class Placing:
    """How one seat finished a game, as the history stores it (a ``results`` row)."""

    #: 1 for the best; seats that tie share a rank
    rank: int
    #: the points the seat ended with
    points: int
    won: bool
    #: how the seat began the game, in the game's words for the history's statistics
    #: (Tempus: its first-era actions joined by ``-``); empty when there is nothing to say
    opening: str


@dataclass(frozen=True)
class Summary:
    """What a finished game's log says: its final public view and every seat's placing."""

    final_view: View
    #: by seat
    seats: tuple[Placing, ...]


class Records(Protocol):
    """What a stored game (its options, seats and action log) means outside play: the
    storage tools check it and copy it (``bot/store``: check-db, restore, migrate-db), the
    history derives results from it (``bot/history``), people download its record.

    A log entry is ``(seat, action JSON)`` as stored; an undo entry
    (:attr:`Rules.undo_json`) takes back the last step, as loading the game does. Pure and
    synchronous: the host runs the replays off its event loop when they are long."""

    def replay(self, options: Mapping[str, Any], players: int,
               log: Sequence[tuple[int, Mapping[str, Any]]]) -> Any:
        """The position a started game's log leads to from the setup its stored
        ``options`` give for ``players`` seats. Raises :class:`BadLog`."""
        ...

    def record(self, options: Mapping[str, Any], seats: Sequence[Seat],
               log: Sequence[tuple[int, Mapping[str, Any]]], salt: str | None) -> Any:
        """The game's record: its setup and the moves that stand (undone ones left out),
        opaque to the host but for ``to_json()``, the format people download and replay."""
        ...

    def summary(self, record: Any) -> Summary:
        """A finished game's :meth:`record` replayed to its end (CPU work: the whole log).
        Raises :class:`BadLog`."""


@dataclass(frozen=True)
class File:
    """A file to be posted (a picture, a chart, a record), with its description (a
    picture's alt text, shown by Discord)."""

    filename: str
    data: bytes
    description: str


class ResultPost(Protocol):
    """A finished game's result as the host posts it."""

    @property
    def text(self) -> str:
        """The full result (the game's thread, or its channel without one)."""
        ...

    @property
    def channel_text(self) -> str:
        """A short result for the channel when the full one goes to the thread."""
        ...

    @property
    def files(self) -> Sequence[File]: ...

    @property
    def panel(self) -> Panel | None:
        """The controls under the result (a rematch)."""
        ...


class Media(Protocol):
    """What the front ends and publishing show of a game besides the table's panels: its
    pictures, the texts of the looking commands, a finished game's result, replays of its
    record.

    The methods marked *(worker)* do the CPU work: a host runs them in its worker processes
    (``offloader.run(media.board_png, ...)``, positional arguments only), so a game gives
    them as plain module-level functions (picklable by name), never as methods bound to
    an object holding state. Pictures are None when they could not be drawn: a missing
    picture never stops a game. ``lang`` is the language of the words drawn in a picture
    (a worker does not share the host's current language); the texts are in the current
    language. A ``record`` is the stored record's JSON unless it says otherwise."""

    @property
    def rounds(self) -> int:
        """How many rounds a game lasts (the moments a board may be asked at)."""
        ...

    @property
    def hint_budget_s(self) -> float:
        """The seconds of search a hint takes (the console says so while it waits)."""
        ...

    def warm(self) -> object:
        """*(worker)* Import the game's drawing in a worker process before its first job."""
        ...

    # ------------------------------------------------------------------ pictures
    def board_png(self, view: View, highlight: tuple[int, ...] = (),
                  last_move: tuple[int, ...] | None = None, full: bool = False,
                  lang: str = "en") -> bytes | None:
        """*(worker)* The board of a public view (``full``: all of it, not only the land)."""
        ...

    def board_png_and_alt(self, view: View, highlight: tuple[int, ...],
                          last_move: tuple[int, ...] | None, full: bool, lang: str,
                          changed: list[str] | None) -> tuple[bytes | None, str | None]:
        """*(worker)* A turn message's board and its description (``changed``: what the
        description says happened)."""
        ...

    def board_alt(self, view: View, changed: list[str] | None = None,
                  lang: str = "en") -> str | None:
        """The description of :meth:`board_png`'s picture."""
        ...

    def picture(self, kind: str, view: View, lang: str, focus: tuple[int, ...] = (),
                highlight: tuple[int, ...] = (), marks: tuple[tuple[int, ...], ...] = (),
                alt: list[str] | None = None) -> tuple[bytes | None, str | None]:
        """*(worker)* A private picture and its description: ``kind`` as a panel's
        ``image`` (a hand, a part of the board, a preview, a recap's marked board), drawn
        from ``view`` with the panel's ``focus``, ``highlight``, ``marks`` and ``alt``
        lines (what the marks are)."""
        ...

    def position_lines(self, view: View, lang: str = "en") -> list[str]:
        """The whole position in words (for screen readers instead of the picture)."""
        ...

    # ------------------------------------------------------------------ words
    def seat_names(self, seats: Sequence[Seat]) -> list[str]:
        """Who plays each seat, computers named in the current language."""
        ...

    def status_text(self, game_id: int, view: View, seats: Sequence[Seat], *,
                    hints: bool = True) -> str:
        """The position of a public view in text; ``hints``: the game's hint option."""
        ...

    def hand_text(self, game_id: int, view: View) -> str:
        """A seat's hand in text, from its own view."""
        ...

    def final_lines(self, game_id: int, view: View, seats: Sequence[Seat]) -> list[str]:
        """The final ranking of a finished game's public view."""
        ...

    def over_lines(self, view: View, names: Sequence[str]) -> list[str]:
        """Who won, under a finished game's status (nothing while it runs)."""
        ...

    async def hint_for_user(self, table: Any, user_id: int, offload: Offload) -> str:
        """The strongest computer's move for ``user_id``'s seat at ``table``, and why (its
        search runs in ``offload``)."""
        ...

    def place_label(self, text: str) -> str | None:
        """A place of the board as typed (``c4``), in the form the controls label it
        (``C4``); None if it names no place."""
        ...

    # ------------------------------------------------------------------ from the record
    def record_names(self, record: Any) -> list[str]:
        """Who played each seat of a loaded record (``bot.history.ledger.load_record``)."""
        ...

    def final_view(self, record: dict[str, Any]) -> View:
        """*(worker)* The public view at the end of a record."""
        ...

    def board_png_at(self, record: dict[str, Any], moment: str | int, full: bool,
                     lang: str) -> tuple[View | None, int, bytes | None]:
        """*(worker)* The public view at ``moment`` ("start", "end" or the end of round
        N), how many rounds had ended, and its board (no view: the game did not get
        there)."""
        ...

    def replay_gif(self, record: dict[str, Any]) -> tuple[bytes, int] | None:
        """*(worker)* The whole game as an animation and its frame count (None: none)."""
        ...

    def public_log(self, record: dict[str, Any], names: list[str], lang: str) -> list[str]:
        """*(worker)* Every line the table was shown, in ``lang`` (for a running game,
        whose record would give every secret away)."""
        ...

    def final_post(self, game_id: int, record: dict[str, Any],
                   names: Sequence[str]) -> ResultPost:
        """*(worker)* A finished game's result again (``/tempus-records show``)."""
        ...

    def final_post_job(self, game_id: int, record: dict[str, Any], names: list[str],
                       seat_users: list[int | None],
                       rating_changes: dict[int, tuple[Rating, Rating]] | None,
                       lang: str) -> ResultPost:
        """*(worker)* The result posted when a game ends, in ``lang``, with the ratings'
        changes of the people of ``seat_users`` (None: a computer)."""
        ...

    def round_recap(self, record: Any, since_round: int) -> Any:
        """*(worker)* What happened since round ``since_round`` began, from a loaded
        record (``bot.history.ledger.load_record``), for :meth:`Presentation.recap_panel`
        (raises :class:`Declined`: a round not begun)."""
        ...


@dataclass(frozen=True)
class BoardSvg:
    """A board as a page draws it: SVG groups in one coordinate system (the whole map's)."""

    #: the same key: the same ``map`` (a page keeps it while only the pieces change)
    map_key: str
    #: what depends on the map alone: fills, patterns, coasts, labels, and a tap layer
    #: whose shapes carry ``data-hex``, a place's number as :class:`Web` names places
    map: str
    #: what stands on the map and the marks of the last move
    pieces: str
    #: the part of the map to show: x, y, width, height
    box: tuple[int, int, int, int]


class Web(Protocol):
    """What a game's live page shows and takes (``bot/web``, a front end beside Discord's):
    pure, synchronous, in the language ``lang`` asked for. Everything shown comes from a
    view (what its reader may know); what a seat may do comes from its legal actions, so
    the page never decides what is legal. Places are numbers (the ``data-hex`` of the tap
    layer); an action travels as the game's own text (the steps of a choice), and comes
    back through :meth:`actions`."""

    def board_svg(self, view: View, last_move: tuple[int, ...] | None,
                  lang: str) -> BoardSvg:
        """The board of a view (a public one: any seat's draws the same)."""
        ...

    def page(self, view: View, names: Sequence[str], lang: str) -> dict[str, Any]:
        """Everything the page shows besides the board, as JSON-able data: the status, who
        acts and what, the players (``names``: who plays each seat), the game's tracks and
        piles, what each place holds (a tap's answer), and the hand of the view's seat
        (none in a spectator's view)."""
        ...

    def choices(self, state: Any, seat: int, legal: Sequence[Any],
                lang: str) -> dict[str, Any] | None:
        """What ``seat`` may do now in the page's terms (None: it owes no decision): moves
        from a place to a place, things done at a place, buttons, a choice of cards; each
        with the steps that make it. ``legal``: the seat's legal actions now (the game may
        look further on a copy of ``state``: a Move begun and a token moved in one tap)."""
        ...

    def actions(self, data: Mapping[str, Any]) -> list[Any]:
        """The actions a page asks for (a choice's steps, or a choice of cards); ValueError
        for anything malformed. Whether they are legal is for the rules to say."""
        ...


@dataclass(frozen=True)
class LessonPage:
    """One page of a lesson as its learner sees it: the page's number (where the lesson
    is now: all a host keeps of it), its words, picture and controls, and whether it is
    the lesson's end."""

    step: int
    #: the coach's words, the board (``image``, ``image_view``, ``highlight``) and the
    #: choices (:data:`games.controls.Op.LESSON` buttons, whose argument the game reads)
    panel: Panel
    finished: bool = False


@dataclass(frozen=True)
class Tip:
    """A short tip for a person new to the game about the decision they owe: ``kind``
    names which kind of decision it is about (a host shows each kind once)."""

    kind: str
    text: str


class Lessons(Protocol):
    """A game's lesson for one person (a short scripted game in which the learner makes
    every move the coach asks for), and the tips of a person's first games.

    The lesson is pages numbered from 0 to :attr:`pages` - 1 (the last says what was
    learnt); a host stores the number a person is at and hands it back with each click on
    the page's controls, so a lesson outlives a restart. Pages are worded in the language
    current when called."""

    @property
    def pages(self) -> int: ...

    def page(self, step: int) -> LessonPage:
        """Page ``step`` (the first page of a new lesson is 0)."""
        ...

    def answer(self, step: int, choice: str) -> LessonPage:
        """The page after the learner used the control with argument ``choice`` on page
        ``step``: the next one, the same one with a word on what was chosen instead, an
        earlier one (back), a later one (skip)."""
        ...

    def tip(self, state: Any, seat: int) -> Tip | None:
        """A tip on the decision ``seat`` owes in ``state`` (None: it owes none, or the
        game has no tip for it)."""
        ...

    def newcomer_level(self) -> str:
        """The computer level a table of newcomers gets unless they choose another (one of
        the game's :meth:`Computers.levels`)."""
        ...
