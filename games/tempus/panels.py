"""What a player may click now: public panels and private menus, built from the engine.

The **public panel** goes under every board posted in the channel. It is the same for
everyone and uses only public facts (the board, markers, hand sizes): the legal actions it
offers (move sources, attack targets, city sites ...) do not depend on anyone's hand, and
everything that does (card plays, secret card choices) sits behind a button that opens a
**private menu** for the clicking player only.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, TypeVar

from engine import actions as A
from engine import game as G
from engine.combat import card_strength, combat_strengths
from engine.content import CONTENT
from engine.errors import IllegalAction
from engine.game import Decision, decisions
from engine.hexgrid import label, parse_label, tile_hexes
from engine.legal import legal_actions
from engine.progress import new_era_index, progress_points
from engine.state import GROW, MOVE, State
from engine.turn import sanitation_at_occupy, waits_to_end_after
from engine.views import view
from games.controls import (
    ACT,
    CARDS,
    HELP,
    MAX_LABEL,
    MAX_OPTIONS,
    MAX_ROWS,
    MENU,
    MUTE,
    UNDO,
    Button,
    Option,
    Panel,
    Row,
    Select,
    button_rows,
    clip,
    with_button,
)
from games.port import Declined, Seat
from games.tempus.codec import decode_actions, encode_action, encode_actions
from games.tempus.event_text import decision_text
from games.tempus.help_text import card_of, card_plays
from games.tempus.labels import (
    action_label,
    card_name,
    card_text,
    card_type_name,
    colour_name,
    era_name,
    steps_label,
    terrain_name,
)
from lang.messages import join_names, t
from render.moment import Ask, ask_for, moment

#: rows a public panel may fill with choices: the last row is kept for the buttons every
#: turn message may carry (Undo, "?" help)
PUBLIC_ROWS = MAX_ROWS - 1
#: decisions whose choices are cards from the hand: made in private menus only
HAND_KINDS = (G.ATTACK_CARDS, G.DEFEND_CARDS, G.DISCARDING, G.PROGRESS_CARDS)
#: one kind of action in a menu, so that its description may use that kind's fields
ActionT = TypeVar("ActionT", bound=A.Action)


@dataclass(frozen=True)
class Anyone:
    """A seat whose person does not matter: only the controls of a panel made for it are
    used."""

    seat: int
    user_id: int | None = 0
    ai_level: str | None = None
    name: str = ""
    is_ai: bool = False
    level: str | None = None


def who(seats: Sequence[Seat], seat: int) -> str:
    """``<@id> (Red)`` for people (the publisher decides who is pinged), name for computers."""
    s = seats[seat]
    name = s.name if s.user_id is None else f"<@{s.user_id}>"
    return f"{name} ({colour_name(seat)})"


def hex_order(h: int) -> tuple[int, int]:
    return (h % CONTENT.columns, h // CONTENT.columns)


def hex_description(state: State, h: int) -> str:
    parts = [terrain_name(state.terrain[h])]
    if state.owner[h] >= 0:
        parts.append(t("hex.tokens", colour=colour_name(state.owner[h]), n=state.count[h]))
    if state.city_owner[h] >= 0:
        parts.append(t("hex.city", colour=colour_name(state.city_owner[h]),
                       value=state.city_value[h]))
    return ", ".join(parts)


def chunked_selects(options: list[Option], placeholder: Callable[[str, str], str], op: str,
                    arg: str, rows: int) -> tuple[list[Row], bool]:
    """Spread options over up to ``rows`` selects of at most 25, as even as they can be
    (26 choices are two selects of 13, not 25 and a select of one); returns (rows,
    truncated). A question with one possible answer is not asked: one option is a button
    that makes the choice."""
    fitting = options[: rows * MAX_OPTIONS]
    truncated = len(options) > len(fitting)
    if len(fitting) == 1:
        return [(_only_option(fitting[0], placeholder, op, arg),)], truncated
    out: list[Row] = []
    selects = -(-len(fitting) // MAX_OPTIONS)
    size = -(-len(fitting) // selects) if selects else 0
    for i in range(0, len(fitting), size or 1):
        chunk = tuple(fitting[i:i + size])
        out.append(Select(clip(placeholder(chunk[0].label, chunk[-1].label), 150), op, arg,
                          chunk))
    return out, truncated


def _only_option(option: Option, placeholder: Callable[[str, str], str], op: str,
                 arg: str) -> Button:
    """The button for a select's only option: the question with its answer for a choice
    of places ("Place a starting token on… L11 · forest"), else the action's own words, with
    the option's description."""
    question = placeholder(option.label, option.label)
    span = f" ({option.label}–{option.label})"
    if span in question or op != ACT:
        text = f"{question.replace(span, '')} {option.label}"
    else:
        text = steps_label(decode_actions(option.value))  # a last token's: and its end
    if option.description:  # what the select would have shown under it (hex, strengths)
        text = f"{text} · {option.description}"
    return Button(clip(text, MAX_LABEL), op, f"{arg}:{option.value}" if arg else option.value,
                  "primary")


def _hex_options(state: State, hexes: list[int]) -> list[Option]:
    return [Option(label(h), label(h), clip(hex_description(state, h)))
            for h in sorted(set(hexes), key=hex_order)]


