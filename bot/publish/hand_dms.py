"""Each person's secret cards and private choices, by DM (split from the publisher).

A DM carries only the receiving seat's own view. **One hand message per person and game**
shows their cards: it is posted once and then edited in place as the hand changes (an edit
does not notify; a new DM would), with what changed on top ("New: ..."). Its id is stored
(``hand_messages``), so it is edited after a restart too, and it lives in its owner's DMs
only. A **secret choice** comes as a DM of its own only to someone away from the table (the
table service leaves it out for whoever clicked lately: they choose on the turn message),
once per decision; once the decision has passed it is retired like any private menu.

Each person has an outbox of their own (paced like a channel); an update that still waits
there takes the next outcome's news in too. A DM that cannot be delivered never stops the
game: the player is told once in the game's thread (without any detail) to use
``/tempus hand``.
"""

from __future__ import annotations

import io
import logging
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

import discord

from bot.publish.components import make_view
from bot.publish.outbox import POST, Outboxes
from bot.publish.private_menus import PrivateMenus, current, retirer
from bot.publish.request_pace import BACKGROUND, URGENT, priority
from bot.publish.text_fit import MAX_CONTENT, fit
from bot.runtime.worker_pool import Offloader
from bot.store import SeatRow, Storage
from bot.table.model import Outcome
from games import registry
from games.controls import Panel
from games.registry import DEFAULT as DEFAULT_GAME
from lang import i18n
from lang.messages import t

log = logging.getLogger(__name__)


@dataclass
class PendingHand:
    """A person's hand message for one game, not yet brought up to date, and a secret
    choice not yet sent: everything since the last write (news lines add up, the newest
    hand and the newest private choice win)."""

    game_id: int
    user_id: int
    play: int
    locale: str
    news: list[str] = field(default_factory=list)
    hand_view: dict[str, Any] | None = None
    panel: Panel | None = None
    version: int = 0
    #: which game it is (games.registry's name): its media draws and words the hand
    game_name: str = DEFAULT_GAME


