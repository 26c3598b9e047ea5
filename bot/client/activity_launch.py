"""The "🗺️ Board" button launching the live page inside Discord, as the app's Activity.

On only where the operator enabled it (the live pages with ``TEMPUS_ACTIVITY_SECRET``, and
Activities turned on for the application in Discord's developer portal, which the bot sees
in its application's flags at start-up). The click is then answered with Discord's
``LAUNCH_ACTIVITY`` callback (type 12) instead of a private link: Discord opens the page in
its panel, and the page finds the game from the channel it runs in (bot/web/activity.py).

Discord's documentation does not say whether an Activity may be launched from a thread, and
games are played in threads. So the launch is tried; if Discord refuses it there, the same
click is answered with the link (a refused callback leaves the interaction unanswered) and
this process stops trying in threads. Anywhere the launch fails, the link is the answer: a
person is never left without one.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

import discord

from bot.client import replies

log = logging.getLogger(__name__)

#: what a launch leaves for the link if it fails: a deferral and its answer
FALLBACK_S = 1.0
#: Discord's answers that refuse the launch itself (not a late click, 10062, nor a limit
#: or an outage, which say nothing about the place)
REFUSALS = frozenset({400, 403})
#: the channel types of threads (announcement, public, private)
THREADS = frozenset({discord.ChannelType.news_thread, discord.ChannelType.public_thread,
                     discord.ChannelType.private_thread})


class Launcher:
    def __init__(self) -> None:
        #: launch instead of giving links (set by the live pages when the Activity is on)
        self.enabled = False
        #: Discord refused a launch in a thread: links there from now on (this process)
        self.refused_in_threads = False
        self.launched = 0
        self.fell_back = 0

    def may_launch(self, interaction: discord.Interaction[Any]) -> bool:
        if not self.enabled or interaction.guild_id is None:
            return False
        return not (self.refused_in_threads and _in_thread(interaction))

    async def launch(self, interaction: discord.Interaction[Any], received: float) -> bool:
        """Answer the click by launching the Activity; False (the interaction still
        unanswered, with time left to give the link) when it could not be done. One try,
        cut short so that the link still makes Discord's 3 seconds."""
        left = received + replies.ACK_S - FALLBACK_S - replies.now()
        if left < replies.MIN_TRY_S:
            return False
        try:
            await asyncio.wait_for(interaction.response.launch_activity(),
                                   min(left, replies.TRY_S))
        except discord.InteractionResponded:
            return True
        except discord.HTTPException as exc:
            if exc.code == replies.ALREADY_ACKNOWLEDGED:
                return True  # a try cut short had gone through after all
            self.fell_back += 1
            if exc.status in REFUSALS and _in_thread(interaction):
                if not self.refused_in_threads:
                    log.warning("Discord refused to launch the Activity in a thread (%s %s: "
                                "%s): the Board button gives links in threads", exc.status,
                                exc.code, exc.text[:200])
                self.refused_in_threads = True
            else:
                log.warning("could not launch the Activity (%s %s): the link instead",
                            exc.status, exc.code)
            return False
        except Exception as exc:  # a timeout, the network: the link instead
            self.fell_back += 1
            log.warning("could not launch the Activity (%s): the link instead",
                        type(exc).__name__)
            return False
        self.launched += 1
        return True


def _in_thread(interaction: discord.Interaction[Any]) -> bool:
    channel = interaction.channel
    return channel is not None and getattr(channel, "type", None) in THREADS