def _action_options(actions: Sequence[ActionT], describe: Callable[[ActionT], str] | None = None
                    ) -> list[Option]:
    return [Option(clip(action_label(a)), encode_action(a),
                   clip(describe(a)) if describe else "") for a in actions]


# ------------------------------------------------------------------ public panel
def public_panel(state: State, seats: Sequence[Seat],
                 public_view: Mapping[str, Any] | None = None) -> Panel:
    """Controls and prompts for the decisions owed now (public facts only). Whose turn it
    is and what is left of it are worded from the moment (:func:`render.moment.moment`
    of the public view, ``public_view`` if the caller has it), which the board image and
    its description word too."""
    ds = decisions(state)
    if not ds:
        return Panel(t("prompt.over"))
    if ds[0].kind == G.PROGRESS_CARDS or (len(ds) > 1 and ds[0].kind == G.DISCARDING):
        return _simultaneous(state, seats, ds)
    d = ds[0]
    if seats[d.seat].is_ai:
        return Panel(t("prompt.waiting_ai", name=seats[d.seat].name,
                       colour=colour_name(d.seat)))
    asked = moment(public_view if public_view is not None else view(state, None))
    ask = next(a for a in asked.asks if d.seat in a.seats)
    return _PUBLIC[d.kind](state, seats, d, ask)


def with_undo(panel: Panel, colour: str | None = None) -> Panel:
    """``panel`` with an Undo button (in the last button row, or a row of its own); with
    ``colour`` when the player who may undo is not the one deciding now."""
    undo = Button(t("btn.undo_for", colour=colour) if colour else t("btn.undo"), UNDO, "",
                  "secondary")
    rows = list(panel.rows)
    if rows and isinstance(rows[-1], tuple) and len(rows[-1]) < 5:
        rows[-1] = (*rows[-1], undo)
    elif len(rows) < MAX_ROWS:
        rows.append((undo,))
    return Panel(panel.text, rows, image=panel.image, image_view=panel.image_view,
                 highlight=panel.highlight)


def with_help(panel: Panel) -> Panel:
    """``panel`` with the "?" button (``/tempus help`` for whoever clicks, privately), in
    the last button row or a row of its own, if there is room."""
    return with_button(panel, Button(t("btn.help"), HELP, "", "secondary"))


def with_mute(panel: Panel) -> Panel:
    """``panel`` with the button that mutes the clicker's pings for this turn, in the last
    button row or a row of its own, if there is room."""
    return with_button(panel, Button(t("btn.mute"), MUTE, "", "secondary"))


def _does_nothing(state: State, seat: int, begin: A.Action, step: type[A.Action]
                  ) -> tuple[bool, bool]:
    """Whether beginning this action leaves no step to take (it would only use a marker),
    and whether it then waits to be ended (a Growth with no room and cards in hand,
    R-INFO-4; a Move with no token that can move): its button then ends it too."""
    try:
        after, _ = G.apply(state, seat, begin)
    except IllegalAction:
        return True, False
    idle = not any(isinstance(a, step) for a in legal_actions(after, seat))
    return idle, idle and after.stage in (MOVE, GROW)


def _simultaneous(state: State, seats: Sequence[Seat], ds: list[Decision]) -> Panel:
    names = join_names([who(seats, d.seat) for d in ds])
    if ds[0].kind == G.PROGRESS_CARDS:
        index = new_era_index(state)
        text = t("prompt.progress_cards", who=names, n=len(ds), era=era_name(index),
                 terrain=terrain_name(CONTENT.eras[index].terrain))
    else:
        text = "\n".join(t("prompt.discard", who=who(seats, d.seat), n=state.discards[d.seat])
                         for d in ds)
    rows: list[Row] = []
    if any(not seats[d.seat].is_ai for d in ds):
        rows.append((Button(t("btn.secret"), MENU, "secret", "primary"),))
    return Panel(text, rows)


def _hand_button(state: State, seat: int) -> list[Button]:
    return [Button(t("btn.cards"), MENU, "cards")] if state.players[seat].hand else []


def _column(h: int) -> str:
    return label(h)[0]


def hex_selects(options: list[Option], hexes: list[int],
                placeholder: Callable[[str, str], str], op: str, arg: str, kind: str
                ) -> list[Row]:
    """Selects for a public panel's hex choice (``options[i]`` is about ``hexes[i]``, in
    :func:`hex_order`) within :data:`PUBLIC_ROWS`. When there are more than fit (the first
    tile may go almost anywhere) one select picks a column first: it opens the private
    menu ``column:{kind}:{letter}`` with that column's hexes, so every choice stays
    reachable and the last row stays free for Undo and "?"."""
    if len(options) <= PUBLIC_ROWS * MAX_OPTIONS:
        rows, _ = chunked_selects(options, placeholder, op, arg, PUBLIC_ROWS)
        return rows
    cols: dict[str, list[int]] = {}
    for h in hexes:
        cols.setdefault(_column(h), []).append(h)
    opts = [Option(t("opt.column", col=c), f"{kind}:{c}",
                   clip(t("opt.column.desc", n=len(hs), first=label(hs[0]), last=label(hs[-1]))))
            for c, hs in cols.items()]
    rows, _ = chunked_selects(opts, lambda a, b: t("ph.column", first=_column(hexes[0]),
                                                   last=_column(hexes[-1])),
                              MENU, "column", PUBLIC_ROWS)
    return rows


