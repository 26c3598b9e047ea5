"""A recap ("What happened?"): everything since a moment, in a few lines and one picture.

A person whose turn comes after others have played asks what happened since their own
previous decision; a spectator asks what happened since a round began. The answer names
each player's moves, growth, cities, cards played, fights with the cards revealed, the
progress phase and the changes in victory points, and marks every change on the board
now (:mod:`render.recap`).

**Built from the public log only.** :func:`collect` replays the stored moves through the
engine (which needs the whole state to do so) but keeps nothing of it except the public
events (``engine.events.visible(events, None)``) and spectator views
(``engine.view(state, None)``); everything after that, the model, its words and its
marks, is made from those. Who made which move is public too (the log's seats). So a
recap can name no card drawn, held, discarded face down or still face down in a fight
or a progress choice (tests/games/tempus/test_recap_leaks.py swaps such cards and checks
that the recap stays the same).

Three steps, so that the costly one can run in a worker process: :func:`collect` (CPU:
a replay; plain data out), :func:`recap_lines` (words, in the current language) and
:func:`recap_panel` (the private reply with its picture).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from engine.errors import IllegalAction
from engine.events import Event, EventKind, visible
from engine.game import apply_in_place
from engine.hexgrid import label, parse_label
from engine.record import Record, ReplayError
from engine.state import ACTIONS
from engine.views import view
from games.controls import RECAP, Button, Panel, with_button
from games.port import Declined
from games.tempus.labels import card_list, card_name, colour_name, era_name, terrain_name
from lang.messages import join_names, t
from render.recap import Mark, Marks

#: the longest recap text: a private reply's content holds 2,000 characters, and the
#: reply's first line and a little room are kept
TEXT_LIMIT = 1900


# ------------------------------------------------------------------ since when
class SinceKind(StrEnum):
    """What a recap starts from."""

    #: the reader's previous decision (a seated person)
    DECISION = "decision"
    #: the start of a round (a spectator, or anyone who asks for a round)
    ROUND = "round"
    #: the start of the game (a spectator while the map and starting tokens are placed)
    START = "start"


@dataclass(frozen=True)
class Since:
    kind: SinceKind
    #: DECISION: whose previous decision
    seat: int | None = None
    #: ROUND: the round (1 = first), as ``/tempus status`` counts them
    round: int | None = None
    #: DECISION: how many of the seat's latest turns a computer played for its person
    #: (their time ran out): the window goes back over them, and the recap says so
    covered: int = 0

    @classmethod
    def decision(cls, seat: int, covered: int = 0) -> Since:
        return cls(SinceKind.DECISION, seat=seat, covered=covered)

    @classmethod
    def round_start(cls, number: int) -> Since:
        return cls(SinceKind.ROUND, round=number)

    @classmethod
    def game_start(cls) -> Since:
        return cls(SinceKind.START)


def window(movers: Sequence[int], seat: int, covered: int = 0) -> tuple[int, int]:
    """The moves a recap for ``seat`` tells, as a slice ``(start, end)`` of a log whose
    moves were made by ``movers`` (the seat of each move, in order): from ``seat``'s last
    move before the others' latest ones, to the turn ``seat`` is taking now (their own
    steps of this turn they know: asking in the middle of a turn still tells what came
    before it). ``covered``: that many of the seat's latest runs of moves were a
    computer's, made for its person when time ran out: news to them, so told too."""
    end = len(movers)
    while end > 0 and movers[end - 1] == seat:
        end -= 1
    start = end
    for run in range(covered + 1):
        while start > 0 and movers[start - 1] != seat:
            start -= 1
        if run < covered:
            while start > 0 and movers[start - 1] == seat:
                start -= 1
    return start, end


def others_moved(movers: Sequence[int], seat: int) -> bool:
    """Whether other seats made moves since ``seat``'s previous decision."""
    start, end = window(movers, seat)
    return end > start


def worth_asking(moves: Sequence[tuple[int, object]], deciding: Sequence[int]) -> bool:
    """Whether the turn message should offer "What happened?": some person who must
    decide now comes back after others have played (``moves``: the log's (seat, action)
    pairs; ``deciding``: the people's seats that owe a decision)."""
    movers = [s for s, _ in moves]
    return any(others_moved(movers, seat) for seat in deciding)


