"""Tempus as the table shows it (games.port.Presentation): the words and controls of its
turn panels, private menus, events, forced answers and recaps, from the modules beside
this one. Everything is worded in the language current when it is called."""

from __future__ import annotations

import contextlib
from collections.abc import Mapping, Sequence
from typing import Any

from engine import actions as A
from engine import game as G
from engine.actions import Action
from engine.events import Event, visible
from engine.hexgrid import parse_label
from engine.state import ACTIONS, OVER, PROGRESS, State
from games.controls import Panel
from games.port import Seat
from games.tempus import forced, help_text, panels, recap
from games.tempus.codec import decode_actions
from games.tempus.event_text import event_text
from games.tempus.labels import action_label, colour_name, steps_label
from lang.messages import t
from render.positions import last_move_of

#: a choice of cards made with a select of the hand (Op.CARDS): the decision's action
CARD_ACTIONS = {
    G.ATTACK_CARDS: A.CommitAttackCards,
    G.DEFEND_CARDS: A.DefendCards,
    G.DISCARDING: A.Discard,
    G.PROGRESS_CARDS: A.ProgressCards,
}


class TempusPresentation:
    """games.port.Presentation for Tempus."""

    # ---------------------------------------------------------------- names and lines
    def seat_name(self, seat: int) -> str:
        return colour_name(seat)

    def action_label(self, action: Action) -> str:
        return action_label(action)

    def steps_label(self, actions: Sequence[Action]) -> str:
        return steps_label(list(actions))

    def event_lines(self, events: list[Event], seat: int | None = None) -> list[str]:
        """The lines of ``events`` that ``seat`` may see (None: the public ones)."""
        return [event_text(e) for e in visible(events, seat)]

    def event_line(self, event: Event) -> str:
        return event_text(event)

    def highlight(self, events: list[Event]) -> tuple[int, ...]:
        """The hexes the public events name, for the board picture."""
        out: list[int] = []
        for e in visible(events, None):
            for key in ("src", "dst", "hex", "target", "own", "centre"):
                v = e.data.get(key)
                if isinstance(v, str):
                    with contextlib.suppress(ValueError):
                        out.append(parse_label(v))
        return tuple(dict.fromkeys(out))

    def last_move(self, action: Action) -> tuple[int, ...] | None:
        """The last action's overlay for the board picture."""
        return last_move_of(action)

    def lobby_lines(self, options: Mapping[str, Any]) -> list[str]:
        """The table options a lobby shows (the map, R-OPT-1)."""
        return [t("lobby.opt1.on" if options.get("protection_counts_cities")
                  else "lobby.opt1.off")]

    def map_name(self, options: Mapping[str, Any]) -> str:
        return t("lobby.map.random" if options["random_map"] else "lobby.map.place")

    # ---------------------------------------------------------------- panels and menus
    def public_panel(self, state: State, seats: Sequence[Seat],
                     public_view: dict[str, Any] | None = None) -> Panel:
        return panels.public_panel(state, seats, public_view)

    def secret_panel(self, state: State, seat: int) -> Panel:
        return panels.secret_panel(state, seat)

    def asks_in_private(self, state: State, seat: int) -> bool:
        """Whether ``seat`` owes a choice of its hand (asked privately, never in public)."""
        d = G.decision_for(state, seat)
        return d is not None and d.kind in panels.HAND_KINDS

    def menu(self, state: State, seat: int, spec: str, game_id: int) -> Panel:
        """A private menu (raises games.port.Declined when it cannot be shown)."""
        return panels.menu(state, seat, spec, game_id)

    def with_undo(self, panel: Panel, who: str | None) -> Panel:
        return panels.with_undo(panel, who)

    def with_help(self, panel: Panel) -> Panel:
        return panels.with_help(panel)

    def with_mute(self, panel: Panel) -> Panel:
        return panels.with_mute(panel)

    def with_recap(self, panel: Panel) -> Panel:
        return recap.with_recap(panel)

    def help_for_user(self, table: Any, user_id: int) -> str:
        return help_text.help_for_user(table, user_id)

    # ---------------------------------------------------------------- clicks
    def decode(self, text: str) -> list[Action]:
        """The actions of a control's argument or a select's value (ValueError if
        malformed)."""
        return decode_actions(text)

    def cards_action(self, kind: str, cards: tuple[int, ...]) -> Action:
        """The answer to a choice of cards ``kind`` (a decision's) with ``cards`` (KeyError
        for a kind that is not a choice of cards)."""
        return CARD_ACTIONS[G.DecisionKind(kind)](cards)

    # ---------------------------------------------------------------- forced answers
    def tell_forced(self, lines: list[str], seat: int, action: Action) -> None:
        forced.tell_forced(lines, seat, action)

    # ---------------------------------------------------------------- recaps
    def worth_a_recap(self, moves: Sequence[tuple[int, object]], deciding: Sequence[int]
                      ) -> bool:
        return recap.worth_asking(moves, deciding)

    def recap_windows(self, state: State, seat: int | None, covered: int) -> list[recap.Since]:
        """What "What happened?" recaps, the first that is not empty: since the asker's
        previous decision if they play; else since the current round began (or the one
        before, when this one has only just begun); during the setup, the whole game."""
        if seat is not None:
            return [recap.Since.decision(seat, covered)]
        if state.phase in (ACTIONS, PROGRESS, OVER):
            now = [recap.Since.round_start(state.era_number)]
            if state.era_number > 1:
                now.append(recap.Since.round_start(state.era_number - 1))
            return now
        return [recap.Since.game_start()]

    #: replays a record and gathers a recap (a module's function: it runs in a worker)
    collect_recap = staticmethod(recap.collect)

    def recap_empty(self, found: recap.Recap) -> bool:
        return found.empty

    def recap_panel(self, found: recap.Recap, names: Sequence[str]) -> Panel:
        return recap.recap_panel(found, names)