def column_menu(state: State, seat: int, param: str) -> Panel:
    """The hexes of one column for a choice too long for the public panel (see
    :func:`hex_selects`): ``tile:C`` (tile centres, each opening its preview) or
    ``token:C`` (starting-token hexes)."""
    kind, _, col = param.partition(":")
    if len(col) != 1 or not col.isascii() or not col.isalpha():
        raise MenuError("error.no_options")
    col = col.upper()
    legal = legal_actions(state, seat)
    if kind == "tile":
        hexes = sorted({a.centre for a in legal if isinstance(a, A.PlaceTile)
                        and _column(a.centre) == col}, key=hex_order)
        opts, op = _hex_options(state, hexes), MENU
        arg, ph = "tile", (lambda a, b: t("ph.tile", first=a, last=b))
    elif kind == "token":
        acts = sorted((a for a in legal if isinstance(a, A.PlaceStartToken)
                       and _column(a.hex) == col), key=lambda a: hex_order(a.hex))
        opts = [Option(label(a.hex), encode_action(a), clip(hex_description(state, a.hex)))
                for a in acts]
        op, arg, ph = ACT, "", (lambda a, b: t("ph.token", first=a, last=b))
    else:
        raise MenuError("error.no_options")
    if not opts:
        raise MenuError("error.no_options")
    rows, _ = chunked_selects(opts, ph, op, arg, MAX_ROWS - 1)
    return Panel(t("menu.column", col=col), [*rows, _back()])


def _tile(state: State, seats: Sequence[Seat], d: Decision,
          ask: Ask) -> Panel:
    centres = sorted({a.centre for a in legal_actions(state, d.seat)
                      if isinstance(a, A.PlaceTile)}, key=hex_order)
    rows = hex_selects(_hex_options(state, centres), centres,
                       lambda a, b: t("ph.tile", first=a, last=b), MENU, "tile", "tile")
    text = t("prompt.place_tile", who=who(seats, d.seat), tile=state.tile_stack[0],
             left=len(state.tile_stack))
    # the board outlines where the tile may go (its possible centres)
    return Panel(text, rows, highlight=tuple(centres))


def _token(state: State, seats: Sequence[Seat], d: Decision,
           ask: Ask) -> Panel:
    acts = [a for a in legal_actions(state, d.seat) if isinstance(a, A.PlaceStartToken)]
    acts.sort(key=lambda a: hex_order(a.hex))
    opts = [Option(label(a.hex), encode_action(a), clip(hex_description(state, a.hex)))
            for a in acts]
    rows = hex_selects(opts, [a.hex for a in acts], lambda a, b: t("ph.token", first=a, last=b),
                       ACT, "", "token")
    left = CONTENT.starting_tokens - len(state.start_hexes)
    # the board outlines where the token may go
    return Panel(t("prompt.place_start_token", who=who(seats, d.seat), left=left), rows,
                 highlight=tuple(dict.fromkeys(a.hex for a in acts)))


def _turn(state: State, seats: Sequence[Seat], d: Decision,
          ask: Ask) -> Panel:
    seat = d.seat
    legal = legal_actions(state, seat)
    kinds = {type(a) for a in legal}
    buttons: list[Button] = []
    for cls, step, key, idle_key in ((A.BeginMove, A.MoveToken, "btn.move", "btn.move_idle"),
                                     (A.BeginGrow, A.GrowToken, "btn.grow", "btn.grow_idle")):
        if cls in kinds:
            # an action that cannot change anything says so, and goes after the useful ones
            idle, waits = _does_nothing(state, seat, cls(), step)
            end: A.Action = A.EndMove() if cls is A.BeginMove else A.EndGrow()
            value = encode_actions([cls(), end]) if waits else encode_action(cls())
            buttons.append(Button(t(idle_key if idle else key), ACT, value,
                                  "secondary" if idle else "primary"))
    if A.DrawCards in kinds:
        buttons.append(Button(t("btn.draw"), ACT, encode_action(A.DrawCards()), "primary"))
    # a choice with one possible answer is not asked: the button names it and does it
    attacks = [a for a in legal if isinstance(a, A.Attack) and a.leader is None]
    if len(attacks) == 1:
        buttons.append(Button(_one_attack_label(state, attacks[0]), ACT,
                              encode_action(attacks[0]), "danger"))
    elif attacks:
        buttons.append(Button(t("btn.attack"), MENU, "attack", "danger"))
    builds = [a for a in legal if isinstance(a, A.BuildCity)]
    if len(builds) == 1:
        buttons.append(Button(clip(t("only.city", hex=label(builds[0].hex),
                                     value=builds[0].value), MAX_LABEL),
                              ACT, encode_action(builds[0]), "success"))
    elif builds:
        buttons.append(Button(t("btn.city"), MENU, "city", "success"))
    buttons.sort(key=lambda b: b.style == "secondary")
    buttons += _hand_button(state, seat)
    if A.EndTurn in kinds:
        buttons.append(Button(t("btn.end_turn"), ACT, encode_action(A.EndTurn()), "secondary"))
    p = state.players[seat]
    # not ", ": a label may contain commas (the one-attack button's does)
    options = t("prompt.options_sep").join(b.label for b in buttons)
    if ask.kind == "turn":  # else "turn_done": the action is taken, cards or the end left
        text = t("prompt.turn", who=who(seats, seat), era=era_name(p.era),
                 round=state.era_number, turn=state.action_round, markers=p.markers,
                 options=options)
    else:
        text = t("prompt.turn_done", who=who(seats, seat), options=options)
    if len(attacks) == 1:
        # what the target menu said under its strengths (R-COMBAT-7), now that no menu
        # opens; above the prompt, which stays the last line (the clock's line goes above it)
        text = t("attack.ties_one") + "\n" + text
    return Panel(text, button_rows(buttons))


