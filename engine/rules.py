"""Rules versions and table options: which reading of docs/rules.md a game is played under.

A game is replayed under the rules it was started with, so a revision of a ruling never
changes a stored game. New games use :data:`RULES_VERSION`; a game stored before rules
versions existed (no ``rules_version`` anywhere) is version 1.

Versions:

1. The first rulings. A Sanitation raise belonged to the hex (any player on it used it)
   and shrank to the excess when a token left; R-COMBAT-2 counted a hex with only the
   player's city as occupied; Sanitation could not be played for the move-in after a won
   fight. No table options.
2. docs/rules.md, "Ruling (revised)": R-CARD-SAN raises only the card player's own
   limit, the whole raise is gone once a token leaves, and it may be played for the
   move-in of R-COMBAT-8; R-COMBAT-2 counts only hexes with the player's tokens, unless
   the table option R-OPT-1 is on.
3. docs/rules.md, R-CARD-SAN "Ruling (revised 2026-11-25)": a Sanitation raise on a
   hex without the card player's tokens lapses at the end of the action it was played in
   (or, played between actions, of the next action or fight, or of the turn) if none of
   the player's tokens stands there then; Sanitation is offered and accepted only on a
   hex the player holds or can still enter in the action under way (or, between
   actions with one still to take, in a Move action). A version of its own so that
   games stored under rules 2, which allowed a raise on any empty hex that lasted,
   replay exactly as they were played.
4. R-INFO-1 kept by the flow of play: after a player's last action the turn ends by
   itself only when their hand is empty (its size is public). With cards in hand the
   player ends the turn (or plays a card), whether or not any card could be played: a
   turn that ended at once used to tell the table that the hand held no playable card.
5. R-INFO-4: the same one level down. A Move ends by itself after its last token only
   when the hand is empty (with cards in hand the player ends it, or plays Transport), and
   a Growth ends by itself when the supply is empty, or when no token can grow (no room,
   or no growth left) and the hand is empty; otherwise the player ends it (or plays
   Sanitation or Health care). Under rules 1-4 these steps ended at once unless the hand
   held Transport, Sanitation or Health care, which told the table that it did not.

(Face-down discards, R-INFO-1, change only what views and events show, not the play, so
they hold for every version.)
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .errors import IllegalAction

#: The rules new games are played under.
RULES_VERSION = 5
#: What a game that does not say was played under (stored before versions existed).
LEGACY_RULES_VERSION = 1
RULES_VERSIONS = (1, 2, 3, 4, 5)

#: R-OPT-1: a hex holding only the player's city counts as occupied for R-COMBAT-2.
PROTECTION_COUNTS_CITIES = "protection_counts_cities"

#: Table options (R-OPT): name -> rule id. Each is a bool, off unless chosen.
TABLE_OPTIONS: dict[str, str] = {PROTECTION_COUNTS_CITIES: "R-OPT-1"}

#: The rules version from which a Sanitation raise on a hex the player does not hold
#: lapses with its action, and Sanitation is offered only where it can matter (R-CARD-SAN).
SANITATION_LAPSES_FROM = 3

#: The rules version from which the turn ends by itself after the last action only with an
#: empty hand, so that the flow of play says nothing of the hand's contents (R-INFO-1).
TURN_ENDS_ONLY_WITH_EMPTY_HAND_FROM = 4

#: The rules version from which a Move or a Growth ends by itself only with an empty hand
#: (or, for a Growth, an empty supply), so that no step's end says what the hand holds
#: (R-INFO-4).
STEPS_END_ONLY_WITH_EMPTY_HAND_FROM = 5

#: The rules version from which table options exist.
OPTIONS_FROM_VERSION = 2


def check_rules(rules_version: int, options: Mapping[str, Any] | None) -> dict[str, bool]:
    """Validate a rules version and table options; return the options in full
    (every known option, ``False`` unless chosen). Raises :class:`IllegalAction`."""
    if type(rules_version) is not int or rules_version not in RULES_VERSIONS:
        known = ", ".join(map(str, RULES_VERSIONS))
        raise IllegalAction.because("rules.unknown_version", version=repr(rules_version),
                                    known=known)
    options = dict(options or {})
    unknown = sorted(set(options) - set(TABLE_OPTIONS))
    if unknown:
        raise IllegalAction.because("rules.unknown_options", options=", ".join(unknown),
                                    known=", ".join(sorted(TABLE_OPTIONS)))
    for name, value in options.items():
        if not isinstance(value, bool):
            raise IllegalAction.because("rules.option_bool", option=name, got=repr(value))
    if rules_version < OPTIONS_FROM_VERSION:
        if any(options.values()):
            raise IllegalAction.because("rules.no_options", version=rules_version)
        return {}
    return {name: bool(options.get(name, False)) for name in TABLE_OPTIONS}


def stored_rules(stored: Mapping[str, Any]) -> tuple[int, dict[str, bool]]:
    """The rules version and table options of a stored game's flat options mapping
    (for example the bot's ``games.options``): a mapping without ``rules_version`` is a
    game stored before rules versions existed, so version 1."""
    version = stored.get("rules_version", LEGACY_RULES_VERSION)
    options = {k: stored[k] for k in TABLE_OPTIONS if k in stored}
    return version, check_rules(version, options)
