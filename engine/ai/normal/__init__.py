"""The ``normal`` computer player: one-step lookahead over whole actions.

For each decision it lists the candidate choices, scores each by the position it leads
to (:class:`~engine.ai.evaluate.Evaluator`, relative to the rivals) and picks the best.
Multi-step actions are planned greedily: a Move is scored by moving tokens one at a
time to the best hex until no further move helps; a Growth likewise. Attacks are scored
by their chance of winning against the defender's possible cards; secret card choices
(attack, defence, progress) play the cheapest set of cards that is worth its chance.

It reads only what the seat may know (own hand, public board and counts), so running
it on any determinisation of a view gives the same answer.

:meth:`NormalPlayer.ranked` returns all scored candidates, which the search player
(:mod:`engine.ai.search`) uses as its prior and candidate list.

The modules, by what they decide:

* :mod:`.player`: the entry points, which choice scores each kind of decision, and what
  the choices share (the evaluator, the cards' worths, the decision's position, the
  remembered Move and Growth steps); :class:`Tactics`, the numbers the choices use.
* :mod:`.setup_choices`: map tiles and start tokens.
* :mod:`.main_turn`: the action of a turn, and the free card plays beside it.
* :mod:`.movement`: greedy Move and Growth plans, and the steps inside an action.
* :mod:`.fights`: attacks, attack and defence cards, a city's terrain, occupying.
* :mod:`.cards`: discarding, progress cards, what a Religion card gains.
"""

from .player import CARD_TYPE_EXTRA, DEFAULT_TACTICS, NormalPlayer, Scored, Tactics
from .setup_choices import SITE_TERRAIN

__all__ = ["CARD_TYPE_EXTRA", "DEFAULT_TACTICS", "SITE_TERRAIN", "NormalPlayer", "Scored",
           "Tactics"]
