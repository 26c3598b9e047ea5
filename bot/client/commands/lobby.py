"""Taking part in ``/tempus``: open a table, join, leave, start; your turn reminders and
the tips of your first games.

The host's and channel managers' tools (computer players, seats, pace, cancelling) are
the ``/tempus table`` group (:mod:`bot.client.commands.table`).
"""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands

from bot.client.commands.base import Choice, CommandCog
from bot.client.translator import ls
from bot.table.service import TableError
from bot.timing.pace import DEFAULT_PACE
from lang import i18n
from lang.messages import t

#: the paces a game can be played at, named in each client's language
PACE_CHOICES = [Choice(name=ls(f"pace.{p}"), value=p)
                for p in ("live", "daily", "relaxed", "none")]


class LobbyCommands(CommandCog):
    @app_commands.command(name=ls("cmd.new.name"), description=ls("cmd.new"))
    @app_commands.rename(seats=ls("cmd.new.seats.name"), map=ls("cmd.new.map.name"),
                         hints=ls("cmd.new.hints.name"),
                         city_protects=ls("cmd.new.city_protects.name"),
                         pace=ls("cmd.new.pace.name"))
    @app_commands.describe(seats=ls("cmd.new.seats"), map=ls("cmd.new.map"),
                           hints=ls("cmd.new.hints"), city_protects=ls("cmd.new.city_protects"),
                           pace=ls("cmd.new.pace"))
    @app_commands.choices(map=[Choice(name=ls("cmd.new.map.random"), value="random"),
                               Choice(name=ls("cmd.new.map.place"), value="place")],
                          pace=PACE_CHOICES)
    async def new(self, interaction: discord.Interaction[Any],
                  seats: app_commands.Range[int, 3, 5] = 5,
                  map: str = "random", hints: bool = True,  # noqa: A002
                  city_protects: bool = False, pace: str = DEFAULT_PACE) -> None:
        async def work() -> str:
            if interaction.channel_id is None or interaction.guild_id is None:
                raise TableError("error.guild_only")
            # channel posts of this game follow the server's language (DMs and private
            # replies follow each user's)
            locale = i18n.normalize(interaction.guild_locale or interaction.locale)
            o = await self.service.lobby.create(interaction.guild_id, interaction.channel_id,
                                          interaction.user.id, interaction.user.display_name,
                                          seats=seats,
                                          options={"random_map": map != "place",
                                                   "protection_counts_cities": city_protects},
                                          in_thread=isinstance(interaction.channel,
                                                               discord.Thread),
                                          extra={"hints": hints, "locale": locale},
                                          pace_name=pace)
            return t("lobby.created", game=o.game_id)
        await self._run(interaction, work)

    @app_commands.command(name=ls("cmd.join.name"), description=ls("cmd.join"))
    async def join(self, interaction: discord.Interaction[Any]) -> None:
        async def work() -> str:
            game = await self._game(interaction)
            await self.service.join(game, interaction.user.id, interaction.user.display_name)
            return t("lobby.joined", name=interaction.user.display_name, game=game)
        await self._run(interaction, work)

    @app_commands.command(name=ls("cmd.leave.name"), description=ls("cmd.leave_any"))
    async def leave(self, interaction: discord.Interaction[Any]) -> None:
        async def work() -> str | None:
            game = await self._game(interaction)
            confirm = await self.service.seats.leave_panel(game, interaction.user.id)
            if confirm is not None:  # a running game: ask first (privately)
                panel, version = confirm
                await self.bot.show_panel(interaction, panel, game, version)
                return None
            await self.service.lobby.leave(game, interaction.user.id)
            return t("lobby.left", name=interaction.user.display_name, game=game)
        await self._run(interaction, work)

    @app_commands.command(name=ls("cmd.start.name"), description=ls("cmd.start"))
    async def start(self, interaction: discord.Interaction[Any]) -> None:
        async def work() -> str:
            game = await self._game(interaction)
            await self.service.start(game, interaction.user.id)
            return t("lobby.started", game=game)
        await self._run(interaction, work)

    @app_commands.command(name=ls("cmd.remind.name"), description=ls("cmd.remind"))
    @app_commands.rename(state=ls("cmd.remind.state.name"))
    @app_commands.describe(state=ls("cmd.remind.state"))
    @app_commands.choices(state=[Choice(name=ls("cmd.remind.state.on"), value="on"),
                                 Choice(name=ls("cmd.remind.state.off"), value="off")])
    async def remind(self, interaction: discord.Interaction[Any], state: str) -> None:
        async def work() -> str:
            return await self.service.clocks.set_reminders(interaction.user.id, state == "on")
        await self._run(interaction, work)

    @app_commands.command(name=ls("cmd.tips.name"), description=ls("cmd.tips"))
    @app_commands.rename(state=ls("cmd.tips.state.name"))
    @app_commands.describe(state=ls("cmd.tips.state"))
    @app_commands.choices(state=[Choice(name=ls("cmd.tips.state.on"), value="on"),
                                 Choice(name=ls("cmd.tips.state.off"), value="off")])
    async def tips(self, interaction: discord.Interaction[Any], state: str) -> None:
        async def work() -> str:
            return await self.service.tips.switch(interaction.user.id, state == "on")
        await self._run(interaction, work)
