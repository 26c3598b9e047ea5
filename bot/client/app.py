"""The Discord application: start-up, the click handler, private replies.

A thin layer: it acknowledges every interaction at once, hands the work to the table
service and turns replies into messages. No game rules here.

Language: every interaction (command, autocomplete, click) first sets the current locale
to the user's Discord client language (:mod:`lang.i18n`), so private replies are written
in it; the command tree carries Discord's own localisations (:mod:`bot.client.translator`).
"""

from __future__ import annotations

import contextlib
import io
import logging
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.client.components import TempusButton, TempusSelect, dispatched, make_view, set_handler
from bot.client.translator import CatalogueTranslator
from bot.cluster.coordinator import Cluster, attach
from bot.publish.private_menus import retirer
from bot.publish.publisher import DiscordPublisher
from bot.publish.request_pace import GLOBAL_LIMIT, GlobalPace
from bot.publish.request_pace import install as install_global_pace
from bot.publish.text_fit import fit
from bot.runtime.config import Settings
from bot.runtime.memory import MemoryKeeper
from bot.runtime.worker_pool import Offloader
from bot.store import Storage
from bot.store.opening import open_storage
from bot.table.service import TableError, TableService
from bot.table.ui import ACT, CARDS, HELP, MENU, MUTE, QUIT, RECAP, UNDO, Panel
from bot.tempus import images
from bot.tempus.codec import ComponentId
from bot.timing.scheduler import Scheduler
from bot.timing.time_source import Clock, SystemClock
from lang import i18n
from lang.messages import t

log = logging.getLogger(__name__)


def use_interaction_locale(interaction: discord.Interaction[Any]) -> str:
    """Write this interaction's replies in the user's client language (and remember it
    for later DMs to them)."""
    i18n.remember_user(interaction.user.id, interaction.locale)
    return i18n.set_locale(interaction.locale)


async def panel_file(offloader: Offloader, panel: Panel, lang: str) -> discord.File | None:
    """The picture of a private menu (``panel.image``), with its description (alt
    text): the asker's hand, a map detail with the legal targets outlined, or a tile
    preview. None when the panel has no picture or it could not be drawn."""
    if panel.image is None or panel.image_view is None:
        return None
    v = panel.image_view
    if panel.image == "recap":
        png, alt = await offloader.run(images.recap_png_and_alt, v, panel.marks, panel.alt,
                                       lang)
        return discord.File(io.BytesIO(png), filename="recap.png", description=alt) \
            if png else None
    if panel.image == "hand":
        png = await offloader.run(images.hand_png, v, lang)
    elif panel.image == "crop":
        png = await offloader.run(images.crop_png, v, panel.focus, panel.highlight, lang)
    else:
        png = await offloader.run(images.board_png, v, panel.highlight, None, False, lang)
    if not png:
        return None
    alt = images.menu_alt(panel.image, v, panel.focus, panel.highlight, lang)
    return discord.File(io.BytesIO(png), filename=f"{panel.image}.png", description=alt)


class TempusTree(app_commands.CommandTree):
    """Sets the locale before every slash command and autocomplete (same task)."""

    async def interaction_check(self, interaction: discord.Interaction[Any], /) -> bool:
        use_interaction_locale(interaction)
        return True


