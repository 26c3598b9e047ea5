"""Skill ratings per server with openskill's Plackett-Luce model (Weng-Lin, 2011).

Why Plackett-Luce: Tempus is a free-for-all of 3 to 5 players that ends in a full
ranking (R-END-3), and Plackett-Luce is the Weng-Lin model made for exactly that: one
update per game from the whole finishing order, ties (a shared win) included, with an
uncertainty (sigma) per person that shrinks as they play. It is openskill's default and
recommended model; the Bradley-Terry and Thurstone-Mosteller variants compare players
pairwise, which treats a 5-player game as 10 separate duels.

Computer seats are **fixed-strength opponents**, one rating per level that never changes
(:data:`COMPUTER`). Leaving them out would make a game of two people and three computers
a plain duel, and coming ahead of a ``hard`` computer is real information about a person.
Fixed ratings also keep the scale anchored: computers do not drift, so points mean the
same on every server. The ``normal`` computer is set at a new person's starting mean;
``hard`` sits 7 points above it, which is what Plackett-Luce needs for the measured win
share of ``hard`` against three ``normal`` computers (0.44, README); ``random`` and
``easy`` are below (``normal`` wins every game against three ``random`` players).

A game counts if at least two people took part, and only a finished one (a cancelled or
abandoned game never reaches here).

**A person who left** (``/tempus leave``, or missed deadlines put a computer on their
seat and they never took it back: ``RatedSeat.left``) cannot save their rating by
leaving: they are rated as **finishing last**, below every other seat (tied with any
other leaver), whatever the computer then scores for the seat. Not merely behind the last
person who stayed: when computers finish ahead of that person, leaving would then beat
staying and finishing behind them. The update is the one that person would get for
that finishing order, from everyone's ratings before the game (:func:`leaver_ranks`).

**The people who stayed** are rated as before: a leaver's seat is, for them, the
computer that finished it, a fixed-strength opponent of that level at the place it
finished (the people who stayed did finish ahead of it or behind it). That needs at
least two people who stayed; a person who stayed alone with computers is not rated on
the game.

Ratings are recomputed in game order (finish time, then game id), so a rebuilt database
gives the same numbers: :func:`recompute` over all games equals :func:`rate_game` applied
one game at a time.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from openskill.models import PlackettLuce

#: openskill's defaults (mu 25, sigma 25/3, beta 25/6, tau 25/300), named here so that a
#: library update cannot change the numbers silently.
MU = 25.0
SIGMA = 25.0 / 3.0
MODEL = PlackettLuce(mu=MU, sigma=SIGMA, beta=25.0 / 6.0, tau=25.0 / 300.0,
                     limit_sigma=False, balance=False)

#: Fixed strength of each computer level (mean; its uncertainty is COMPUTER_SIGMA).
COMPUTER: dict[str, float] = {"random": 5.0, "easy": 15.0, "normal": 25.0, "hard": 32.0}
COMPUTER_SIGMA = 1.0
#: How many people a game needs to change ratings.
MIN_PEOPLE = 2


@dataclass(frozen=True, slots=True)
class Skill:
    mu: float = MU
    sigma: float = SIGMA
    games: int = 0

    @property
    def ordinal(self) -> float:
        """A conservative estimate (mu - 3 sigma): what leaderboards sort by, so that one
        lucky game does not put a newcomer on top."""
        return self.mu - 3.0 * self.sigma


@dataclass(frozen=True, slots=True)
class RatedSeat:
    user_id: int | None  # None: a computer seat
    ai_level: str | None  # a computer's level; a leaver's: the computer that finished
    rank: int  # 1 = first; a shared place shares the number (the seat's own result)
    #: the person left the game (or timed out of it); a computer finished the seat
    left: bool = False


@dataclass(frozen=True, slots=True)
class RatedGame:
    game_id: int
    finished_at: str
    seats: tuple[RatedSeat, ...]

    @property
    def key(self) -> tuple[str, int]:
        """Game order: finish time (the last logged action), then game id."""
        return (self.finished_at, self.game_id)

    @property
    def people(self) -> list[int]:
        """Everyone who took part: who stayed and who left."""
        return [s.user_id for s in self.seats if s.user_id is not None]

    @property
    def stayed(self) -> list[int]:
        return [s.user_id for s in self.seats if s.user_id is not None and not s.left]

    @property
    def leavers(self) -> list[int]:
        return [s.user_id for s in self.seats if s.user_id is not None and s.left]

    @property
    def counts(self) -> bool:
        """Rated: at least two different people took part."""
        return is_rated(self.people)


def is_rated(user_ids: Iterable[int | None]) -> bool:
    """Whether a game of these seats' people (None: a computer) changes ratings."""
    return len({u for u in user_ids if u is not None}) >= MIN_PEOPLE


