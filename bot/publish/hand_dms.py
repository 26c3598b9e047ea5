"""Each person's secret cards and private choices, by DM (split from the publisher).

A DM carries only the receiving seat's own view. Each person has an outbox of their own
(paced like a channel); a game's hand DM that still waits there takes the next outcome's
news in too, so a person gets one DM with the newest hand instead of several. A private
choice that has passed while its DM waited is left out (the hand still goes). A DM that
cannot be delivered never stops the game: the player is told once in the game's thread
(without any detail) to use ``/tempus hand``.
"""

from __future__ import annotations

import io
import logging
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

import discord

from bot.client.components import make_view
from bot.publish.outbox import POST, Outboxes
from bot.publish.private_menus import PrivateMenus, current, retirer
from bot.publish.request_pace import BACKGROUND, URGENT, priority
from bot.publish.text_fit import MAX_CONTENT, fit
from bot.runtime.worker_pool import Offloader
from bot.store import SeatRow
from bot.table.model import Outcome
from bot.table.ui import Panel
from bot.tempus import images
from bot.tempus.describe import hand_text
from lang import i18n
from lang.messages import t

log = logging.getLogger(__name__)


@dataclass
class PendingHand:
    """A person's hand DM for one game, not yet sent: everything since the last one (news
    lines add up, the newest hand and the newest private choice win)."""

    game_id: int
    user_id: int
    play: int
    locale: str
    news: list[str] = field(default_factory=list)
    hand_view: dict[str, Any] | None = None
    panel: Panel | None = None
    version: int = 0


class HandDMs:
    """The DMs of a bot: hands and private choices, reminders, notices."""

    def __init__(self, client: discord.Client, offloader: Offloader, menus: PrivateMenus,
                 latest: Mapping[int, tuple[list[SeatRow], dict[int, int]]],
                 tell_in_thread: Callable[[int, str, list[int]], None],
                 *, period: float = 5.0) -> None:
        self.client = client
        self.offloader = offloader
        self.menus = menus
        #: each game's newest seats and owed decisions (is a private choice still current?)
        self._latest = latest
        #: posts a line in a game's thread: (channel, text, user ids to mention)
        self._tell = tell_in_thread
        #: one outbox per person (by user id), paced like a channel
        self.outboxes = Outboxes(period=period)
        self._hands: dict[tuple[int, int], PendingHand] = {}
        self._failed: set[int] = set()
        self._channels: dict[int, discord.abc.Messageable] = {}

    def queue(self, play: int, o: Outcome) -> None:
        """Queue each person's hand DM in their own outbox; one still waiting takes this
        outcome's news in too (one DM instead of several, the newest hand)."""
        for seat in sorted({*o.hand_views, *o.secret_panels}):
            user_id = o.seats[seat].user_id
            if user_id is None:
                continue
            panel = o.secret_panels.get(seat)
            hand_view = o.hand_views.get(seat) or (panel.image_view if panel else None)
            key = (o.game_id, user_id)
            p = self._hands.get(key)
            if p is None:
                p = self._hands[key] = PendingHand(o.game_id, user_id, play, o.locale)
            p.play, p.locale = play, o.locale
            p.news += o.private_lines.get(seat, [])
            if hand_view is not None:
                p.hand_view = hand_view
            if panel is not None:
                p.panel, p.version = panel, o.version

            async def write(key: tuple[int, int] = key) -> bool:
                await self._send_pending(key)
                return False
            self.outboxes.submit(user_id, write, key=f"hand:{o.game_id}", kind=POST)

    async def _send_pending(self, key: tuple[int, int]) -> None:
        p = self._hands.pop(key, None)
        if p is None:
            return
        panel = p.panel
        if panel is not None:
            seats, since = self._latest.get(p.game_id, ([], {}))
            if not current(seats, since, p.user_id, p.version):
                panel = None  # the choice has passed while this waited: the hand still goes
        if panel is None and p.hand_view is None and not p.news:
            return
        user_id = p.user_id
        # a private choice is something the person waits for; a hand update is not
        with i18n.using(i18n.user_locale(user_id, p.locale)), \
                priority(URGENT if panel is not None else BACKGROUND):
            ok = await self.send_hand(user_id, p.game_id, p.version, p.hand_view, p.news,
                                      panel)
        if ok:
            self._failed.discard(user_id)
        elif user_id not in self._failed:
            self._failed.add(user_id)
            with i18n.using(p.locale):
                self._tell(p.play, t("dm.failed", user=user_id), [user_id])

    async def send_hand(self, user_id: int, game_id: int, version: int,
                        hand_view: dict[str, Any] | None, news: list[str],
                        panel: Panel | None) -> bool:
        """DM a hand (text and picture) and, if owed, the secret choice; False if refused."""
        lines = [t("hand.drawn", what=n) for n in news]
        if panel is not None:
            lines.append(t("secret.intro", game=game_id, prompt=panel.text))
        elif hand_view is not None:
            lines.append(hand_text(game_id, hand_view))
        files = []
        if hand_view is not None:
            png = await self.offloader.run(images.hand_png, hand_view, i18n.current())
            if png:
                alt = images.menu_alt("hand", hand_view, lang=i18n.current())
                files.append(discord.File(io.BytesIO(png), filename="hand.png",
                                          description=alt))
        view = make_view(panel, game_id, version)
        content = fit(lines)
        try:
            dm = await self.channel(user_id)
            kwargs: dict[str, Any] = {"files": files}
            if view is not None:
                kwargs["view"] = view
            msg = await dm.send(content, **kwargs)
        except (discord.Forbidden, discord.NotFound):
            return False
        except discord.HTTPException as exc:
            log.warning("game %s: DM to %s failed: %s", game_id, user_id, exc)
            return False
        if view is not None:
            # through a partial message: the sent one, with every parsed select option,
            # would stay in memory as long as the decision waits (days, in a slow game)
            edit = self.client.get_partial_messageable(msg.channel.id).get_partial_message(
                msg.id).edit
            self.menus.remember(msg.id, game_id, user_id, version,
                                retirer(edit, content, t("menu.expired")))
        return True

    async def send(self, user_id: int, game_id: int, text: str) -> bool:
        """A plain DM (a reminder); False if it cannot be delivered."""
        try:
            dm = await self.channel(user_id)
            await dm.send(text[:MAX_CONTENT], allowed_mentions=discord.AllowedMentions.none())
        except (discord.Forbidden, discord.NotFound):
            return False
        except discord.HTTPException as exc:
            log.warning("game %s: DM to %s failed: %s", game_id, user_id, exc)
            return False
        return True

    async def channel(self, user_id: int) -> discord.abc.Messageable:
        """The DM channel with ``user_id`` (opened once per run)."""
        ch = self._channels.get(user_id)
        if ch is None:
            # by id: no look-up of the user first (one request fewer per person)
            ch = await self.client.create_dm(discord.Object(user_id))
            self._channels[user_id] = ch
        return ch