def _one_attack_label(state: State, a: A.Attack) -> str:
    """The button of the only possible attack: target, source and both strengths before
    cards (R-COMBAT-6), what the target menu would have shown."""
    if state.city_owner[a.dst] >= 0:
        text = t("only.attack_city", dst=label(a.dst), src=label(a.src),
                 att=state.count[a.src], dfn=state.city_value[a.dst],
                 owner=colour_name(state.city_owner[a.dst]))
    else:
        text = t("only.attack", dst=label(a.dst), src=label(a.src),
                 att=state.count[a.src], dfn=state.count[a.dst],
                 owner=colour_name(state.owner[a.dst]),
                 terrain=terrain_name(state.terrain[a.dst]))
    return clip(text, MAX_LABEL)


def _move(state: State, seats: Sequence[Seat], d: Decision,
          ask: Ask) -> Panel:
    moves = _moves(legal_actions(state, d.seat))
    sources = sorted({a.src for a in moves}, key=hex_order)
    last = bool(moves) and waits_to_end_after(state, d.seat, moves[0])
    rows: list[Row] = []
    buttons: list[Button] = []
    # a choice with one possible answer is not asked: one move is a button that makes it;
    # one source shows its destinations at once (public facts, as the sources are), not
    # "from where?" with one answer and then a private menu, unless they need more selects
    # than the panel has room for (sea travel: every coastal hex), which the menu has
    if len(moves) == 1:
        buttons += _one_move(moves[0], last)
    elif len(sources) == 1 and len(moves) <= 3 * MAX_OPTIONS:
        key = "ph.move_from_end" if last else "ph.move_from"
        rows, _ = chunked_selects(_dest_options(state, moves, last),
                                  lambda a, b: t(key, src=label(sources[0]), first=a, last=b),
                                  ACT, "", 3)
    elif sources:
        rows, _ = chunked_selects(_hex_options(state, sources),
                                  lambda a, b: t("ph.move_src"), MENU, "dest", 3)
    buttons.append(Button(t("btn.end_move"), ACT, encode_action(A.EndMove())))
    buttons += _hand_button(state, d.seat)
    rows += button_rows(buttons)
    key = "prompt.move" if ask.kind == "move" else "prompt.move_none"  # no step left
    text = t(key, who=who(seats, d.seat), n=state.steps_left)
    return Panel(_last_step_note(text) if last else text, rows)


def _last_step_note(prompt: str) -> str:
    """R-INFO-4: the last token's controls also end the action, so that nobody clicks
    "done" after it; a card is played first (Transport: one more token) to go on. Said
    to every hand of cards alike: only the hand's size is public."""
    return t("prompt.last_step_note") + "\n" + prompt


def _then_end(step: A.Action, last: bool) -> str:
    """The value of a control that makes ``step`` and, when it is the action's last
    (``last``), ends the Move or Growth with it."""
    if not last:
        return encode_action(step)
    end: A.Action = A.EndMove() if isinstance(step, A.MoveToken) else A.EndGrow()
    return encode_actions([step, end])


def _moves(legal: list[A.Action], src: int | None = None) -> list[A.MoveToken]:
    """The token moves among ``legal`` (from ``src`` only, if given), by source and
    destination."""
    moves = [a for a in legal if isinstance(a, A.MoveToken) and (src is None or a.src == src)]
    return sorted(moves, key=lambda a: (hex_order(a.src), hex_order(a.dst)))


def _dest_options(state: State, moves: list[A.MoveToken], last: bool = False) -> list[Option]:
    """A select's options for moves from one source: each destination and what is on it
    (``last``: each also ends the Move)."""
    return [Option(label(a.dst), _then_end(a, last), clip(hex_description(state, a.dst)))
            for a in moves]


def _one_move(move: A.MoveToken, last: bool = False) -> list[Button]:
    """The button of the only possible move (from the source chosen, or at all); for the
    action's last token, one that also ends the Move and one that keeps it open."""
    src, dst = label(move.src), label(move.dst)
    if not last:
        return [Button(clip(t("only.move", src=src, dst=dst), MAX_LABEL), ACT,
                       encode_action(move), "primary")]
    return [Button(clip(t("only.move_end", src=src, dst=dst), MAX_LABEL), ACT,
                   _then_end(move, True), "primary"),
            Button(clip(t("only.move_more", src=src, dst=dst), MAX_LABEL), ACT,
                   encode_action(move), "secondary")]