# ------------------------------------------------------------------ the model
@dataclass
class Fight:
    """One attack and what came of it (the outcome None while the fight goes on)."""

    attacker: int
    defender: int
    src: str
    dst: str
    city: bool = False
    #: the city's value, or the defending tokens, when the attack began
    target: int = 0
    tokens: int = 0
    leader: bool = False
    #: the terrain a city's defender named (R-COMBAT-4)
    terrain: str | None = None
    #: cards revealed at the end of the fight: None until then
    attack_cards: tuple[int, ...] | None = None
    defend_cards: tuple[int, ...] | None = None
    attack: int | None = None
    defence: int | None = None
    winner: int | None = None
    #: what the loser lost: tokens, or the city (its value)
    lost: int = 0
    #: tokens the winner moved into the conquered hex
    occupied: int | None = None


@dataclass
class Played:
    """A card played face up for its effect (card id and the event's public data)."""

    card: int
    kind: str
    data: dict[str, Any]


@dataclass
class Turn:
    """One player's consecutive steps (a turn, or what part of it the window holds)."""

    seat: int
    round: int
    #: the Move and Grow actions begun ("move", "grow"), with or without a step after
    begun: list[str] = field(default_factory=list)
    moves: list[tuple[str, str]] = field(default_factory=list)
    grown: list[str] = field(default_factory=list)
    placed: list[str] = field(default_factory=list)  # starting tokens (R-SETUP-5)
    tiles: list[tuple[int, str]] = field(default_factory=list)  # (tile, centre)
    cities: list[tuple[str, int]] = field(default_factory=list)  # (hex, value)
    fights: list[Fight] = field(default_factory=list)
    played: list[Played] = field(default_factory=list)
    drew: int = 0
    discarded: int = 0


@dataclass
class Progress:
    """A progress phase (R-PROG): cards revealed, points, who advanced."""

    round: int
    era_index: int
    terrain: str | None
    reveals: list[tuple[int, tuple[int, ...], int]] = field(default_factory=list)
    advanced: list[tuple[int, int]] = field(default_factory=list)  # (seat, era index)
    caught_up: list[tuple[int, int]] = field(default_factory=list)  # (seat, era index)
    chosen: list[int] = field(default_factory=list)  # seats that chose (cards face down)
    #: cards drawn for reaching an era (R-ERA-3) and discarded for the hand limit, counts
    drew: dict[int, int] = field(default_factory=dict)
    discarded: dict[int, int] = field(default_factory=dict)


@dataclass
class RoundStart:
    round: int
    start_player: int | None


@dataclass
class Ending:
    scores: list[int]
    winners: list[int]


Item = Turn | Progress | RoundStart | Ending


@dataclass
class Recap:
    """What happened in a window of the log, as public facts."""

    since: Since
    #: moves of the log before the window, and in it
    first: int
    count: int
    #: the round and turn (action round) the window began in
    round: int
    turn: int
    items: list[Item]
    #: victory points of each seat when the window began, and now
    points_before: list[int]
    points_now: list[int]
    #: the public view now (the picture's board) and the changes to mark on it
    view: dict[str, Any]
    marks: Marks

    @property
    def empty(self) -> bool:
        return self.count == 0


class RecapError(Declined, ValueError):
    """The window asked for does not exist (a round not begun yet); ``key`` says why."""


# ------------------------------------------------------------------ collecting (CPU)
def collect(record: Record, since: Since) -> Recap:
    """Replay ``record`` and gather the public events from ``since`` on (a plain-data
    :class:`Recap`, so it can come back from a worker process). Raises
    :class:`RecapError` when ``since`` names a round that has not begun, ReplayError for
    a log that does not replay."""
    movers = [s for s, _ in record.moves]
    first: int | None = None
    end = len(movers)
    if since.kind == SinceKind.DECISION:
        assert since.seat is not None
        first, end = window(movers, since.seat, since.covered)
    elif since.kind == SinceKind.START:
        first = 0
    state, _ = record.new_state()
    before: dict[str, Any] | None = None
    told: list[list[Event]] = []
    for i, (seat, action) in enumerate(record.moves):
        if i == first:
            before = view(state, None)
        try:
            events = visible(apply_in_place(state, seat, action), None)
        except IllegalAction as exc:
            raise ReplayError(i, str(exc)) from None
        if first is None:
            if any(e.kind == EventKind.ERA and e.data.get("era_number") == since.round
                   for e in events):
                first = i + 1
        elif first <= i < end:
            told.append(events)
    now = view(state, None)
    if first is None:
        raise RecapError("recap.no_round", round=since.round)
    return recap_of(since, first, before or now, told, now)