def leaver_ranks(seats: Sequence[RatedSeat]) -> list[int]:
    """The finishing order a leaver is rated on: every leaver last (tied), every other
    seat in its own order; as ranks 1 = first, a shared place sharing the number."""
    last = max(s.rank for s in seats) + 1
    key = [last if s.user_id is not None and s.left else s.rank for s in seats]
    return [1 + sum(1 for other in key if other < k) for k in key]


def _computer(level: str | None) -> tuple[float, float]:
    return COMPUTER.get(level or "", COMPUTER["random"]), COMPUTER_SIGMA


def _rate(table: Mapping[int, Skill], seats: Sequence[tuple[int | None, str | None, int]]
          ) -> dict[int, Skill]:
    """One Plackett-Luce update of seats ``(person or None, computer level, rank)``: the
    people's new ratings (a computer's strength is fixed)."""
    teams = []
    for user, level, _ in seats:
        if user is None:
            mu, sigma = _computer(level)
        else:
            old = table.get(user, Skill())
            mu, sigma = old.mu, old.sigma
        teams.append([MODEL.rating(mu=mu, sigma=sigma)])
    rated = MODEL.rate(teams, ranks=[float(rank) for _, _, rank in seats])
    out: dict[int, Skill] = {}
    for (user, _, _), team in zip(seats, rated):
        if user is not None:
            games = table.get(user, Skill()).games + 1
            out[user] = Skill(float(team[0].mu), float(team[0].sigma), games)
    return out


def rate_game(table: Mapping[int, Skill], game: RatedGame) -> dict[int, Skill]:
    """The new ratings of the people in ``game`` (others unchanged, not returned): the
    people who stayed on the game as it finished, each leaver as finishing last (module
    doc), both from the ratings before the game."""
    if not game.counts:
        return {}
    out: dict[int, Skill] = {}
    if is_rated(game.stayed):  # a leaver's seat: the computer that finished it
        out.update(_rate(table, [(None if s.left else s.user_id, s.ai_level, s.rank)
                                 for s in game.seats]))
    leavers = set(game.leavers)
    if leavers:
        ranked = _rate(table, [(s.user_id, s.ai_level, rank)
                               for s, rank in zip(game.seats, leaver_ranks(game.seats))])
        out.update({u: skill for u, skill in ranked.items() if u in leavers})
    return out


def recompute(games: Iterable[RatedGame]) -> dict[int, Skill]:
    """Every person's rating from scratch, applying the games in game order."""
    table: dict[int, Skill] = {}
    replay(table, games)
    return table


def replay(table: dict[int, Skill], games: Iterable[RatedGame]
           ) -> dict[int, dict[int, tuple[Skill, Skill]]]:
    """Apply ``games`` to ``table`` in game order (``table`` is updated); returns, per
    game id, each of its people's rating before and after that game."""
    out: dict[int, dict[int, tuple[Skill, Skill]]] = {}
    for game in sorted(games, key=lambda g: g.key):
        new = rate_game(table, game)
        out[game.game_id] = {u: (table.get(u, Skill()), s) for u, s in sorted(new.items())}
        table.update(new)
    return out


def changes_in(games: Iterable[RatedGame], game_id: int) -> dict[int, tuple[Skill, Skill]]:
    """The rating changes of game ``game_id`` alone: every game before it (in game order)
    applied from scratch, then that game."""
    ordered = sorted(games, key=lambda g: g.key)
    end = next((i for i, g in enumerate(ordered) if g.game_id == game_id), None)
    if end is None:
        return {}
    return replay({}, ordered[:end + 1])[game_id]
