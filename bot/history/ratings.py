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

Only games with at least two people **who stayed to the end** count, and only finished
ones (a cancelled or abandoned game never reaches here). A person who left a running game
(a computer finished their seat) is not rated on it: their seat comes here as a computer
of the level that finished it (``bot.history.ledger.rated_seat``), for the reasons above, so the
people who stayed are still rated on finishing ahead of it or behind it.

Ratings are recomputed in game order (finish time, then game id), so a rebuilt database
gives the same numbers: :func:`recompute` over all games equals :func:`rate_game` applied
one game at a time.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
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
    ai_level: str | None
    rank: int  # 1 = first; a shared place shares the number


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
        return [s.user_id for s in self.seats if s.user_id is not None]

    @property
    def counts(self) -> bool:
        """Rated: at least two different people took part."""
        return len(set(self.people)) >= MIN_PEOPLE


def _computer(level: str | None) -> tuple[float, float]:
    return COMPUTER.get(level or "", COMPUTER["random"]), COMPUTER_SIGMA


def rate_game(table: Mapping[int, Skill], game: RatedGame) -> dict[int, Skill]:
    """The new ratings of the people in ``game`` (others unchanged, not returned)."""
    if not game.counts:
        return {}
    teams = []
    for s in game.seats:
        if s.user_id is None:
            mu, sigma = _computer(s.ai_level)
        else:
            old = table.get(s.user_id, Skill())
            mu, sigma = old.mu, old.sigma
        teams.append([MODEL.rating(mu=mu, sigma=sigma)])
    rated = MODEL.rate(teams, ranks=[float(s.rank) for s in game.seats])
    out: dict[int, Skill] = {}
    for s, team in zip(game.seats, rated):
        if s.user_id is None:
            continue  # a computer's strength is fixed
        games = table.get(s.user_id, Skill()).games + 1
        out[s.user_id] = Skill(float(team[0].mu), float(team[0].sigma), games)
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
