"""What every command module shares: refusing forged options, turning errors into private
replies, deferring at once, finding the channel's game, game autocomplete.

:class:`CommandCog` is a mixin of both top-level cogs (``/tempus`` and ``/tempus-records``)
and of the command mixins they are made of; it expects ``self.bot``.
"""

from __future__ import annotations

import io
import logging
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.client import options, replies
from bot.client.commands.answers import Answer, Asker, game_choices
from bot.publish.components import make_view
from bot.table.service import TableError, TableService
from lang.messages import t

if TYPE_CHECKING:
    from bot.client.app import TempusBot

log = logging.getLogger(__name__)

Choice = app_commands.Choice
MAX_CHOICES = 25


def filtered(items: list[tuple[str, str]], current: str) -> list[Choice[str]]:
    """Suggestions ``(name, value)`` that match what is typed so far, at most 25."""
    cur = current.strip().lower()
    out = [Choice(name=n[:100], value=v[:100]) for n, v in items
           if not cur or cur in n.lower() or cur == v.lower()]
    return out[:MAX_CHOICES]


def command_path(interaction: discord.Interaction[Any]) -> str:
    """``tempus table addbot``: the command as typed (for logs)."""
    cmd = interaction.command
    return cmd.qualified_name if cmd is not None else "?"


def asker(interaction: discord.Interaction[Any]) -> Asker:
    return Asker(interaction.user.id, interaction.guild_id, interaction.channel_id)


def files(answer: Answer) -> list[discord.File]:
    return [discord.File(io.BytesIO(f.data), filename=f.filename, description=f.description)
            for f in answer.files]


class BadOption(app_commands.CheckFailure):
    """An option value outside what the command declares; the message is for the user."""


class CommandCog(commands.Cog):
    """The plumbing of every command (a base of each top-level cog and of its parts; a
    cog class, so that discord.py's decorators type-check on the parts' methods)."""

    bot: TempusBot

    @property
    def service(self) -> TableService:
        assert self.bot.service is not None
        return self.bot.service

    # ------------------------------------------------------------------ bad input
    async def interaction_check(self, interaction: discord.Interaction[Any]) -> bool:
        """Refuse option values no Discord client sends (outside the declared choices,
        range or type) before the command runs."""
        if self.bot.stopping:  # a clean stop is under way (bot.runtime.shutdown)
            raise BadOption(t("error.restarting"))
        command = interaction.command
        if isinstance(command, app_commands.Command):
            problem = options.refusal(command, interaction.namespace)
            if problem is not None:
                raise BadOption(problem)
        return True

    async def cog_app_command_error(self, interaction: discord.Interaction[Any],
                                    error: app_commands.AppCommandError) -> None:
        """A command that could not run: a private refusal, never Python text."""
        if isinstance(error, BadOption):
            text = str(error)
        elif isinstance(error, app_commands.CommandInvokeError):
            log.error("/%s failed", command_path(interaction), exc_info=error.original)
            text = t("error.internal")
        else:  # an option discord.py could not convert (an unknown user ...)
            text = t("error.bad_command")
        if interaction.response.is_done():
            return  # already answered (the handler may be reached twice for a group cog)
        try:
            await interaction.response.send_message(text, ephemeral=True)
        except discord.HTTPException:
            log.warning("could not refuse /%s", command_path(interaction))

    # ------------------------------------------------------------------ replying
    async def _run(self, interaction: discord.Interaction[Any],
                   work: Callable[[], Awaitable[str | None]]) -> None:
        """Defer privately, run ``work``, reply with its text or the refusal."""
        with self.bot.inflight.track():
            await self._run_tracked(interaction, work)

    async def _run_tracked(self, interaction: discord.Interaction[Any],
                           work: Callable[[], Awaitable[str | None]]) -> None:
        received = replies.now()
        if not await replies.acknowledge(
                interaction, lambda: interaction.response.defer(ephemeral=True, thinking=True),
                received):
            log.warning("could not acknowledge /%s in time", command_path(interaction))
            return
        try:
            text = await work()
        except TableError as exc:
            text = str(exc)
        except Exception:
            log.exception("/%s in channel %s failed", command_path(interaction),
                          interaction.channel_id)
            text = t("error.internal")
        if text:
            reply = text
            await replies.deliver(
                interaction, lambda: replies.answer(interaction, reply), reply,
                received, f"the reply to /{command_path(interaction)}")

    async def _answer(self, interaction: discord.Interaction[Any],
                      work: Callable[[], Awaitable[Answer]]) -> None:
        """Defer privately, run ``work``, reply privately with its text, files and
        controls."""
        with self.bot.inflight.track():
            await self._answer_tracked(interaction, work)

    async def _answer_tracked(self, interaction: discord.Interaction[Any],
                              work: Callable[[], Awaitable[Answer]]) -> None:
        received = replies.now()
        if not await replies.acknowledge(
                interaction, lambda: interaction.response.defer(ephemeral=True, thinking=True),
                received):
            log.warning("could not acknowledge /%s in time", command_path(interaction))
            return
        try:
            answer = await work()
        except TableError as exc:
            answer = Answer(str(exc))
        except Exception:
            log.exception("/%s in channel %s failed", command_path(interaction),
                          interaction.channel_id)
            answer = Answer(t("error.internal"))
        view = make_view(answer.panel, *answer.game_version)

        async def send() -> None:  # the files anew at each try (a sent file is spent)
            await replies.answer(interaction, answer.text, files=files(answer), view=view,
                                 allowed_mentions=discord.AllowedMentions.none())
        await replies.deliver(interaction, send, answer.text, received,
                              f"the reply to /{command_path(interaction)}")

    async def _run_cpu(self, fn: Callable[..., Any], *args: Any) -> Any:
        return await self.bot.offloader.run(fn, *args)

    # ------------------------------------------------------------------ the game
    async def _game(self, interaction: discord.Interaction[Any]) -> Any:
        """The id of the game of the channel the command was typed in."""
        if interaction.channel_id is None:
            raise TableError("error.no_game")
        return await self.service.tables.channel_game_id(interaction.channel_id)

    async def _game_ac(self, interaction: discord.Interaction[Any], current: str
                       ) -> list[Choice[str]]:
        """Suggestions for a ``game`` option: finished games, this channel's first."""
        try:
            items = await game_choices(self.service, asker(interaction), current)
        except Exception:
            log.exception("game autocomplete failed")
            return []
        return [Choice(name=n, value=v) for n, v in items]