def _grow(state: State, seats: Sequence[Seat], d: Decision,
          ask: Ask) -> Panel:
    acts = [a for a in legal_actions(state, d.seat) if isinstance(a, A.GrowToken)]
    acts.sort(key=lambda a: hex_order(a.hex))
    last = bool(acts) and waits_to_end_after(state, d.seat, acts[0])
    rows: list[Row] = []
    buttons: list[Button] = []
    if len(acts) == 1:  # one possible hex: the button names it and grows the token there
        h = label(acts[0].hex)
        if last:
            buttons += [Button(clip(t("only.grow_end", hex=h), MAX_LABEL), ACT,
                               _then_end(acts[0], True), "primary"),
                        Button(clip(t("only.grow_more", hex=h), MAX_LABEL), ACT,
                               encode_action(acts[0]), "secondary")]
        else:
            buttons.append(Button(clip(t("only.grow", hex=h), MAX_LABEL), ACT,
                                  encode_action(acts[0]), "primary"))
    else:
        opts = [Option(label(a.hex), _then_end(a, last), clip(hex_description(state, a.hex)))
                for a in acts]
        rows, _ = chunked_selects(opts, lambda a, b: t("ph.grow_end" if last else "ph.grow"),
                                  ACT, "", 3)
    buttons.append(Button(t("btn.end_grow"), ACT, encode_action(A.EndGrow())))
    buttons += _hand_button(state, d.seat)
    rows += button_rows(buttons)
    key = "prompt.grow" if ask.kind == "grow" else "prompt.grow_none"  # no step left
    text = t(key, who=who(seats, d.seat), n=state.steps_left)
    return Panel(_last_step_note(text) if last else text, rows)


def _city_terrain(state: State, seats: Sequence[Seat], d: Decision,
                  ask: Ask) -> Panel:
    """The defender names the terrain in a private menu: it shows how many of their own
    cards match each terrain, which the channel must not see."""
    assert state.combat is not None
    return Panel(t("prompt.name_city_terrain", who=who(seats, d.seat),
                   hex=label(state.combat.dst)),
                 [(Button(t("btn.city_terrain"), MENU, "terrain", "primary"),)])


def city_terrain_menu(state: State, seat: int) -> Panel:
    """Each terrain the city may count as, with the defender's matching cards."""
    acts = [a for a in legal_actions(state, seat) if isinstance(a, A.NameCityTerrain)]
    if not acts:
        raise MenuError("error.no_options")
    hand = state.players[seat].hand
    buttons = []
    for a in acts:
        n = sum(1 for c in hand if CONTENT.cards[c].terrain == a.terrain)
        buttons.append(Button(t("btn.terrain_match", terrain=terrain_name(a.terrain), n=n),
                              ACT, encode_action(a), "primary" if n else "secondary"))
    return Panel(t("menu.city_terrain"), button_rows(buttons)[:MAX_ROWS - 1] + [_back()])


def _back(spec: str = "") -> tuple[Button]:
    """Back to the menu ``spec`` (empty: close this private menu)."""
    return (Button(t("btn.back"), MENU, spec or "close"),)


def _secret_prompt(state: State, seats: Sequence[Seat], d: Decision,
                   ask: Ask) -> Panel:
    c = state.combat
    if d.kind == G.ATTACK_CARDS:
        text = t("prompt.attack_cards", who=who(seats, d.seat))
    elif d.kind == G.DEFEND_CARDS:
        assert c is not None and c.attack_cards is not None
        text = t("prompt.defend_cards", who=who(seats, d.seat),
                 attacker=colour_name(c.attacker), n=len(c.attack_cards))
    else:
        text = t("prompt.discard", who=who(seats, d.seat), n=state.discards[d.seat])
    return Panel(text, [(Button(t("btn.secret"), MENU, "secret", "primary"),)])


def _occupy(state: State, seats: Sequence[Seat], d: Decision,
            ask: Ask) -> Panel:
    assert state.combat is not None
    acts = [a for a in legal_actions(state, d.seat) if isinstance(a, A.Occupy)]
    buttons = [Button(t("btn.occupy", n=a.count), ACT, encode_action(a),
                      "primary" if a.count else "secondary") for a in acts]
    if sanitation_at_occupy(state):
        # R-CARD-SAN / R-COMBAT-8 (rules 2): Sanitation may raise the won hex before the
        # move-in. Shown whenever the winner holds cards (public), whichever they are.
        buttons += _hand_button(state, d.seat)
    return Panel(t("prompt.occupy", who=who(seats, d.seat), src=label(state.combat.src),
                   dst=label(state.combat.dst)), button_rows(buttons)[:PUBLIC_ROWS])


_PUBLIC: dict[str, Callable[[State, Sequence[Seat], Decision, Ask], Panel]] = {
    G.PLACE_TILE: _tile,
    G.PLACE_START_TOKEN: _token,
    G.TURN: _turn,
    G.MOVING: _move,
    G.GROWING: _grow,
    G.NAME_CITY_TERRAIN: _city_terrain,
    G.ATTACK_CARDS: _secret_prompt,
    G.DEFEND_CARDS: _secret_prompt,
    G.DISCARDING: _secret_prompt,
    G.OCCUPY: _occupy,
}


# ------------------------------------------------------------------ private menus
class MenuError(Declined, ValueError):
    """The menu cannot be shown (its message is a catalogue key)."""


