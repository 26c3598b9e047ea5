"""``/tempus-records``: what is not about the game in progress, from the stored results:
``history`` (finished games of the channel or server), ``show`` (a finished game's
result, record or animation) and ``stats`` (a player's, with the server's leaderboard).

A second top-level command rather than more of ``/tempus`` (Discord allows 25 subcommands
in a command): the leaderboard, records and settings to come have room here. The answers
are in :mod:`bot.client.commands.answers`. A loaded extension (:func:`setup`).
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any, Literal

import discord
from discord import app_commands
from discord.ext import commands

from bot.client import replies
from bot.client.commands.answers import (
    Answer,
    history_answer,
    record_answer,
    replay_answer,
    resolve,
    show_answer,
    stats_answer,
)
from bot.client.commands.base import Choice, CommandCog, asker, files
from bot.client.translator import ls
from bot.table.service import TableError
from lang import i18n
from lang.messages import t

if TYPE_CHECKING:
    from bot.client.app import TempusBot

log = logging.getLogger(__name__)


@app_commands.guild_only()  # the records are the server's
class RecordsCog(CommandCog, commands.GroupCog, group_name=ls("cmd.records.name"),
                 group_description=ls("cmd.records")):
    """``/tempus-records``."""

    def __init__(self, bot: TempusBot) -> None:
        self.bot = bot
        super().__init__()

    @app_commands.command(name=ls("cmd.history.name"), description=ls("cmd.history"))
    @app_commands.rename(where=ls("cmd.history.where.name"), page=ls("cmd.history.page.name"))
    @app_commands.describe(where=ls("cmd.history.where"), page=ls("cmd.history.page"))
    @app_commands.choices(where=[Choice(name=ls(f"cmd.history.where.{w}"), value=w)
                                 for w in ("channel", "server")])
    async def history(self, interaction: discord.Interaction[Any], where: str = "channel",
                      page: app_commands.Range[int, 1, 1000] = 1) -> None:
        place: Literal["channel", "server"] = "server" if where == "server" else "channel"
        await self._answer(interaction, lambda: history_answer(
            self.service, asker(interaction), place, page))

    @app_commands.command(name=ls("cmd.show.name"), description=ls("cmd.show"))
    @app_commands.rename(game=ls("cmd.show.game.name"), what=ls("cmd.show.what.name"))
    @app_commands.describe(game=ls("cmd.game"), what=ls("cmd.show.what"))
    @app_commands.choices(what=[Choice(name=ls(f"cmd.show.what.{w}"), value=w)
                                for w in ("result", "record", "replay")])
    async def show(self, interaction: discord.Interaction[Any], game: str | None = None,
                   what: str = "result") -> None:
        if what == "replay":
            await self._replay(interaction, game)
            return
        who = asker(interaction)
        if what == "record":
            await self._answer(interaction, lambda: record_answer(self.service, who, game,
                                                                  self._run_cpu))
            return
        await self._answer(interaction, lambda: show_answer(self.service, who, game,
                                                            self._run_cpu))

    @show.autocomplete("game")
    async def _show_game_ac(self, interaction: discord.Interaction[Any], current: str
                            ) -> list[Choice[str]]:
        return await self._game_ac(interaction, current)

    async def _replay(self, interaction: discord.Interaction[Any], game: str | None) -> None:
        """The animation goes to the channel (for sharing): the game is checked first,
        so a refusal can still be private."""
        try:
            g = await resolve(self.service, asker(interaction), game, finished=True)
        except TableError as exc:
            try:
                await interaction.response.send_message(str(exc), ephemeral=True)
            except discord.HTTPException:
                log.warning("could not refuse a replay in time")
            return
        try:
            await interaction.response.defer(thinking=True)
        except discord.HTTPException:
            return
        try:  # posted for everyone: in the game's language
            with i18n.using(g.options.get("locale")):
                answer = await replay_answer(self.service, g, self._run_cpu)
        except TableError as exc:
            answer = Answer(str(exc))
        except Exception:
            log.exception("replay of game %s failed", g.id)
            answer = Answer(t("error.internal"))
        try:
            await replies.answer(interaction, answer.text, files=files(answer),
                                 allowed_mentions=discord.AllowedMentions.none())
        except discord.HTTPException:
            log.warning("could not post the replay of game %s", g.id)

    @app_commands.command(name=ls("cmd.stats.name"), description=ls("cmd.stats"))
    @app_commands.rename(player=ls("cmd.stats.player.name"))
    @app_commands.describe(player=ls("cmd.stats.player"))
    async def stats(self, interaction: discord.Interaction[Any],
                    player: discord.User | None = None) -> None:
        await self._answer(interaction, lambda: stats_answer(
            self.service, asker(interaction), player.id if player else None,
            player.display_name if player else ""))


async def setup(bot: TempusBot) -> None:
    await bot.add_cog(RecordsCog(bot))
