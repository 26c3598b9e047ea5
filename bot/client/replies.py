"""No interaction left hanging: acknowledged within Discord's 3 seconds if at all possible,
and every answer delivered, or the person told by DM.

Discord gives an interaction 3 seconds to be acknowledged and its token 15 minutes for
follow-ups. discord.py retries a 5xx itself a few times (sleeping 1, 3, 5 ... s), which on
its own can push an acknowledgement past 3 s ("The application did not respond") or give
up on a follow-up after five refusals, leaving a command "thinking..." for good or a
refusal never shown. Here:

* :func:`acknowledge` makes the acknowledgement within ``ACK_S`` of receipt: an attempt
  that is still waiting (discord.py sleeping between its retries) is cut short and made
  again at once while there is time. If none went through, the person is told by DM that
  nothing was done and to try again (``reply.not_acknowledged``);
* :func:`deliver` retries a follow-up that Discord refused for a passing reason (5xx, 429,
  the network) with growing pauses until ``TOKEN_S`` after receipt, then sends the answer
  by DM instead (``reply.by_dm``). A refusal that will not pass (400, the token gone) goes
  to the DM at once.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Sequence
from typing import Any

import aiohttp
import discord

from lang.messages import t

log = logging.getLogger(__name__)

#: acknowledge within this long of receipt (Discord: 3 s; the rest is the way back)
ACK_S = 2.5
#: the shortest try worth making, and the longest one: a request still unanswered then is
#: most likely discord.py sleeping before its own retry, which would come too late
MIN_TRY_S = 0.2
TRY_S = 1.0
#: Discord's "Interaction has already been acknowledged": a try that was cut short had
#: gone through after all
ALREADY_ACKNOWLEDGED = 40060
#: follow-ups are tried for this long after receipt (the token lives 15 minutes)
TOKEN_S = 14 * 60.0
MAX_PAUSE_S = 60.0
MAX_CONTENT = 2000
#: the key in ``Interaction.extras`` saying that its deferred reply was filled
_FILLED = "tempus_filled"


def now() -> float:
    return asyncio.get_running_loop().time()


def passing(exc: BaseException) -> bool:
    """A refusal that may pass if tried again."""
    if isinstance(exc, discord.HTTPException):
        return exc.status == 429 or exc.status >= 500
    return isinstance(exc, aiohttp.ClientError | OSError | TimeoutError)


async def acknowledge(interaction: discord.Interaction[Any],
                      ack: Callable[[], Awaitable[object]], received: float) -> bool:
    """Acknowledge ``interaction`` (``ack``: its ``response.defer(...)`` or
    ``send_message(...)``) in time; False (and the person told by DM) if it could not be.
    Each try gets at most ``TRY_S``, so that after a refusal the next try is made at once
    rather than after discord.py's own pause."""
    last: BaseException | None = None
    while (left := received + ACK_S - now()) > MIN_TRY_S:
        try:
            await asyncio.wait_for(ack(), min(left, TRY_S))
            return True
        except discord.InteractionResponded:
            return True
        except discord.HTTPException as exc:
            if exc.code == ALREADY_ACKNOWLEDGED:
                return True
            last = exc
            if not passing(exc):
                break
            await asyncio.sleep(min(0.1, max(0.0, left - MIN_TRY_S)))
        except TimeoutError as exc:  # discord.py waiting between its own retries
            last = exc
        except Exception as exc:
            last = exc
            if not passing(exc):
                break
            await asyncio.sleep(min(0.1, max(0.0, left - MIN_TRY_S)))
    log.warning("could not acknowledge an interaction in time: %s", last)
    await tell_by_dm(interaction.user, t("reply.not_acknowledged"))
    return False


async def deliver(interaction: discord.Interaction[Any], send: Callable[[], Awaitable[object]],
                  text: str, received: float, what: str = "a reply") -> bool:
    """``send`` (a follow-up or an edit of the answer), tried until Discord takes it or the
    token's time is nearly up; then ``text`` goes by DM. True if sent in place."""
    pause = 1.0
    while True:
        try:
            await send()
            return True
        except Exception as exc:
            if not passing(exc):
                log.warning("could not send %s (%s); telling by DM", what, exc)
                break
            if now() + pause > received + TOKEN_S:
                log.warning("could not send %s within the token's time (%s); telling by DM",
                            what, exc)
                break
            log.info("sending %s refused (%s); again in %.0f s", what, exc, pause)
        await asyncio.sleep(pause)
        pause = min(MAX_PAUSE_S, pause * 2)
    await tell_by_dm(interaction.user, f"{t('reply.by_dm')}\n{text}"[:MAX_CONTENT])
    return False


async def answer(interaction: discord.Interaction[Any], content: str, *,
                 files: Sequence[discord.File] = (), view: discord.ui.View | None = None,
                 allowed_mentions: discord.AllowedMentions | None = None) -> Any:
    """The answer to a deferred interaction. A deferred reply ("thinking ...") is filled by
    editing it: Discord documents filling it with the first follow-up as deprecated. A
    deferred update of a clicked message has no reply to fill: the answer is a private
    follow-up. Returns the message written."""
    if (interaction.response.type == discord.InteractionResponseType.deferred_channel_message
            and not interaction.extras.get(_FILLED)):
        interaction.extras[_FILLED] = True
        kwargs: dict[str, Any] = {"content": content, "attachments": list(files)}
        if view is not None:
            kwargs["view"] = view
        if allowed_mentions is not None:
            kwargs["allowed_mentions"] = allowed_mentions
        try:
            return await interaction.edit_original_response(**kwargs)
        except BaseException:
            interaction.extras[_FILLED] = False  # not filled: a retry fills it
            raise
    more: dict[str, Any] = {"ephemeral": True, "files": list(files), "wait": True}
    if view is not None:
        more["view"] = view
    if allowed_mentions is not None:
        more["allowed_mentions"] = allowed_mentions
    return await interaction.followup.send(content, **more)


async def tell_by_dm(user: discord.User | discord.Member, text: str) -> bool:
    try:
        await user.send(text)
        return True
    except discord.HTTPException as exc:
        log.warning("could not tell %s by DM either: %s", user.id, exc)
        return False
