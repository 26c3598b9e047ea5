"""What a change looks like to the players: the :class:`~bot.table.model.Outcome` of a move, a
lobby change, a cancel or a notice, built from public and personal views only, and the
panels (turn message, lobby) it carries.

:class:`Outcomes` keeps no state; it asks the clocks for the pace and deadline lines, and
the presence (:mod:`bot.table.presence`) who is away and must be told of a decision.
"""

from __future__ import annotations

from typing import Any

from bot.store import ACTIVE
from bot.table import newcomers, rematch
from bot.table.clocks import Clocks
from bot.table.forced import forced_action
from bot.table.model import (
    Outcome,
    OutcomeKind,
    Reminder,
    Table,
    locale_of,
    personal,
    public,
    record_of,
    undo_seat,
)
from bot.table.presence import Presence
from bot.table.tips import TipsOfFirstGames
from games.controls import (
    ADDBOT,
    BOARD,
    CANCEL,
    JOIN,
    LEAVE,
    START,
    Button,
    Option,
    Panel,
    Row,
    Select,
    button_rows,
    clip,
    with_button,
)
from lang.messages import join_names, t


class Outcomes:
    """Builds announcements; the caller decides when they go out (bot.table.announce)."""

    def __init__(self, clocks: Clocks, presence: Presence | None = None,
                 tips: TipsOfFirstGames | None = None) -> None:
        self.clocks = clocks
        self.presence = presence or Presence()
        #: the tips of people's first games, under the turn message's prompt
        self.tips = tips
        #: turn messages carry the "🗺️ Board" button (the live pages are on, bot/web)
        self.board_button = False

    # ------------------------------------------------------------------ a running game
    def play(self, table: Table, before: Any | None, events: list[Any], *,
             actor: int | None, kind: OutcomeKind = OutcomeKind.PLAY,
             draft: bool = False, notify: list[int] | None = None) -> Outcome:
        """The game as it stands after a change: ``events`` (made from ``before``) told
        publicly and privately, new hands, secret choices for those who owe one now.

        ``draft``: a computer's step that the same seat's next one will be announced
        with (merged: the newer part's position wins), so the position (turn panel,
        public view, turn and round) is left to :meth:`position`, called only if it is
        announced alone after all (``Outcome.fill``). Most of a computer's steps are
        such, and the panel and view are most of the cost of building one.

        ``notify``: the seats to tell of their decision, if the caller decided it (the
        commit path, which stores it with the clocks; a nudge); by default those whose
        decision is new and who are away from the table."""
        state = table.state
        assert state is not None
        rules, show = table.port.rules, table.port.show
        seats = table.seats
        private: dict[int, list[str]] = {}
        for e in events:
            # a seat left to a computer: its cards are nobody's to see (as its hand view)
            if e.private_to is not None and not seats[e.private_to].left:
                with personal(table, e.private_to):
                    private.setdefault(e.private_to, []).append(show.event_line(e))
        hand_views = {}
        for s in rules.changed_hands(before, state):
            if seats[s].user_id is not None and not seats[s].left:
                hand_views[s] = rules.view(state, s)
        fresh = [s for s, v in table.since.items() if v == table.version]
        # who is told that a decision waits for them: only those away from the table
        # (bot.table.presence), once: a secret choice by DM, anything else by a ping
        told = (notify if notify is not None
                else self.to_notify(table, [s for s in fresh if s != actor],
                                    rules.turn_key(state)))
        secret = {}
        for s in told:
            # a choice with one possible answer is not asked (bot.table.forced): no DM
            if show.asks_in_private(state, s) and forced_action(table, s) is None:
                with personal(table, s):
                    secret[s] = show.secret_panel(state, s)
        mention = [u for s in told if s not in secret and (u := seats[s].user_id) is not None]
        with public(table):
            outcome = self._public(table, state, events, actor, kind, private, hand_views,
                                   secret, mention)
        if draft:
            outcome.fill = lambda o: self.position(table, o)
        else:
            self.position(table, outcome)
        return outcome

    def position(self, table: Table, outcome: Outcome) -> None:
        """Fill in ``outcome``'s position from the table: whose turn and round, whether
        a person is asked, the turn panel and the public view."""
        state, seats = table.state, table.seats
        assert state is not None
        rules = table.port.rules
        with public(table):
            turn = rules.turn_key(state)
            outcome.turn_key, outcome.round_key = turn, rules.round_key(state)
            outcome.waits_for_person = any(
                not seats[s].is_ai and seats[s].user_id is not None
                and table.covering.get(s) != turn for s in table.since)
            outcome.public_view = rules.view(state, None)
            # the prompt is worded from the same view as the board and its description
            outcome.panel = self.turn_panel(table, outcome.public_view)
            if outcome.panel.highlight:  # where the choice owed may go (setup), not the last step
                outcome.highlight = outcome.panel.highlight

    def nudge(self, table: Table, seat: int) -> Outcome:
        """The one notification the person owing ``seat``'s decision would have had had
        they been away when it was asked (bot.timing.nudges): a DM with their secret
        choice, or a new turn message that pings them."""
        return self.play(table, table.state, [], actor=None, notify=[seat])

    def could_ping(self, table: Table, seats: list[int]) -> bool:
        """Whether muting this turn's pings would change anything: a person owing a
        decision (of ``seats``) who has not muted the turn is away (a ping goes), or their
        clock sends a reminder while they still count as at the table (the live pace). A
        person at the table is named, not pinged."""
        state = table.state
        if state is None:
            return False
        turn = table.port.rules.turn_key(state)
        for s in seats:
            user = table.seats[s].user_id
            if table.seats[s].is_ai or user is None \
                    or self.presence.muted(table.id, user, turn):
                continue
            if not self.presence.here(table.id, user) or \
                    self.clocks.could_remind(table, s, self.presence.at_table_s):
                return True
        return False

    def to_notify(self, table: Table, seats: list[int], turn: str) -> list[int]:
        """Of ``seats`` (owing a decision in ``turn``), the ones whose person must be told:
        played by a person who is away from the table and has not muted this turn."""
        people = {s: u for s in sorted(seats) if not table.seats[s].is_ai
                  and (u := table.seats[s].user_id) is not None}
        wanted = set(self.presence.to_ping(table.id, people.values(), turn))
        return [s for s, u in people.items() if u in wanted]

    def _public(self, table: Table, state: Any, events: list[Any], actor: int | None,
                kind: OutcomeKind, private: dict[int, list[str]],
                hand_views: dict[int, dict[str, Any]], secret: dict[int, Panel],
                mention: list[int]) -> Outcome:
        """The public part of an outcome, written in the current (the game's) language."""
        seats = table.seats
        show = table.port.show
        outcome = Outcome(
            game_id=table.id, channel_id=table.game.channel_id, guild_id=table.game.guild_id,
            version=table.version, kind=kind,
            lines=show.event_lines(events),
            play_channel_id=table.game.play_channel_id, seats=list(seats),
            private_lines=private, hand_views=hand_views,
            secret_panels=secret,
            mention=mention,
            highlight=show.highlight(events), actor=actor, locale=locale_of(table),
            since=dict(table.since), game_name=table.game.kind,
        )
        if table.port.rules.is_over(state):
            outcome.finished = True
            outcome.record = record_of(table).to_json()
        return outcome

    def turn_panel(self, table: Table, public_view: dict[str, Any] | None = None) -> Panel:
        """The turn message's text and controls for the current state (with Undo when a
        player may take back a step); ``public_view``: the state's, if made already."""
        state = table.state
        assert state is not None
        rules, show = table.port.rules, table.port.show
        panel = show.public_panel(state, table.seats, public_view)
        undo = undo_seat(table)
        deciding = rules.to_act(state)
        if undo is not None:
            panel = show.with_undo(panel, None if deciding == [undo]
                                   else show.seat_name(undo))
        if not rules.is_over(state):
            if show.worth_a_recap(table.moves, [s for s in deciding
                                                if not table.seats[s].is_ai]):
                panel = show.with_recap(panel)
            panel = show.with_help(panel)
            if self.board_button:
                panel = with_button(panel, Button(t("btn.board"), BOARD, "", "secondary"))
            if self.could_ping(table, deciding):
                panel = show.with_mute(panel)
        due = self.clocks.due_line(table)
        tips = (self.tips.lines(table, deciding)
                if self.tips is not None and table.game.status == ACTIVE else [])
        if (due or tips) and table.game.status == ACTIVE:  # above the prompt, which stays last
            head, _, prompt = panel.text.rpartition("\n")
            panel.text = "\n".join(x for x in (head, due, *tips, prompt) if x)
        return panel

    def notice(self, table: Table, line: str, mention: list[int]) -> Outcome:
        """A line of its own in the game's thread that pings ``mention``."""
        return Outcome(
            table.id, table.game.channel_id, table.game.guild_id, table.version,
            OutcomeKind.NOTICE, [line], play_channel_id=table.game.play_channel_id,
            seats=list(table.seats), mention=mention, since=dict(table.since),
            locale=locale_of(table), game_name=table.game.kind)

    def remind(self, table: Table, reminder: Reminder) -> Outcome:
        """A reminder by DM that ``reminder.seat``'s deadline is near."""
        return Outcome(
            table.id, table.game.channel_id, table.game.guild_id, table.version,
            OutcomeKind.REMIND, [], play_channel_id=table.game.play_channel_id,
            seats=list(table.seats), since=dict(table.since), locale=locale_of(table),
            reminders=[reminder], game_name=table.game.kind)

    def cancelled(self, table: Table, lines: list[str]) -> Outcome:
        """The game was cancelled: its controls go."""
        return Outcome(table.id, table.game.channel_id, table.game.guild_id, table.version,
                       OutcomeKind.CANCEL, lines, panel=Panel(""), seats=list(table.seats),
                       locale=locale_of(table), game_name=table.game.kind)

    # ------------------------------------------------------------------ the lobby
    def lobby(self, table: Table, line: str) -> Outcome:
        """The lobby as it stands, with ``line`` saying what changed."""
        with public(table):
            return Outcome(table.id, table.game.channel_id, table.game.guild_id,
                           table.version, OutcomeKind.LOBBY, [line],
                           panel=self.lobby_panel(table), seats=list(table.seats),
                           locale=locale_of(table), game_name=table.game.kind,
                           mention=rematch.mentioned(table.game.options, table.seats))

    def lobby_panel(self, table: Table) -> Panel:
        o = table.game.options
        show, rules = table.port.show, table.port.rules
        lines = [t("lobby.title", game=table.id, host=table.game.host_id,
                   map=show.map_name(o), seated=len(table.seats), seats=o["max_seats"]),
                 *show.lobby_lines(o)]
        if not o.get("hints", True):
            lines.append(t("lobby.hints_off"))
        invite = rematch.invitation_line(o, table.seats)
        if invite is not None:
            lines.append(invite)
        kept = rematch.lobby_lines(o, table.seats)  # seats kept for a rematch's players
        for i in range(o["max_seats"]):
            if i < len(table.seats):
                lines.append(t("lobby.seat", n=i + 1, name=table.seats[i].name))
            elif i - len(table.seats) < len(kept):
                lines.append(kept[i - len(table.seats)])
            else:
                lines.append(t("lobby.empty", n=i + 1))
        p = self.clocks.pace_of(table)
        if p is not None:
            lines.append(t("lobby.pace", pace=t(f"pace.{p.name}")) if p.seconds is not None
                         else t("lobby.pace_none"))
        # a full table: joining and adding a computer could only be refused; too few
        # seated: so could starting; nobody seated but the host (who may not leave) and
        # computers: so could leaving
        full = len(table.seats) >= o["max_seats"]
        enough = len(table.seats) >= rules.min_players
        leavers = any(s.user_id is not None and s.user_id != table.game.host_id
                      for s in table.seats)
        lines.append(t("lobby.hint_full") if full else t("lobby.hint", min=rules.min_players))
        new = newcomers.to_teach(table)
        if new:  # named, not mentioned: a suggestion pings nobody
            lines.append(t("lobby.learn", names=join_names(new), n=len(new)))
        buttons = [*(() if full else (Button(t("btn.join"), JOIN, style="primary"),)),
                   *((Button(t("btn.leave"), LEAVE),) if leavers else ()),
                   *((Button(t("btn.start"), START, style="success"),) if enough else ()),
                   Button(t("btn.cancel"), CANCEL, style="danger")]
        rows: list[Row] = button_rows(buttons)
        if not full:
            rows.insert(0, self.levels_select(table))
        return Panel("\n".join(lines), rows)

    @staticmethod
    def levels_select(table: Table) -> Select:
        """"Add a computer": each level the game offers, said what it is for, the one the
        table gets unless it chooses (for a table of newcomers, theirs) first."""
        computers = table.port.computers
        suggested = newcomers.suggested_level(table)
        levels = [suggested, *(lv for lv in computers.levels() if lv != suggested)]
        options = tuple(
            Option(clip(t("lobby.level_suggested" if lv == suggested else "lobby.level",
                          level=t(f"level.{lv}"))), lv, clip(t(f"level.{lv}.about")))
            for lv in levels)
        return Select(t("btn.addbot"), ADDBOT, "", options)
