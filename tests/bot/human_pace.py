"""How many live games a rate of actions carries when people play at a human pace.

The load bench (:mod:`tests.bot.bench_load`) makes its scripted people think a second or
two, so that a few hundred games load the bot as thousands of real ones would. To turn
the actions per second the bot sustains into games, this model puts people back at a
human pace: in each game one person decides every ``think_s`` seconds (uniform, so the
mean counts), and between two of the person's actions the game's computers make
``computer_actions`` actions (measured by the bench: the computers' actions over the
people's), each after the bot's pause for computers (``TEMPUS_AI_DELAY``, 0.8 s).

A game's cycle is then the person's mean think plus the computers' pauses, and it holds
``1 + computer_actions`` actions, so a game makes ``(1 + a) / (think + a * pause)``
actions a second, and a bot that sustains ``R`` actions a second carries ``R`` over that
many games. The model assumes the bot's cost per action does not depend on the pace;
slower games mean fewer boards dropped as out of date before they are drawn, so if
anything a human-paced action costs a little more (the bench reports boards drawn per
action to check).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class HumanPace:
    """One person and two computers per game, a decision every 10-30 s."""

    think_s: tuple[float, float] = (10.0, 30.0)
    computer_pause_s: float = 0.8
    computers: int = 2

    @property
    def mean_think_s(self) -> float:
        return (self.think_s[0] + self.think_s[1]) / 2

    def actions_per_game_s(self, computer_actions: float) -> float:
        """Actions a second one game makes, ``computer_actions`` being the computers'
        actions per action of the person."""
        if computer_actions < 0:
            raise ValueError("a count of actions is not negative")
        cycle = self.mean_think_s + computer_actions * self.computer_pause_s
        return (1 + computer_actions) / cycle

    def live_games(self, actions_per_s: float, computer_actions: float) -> float:
        """Games that make ``actions_per_s`` actions a second between them."""
        return actions_per_s / self.actions_per_game_s(computer_actions)