def recap_of(since: Since, first: int, before: dict[str, Any], told: list[list[Event]],
             now: dict[str, Any]) -> Recap:
    """The recap of a window of the log from public facts only: the spectator view
    ``before`` it, each of its moves' public events (``told``) and the spectator view
    ``now``; ``first``: how many moves came before it."""
    if before.get("seat") is not None or now.get("seat") is not None:
        raise ValueError("a recap is built from spectator views only")
    items, marks = _fold(told, before, since.kind == SinceKind.ROUND)
    return Recap(since=since, first=first, count=len(told),
                 round=int(before["era_number"]), turn=int(before.get("action_round", 0)),
                 items=items, points_before=_points(before), points_now=_points(now),
                 view=now, marks=marks)


def _points(v: dict[str, Any]) -> list[int]:
    return [int(p["victory_points"]) for p in v["players"]]


#: events that are news in a turn (others, such as beginning an action, are not)
STEP_KINDS = frozenset({"move", "move_token", "grow", "grow_token", "start_token", "city",
                        "tile", "card", "draw", "discard"})
FIGHT_KINDS = frozenset({"attack", "city_terrain", "attack_cards", "combat_cards",
                         "combat_won", "combat_lost", "occupy"})


class _Folder:
    """Public events, in order, into items and marks."""

    def __init__(self, before: dict[str, Any], round_start: bool) -> None:
        self.items: list[Item] = []
        self.marks: list[tuple[int, ...]] = []
        self.round = int(before["era_number"])
        self.turn: Turn | None = None
        self.fight: Fight | None = None
        self.progress: Progress | None = None
        self.caught_up: list[tuple[int, int]] = []
        if round_start:
            self.items.append(RoundStart(self.round, before.get("start_player")))
        if before.get("phase") == ACTIONS:  # whose turn it was when the window began
            self.turn_of(int(before["turn"]))
        combat = before.get("combat")
        if combat:  # the window began during a fight: what the board showed of it
            self._fight_of(combat, before)

    def _fight_of(self, c: dict[str, Any], v: dict[str, Any]) -> None:
        src, dst = int(c["src"]), int(c["dst"])
        city = bool(c["city"])
        f = Fight(int(c["attacker"]), int(c["defender"]), label(src), label(dst), city,
                  int(v["city_value"][dst] if city else v["count"][dst]), int(v["count"][src]),
                  c.get("leader") is not None, c.get("terrain") if city else None)
        if c.get("attack_cards") is not None and c.get("defend_cards") is not None:
            f.attack_cards, f.defend_cards = tuple(c["attack_cards"]), tuple(c["defend_cards"])
        self.fight = f
        self.turn_of(f.attacker).fights.append(f)
        self.marks.append((int(Mark.FIGHT), src, dst))

    def turn_of(self, seat: int) -> Turn:
        if self.turn is None or self.turn.seat != seat:
            self.turn = Turn(seat, self.round)
            self.items.append(self.turn)
        return self.turn

    def add(self, e: Event) -> None:
        k, d = e.kind, e.data
        if k == EventKind.ERA:
            self.round = int(d["era_number"])
            self.items.append(RoundStart(self.round, e.seat))
            self.turn = self.progress = None
            if e.seat is not None:  # the start player's turn begins
                self.turn_of(e.seat)
        elif k == EventKind.TURN:
            self.turn = None
            if e.seat is not None:
                self.turn_of(e.seat)
        elif k == EventKind.CATCH_UP:  # told at the end of the round, just before the progress
            assert e.seat is not None
            self.caught_up.append((e.seat, int(d["era_index"])))
        elif k == EventKind.PROGRESS:
            self.progress = Progress(self.round, int(d["era_index"]), d.get("terrain"),
                                     caught_up=self.caught_up)
            self.caught_up = []
            self.items.append(self.progress)
            self.turn = None
        elif k == EventKind.GAME_OVER:
            self.items.append(Ending(list(d["scores"]), list(d["winners"])))
        elif self.progress is not None and e.seat is not None:
            self._progress(e)
        elif k in FIGHT_KINDS:
            self._fight(e)
        elif e.seat is not None:
            self._step(e)

    def _progress(self, e: Event) -> None:
        p, d = self.progress, e.data
        assert p is not None and e.seat is not None
        if e.kind == EventKind.PROGRESS_CHOICE:
            p.chosen.append(e.seat)
        elif e.kind == EventKind.PROGRESS_REVEAL:
            p.reveals.append((e.seat, tuple(d["cards"]), int(d["points"])))
        elif e.kind == EventKind.ADVANCE:
            p.advanced.append((e.seat, int(d["era"])))
        elif e.kind == EventKind.DRAW:  # an era's bonus card (R-ERA-3)
            p.drew[e.seat] = p.drew.get(e.seat, 0) + int(d["count"])
        elif e.kind == EventKind.DISCARD:
            p.discarded[e.seat] = p.discarded.get(e.seat, 0) + int(d["count"])

    def _fight(self, e: Event) -> None:
        k, d = e.kind, e.data
        assert e.seat is not None
        if k == EventKind.ATTACK:
            self.fight = Fight(e.seat, int(d["defender"]), d["src"], d["dst"],
                               bool(d["city"]),
                               int(d["value"] if d["city"] else d["defender_tokens"]),
                               int(d["tokens"]), bool(d.get("leader")))
            self.turn_of(e.seat).fights.append(self.fight)
            self.marks.append((int(Mark.FIGHT), parse_label(d["src"]), parse_label(d["dst"])))
            return
        f = self.fight
        if f is None:  # cannot happen: a fight under way is taken from the view
            return
        if k == EventKind.CITY_TERRAIN:
            f.terrain = str(d["terrain"])
        elif k == EventKind.COMBAT_CARDS:
            f.attack_cards = tuple(d["attack_cards"])
            f.defend_cards = tuple(d["defend_cards"])
            f.attack, f.defence = int(d["attack"]), int(d["defence"])
        elif k == EventKind.COMBAT_WON:
            f.winner = int(d["winner"])
            f.lost = int(d["value"] if d["city"] else d["tokens"])
        elif k == EventKind.COMBAT_LOST:
            f.winner, f.lost = int(d["winner"]), 1
        elif k == EventKind.OCCUPY:
            f.occupied = int(d["count"])

    def _step(self, e: Event) -> None:
        k, d = e.kind, e.data
        assert e.seat is not None
        if k not in STEP_KINDS:
            return  # a hand over its limit: told by the discard that follows
        turn = self.turn_of(e.seat)
        if k in (EventKind.MOVE, EventKind.GROW):
            turn.begun.append(k)
        if k == EventKind.MOVE_TOKEN:
            turn.moves.append((d["src"], d["dst"]))
            self.marks.append((int(Mark.MOVE), parse_label(d["src"]), parse_label(d["dst"])))
        elif k in (EventKind.GROW_TOKEN, EventKind.START_TOKEN):
            (turn.grown if k == EventKind.GROW_TOKEN else turn.placed).append(d["hex"])
            self.marks.append((int(Mark.GROW), parse_label(d["hex"]), 1))
        elif k == EventKind.CITY:
            turn.cities.append((d["hex"], int(d["value"])))
            self.marks.append((int(Mark.CITY), parse_label(d["hex"])))
        elif k == EventKind.TILE:
            turn.tiles.append((int(d["tile"]), d["centre"]))
        elif k == EventKind.CARD:
            turn.played.append(Played(int(d["card"]), str(d["type"]), dict(d)))
            if d["type"] == "REL":
                self.marks.append((int(Mark.MOVE), parse_label(d["target"]),
                                   parse_label(d["own"])))
        elif k == EventKind.DRAW:
            turn.drew += int(d["count"])
        elif k == EventKind.DISCARD:
            turn.discarded += int(d["count"])


