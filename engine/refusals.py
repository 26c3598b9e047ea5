"""Refusal codes: every reason the engine gives for refusing an action, as data.

An :class:`~engine.errors.IllegalAction` (or :class:`~engine.undo.UndoRefused`) carries a
stable ``code`` from :data:`REFUSALS` and its ``params``, plain JSON values (hex indices,
seats, card ids, numbers, short text). Its message is the English template filled in,
for the engine's own command line, logs and tests. A front end in another language
renders ``code`` and ``params`` through its own catalogue instead (the Discord bot uses
the keys ``engine.<code>``); :data:`PARAM_KINDS` says how to name each parameter, so the
front end needs no knowledge of where the refusal was raised.

A parameter's kind is fixed by its name, the same in every template:

* ``hex``, ``src``, ``dst``, ``own``, ``target``, ``centre``: a hex index (shown as its
  label, ``C4``); ``hexes``: a list of them;
* ``colour``: a seat (shown as its colour, which is how the game names a player);
  ``colours``: a list of seats;
* ``card``: a card id; ``card_type`` and ``wanted``: a card type code (``TRA``);
* ``kind``: a decision kind (:mod:`engine.legal`); ``action``: an action type;
* ``values``: a list of numbers (``none`` when empty);
* anything else: a number or a piece of text shown as it is (a field name, a version).

A test checks that every code raised in the engine's source is registered here, that
each raise passes exactly its template's parameters, and that the bot's catalogue has
every code in every language with the same placeholders.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

HEX, HEXES, SEAT, SEATS, CARD, CARD_TYPE, KIND, ACTION, NUMBERS, PLAIN = (
    "hex", "hexes", "seat", "seats", "card", "card_type", "kind", "action", "numbers", "plain")

PARAM_KINDS: dict[str, str] = {
    "hex": HEX, "src": HEX, "dst": HEX, "own": HEX, "target": HEX, "centre": HEX,
    "hexes": HEXES,
    "colour": SEAT, "colours": SEATS,
    "card": CARD, "card_type": CARD_TYPE, "wanted": CARD_TYPE,
    "kind": KIND, "action": ACTION,
    "values": NUMBERS,
}


def param_kind(name: str) -> str:
    return PARAM_KINDS.get(name, PLAIN)


#: what each decision kind asks for (R-FLOW), for "now you must ..."
KIND_WORDS = {
    "place_tile": "place a tile",
    "place_start_token": "place a starting token",
    "turn": "choose an action or play a card",
    "move": "move a token, play a card, or end the move",
    "grow": "grow a token, play a card, or end the growth",
    "name_city_terrain": "name the city's terrain",
    "attack_cards": "choose attack cards",
    "defend_cards": "choose defence cards",
    "occupy": "choose how many tokens move in (or play Sanitation on that hex)",
    "discard": "discard cards",
    "progress_cards": "choose progress cards",
}

#: code -> English template (its placeholders are the parameters the raise passes)
REFUSALS: dict[str, str] = {
    # the game and the decision
    "game.over": "the game is over",
    "seat.unknown": "there is no seat {n} in this game",
    "decision.not_yours": "it is not your turn to decide; waiting for {colours}",
    "decision.wrong_kind": "now you must {kind}, not {action}",
    "shape.text": "{field} must be text",
    "shape.whole_number": "{field} must be a whole number, not {got}",
    "shape.hex": "{field} is not a hex on the board",
    "turn.action_first": "take your action first (or pass with a Government card)",
    "action.taken": "you have already taken your action this turn; play cards or end your turn",
    # setting up a game
    "setup.players": "Tempus needs {least} to {most} players, not {n}",
    "setup.start_player": "start player must be a seat from 0 to {most}",
    "setup.tiles": "{n} players use {tiles} distinct tiles",
    "setup.deck": "a pinned deck must hold each of the 54 cards once",
    "rules.unknown_version": "unknown rules version {version} (known: {known})",
    "rules.unknown_options": "unknown table option(s) {options} (known: {known})",
    "rules.option_bool": "table option {option} must be true or false, not {got}",
    "rules.no_options": "rules version {version} has no table options",
    # tiles and starting tokens (R-SETUP)
    "tile.rotation": "rotation must be 0 to 5 (clockwise steps of 60°)",
    "tile.off_board": "that centre is off the board",
    "tile.no_fit": "a tile centred on {centre} would stick out of the board, overlap land, "
                   "or not touch the tiles already placed",
    "start.off_board": "that hex is off the board",
    "start.sea": "{hex} is sea: starting tokens go on land",
    "start.occupied": "{hex} holds {colour}'s tokens",
    "start.stack": "{hex} already holds 2 tokens, the starting stack limit",
    "start.not_touching": "{hex} does not touch your other starting tokens ({hexes}): the 3 "
                          "must form one group",
    "start.unfinishable": "after a token on {hex} your group could not be finished",
    # Move (R-MOVE)
    "move.no_more": "no more tokens may move in this action (a Transport card would allow "
                    "one more)",
    "move.no_tokens": "you have no tokens on {src}",
    "move.already_moved": "the tokens on {src} have already moved in this action",
    "move.sea": "{dst} is sea: tokens move only onto land",
    "move.city": "{dst} holds a city: no token may end its move on a city",
    "move.occupied": "{dst} holds {colour}'s tokens",
    "move.stack_limit": "{dst} is at your stack limit of {n} (a Sanitation card raises it)",
    "move.out_of_reach": "{dst} is out of reach from {src}: distance {n} over land not "
                         "blocked by other players, or one lake or sea crossing between shore "
                         "hexes",
    # Growth (R-GROW)
    "grow.no_more": "no more tokens may grow in this action (a Health care card would allow "
                    "one more)",
    "grow.no_supply": "you have no tokens left in your supply",
    "grow.not_grassland": "{hex} is not a grassland hex holding your tokens",
    "grow.already": "{hex} already grew a token in this action (one per hex)",
    "grow.stack_limit": "{hex} is at your stack limit of {n}",
    # Cities (R-CITY)
    "city.no_tokens": "you have no tokens on {hex}",
    "city.mountains": "cities cannot be built on mountains",
    "city.next_to_city": "{hex} is next to a city: cities may not touch",
    "city.no_value": "you have no unused city of value {value} (left: {values})",
    "city.too_few": "a city of value {value} needs at least {value} tokens on {hex}; it has {n}",
    # Combat (R-COMBAT)
    "attack.no_tokens": "you have no tokens on {src} to attack from",
    "attack.not_adjacent": "{dst} is not next to {src}: attacks go to an adjacent hex (never "
                           "across water)",
    "attack.no_enemy": "{dst} holds no other player's tokens or city",
    "attack.protected": "{colour} occupies only {n} hexes with tokens (cities do not count) "
                        "and is protected from attack (3 or fewer)",
    "attack.protected.cities": "{colour} occupies only {n} hexes (tokens or cities) and is "
                               "protected from attack (3 or fewer)",
    "city_terrain.unknown": "name one of G, F, W, H, M (grassland, farmland, forest, hills, "
                            "mountains)",
    "occupy.count": "move between 0 and {most} tokens into {dst}",
    # cards (R-CARD)
    "cards.twice": "the same card was named twice",
    "cards.not_in_hand": "card {card} is not in your hand",
    "cards.wrong_type": "that card is a {card_type}, not a {wanted}",
    "discard.exactly": "discard exactly {n} card(s) to get down to your hand limit",
    "religion.no_tokens": "you have no tokens on {own}",
    "religion.target": "{target} is not a hex with another player's tokens next to {own}",
    "religion.no_supply": "Religion needs a token in your supply",
    "religion.stack_limit": "{own} is at your stack limit (play Sanitation first)",
    "sanitation.won_hex": "after a won fight Sanitation can only raise {dst}, the hex your "
                          "tokens move into",
    "sanitation.in_fight": "during a fight Sanitation can only raise the won hex, the hex "
                           "your tokens move into",
    "sanitation.bad_hex": "{hex} must be a land hex without a city or another player's tokens",
    "sanitation.no_use": "none of your tokens can enter {hex} in this action, so a raise "
                         "there would lapse unused (play Sanitation on a hex you hold or "
                         "are about to enter)",
    "government.no_marker": "you have no further action marker for a double turn",
    "government.pass_late": "Government can pass only before you take an action this turn",
    "government.mode": "Government mode must be 'double' or 'pass'",
    # taking back a step (engine.undo)
    "undo.other_acted": "another player has acted since your last step",
    "undo.nothing": "there is no step of yours in this turn that can be taken back (a card "
                    "drawn or played, a combat or a new turn cannot be undone)",
    "undo.not_yours": "only {colour} can take back their last step now; Undo takes back "
                      "your own steps only",
    "undo.after_draw": "you drew cards (you have seen hidden cards), so your last step "
                       "cannot be undone",
    "undo.after_reveal": "a card was revealed in your last step, so it cannot be undone",
    "undo.not_undoable": "your last step cannot be undone (a card played, a fight or "
                         "drawing cards cannot be taken back)",
    "undo.new_phase": "your last step ended the round's actions (a new phase began), so "
                      "it cannot be undone",
}


def _english_value(name: str, value: Any) -> str:
    """A parameter in the engine's English (the same names the events use)."""
    from .content import CONTENT
    from .events import card_name, colour
    from .hexgrid import NUM_HEXES, label

    kind = param_kind(name)
    if kind == HEX:
        return label(value) if isinstance(value, int) and 0 <= value < NUM_HEXES else str(value)
    if kind == HEXES:
        return ", ".join(_english_value("hex", h) for h in value)
    if kind == SEAT:
        return colour(value)
    if kind == SEATS:
        return ", ".join(colour(s) for s in value)
    if kind == CARD:
        ok = isinstance(value, int) and 0 <= value < len(CONTENT.cards)
        return card_name(value) if ok else str(value)
    if kind == CARD_TYPE:
        return CONTENT.card_types[value].name
    if kind == KIND:
        return KIND_WORDS[value]
    if kind == ACTION:
        return str(value).replace("_", " ")
    if kind == NUMBERS:
        return ", ".join(map(str, value)) or "none"
    return str(value)


def english(code: str, params: Mapping[str, Any]) -> str:
    """The English message of a refusal."""
    return REFUSALS[code].format(**{k: _english_value(k, v) for k, v in params.items()})