def menu(state: State, seat: int, spec: str, game_id: int = 0) -> Panel:
    """The private menu ``spec`` (``attack``, ``dest:C4``, ``tile:C4:2`` ...) for ``seat``."""
    name, _, param = spec.partition(":")
    if name == "hand":
        return hand_panel(state, seat, game_id)
    if name == "close":
        return Panel(t("menu.closed"))
    if name == "secret":
        return secret_panel(state, seat)
    legal = legal_actions(state, seat)
    if name == "attack":
        attacks = [a for a in legal if isinstance(a, A.Attack) and a.leader is None]
        panel = _action_menu(attacks, t("ph.attack"), lambda a: _attack_desc(state, a))
        panel = _with_rows(panel, t("attack.ties"), [_back()],
                           highlight=tuple(a.dst for a in attacks))
        return _crop(panel, state, tuple(a.src for a in attacks))
    if name == "terrain":
        return city_terrain_menu(state, seat)
    if name == "city":
        builds = [a for a in legal if isinstance(a, A.BuildCity)]
        return _with_rows(_action_menu(builds, t("ph.city"),
                                       lambda a: hex_description(state, a.hex)), "", [_back()])
    if name == "dest":
        src = _hex(param)
        moves = _moves(legal, src)
        last = bool(moves) and waits_to_end_after(state, seat, moves[0])
        if len(moves) == 1:  # not "to where?" with one answer: make that move, or go back
            panel = Panel(t("act.move_token", src=label(src), dst="…"),
                          [tuple(_one_move(moves[0], last))], highlight=(moves[0].dst,))
        else:
            key = "ph.move_dst_end" if last else "ph.move_dst"
            panel = _options_menu(_dest_options(state, moves, last),
                                  lambda a, b: t(key, first=a, last=b),
                                  t("act.move_token", src=label(src), dst="…"),
                                  highlight=tuple(a.dst for a in moves))
        return _crop(_with_rows(panel, "", [_back()]), state, (src,))
    if name == "cards":
        return cards_menu(state, seat, legal)
    if name == "card":
        card = _int(param)
        plays = [a for a in card_plays(legal) if card_of(a) == card]
        if not plays:  # not a card this player can play now (or no card at all)
            raise MenuError("error.no_options")
        if len(plays) == 1:
            return Panel(card_name(card), [_one_play(plays[0]), _back("cards")])
        opts = _action_options(plays)
        panel = _options_menu(opts, _card_target_placeholder(card_name(card), opts),
                              card_name(card))
        return _with_rows(panel, "", [_back("cards")])
    if name == "column":
        return column_menu(state, seat, param)
    if name == "tile":
        centre_text, _, rot_text = param.partition(":")
        return tile_preview(state, seat, _hex(centre_text), _int(rot_text or "0"))
    raise MenuError("error.no_options")


def _card_target_placeholder(card: str, opts: list[Option]) -> Callable[[str, str], str]:
    """"Play Sanitation (forest): choose…", numbered when the choices need several selects
    (the options' own labels are whole sentences: too long to quote in a placeholder)."""
    if len(opts) <= MAX_OPTIONS:
        return lambda a, b: t("ph.card_target", card=card)
    position: dict[str, int] = {}
    for i, o in enumerate(opts, 1):
        position.setdefault(o.label, i)

    def placeholder(first: str, last: str) -> str:
        start = position.get(first, 1)
        end = min(start + MAX_OPTIONS - 1, len(opts))
        return t("ph.card_target.part", card=card, first=start, last=end, n=len(opts))
    return placeholder


def _int(text: str) -> int:
    if not (text.isascii() and text.isdigit() and len(text) < 6):
        raise MenuError("error.no_options")
    return int(text)


def _hex(text: str) -> int:
    try:
        return parse_label(text)
    except ValueError as exc:
        raise MenuError("error.no_options") from exc


def _attack_desc(state: State, a: A.Action) -> str:
    """Both strengths before any card (R-COMBAT-6) and who wins a tie (R-COMBAT-7)."""
    assert isinstance(a, A.Attack)
    city = state.city_owner[a.dst] >= 0
    defence = state.city_value[a.dst] if city else state.count[a.dst]
    key = "attack.worth_city" if city else "attack.worth"
    return t(key, att=state.count[a.src], dfn=defence,
             terrain=terrain_name(state.terrain[a.dst]),
             owner=colour_name(state.city_owner[a.dst] if city else state.owner[a.dst]))


def _with_rows(panel: Panel, line: str, rows: list[Row],
               highlight: tuple[int, ...] | None = None) -> Panel:
    """``panel`` with a line of text and rows added (as many rows as fit)."""
    room = MAX_ROWS - len(panel.rows)
    text = f"{panel.text}\n{line}" if line else panel.text
    return Panel(text, [*panel.rows, *rows[:room]], image=panel.image,
                 image_view=panel.image_view,
                 highlight=panel.highlight if highlight is None else highlight)


def _crop(panel: Panel, state: State, focus: tuple[int, ...]) -> Panel:
    """``panel`` with a small picture of the area concerned: ``focus`` ringed, the panel's
    highlighted targets outlined (public facts only: the spectator view)."""
    return Panel(panel.text, panel.rows, image="crop", image_view=view(state, None),
                 highlight=panel.highlight, focus=focus)


