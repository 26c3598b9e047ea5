"""``/tempus``: the game in this channel. Each command defers at once (privately), then
asks the table service; results are announced in the channel by the publisher, refusals
are private.

The cog is assembled from one mixin per part of the command (Discord shows them all as
``/tempus ...``): :mod:`~bot.client.commands.lobby` (new, join, leave, start, remind, tips),
:mod:`~bot.client.commands.tempus_moves` (play, move, grow, attack, city, place),
:mod:`~bot.client.commands.look` (hand, help, hint, board, status), the ``table`` group
of :mod:`~bot.client.commands.table` (addbot, removebot, replace, autopilot, pace,
cancel) and :mod:`~bot.client.commands.learn` (learn: the lesson). A loaded extension
(:func:`setup`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from discord import app_commands
from discord.ext import commands

from bot.client.commands.learn import LearnCommands
from bot.client.commands.lobby import LobbyCommands
from bot.client.commands.look import LookCommands
from bot.client.commands.table import TableCommands
from bot.client.commands.tempus_moves import PlayCommands
from bot.client.translator import ls

if TYPE_CHECKING:
    from bot.client.app import TempusBot


# (the parts in reverse order: discord.py lists the last base class's commands first)
@app_commands.guild_only()  # a game needs a server channel: not offered in DMs
class TempusCog(LearnCommands, TableCommands, LookCommands, PlayCommands, LobbyCommands,
                commands.GroupCog,
                group_name=ls("cmd.group.name"), group_description=ls("cmd.group")):
    """``/tempus``."""

    def __init__(self, bot: TempusBot) -> None:
        self.bot = bot
        super().__init__()


async def setup(bot: TempusBot) -> None:
    await bot.add_cog(TempusCog(bot))