def _fold(told: list[list[Event]], before: dict[str, Any], round_start: bool
          ) -> tuple[list[Item], Marks]:
    folder = _Folder(before, round_start)
    for events in told:
        for e in events:
            if e.private_to is not None:
                raise ValueError(f"a recap is built from public events only, not {e.kind}")
            folder.add(e)
    items = folder.items
    if items and isinstance(items[-1], Turn) and _idle(items[-1]):
        items = items[:-1]  # the turn being taken now, with nothing done yet
    return items, _merge_marks(folder.marks)


def _idle(turn: Turn) -> bool:
    """A turn with nothing done in it (yet)."""
    return not (turn.begun or turn.tiles or turn.placed or turn.cities or turn.fights
                or turn.played or turn.drew or turn.discarded)


def _merge_marks(marks: list[tuple[int, ...]]) -> Marks:
    """One mark per move and fight, growth counted per hex, in order of first mention."""
    grown: dict[int, int] = {}
    out: dict[tuple[int, ...], None] = {}
    for m in marks:
        if m[0] == Mark.GROW:
            if m[1] not in grown:
                out[(int(Mark.GROW), m[1])] = None
            grown[m[1]] = grown.get(m[1], 0) + m[2]
        else:
            out[m] = None
    return tuple((*m, grown[m[1]]) if m[0] == Mark.GROW else m for m in out)