class HandDMs:
    """The DMs of a bot: hand messages and private choices, reminders, notices."""

    def __init__(self, client: discord.Client, offloader: Offloader, menus: PrivateMenus,
                 latest: Mapping[int, tuple[list[SeatRow], dict[int, int]]],
                 tell_in_thread: Callable[[int, str, list[int]], None],
                 *, period: float = 5.0, storage: Storage | None = None) -> None:
        self.client = client
        self.offloader = offloader
        self.menus = menus
        self.storage = storage
        #: each game's newest seats and owed decisions (is a private choice still current?)
        self._latest = latest
        #: posts a line in a game's thread: (channel, text, user ids to mention)
        self._tell = tell_in_thread
        #: one outbox per person (by user id), paced like a channel
        self.outboxes = Outboxes(period=period)
        self._hands: dict[tuple[int, int], PendingHand] = {}
        self._secrets: dict[tuple[int, int], PendingHand] = {}
        #: (game, person) -> their hand message (DM channel, message), once known
        self._hand_messages: dict[tuple[int, int], tuple[int, int]] = {}
        self._failed: set[int] = set()
        self._channels: dict[int, discord.abc.Messageable] = {}
        #: (game, person) -> the hand message's line with their live page's link, or None
        #: (set when the live pages are on, bot/web)
        self.board_link: Callable[[int, int], str | None] | None = None

    def queue(self, play: int, o: Outcome) -> None:
        """Queue each person's hand message update and secret choice in their own outbox;
        one still waiting takes this outcome's news in too."""
        for seat in sorted({*o.hand_views, *o.secret_panels, *o.private_lines}):
            user_id = o.seats[seat].user_id
            if user_id is None:
                continue
            key = (o.game_id, user_id)
            hand_view = o.hand_views.get(seat)
            news = o.private_lines.get(seat, [])
            if hand_view is not None or news:
                p = self._pending(self._hands, key, play, o)
                p.news += news
                if hand_view is not None:
                    p.hand_view = hand_view

                async def write_hand(key: tuple[int, int] = key) -> bool:
                    await self._write_hand(key)
                    return False
                self.outboxes.submit(user_id, write_hand, key=f"hand:{o.game_id}")
            panel = o.secret_panels.get(seat)
            if panel is not None:
                p = self._pending(self._secrets, key, play, o)
                p.panel, p.version = panel, o.version
                p.hand_view = panel.image_view

                async def write_secret(key: tuple[int, int] = key) -> bool:
                    await self._send_secret(key)
                    return False
                self.outboxes.submit(user_id, write_secret, key=f"secret:{o.game_id}",
                                     kind=POST)

    def _pending(self, where: dict[tuple[int, int], PendingHand], key: tuple[int, int],
                 play: int, o: Outcome) -> PendingHand:
        p = where.get(key)
        if p is None:
            p = where[key] = PendingHand(o.game_id, key[1], play, o.locale,
                                         game_name=o.game_name)
        p.play, p.locale = play, o.locale
        return p

    # ------------------------------------------------------------------ the hand message
    async def _write_hand(self, key: tuple[int, int]) -> None:
        p = self._hands.pop(key, None)
        if p is None or (p.hand_view is None and not p.news):
            return
        with i18n.using(i18n.user_locale(p.user_id, p.locale)), priority(BACKGROUND):
            ok = await self.write_hand(p)
        self._delivered(p, ok)

    async def write_hand(self, p: PendingHand) -> bool:
        """Bring the person's hand message up to date (posted the first time, edited after:
        an edit does not notify); False if their DMs refuse it."""
        lines = [t("hand.drawn", what=n) for n in p.news]
        files = []
        if p.hand_view is not None:
            media = registry.game(p.game_name).media
            lines.append(media.hand_text(p.game_id, p.hand_view))
            files = await self._hand_picture(p.game_name, p.hand_view)
            link = self.board_link(p.game_id, p.user_id) if self.board_link else None
            if link:
                lines.append(link)
        content = fit(lines)
        known = await self._hand_message(p.game_id, p.user_id)
        try:
            if known is not None:
                channel_id, message_id = known
                edit: dict[str, Any] = {"content": content}
                if p.hand_view is not None:  # news alone keeps the picture as it is
                    edit["attachments"] = files
                try:
                    await self.client.get_partial_messageable(channel_id).get_partial_message(
                        message_id).edit(**edit)
                    return True
                except discord.NotFound:  # deleted by its owner: a new one below
                    log.info("game %s: hand message of %s gone, posting anew", p.game_id,
                             p.user_id)
            dm = await self.channel(p.user_id)
            msg = await dm.send(content, files=files)
        except discord.Forbidden:
            return False
        except discord.HTTPException as exc:
            log.warning("game %s: hand DM to %s failed: %s", p.game_id, p.user_id, exc)
            return False
        self._hand_messages[(p.game_id, p.user_id)] = (msg.channel.id, msg.id)
        if self.storage is not None:
            try:
                await self.storage.set_hand_message(p.game_id, p.user_id, msg.channel.id,
                                                    msg.id)
            except Exception as exc:  # not kept: after a restart a new one is posted once
                log.warning("game %s: hand message of %s not stored: %s", p.game_id,
                            p.user_id, exc)
        return True

    async def _hand_message(self, game_id: int, user_id: int) -> tuple[int, int] | None:
        """The person's hand message in the game (in memory, else as stored)."""
        known = self._hand_messages.get((game_id, user_id))
        if known is None and self.storage is not None:
            try:
                known = await self.storage.hand_message(game_id, user_id)
            except Exception as exc:
                log.warning("game %s: cannot read the hand message of %s: %s", game_id,
                            user_id, exc)
            if known is not None:
                self._hand_messages[(game_id, user_id)] = known
        return known

    async def _hand_picture(self, game_name: str, hand_view: dict[str, Any]
                            ) -> list[discord.File]:
        media = registry.game(game_name).media
        png, alt = await self.offloader.run(media.picture, "hand", hand_view, i18n.current())
        if not png:
            return []
        return [discord.File(io.BytesIO(png), filename="hand.png", description=alt)]

    # ------------------------------------------------------------------ secret choices
    async def _send_secret(self, key: tuple[int, int]) -> None:
        p = self._secrets.pop(key, None)
        if p is None or p.panel is None:
            return
        seats, since = self._latest.get(p.game_id, ([], {}))
        if not current(seats, since, p.user_id, p.version):
            return  # the choice has passed while this waited: nothing to ask any more
        if await self._asked(p):
            return  # never twice for one decision (announced again after a restart)
        # a private choice is something the person waits for
        with i18n.using(i18n.user_locale(p.user_id, p.locale)), priority(URGENT):
            ok = await self.send_hand(p.user_id, p.game_id, p.version, p.hand_view, [],
                                      p.panel, game_name=p.game_name)
        self._delivered(p, ok)

    async def _asked(self, p: PendingHand) -> bool:
        """Whether a DM menu for this decision (made at its version or later) was sent
        already: kept in memory, or stored before a restart."""
        if self.menus.has_menu(p.game_id, p.user_id, p.version):
            return True
        if self.storage is None:
            return False
        try:
            rows = await self.storage.private_menus(p.game_id)
        except Exception as exc:  # unreadable: asking again is better than not asking
            log.warning("game %s: cannot read the DM menus: %s", p.game_id, exc)
            return False
        return any(r.user_id == p.user_id and r.version >= p.version for r in rows)

    def _delivered(self, p: PendingHand, ok: bool) -> None:
        if ok:
            self._failed.discard(p.user_id)
        elif p.user_id not in self._failed:
            self._failed.add(p.user_id)
            with i18n.using(p.locale):
                self._tell(p.play, t("dm.failed", user=p.user_id), [p.user_id])

    async def send_hand(self, user_id: int, game_id: int, version: int,
                        hand_view: dict[str, Any] | None, news: list[str],
                        panel: Panel | None, *, game_name: str) -> bool:
        """DM a hand (text and picture) and, if owed, the secret choice; False if refused."""
        lines = [t("hand.drawn", what=n) for n in news]
        if panel is not None:
            lines.append(t("secret.intro", game=game_id, prompt=panel.text))
        elif hand_view is not None:
            lines.append(registry.game(game_name).media.hand_text(game_id, hand_view))
        files = (await self._hand_picture(game_name, hand_view) if hand_view is not None
                 else [])
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
