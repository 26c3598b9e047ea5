"""Looking at the game in ``/tempus``: ``hand``, ``help``, ``hint``, ``board``, ``status``
(replies only the asker sees). ``board`` and ``status`` answer through
:mod:`bot.client.commands.answers`, as the records do.
"""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands

from bot.client.commands.answers import (
    LAST_ERA,
    board_answer,
    moment_choices,
    no_game_help,
    status_answer,
)
from bot.client.commands.base import Choice, CommandCog, asker
from bot.client.commands.recap_answer import recap_since
from bot.client.translator import ls
from bot.table.service import TableError
from games import registry
from lang.messages import RULE_TOPICS, rule_text


class LookCommands(CommandCog):
    @app_commands.command(name=ls("cmd.hand.name"), description=ls("cmd.hand"))
    async def hand(self, interaction: discord.Interaction[Any]) -> None:
        async def work() -> None:
            game = await self._game(interaction)
            panel, version = await self.service.menu(game, interaction.user.id, "hand")
            await self.bot.show_panel(interaction, panel, game, version)
        await self._run(interaction, work)

    @app_commands.command(name=ls("cmd.help.name"), description=ls("cmd.help"))
    @app_commands.rename(topic=ls("cmd.help.topic.name"))
    @app_commands.describe(topic=ls("cmd.help.topic"))
    @app_commands.choices(topic=[Choice(name=ls(f"rules.topic.{x}"), value=x)
                                 for x in RULE_TOPICS])
    async def help_(self, interaction: discord.Interaction[Any],
                    topic: str | None = None) -> None:
        """What to do now in this game; with a ``topic``, that rule (the rules are topics
        of help, so that a player finds them where they ask for help)."""
        async def work() -> str:
            if topic is not None:
                if topic not in RULE_TOPICS:
                    raise TableError("error.bad_topic", topic=topic[:40],
                                     topics=", ".join(RULE_TOPICS))
                return rule_text(topic)
            try:
                game = await self._game(interaction)
            except TableError:
                return await no_game_help(self.service, interaction.channel_id)
            table = await self.service.tables.get(game)
            return registry.game(table.game.kind).show.help_for_user(table,
                                                                     interaction.user.id)
        await self._run(interaction, work)

    @app_commands.command(name=ls("cmd.hint.name"), description=ls("cmd.hint"))
    async def hint(self, interaction: discord.Interaction[Any]) -> None:
        async def work() -> str:
            game = await self._game(interaction)
            table = await self.service.tables.get(game)
            return await registry.game(table.game.kind).media.hint_for_user(
                table, interaction.user.id, self.bot.ai_offloader)
        await self._run(interaction, work)

    @app_commands.command(name=ls("cmd.board.name"), description=ls("cmd.board"))
    @app_commands.rename(game=ls("cmd.board.game.name"), at=ls("cmd.board.at.name"),
                         full=ls("cmd.board.full.name"), text=ls("cmd.board.text.name"),
                         since=ls("cmd.board.since.name"))
    @app_commands.describe(game=ls("cmd.game"), at=ls("cmd.board.at"), full=ls("cmd.board.full"),
                           text=ls("cmd.board.text"), since=ls("cmd.board.since"))
    async def board(self, interaction: discord.Interaction[Any], game: str | None = None,
                    at: str | None = None, full: bool = False, text: bool = False,
                    since: app_commands.Range[int, 1, LAST_ERA] | None = None) -> None:
        """The board; with ``since``, what happened since that round began, marked on it
        (the recap a spectator's "What happened?" gives, for any round)."""
        if since is not None:
            await self._answer(interaction, lambda: recap_since(
                self.service, asker(interaction), game, since, at, self._run_cpu))
            return
        await self._answer(interaction, lambda: board_answer(
            self.service, asker(interaction), game, at, self._run_cpu, full, text))

    @board.autocomplete("game")
    async def _board_game_ac(self, interaction: discord.Interaction[Any], current: str
                             ) -> list[Choice[str]]:
        return await self._game_ac(interaction, current)

    @board.autocomplete("at")
    async def _board_at_ac(self, interaction: discord.Interaction[Any], current: str
                           ) -> list[Choice[str]]:
        return [Choice(name=n, value=v) for n, v in moment_choices(current)]

    @app_commands.command(name=ls("cmd.status.name"), description=ls("cmd.status"))
    async def status(self, interaction: discord.Interaction[Any]) -> None:
        await self._answer(interaction, lambda: status_answer(
            self.service, asker(interaction), self._run_cpu))