# ------------------------------------------------------------------ words
def _who(seat: int, names: Sequence[str]) -> str:
    name = names[seat] if 0 <= seat < len(names) else ""
    colour = colour_name(seat)
    return f"**{colour}** ({name})" if name else f"**{colour}**"


def _hexes(hexes: Sequence[str]) -> str:
    return ", ".join(dict.fromkeys(hexes))


def _fight_text(f: Fight) -> str:
    defender = colour_name(f.defender)
    key = "recap.fight.city" if f.city else "recap.fight.tokens"
    parts = [t(key, defender=defender, dst=f.dst, src=f.src, k=f.target, n=f.tokens)]
    if f.leader:
        parts.append(t("recap.fight.leader"))
    if f.terrain is not None:
        parts.append(t("recap.fight.terrain", defender=defender,
                       terrain=t(f"city_as.{f.terrain}")))
    if f.attack_cards is not None and f.defend_cards is not None:
        parts.append(t("recap.fight.cards", attacker=colour_name(f.attacker),
                       attack=card_list(f.attack_cards), defender=defender,
                       defend=card_list(f.defend_cards), att=f.attack, dfn=f.defence))
    if f.winner is None:
        parts.append(t("recap.fight.open"))
    elif f.winner == f.defender:
        parts.append(t("recap.fight.held", defender=defender))
    else:
        key = "recap.fight.won_city" if f.city else "recap.fight.won_tokens"
        parts.append(t(key, attacker=colour_name(f.winner), defender=defender, n=f.lost))
        if f.occupied:
            parts.append(t("recap.fight.occupied", attacker=colour_name(f.winner),
                           n=f.occupied))
    return " ".join(parts)


def _card_text(p: Played) -> str:
    name = card_name(p.card)
    if p.kind == "REL":
        return t("recap.card.REL", card=name, victim=colour_name(int(p.data["victim"])),
                 target=p.data["target"], own=p.data["own"])
    if p.kind == "SAN":
        return t("recap.card.SAN", card=name, hex=p.data["hex"])
    if p.kind == "GOV":
        key = "recap.card.GOV.pass" if p.data.get("mode") == "pass" else "recap.card.GOV.double"
        return t(key, card=name)
    return t("recap.card", card=name)


def _turn_parts(turn: Turn) -> list[str]:
    parts: list[str] = []
    if turn.tiles:
        parts.append(t("recap.tiles", n=len(turn.tiles),
                       where=_hexes([c for _, c in turn.tiles])))
    if turn.placed:
        parts.append(t("recap.placed", n=len(turn.placed), where=_hexes(turn.placed)))
    if turn.moves:
        steps = ", ".join(f"{a}→{b}" for a, b in turn.moves)
        parts.append(t("recap.moved", n=len(turn.moves), steps=steps))
    if turn.grown:
        parts.append(t("recap.grew", n=len(turn.grown), where=_hexes(turn.grown)))
    parts += [t("recap.city", value=v, hex=h) for h, v in turn.cities]
    parts += [_card_text(p) for p in turn.played]
    parts += [_fight_text(f) for f in turn.fights]
    parts += _unused(turn)
    if turn.drew:
        parts.append(t("recap.drew", n=turn.drew))
    if turn.discarded:
        parts.append(t("recap.discarded", n=turn.discarded))
    return parts or [t("recap.passed")]