def _options_menu(opts: list[Option], placeholder: Callable[[str, str], str], text: str,
                  highlight: tuple[int, ...] = ()) -> Panel:
    if not opts:
        raise MenuError("error.no_options")
    rows, cut = chunked_selects(opts, placeholder, ACT, "", MAX_ROWS - 1)
    if cut:
        text += "\n" + t("menu.truncated", n=(MAX_ROWS - 1) * MAX_OPTIONS)
    return Panel(text, rows, highlight=highlight)


def _action_menu(acts: Sequence[ActionT], title: str, describe: Callable[[ActionT], str]
                 ) -> Panel:
    return _options_menu(_action_options(acts, describe), lambda a, b: title, title)


def hand_lines(hand: list[int]) -> list[str]:
    return [t("hand.card", name=card_type_name(c),
              terrain=terrain_name(CONTENT.cards[c].terrain), text=card_text(c)) for c in hand]


def cards_menu(state: State, seat: int, legal: list[A.Action]) -> Panel:
    """The hand with every card play possible now (one select, or card first, then target)."""
    hand = state.players[seat].hand
    text = "\n".join(hand_lines(hand))
    plays = card_plays(legal)
    if not plays:
        # not a dead end: the public "Play a card…" cannot tell whether a card is
        # playable (that is secret), so this private side says so and offers the rest
        instead = _what_else(state, seat)
        if not instead:
            return Panel(text + "\n" + t("menu.no_card_play"))
        return Panel("\n".join([text, t("menu.no_card_play"), t("menu.instead")]),
                     [*instead[:MAX_ROWS - 1], _back()])
    # the plays that would change something first; one that would not says so
    idle = {a for a in plays if _play_does_nothing(state, seat, a)}
    plays = sorted(plays, key=lambda a: a in idle)
    if len(plays) == 1:  # not "which card?" with one answer: play it, or go back
        rows: list[Row] = [_one_play(plays[0], plays[0] in idle)]
    elif len(plays) <= MAX_OPTIONS:
        shown = [replace(o, label=clip(f"{o.label} · {t('worth.none')}")) if a in idle else o
                 for a, o in zip(plays, _action_options(plays), strict=True)]
        rows = [Select(t("ph.card"), ACT, "", tuple(shown))]
    else:
        cards = sorted({card_of(a) for a in plays})
        opts = tuple(Option(card_name(c), str(c), clip(card_text(c))) for c in cards)
        # one card with many places to play it: its places at once, not "which card?"
        rows = [Select(t("ph.card"), MENU, "card", opts) if len(opts) > 1
                else (Button(clip(f"🎴 {opts[0].label}…", MAX_LABEL), MENU,
                             f"card:{opts[0].value}", "primary"),)]
    return Panel(text, [*rows, _back()])


def _one_play(play: A.Action, idle: bool = False) -> tuple[Button]:
    """The button of a card menu's only play: it names the play and makes it; one that
    would change nothing now says so and is not the highlighted one."""
    # the play's own words say "Play …" in every language; the card mark is no word
    label = f"🎴 {action_label(play)}" + (f" · {t('worth.none')}" if idle else "")
    return (Button(clip(label, MAX_LABEL), ACT, encode_action(play),
                   "secondary" if idle else "primary"),)


def _play_does_nothing(state: State, seat: int, play: A.Action) -> bool:
    """Whether a card played now would change nothing: a Transport when no token beyond
    the moves left could move, a Health care when no grassland beyond the growth left
    could take a token."""
    if not isinstance(play, (A.PlayTransport, A.PlayHealthCare)):
        return False
    try:
        after, _ = G.apply(state, seat, play)
    except IllegalAction:
        return True
    legal = legal_actions(after, seat)
    if isinstance(play, A.PlayTransport):
        places = {a.src for a in legal if isinstance(a, A.MoveToken)}
    else:
        places = {a.hex for a in legal if isinstance(a, A.GrowToken)}
    return len(places) <= state.steps_left


def _what_else(state: State, seat: int) -> list[Row]:
    """The controls of the seat's public decision other than "Play a card…": what can be
    done instead, for a card menu with no card to play (public facts only)."""
    d = G.decision_for(state, seat)
    if d is None or d.kind in HAND_KINDS or d.kind not in _PUBLIC:
        return []
    # the prompt names the seats; only the controls are used, which do not
    anyone = [Anyone(i) for i in range(state.num_players)]
    rows: list[Row] = []
    ask = ask_for(view(state, None), seat, d.kind)
    for row in _PUBLIC[d.kind](state, anyone, d, ask).rows:
        if isinstance(row, Select):
            rows.append(row)
            continue
        kept = tuple(b for b in row if not (b.op == MENU and b.arg == "cards"))
        if kept:
            rows.append(kept)
    return rows


