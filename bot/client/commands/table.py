"""``/tempus table``: the host's and channel managers' tools for the table of this channel
(computer players, seats, pace, cancelling) and a seat's autopilot.

A subcommand group: Discord allows 25 subcommands or groups in ``/tempus`` and 25
subcommands in a group, so these six take one of ``/tempus``'s places.
"""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands

from bot.client.commands.base import Choice, CommandCog, filtered
from bot.client.commands.lobby import PACE_CHOICES
from bot.client.translator import ls
from games import registry
from lang.messages import t


def _levels(current: str) -> list[Choice[str]]:
    """The computer levels of the bot's own game (the one ``/tempus`` is declared for):
    suggestions only, the table checks the level against its own game's."""
    levels = registry.game().computers.levels()
    return filtered([(t(f"level.{lv}"), lv) for lv in levels], current)


class TableCommands(CommandCog):
    table = app_commands.Group(name=ls("cmd.table.name"), description=ls("cmd.table"))

    @table.command(name=ls("cmd.addbot.name"), description=ls("cmd.addbot"))
    @app_commands.rename(level=ls("cmd.addbot.level.name"))
    @app_commands.describe(level=ls("cmd.addbot.level"))
    async def addbot(self, interaction: discord.Interaction[Any],
                     level: str | None = None) -> None:
        async def work() -> str:
            game = await self._game(interaction)
            o = await self.service.add_ai(game, interaction.user.id, level)
            return o.lines[0]
        await self._run(interaction, work)

    @addbot.autocomplete("level")
    async def _level_ac(self, interaction: discord.Interaction[Any], current: str
                        ) -> list[Choice[str]]:
        return _levels(current)

    @table.command(name=ls("cmd.removebot.name"), description=ls("cmd.removebot"))
    async def removebot(self, interaction: discord.Interaction[Any]) -> None:
        async def work() -> str:
            game = await self._game(interaction)
            o = await self.service.lobby.remove_ai(game, interaction.user.id)
            return o.lines[0]
        await self._run(interaction, work)

    @table.command(name=ls("cmd.replace.name"), description=ls("cmd.replace"))
    @app_commands.rename(seat=ls("cmd.replace.seat.name"), player=ls("cmd.replace.player.name"))
    @app_commands.describe(seat=ls("cmd.replace.seat"), player=ls("cmd.replace.player"))
    async def replace(self, interaction: discord.Interaction[Any], seat: discord.User,
                      player: discord.User) -> None:
        async def work() -> str:
            game = await self._game(interaction)
            perms = interaction.permissions
            o = await self.service.seats.replace(
                game, interaction.user.id, seat.id, player.id, player.display_name,
                new_is_bot=player.bot, can_manage=bool(perms and perms.manage_channels))
            seat_no = next(s.seat for s in o.seats if s.user_id == player.id)
            colour = registry.game(o.game_name).show.seat_name(seat_no)
            return t("replace.ack", new=player.id, colour=colour, game=game)
        await self._run(interaction, work)

    @table.command(name=ls("cmd.autopilot.name"), description=ls("cmd.autopilot"))
    @app_commands.rename(on=ls("cmd.autopilot.on.name"), player=ls("cmd.autopilot.player.name"),
                         level=ls("cmd.autopilot.level.name"))
    @app_commands.describe(on=ls("cmd.autopilot.on"), player=ls("cmd.autopilot.player"),
                           level=ls("cmd.autopilot.level"))
    async def autopilot(self, interaction: discord.Interaction[Any], on: bool = True,
                        player: discord.User | None = None, level: str | None = None) -> None:
        async def work() -> str:
            game = await self._game(interaction)
            perms = interaction.permissions
            o = await self.service.seats.autopilot(
                game, interaction.user.id, player.id if player else None, on, level,
                can_manage=bool(perms and perms.manage_channels))
            return o.lines[0]
        await self._run(interaction, work)

    @autopilot.autocomplete("level")
    async def _autopilot_level_ac(self, interaction: discord.Interaction[Any], current: str
                                  ) -> list[Choice[str]]:
        return _levels(current)

    @table.command(name=ls("cmd.pace.name"), description=ls("cmd.pace"))
    @app_commands.rename(pace=ls("cmd.pace.pace.name"))
    @app_commands.describe(pace=ls("cmd.pace.pace"))
    @app_commands.choices(pace=PACE_CHOICES)
    async def pace(self, interaction: discord.Interaction[Any], pace: str) -> None:
        async def work() -> str:
            game = await self._game(interaction)
            perms = interaction.permissions
            await self.service.timeouts.set_pace(game, interaction.user.id, pace,
                                        can_manage=bool(perms and perms.manage_channels))
            # the channel is told in the game's language; this reply is in the user's
            return t("clock.pace_changed", user=interaction.user.id, pace=t(f"pace.{pace}"))
        await self._run(interaction, work)

    @table.command(name=ls("cmd.cancel.name"), description=ls("cmd.cancel"))
    async def cancel(self, interaction: discord.Interaction[Any]) -> None:
        async def work() -> str:
            game = await self._game(interaction)
            perms = interaction.permissions
            await self.service.lobby.cancel(game, interaction.user.id,
                                      can_manage=bool(perms and perms.manage_channels))
            return t("lobby.cancelled", game=game, user=interaction.user.id)
        await self._run(interaction, work)
