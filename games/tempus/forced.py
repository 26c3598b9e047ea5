"""Decisions with one possible answer, as far as the public view can tell: the host
answers them at once for the person who owes them and says so in the log
(bot.table.forced, bot.table.computers).

The answer is an ordinary action of that seat, stored like any other, so a stored game
replays the same (the engine's rules are not changed: the engine would ask). Only what the
public view shows may make a decision forced, or the speed of the answer would tell the
table about a hidden hand: a hand's size is public (engine.views: ``hand_size``), its
cards are not. So a choice of cards from an empty hand is forced (the empty choice), and
so is any decision whose single legal answer does not depend on the cards (an empty hand,
or a decision that involves no cards); a hand that merely holds no playable card is still
asked. A step that may still be taken back is an answer too: a decision is not forced
while its player is offered Undo (ending the turn at once would take that away), except
a choice of cards from an empty hand, which is no question at all.
"""

from __future__ import annotations

from engine import actions as A
from engine import game as G
from engine.actions import Action
from engine.legal import legal_actions
from engine.state import State
from games.tempus.labels import action_label, colour_name
from lang.messages import t

#: choices of cards: from an empty hand, only the empty choice
CARD_CHOICES = (G.ATTACK_CARDS, G.DEFEND_CARDS, G.PROGRESS_CARDS)
#: decisions whose legal answers never depend on the cards held (a discard: how many
#: and from how many is public)
NO_CARDS = (G.PLACE_TILE, G.PLACE_START_TOKEN, G.NAME_CITY_TERRAIN, G.DISCARDING)


def forced_answer(state: State, seat: int, *, may_undo: bool) -> Action | None:
    """The one answer ``seat`` has to the decision it owes now, if there is only one as
    far as the public view can tell, else None; ``may_undo``: the seat is offered Undo."""
    d = G.decision_for(state, seat)
    if d is None:
        return None
    empty = not state.players[seat].hand
    if d.kind in CARD_CHOICES:
        return _empty_choice(d.kind) if empty else None
    if not (empty or d.kind in NO_CARDS) or may_undo:
        return None
    legal = legal_actions(state, seat)
    return legal[0] if len(legal) == 1 else None


def _empty_choice(kind: str) -> Action:
    if kind == G.ATTACK_CARDS:
        return A.CommitAttackCards(())
    if kind == G.DEFEND_CARDS:
        return A.DefendCards(())
    return A.ProgressCards(())


def tell_forced(lines: list[str], seat: int, action: Action) -> None:
    """Put the log's line for an answer taken for ``seat`` first in ``lines`` (the
    answer's own event lines, in the game's language). An empty card choice is one plain
    sentence: the event line that says the same ("Blue plays no cards face down", "Blue
    has chosen progress cards") goes; a defence's stays, as it carries the fight."""
    colour = colour_name(seat)
    if isinstance(action, A.DefendCards):
        return
    if isinstance(action, (A.CommitAttackCards, A.ProgressCards)):
        said = t("event.attack_cards.none" if isinstance(action, A.CommitAttackCards)
                 else "event.progress_choice", colour=colour)
        if said in lines:
            lines.remove(said)
    lines.insert(0, forced_line(seat, action))


def forced_line(seat: int, action: Action) -> str:
    """The log's line for an answer taken for ``seat`` (the game's language)."""
    colour = colour_name(seat)
    if isinstance(action, (A.CommitAttackCards, A.DefendCards, A.ProgressCards)):
        return t("auto.no_cards", colour=colour)
    if isinstance(action, A.EndTurn):
        return t("auto.turn_ends", colour=colour)
    return t("auto.only_choice", colour=colour, what=action_label(action))