def _unused(turn: Turn) -> list[str]:
    """A Move or Grow action begun with no step taken: said, not left out (its marker
    was spent)."""
    parts = []
    if "move" in turn.begun and not turn.moves:
        parts.append(t("recap.idle.move"))
    if "grow" in turn.begun and not turn.grown:
        parts.append(t("recap.idle.grow"))
    return parts


def _turn_short(turn: Turn) -> list[str]:
    """The counts of a turn, for older steps when the whole would be too long."""
    parts: list[str] = []
    if turn.tiles:
        parts.append(t("recap.short.tiles", n=len(turn.tiles)))
    if turn.placed:
        parts.append(t("recap.short.placed", n=len(turn.placed)))
    if turn.moves:
        parts.append(t("recap.short.moves", n=len(turn.moves)))
    if turn.grown:
        parts.append(t("recap.short.grown", n=len(turn.grown)))
    if turn.cities:
        parts.append(t("recap.short.cities", n=len(turn.cities)))
    for f in turn.fights:
        won = f.winner is not None and f.winner != f.defender
        key = ("recap.short.fight.open" if f.winner is None else
               "recap.short.fight.won" if won else "recap.short.fight.held")
        parts.append(t(key, defender=colour_name(f.defender), dst=f.dst))
    if turn.played:
        parts.append(t("recap.short.cards", n=len(turn.played)))
    if turn.drew:
        parts.append(t("recap.drew", n=turn.drew))
    return parts or _unused(turn) or [t("recap.passed")]


def _progress_text(p: Progress, short: bool) -> str:
    head = t("recap.progress", era=era_name(p.era_index),
             terrain=terrain_name(p.terrain or "G"))
    parts = [t("recap.caught_up", colour=colour_name(s), era=era_name(e))
             for s, e in p.caught_up]
    if p.reveals:
        if short:
            parts.append(", ".join(t("recap.points", colour=colour_name(s), n=n)
                                   for s, _, n in p.reveals))
        else:
            parts.append("; ".join(t("recap.reveal", colour=colour_name(s),
                                     cards=card_list(cards), n=n)
                                   for s, cards, n in p.reveals))
    elif p.chosen:
        parts.append(t("recap.progress.waiting", names=join_names(
            [colour_name(s) for s in p.chosen])))
    if p.advanced:
        parts.append(join_names([t("recap.advanced", colour=colour_name(s), era=era_name(e))
                                 for s, e in p.advanced]))
    elif p.reveals:
        parts.append(t("recap.nobody_advanced"))
    if p.drew and not short:
        parts.append(", ".join(t("recap.bonus", colour=colour_name(s), n=n)
                               for s, n in p.drew.items()))
    if p.discarded and not short:
        parts.append(", ".join(t("recap.progress_discard", colour=colour_name(s), n=n)
                               for s, n in p.discarded.items()))
    return " ".join([head, *(f"{x}." if not x.endswith(".") else x for x in parts)])


def _item_line(item: Item, names: Sequence[str], short: bool) -> str:
    if isinstance(item, Turn):
        parts = _turn_short(item) if short else _turn_parts(item)
        return f"{_who(item.seat, names)}: {'; '.join(parts)}."
    if isinstance(item, Progress):
        return _progress_text(item, short)
    if isinstance(item, RoundStart):
        if item.start_player is None:
            return t("recap.round", round=item.round)
        return t("recap.round_start", round=item.round, colour=colour_name(item.start_player))
    winners = join_names([colour_name(s) for s in item.winners])
    return t("recap.ending", names=winners, n=len(item.winners))


def _head(recap: Recap) -> str:
    s = recap.since
    if s.kind == SinceKind.ROUND:
        return t("recap.head.round", round=s.round)
    if recap.first == 0:
        return t("recap.head.start")
    if recap.turn == 0:  # the setup: no action round has begun ("turn 0" names nothing)
        return t("recap.head.setup")
    return t("recap.head.decision", round=recap.round, turn=recap.turn)