def secret_panel(state: State, seat: int) -> Panel:
    """The private card choice the seat owes now: attack, defence, discard or progress."""
    d = G.decision_for(state, seat)
    if d is None or d.kind not in HAND_KINDS:
        raise MenuError("error.no_options")
    hand = state.players[seat].hand
    seat_view = view(state, seat)
    lines = [decision_text(d, seat_view)]
    c = state.combat
    if d.kind in (G.ATTACK_CARDS, G.DEFEND_CARDS) and c is not None:
        att, dfn = combat_strengths(state, [], [])
        lines.append(t("secret.combat", att=att, dfn=dfn, src=label(c.src), dst=label(c.dst),
                       terrain=terrain_name(c.terrain)))
    if d.kind == G.PROGRESS_CARDS:
        era = new_era_index(state)
        terrain = CONTENT.eras[era].terrain
        base = progress_points(state, seat, [], era)
        cities = sum(1 for o in state.city_owner if o == seat)
        tokens = sum(state.count[h] for h, o in enumerate(state.owner)
                     if o == seat and state.terrain[h] == terrain)
        lines.append(t("secret.points", base=base, tokens=tokens, cities=cities,
                       terrain=terrain_name(terrain)))
    worth = _card_worth(state, seat, d.kind)
    if worth is not None:
        # the useful cards first (stable: equal worth keeps the hand's order)
        hand = sorted(hand, key=lambda card: -worth(card))
    lines += hand_lines(hand)
    if worth is not None and hand and not any(worth(c) for c in hand):
        lines.append(t("worth.none_line"))
    opts = tuple(Option(clip(_worth_label(c, worth)), str(c), clip(card_text(c)))
                 for c in hand)
    if d.kind == G.DISCARDING:
        n = state.discards[seat]
        rows: list[Row] = [Select(t("ph.cards.discard", n=n), CARDS, d.kind, opts, n, n)]
    elif len(hand) == 1:
        # one card: not a select of one, but two buttons, play it or not; one worth
        # nothing now is not the highlighted one
        card = hand[0]
        play = _SECRET_PLAYS[d.kind]((card,))
        useful = worth is None or worth(card) > 0
        rows = [(Button(clip(t("menu.play_only", card=opts[0].label), MAX_LABEL), ACT,
                        encode_action(play), "primary" if useful else "secondary"),
                 Button(t("btn.no_cards"), CARDS, d.kind,
                        "secondary" if useful else "primary"))]
    else:
        rows = [Select(t(f"ph.cards.{d.kind}"), CARDS, d.kind, opts, 1, len(opts))] if opts else []
        # no card would add anything: playing none is the highlighted answer
        idle = worth is not None and bool(hand) and not any(worth(c) for c in hand)
        rows.append((Button(t("btn.no_cards"), CARDS, d.kind,
                            "primary" if idle else "secondary"),))
    return Panel("\n".join(lines), rows, image="hand", image_view=seat_view)


#: the action of a secret card choice made of the given cards
_SECRET_PLAYS: dict[str, Callable[[tuple[int, ...]], A.Action]] = {
    G.ATTACK_CARDS: A.CommitAttackCards,
    G.DEFEND_CARDS: A.DefendCards,
    G.PROGRESS_CARDS: A.ProgressCards,
}


def _worth_label(card: int, worth: _Worth | None) -> str:
    """"Weapons (hills) · +2 here"; one that would add nothing says so before it is chosen."""
    if worth is None:
        return card_name(card)
    n = worth(card)
    return f"{card_name(card)} · {t('worth.none') if n <= 0 else t(worth.key, n=n)}"


@dataclass(frozen=True)
class _Worth:
    """What a card adds to the choice owed now (``key``: its words, "+{n} here")."""

    value: Callable[[int], int]
    key: str

    def __call__(self, card: int) -> int:
        return self.value(card)


def _card_worth(state: State, seat: int, kind: str) -> _Worth | None:
    """What each card would add to the choice owed now: strength in this fight ("+1
    here"), points in this progress phase ("+2 points"); None when cards have no worth to
    show (a discard)."""
    c = state.combat
    if kind in (G.ATTACK_CARDS, G.DEFEND_CARDS) and c is not None:
        defending = kind == G.DEFEND_CARDS
        return _Worth(lambda card: card_strength(card, c.terrain, defending), "worth.fight")
    if kind == G.PROGRESS_CARDS:
        era = new_era_index(state)
        base = progress_points(state, seat, [], era)
        return _Worth(lambda card: progress_points(state, seat, [card], era) - base,
                      "worth.progress")
    return None


def hand_panel(state: State, seat: int, game_id: int = 0) -> Panel:
    """``/tempus hand``: the cards (text and picture), plus the secret choice if one is owed."""
    d = G.decision_for(state, seat)
    if d is not None and d.kind in HAND_KINDS:
        return secret_panel(state, seat)
    hand = state.players[seat].hand
    if not hand:
        return Panel(t("hand.empty", game=game_id))
    p = state.era(seat)
    text = "\n".join([t("hand.title", game=game_id, n=len(hand), limit=p.limit), *hand_lines(hand)])
    return Panel(text, image="hand", image_view=view(state, seat))


def tile_preview(state: State, seat: int, centre: int, rotation: int) -> Panel:
    """The board as it would look with the tile placed (no secrets: setup is public)."""
    action = A.PlaceTile(centre, rotation % 6)
    try:
        new, _ = G.apply(state, seat, action)
    except Exception as exc:  # IllegalAction, or not this seat's decision
        raise MenuError("error.no_options") from exc
    placed = new.placements[-1]
    cells = tuple(h for h, _ in tile_hexes(placed[1], placed[2]) or ())
    rows: list[Row] = [(
        Button(t("btn.rotate"), MENU, f"tile:{label(centre)}:{(rotation + 1) % 6}"),
        Button(t("btn.place"), ACT, encode_action(action), "success"),
        Button(t("btn.back"), MENU, "close"),
    )]
    return Panel(action_label(action), rows, image="board", image_view=view(new, None),
                 highlight=cells)