class TempusBot(commands.AutoShardedBot):
    """discord.py client with the table service attached (no privileged intents).

    Sharded: ``settings.shard_ids`` of ``settings.shard_count`` shards run here (None: all
    of them, as many as Discord recommends); other processes may run the others
    (``bot.cluster.coordinator``)."""

    def __init__(self, settings: Settings, *, seed_source: Any = None,
                 clock: Clock | None = None) -> None:
        """``clock``: the time source of the turn clock (tests drive a FakeClock)."""
        intents = discord.Intents.none()
        intents.guilds = True
        super().__init__(command_prefix=commands.when_mentioned, intents=intents,
                         help_command=None, tree_cls=TempusTree,
                         # None: every shard (discord.py accepts it; its annotation omits it)
                         shard_ids=settings.shard_ids,  # type: ignore[arg-type]
                         shard_count=settings.shard_count)
        #: every REST request that counts towards Discord's global limit waits its turn
        #: processes sharing one token share the limit, by their part of the shards
        self.global_pace = install_global_pace(self.http, GlobalPace(
            max(1, int(GLOBAL_LIMIT * settings.ownership.share))))
        self.settings = settings
        self._seed_source = seed_source
        self.storage: Storage | None = None
        self.cluster: Cluster | None = None
        self.service: TableService | None = None
        self.offloader = Offloader(settings.workers)
        self.ai_offloader = Offloader(settings.ai_workers)
        self.publisher: DiscordPublisher | None = None
        self.clock: Clock = clock or SystemClock()
        self.scheduler: Scheduler | None = None
        self.memory: MemoryKeeper | None = None

    async def setup_hook(self) -> None:
        self.storage = await open_storage(self.settings.db)
        self.publisher = DiscordPublisher(self, self.storage, self.offloader,
                                          period=self.settings.outbox_period)
        # one scheduler for every game's reminders and deadlines (bot.timing.turn_clock)
        self.scheduler = Scheduler(self.clock)
        self.service = TableService(self.storage, self.publisher,
                                    ai_delay=self.settings.ai_delay,
                                    ai_budget_s=self.settings.ai_budget_s,
                                    offloader=self.ai_offloader,
                                    seed_source=self._seed_source,
                                    scheduler=self.scheduler,
                                    at_table_s=self.settings.at_table_s)
        self.publisher.on_thread = self.service.moved
        self.publisher.menus.attach(self.storage, self)  # DM menus outlive a restart
        i18n.store_locales_in(self.storage)  # so do people's languages
        self.service.owns = self.settings.ownership.owns  # games of this process's shards
        set_handler(self.on_component)
        self.add_dynamic_items(TempusButton, TempusSelect)
        from bot.client.commands import EXTENSIONS

        await self.tree.set_translator(CatalogueTranslator())
        for extension in EXTENSIONS:  # one cog per top-level command
            await self.load_extension(extension)
        await self.offloader.warm_up(images.warm)
        if self.settings.sync_commands:
            await self.tree.sync()
        # first claim this process's shards (bot.cluster.coordinator): a second process given the
        # same
        # ones refuses here, before it posts anything
        self.cluster = await attach(self.service, self.storage, self.settings.ownership)
        resumed = await self.service.resume_all()
        log.info("ready: %d active game(s) resumed", len(resumed))
        # DM menus sent before the restart: stale ones are retired, the others kept
        await self.publisher.menus.restore(self.service.menu_position)
        self.memory = MemoryKeeper(self.service.unload_idle, every_s=self.settings.memory_every,
                                   unload_after_s=self.settings.unload_after,
                                   also=(self.publisher.forget_idle,))
        self.memory.start()

    async def close(self) -> None:
        if self.memory is not None:
            await self.memory.close()
        if self.scheduler is not None:
            await self.scheduler.close()
        if self.cluster is not None:
            await self.cluster.close()
        if self.service is not None:
            await self.service.close()
        if self.publisher is not None:
            await self.publisher.close()
            await self.publisher.menus.flush()  # the DM menus sent are stored
        await i18n.saved()
        if self.storage is not None:
            await self.storage.close()
        self.offloader.close()
        self.ai_offloader.close()
        await super().close()

    # ------------------------------------------------------------------ clicks
    async def on_interaction(self, interaction: discord.Interaction[Any]) -> None:
        """A click that no control of ours receives (a forged or unknown id): a private
        refusal rather than silence."""
        if interaction.type is discord.InteractionType.component and not dispatched(interaction):
            use_interaction_locale(interaction)
            log.info("refused a click on an unknown control %r",
                     str(dict(interaction.data or {}).get("custom_id", ""))[:100])
            with contextlib.suppress(discord.HTTPException):
                await interaction.response.send_message(t("error.bad_control"), ephemeral=True)

    async def on_component(self, interaction: discord.Interaction[Any], cid: ComponentId,
                           values: list[str] | None) -> None:
        use_interaction_locale(interaction)
        msg = interaction.message
        in_place = msg is not None and (msg.flags.ephemeral or interaction.guild_id is None)
        try:
            # (the mute and recap buttons answer privately, like a menu: they change
            # nothing public)
            if cid.op in (MENU, HELP, RECAP, MUTE) and not in_place:
                await interaction.response.defer(ephemeral=True, thinking=True)
            else:
                await interaction.response.defer()
        except discord.HTTPException:
            log.warning("game %s: could not acknowledge a click in time", cid.game)
            return
        assert self.service is not None and self.publisher is not None
        if not in_place and cid.op not in (MENU, HELP, RECAP, MUTE):
            # a deferred update of a public message: its token may carry the game's next
            # board writes outside Discord's global limit (bot/publish/carriers.py)
            self.publisher.carriers.offer(cid.game, interaction)
        user = interaction.user
        perms = interaction.permissions
        # a private menu used for a decision says itself what happened: it must not also
        # be retired as "no longer current" by the announcement of that very decision
        taken = None
        if in_place and msg is not None and cid.op in (ACT, CARDS, QUIT, UNDO):
            taken = self.publisher.menus.take(msg.id)
        try:
            reply = await self.service.use(
                cid.game, cid.version, user.id, user.display_name, cid.op, cid.arg, values,
                can_manage=bool(perms and perms.manage_channels))
        except TableError as exc:
            if taken is not None and msg is not None:
                self.publisher.menus.put_back(msg.id, taken)
            await self._followup(interaction, str(exc))
            return
        except Exception:
            log.exception("game %s: click %s by %s failed", cid.game, cid.op, user.id)
            await self._followup(interaction, t("error.internal"))
            return
        try:
            if reply.menu is not None:
                await self.show_panel(interaction, reply.menu, cid.game, reply.version,
                                      edit=in_place)
            elif in_place:
                await interaction.edit_original_response(content=reply.text or "✓", view=None,
                                                         attachments=[])
        except discord.HTTPException:
            log.exception("game %s: replying to a click failed", cid.game)

    async def _followup(self, interaction: discord.Interaction[Any], text: str) -> None:
        try:
            await interaction.followup.send(text, ephemeral=True)
        except discord.HTTPException:
            log.warning("could not send an error reply: %s", text)

    async def show_panel(self, interaction: discord.Interaction[Any], panel: Panel,
                         game_id: int, version: int, *, edit: bool = False) -> None:
        """Send ``panel`` privately as the reply to a deferred interaction."""
        picture = await panel_file(self.offloader, panel, i18n.current())
        files: list[discord.File] = [picture] if picture is not None else []
        view = make_view(panel, game_id, version)
        content = fit(panel.text.splitlines())
        if edit:
            msg: Any = await interaction.edit_original_response(content=content, view=view,
                                                                attachments=files)
        else:
            kwargs: dict[str, Any] = {"ephemeral": True, "files": files}
            if view is not None:
                kwargs["view"] = view
            msg = await interaction.followup.send(content, **kwargs)
        if view is None and edit and interaction.message is not None \
                and self.publisher is not None:
            # a menu closed (or answered) in place is a menu no more: retiring it later
            # would bring back its old text and say it is no longer current
            self.publisher.menus.forget(interaction.message.id)
        if view is not None and msg is not None and self.publisher is not None:
            # retired ("no longer current") once the decision it is for has passed: a DM
            # through its channel (no time limit), an ephemeral reply through the
            # interaction's token (15 minutes)
            in_dm = interaction.guild_id is None and interaction.message is not None
            # (a DM menu through a partial message: the clicked one, with every parsed
            # select option, would stay in memory as long as the decision waits)
            clicked = interaction.message
            edit_with = (self.get_partial_messageable(clicked.channel.id)
                         .get_partial_message(clicked.id).edit
                         if in_dm and clicked is not None else msg.edit)
            self.publisher.menus.remember(
                msg.id, game_id, interaction.user.id, version,
                retirer(edit_with, content, t("menu.expired")), ephemeral=not in_dm)
