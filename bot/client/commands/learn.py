"""``/tempus learn``: the lesson, in a private thread of the person's own.

The lesson's pages are the table service's (:mod:`bot.table.lessons`); here is where they
are shown. The first page goes to a private thread the bot opens in the channel and adds
the person to (no mention: nobody is pinged, and no DM is sent); a lesson asked for again
goes on in its thread: its page is posted there anew (which keeps the thread open, or
brings it back) and the older page loses its buttons. Where no thread can be made (a
thread, a forum, no permission), the page is a private reply. Each click then replaces
the page clicked (``TempusBot.show_page``).
"""

from __future__ import annotations

import contextlib
import io
import logging
from typing import Any, Final, Literal

import discord
from discord import app_commands

from bot.client.commands.answers import Answer
from bot.client.commands.base import CommandCog
from bot.client.translator import ls
from bot.publish.components import make_view
from bot.publish.text_fit import fit
from bot.table.lessons import Shown
from games import registry
from games.controls import Panel
from games.port import File
from lang import i18n
from lang.messages import t

log = logging.getLogger(__name__)

#: a lesson's thread is archived by Discord after a day without a message
ARCHIVE_MINUTES: Final[Literal[1440]] = 1440

THREAD_NAME_MAX = 100


class LearnCommands(CommandCog):
    @app_commands.command(name=ls("cmd.learn.name"), description=ls("cmd.learn"))
    async def learn(self, interaction: discord.Interaction[Any]) -> None:
        async def work() -> Answer:
            user = interaction.user
            shown = await self.service.lessons.open(user.id, interaction.guild_id,
                                                    interaction.channel_id)
            picture = await self._picture(shown.panel, shown.game)
            posted = await self._in_thread(interaction, shown, picture)
            if posted is not None:
                thread_id, message_id = posted
                await self.service.lessons.placed(user.id, thread_id, message_id)
                key = "lesson.resumed" if shown.resumed else "lesson.opened"
                return Answer(t(key, thread=thread_id, n=shown.step + 1))
            await self.service.lessons.placed(user.id, None, None)
            return Answer(fit([t("lesson.here"), *shown.panel.text.splitlines()]),
                          [picture] if picture is not None else [], shown.panel,
                          (shown.lesson_id, shown.step))
        await self._answer(interaction, work)

    async def _picture(self, panel: Panel, game: str) -> File | None:
        """The page's board, drawn by its game in the rendering workers."""
        if panel.image is None or panel.image_view is None:
            return None
        png, alt = await self._run_cpu(registry.game(game).media.picture, panel.image,
                                       panel.image_view, i18n.current(), panel.focus,
                                       panel.highlight, panel.marks, panel.alt)
        return File(f"{panel.image}.png", png, alt or "") if png else None

    async def _in_thread(self, interaction: discord.Interaction[Any], shown: Shown,
                         picture: File | None) -> tuple[int, int] | None:
        """Post the page in the lesson's private thread (the one it had, if it can still
        be written to, else a new one in this channel with the person added); the
        thread's and the message's ids, or None where no thread can be made."""
        content = fit(shown.panel.text.splitlines())
        view = make_view(shown.panel, shown.lesson_id, shown.step)

        async def post(thread: discord.abc.Messageable) -> discord.Message:
            files = ([discord.File(io.BytesIO(picture.data), filename=picture.filename,
                                   description=picture.description or None)]
                     if picture is not None else [])
            # discord.py takes None for no view, which its overloads do not say
            return await thread.send(content, files=files, view=view,  # type: ignore[arg-type]
                                     allowed_mentions=discord.AllowedMentions.none())

        if shown.thread_id is not None:
            known = self.bot.get_partial_messageable(shown.thread_id)
            try:
                # posted anew, not edited: a post is what keeps the thread from being
                # archived after a day (an edit is no activity to Discord) and brings it
                # back if it was
                msg = await post(known)
            except discord.HTTPException as exc:  # deleted, locked, no longer ours
                log.info("lesson %s: its thread %s is gone (%s); opening another",
                         shown.lesson_id, shown.thread_id, exc)
            else:
                if shown.message_id is not None and shown.message_id != msg.id:
                    # the older page's buttons would only lead to this one
                    with contextlib.suppress(discord.HTTPException):
                        await known.get_partial_message(shown.message_id).edit(view=None)
                return shown.thread_id, msg.id
        channel = interaction.channel
        if not isinstance(channel, discord.TextChannel):
            return None  # a thread, a forum post, a voice channel's chat: no private thread
        name = t("lesson.thread_name", name=interaction.user.display_name)
        try:
            thread = await channel.create_thread(
                name=name[:THREAD_NAME_MAX], type=discord.ChannelType.private_thread,
                invitable=False, auto_archive_duration=ARCHIVE_MINUTES)
            await thread.add_user(interaction.user)
            msg = await post(thread)
        except discord.HTTPException as exc:
            log.info("lesson %s: no private thread in channel %s (%s); a private reply",
                     shown.lesson_id, channel.id, exc)
            return None
        return thread.id, msg.id