def points_line(recap: Recap) -> str:
    """Everyone's victory points now, with the change since the window began."""
    parts = []
    for seat, (old, new) in enumerate(zip(recap.points_before, recap.points_now)):
        change = "" if new == old else f" (+{new - old})" if new > old else f" (−{old - new})"
        parts.append(f"{colour_name(seat)} {new}{change}")
    return t("recap.vp", scores=", ".join(parts))


def _important(item: Item) -> bool:
    """An item a cut recap keeps even when older steps give way: a fight (the picture
    marks it too), a city, a progress phase, the end."""
    if isinstance(item, Turn):
        return bool(item.fights or item.cities)
    return isinstance(item, (Progress, Ending))


def recap_lines(recap: Recap, names: Sequence[str], limit: int = TEXT_LIMIT) -> list[str]:
    """The recap in words of the current language, at most ``limit`` characters joined:
    the head, one line per turn (each player's moves, growth, cities, cards, fights with
    the cards revealed), progress, the end, then the victory points. When that is too
    long, the oldest turns are told by their counts only, and if still too long the least
    important of them give way to a line saying how many were left out: fights, cities,
    progress phases and the end stay (by their counts at least), as the picture still
    marks them."""
    head = _head(recap)
    if recap.empty:
        if recap.since.kind == SinceKind.ROUND:
            return [t("recap.nothing.round", round=recap.since.round)]
        return [t("recap.nothing")]
    tail = [points_line(recap)]
    if recap.since.covered:  # said first: the reader did not make these moves
        head = "\n".join([head, t("recap.covered", n=recap.since.covered)])
    full = [_item_line(i, names, short=False) for i in recap.items]
    short = [_item_line(i, names, short=True) for i in recap.items]
    room = limit - len("\n".join([head, *tail])) - len(t("recap.omitted", n=len(full))) - 2
    chosen: dict[int, str] = {}
    # first the steps that must stay, newest first, by their counts
    for i in reversed(range(len(full))):
        if _important(recap.items[i]) and len(short[i]) + 1 <= room:
            chosen[i] = short[i]
            room -= len(short[i]) + 1
    # then the newest steps in full, older ones by their counts, the rest left out
    detailed = True
    for i in reversed(range(len(full))):
        kept = len(chosen[i]) + 1 if i in chosen else 0
        if detailed and len(full[i]) + 1 - kept <= room:
            chosen[i], room = full[i], room - (len(full[i]) + 1 - kept)
            continue
        detailed = False
        if i not in chosen and len(short[i]) + 1 <= room:
            chosen[i], room = short[i], room - (len(short[i]) + 1)
    body = [chosen[i] for i in sorted(chosen)]
    left_out = len(full) - len(body)
    if left_out:
        body.insert(0, t("recap.omitted", n=left_out))
    text = "\n".join([head, *body, *tail])
    return [head, *body, *tail] if len(text) <= limit else [text[: limit - 1] + "…"]


_ALT_KEYS = {Mark.MOVE: "recap.alt.move", Mark.FIGHT: "recap.alt.fight",
             Mark.GROW: "recap.alt.grow", Mark.CITY: "recap.alt.city"}


def alt_lines(recap: Recap) -> list[str]:
    """What the picture marks, in words (for its description)."""
    counts = {kind: 0 for kind in Mark}
    for m in recap.marks:
        counts[Mark(m[0])] += m[2] if m[0] == Mark.GROW else 1
    parts = [t(_ALT_KEYS[kind], n=n) for kind, n in counts.items() if n]
    return [t("recap.alt", marks=", ".join(parts))] if parts else []


# ------------------------------------------------------------------ the reply
def recap_panel(recap: Recap, names: Sequence[str]) -> Panel:
    """The private reply: the recap's words and the marked board."""
    text = "\n".join(recap_lines(recap, names))
    if recap.empty:
        return Panel(text)
    return Panel(text, image="recap", image_view=recap.view, marks=recap.marks,
                 alt=alt_lines(recap))


def with_recap(panel: Panel) -> Panel:
    """``panel`` with the "What happened?" button (anyone may ask, each is answered
    privately), in the last button row or a row of its own, if there is room."""
    return with_button(panel, Button(t("btn.recap"), RECAP, "", "secondary"))
