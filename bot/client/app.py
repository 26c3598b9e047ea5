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
from pathlib import Path
from typing import Any, Protocol, cast

import discord
from discord import app_commands
from discord.ext import commands

from bot.client import replies
from bot.client.activity_launch import Launcher
from bot.client.command_sync import sync_commands
from bot.client.components import dispatch, dispatched
from bot.client.translator import CatalogueTranslator
from bot.cluster.coordinator import Cluster, attach
from bot.operator.settings import Settings
from bot.publish.components import make_view
from bot.publish.private_menus import retirer
from bot.publish.publisher import DiscordPublisher
from bot.publish.request_pace import GLOBAL_LIMIT, GlobalPace
from bot.publish.request_pace import install as install_global_pace
from bot.publish.text_fit import fit
from bot.runtime.health import HealthFile
from bot.runtime.health import default_path as default_health_path
from bot.runtime.memory import MemoryKeeper, freeze_start_up
from bot.runtime.shutdown import InFlight
from bot.runtime.worker_pool import Offloader
from bot.store import ACTIVE, LOBBY, Storage, StorageUnavailable
from bot.store.backup import BackupKeeper, folder_of
from bot.store.integrity import IntegrityWatch
from bot.store.journal import Journal
from bot.store.opening import open_storage
from bot.store.sqlite import SqliteStorage
from bot.table.model import public as in_table_language
from bot.table.service import TableError, TableService
from bot.timing.scheduler import Scheduler
from bot.timing.time_source import Clock, SystemClock
from games import registry
from games.controls import Op, Panel
from games.custom_ids import ComponentId
from games.port import Media
from lang import i18n
from lang.messages import t

log = logging.getLogger(__name__)


def use_interaction_locale(interaction: discord.Interaction[Any]) -> str:
    """Write this interaction's replies in the user's client language (and remember it
    for later DMs to them)."""
    i18n.remember_user(interaction.user.id, interaction.locale)
    return i18n.set_locale(interaction.locale)


async def panel_file(offloader: Offloader, panel: Panel, lang: str, media: Media
                     ) -> discord.File | None:
    """The picture of a private menu (``panel.image``), drawn by its game's ``media``,
    with its description (alt text): the asker's hand, a map detail with the legal
    targets outlined, a tile preview, a recap's marked board. None when the panel has no
    picture or it could not be drawn."""
    if panel.image is None or panel.image_view is None:
        return None
    png, alt = await offloader.run(media.picture, panel.image, panel.image_view, lang,
                                   panel.focus, panel.highlight, panel.marks, panel.alt)
    if not png:
        return None
    return discord.File(io.BytesIO(png), filename=f"{panel.image}.png", description=alt)


class Beside(Protocol):
    """A front end run beside the Discord client, on its table service (bot/web)."""

    async def attach(self, bot: Any) -> None: ...

    async def close(self) -> None: ...


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
                 clock: Clock | None = None, freeze: bool = False) -> None:
        """``clock``: the time source of the turn clock (tests drive a FakeClock);
        ``freeze``: what start-up made is frozen out of the collector's sight before the
        first game is loaded (``bot.runtime.memory.freeze_start_up``): for a process of
        its own, not a test's that runs many bots."""
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
        self._freeze = freeze
        self.storage: Storage | None = None
        self.cluster: Cluster | None = None
        self.service: TableService | None = None
        self.offloader = Offloader(settings.workers)
        self.ai_offloader = Offloader(settings.ai_workers)
        self.publisher: DiscordPublisher | None = None
        self.clock: Clock = clock or SystemClock()
        self.scheduler: Scheduler | None = None
        self.memory: MemoryKeeper | None = None
        #: set on SIGTERM/SIGINT (bot.runtime.shutdown): clicks and commands are refused
        self.stopping = False
        #: the interactions being handled now (a stop lets them finish)
        self.inflight = InFlight()
        self._closed = False
        self.integrity: IntegrityWatch | None = None
        self.backups: BackupKeeper | None = None
        self.health: HealthFile | None = None
        #: front ends beside this one on the same table service (the live pages, started
        #: by ``python -m bot`` when enabled): attached once the service and the publisher
        #: exist, before any game is resumed; closed first
        self.beside: list[Beside] = []
        #: the Board button opening the live page inside Discord (on when the pages say)
        self.launcher = Launcher()

    @property
    def api_base(self) -> str:
        """Discord's REST API root that discord.py talks to (a test's fake, in tests)."""
        return str(discord.http.Route.BASE)

    def begin_stop(self) -> None:
        """Take no more clicks or commands (each gets "restarting, try again")."""
        self.stopping = True

    async def settle(self) -> None:
        """Stop the computer players and write what is queued (a clean stop)."""
        if self.service is not None:
            await self.service.computers.close()
            await self.service.announcer.drain()
        elif self.publisher is not None:
            await self.publisher.drain()

    async def refuse_while_stopping(self, interaction: discord.Interaction[Any]) -> None:
        """The private answer to a click or command that comes while the bot stops."""
        with contextlib.suppress(discord.HTTPException):
            await interaction.response.send_message(t("error.restarting"), ephemeral=True)

    async def setup_hook(self) -> None:
        self.storage = await open_storage(self.settings.db)
        self._keep_journal(self.storage)
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
        self.publisher.on_left_thread = self.service.left_thread
        self.publisher.menus.attach(self.storage, self)  # DM menus outlive a restart
        i18n.store_locales_in(self.storage)  # so do people's languages
        self.service.owns = self.settings.ownership.owns  # games of this process's shards
        for part in self.beside:
            await part.attach(self)
        from bot.client.commands import EXTENSIONS

        await self.tree.set_translator(CatalogueTranslator())
        for extension in EXTENSIONS:  # one cog per top-level command
            await self.load_extension(extension)
        for name in registry.names():  # every game's drawing, before the first board
            await self.offloader.warm_up(registry.game(name).media.warm)
        if self.settings.sync_commands:
            await sync_commands(self.tree, activity=bool(self.application_flags
                                                          and self.application_flags.embedded))
        if self._freeze:
            # what start-up made lives as long as the process: out of the collector's
            # sight, before the first game is loaded (bot.runtime.memory)
            freeze_start_up()
        # first claim this process's shards (bot.cluster.coordinator): a second process given
        # the same ones refuses here, before it posts anything
        self.cluster = await attach(self.service, self.storage, self.settings.ownership)
        resumed = await self.service.sync.resume_all()
        log.info("ready: %d active game(s) resumed", len(resumed))
        # DM menus sent before the restart: stale ones are retired, the others kept
        await self.publisher.menus.restore(self.service.play.menu_position)
        self.memory = MemoryKeeper(self.service.unload_idle, every_s=self.settings.memory_every,
                                   unload_after_s=self.settings.unload_after,
                                   also=(self.publisher.forget_idle,))
        self.memory.start()
        self._start_upkeep()

    def _keep_journal(self, storage: Storage) -> None:
        """Every change from the first write on also goes to the journal beside the
        backups (bot/store/journal.py), so the last backup plus the journal bring back
        every action acknowledged, even if the database file is damaged."""
        s = self.settings
        if not (isinstance(storage, SqliteStorage) and s.journal and s.backup_every > 0
                and storage.path not in ("", ":memory:")):
            return
        journal = Journal(folder_of(s.db, s.backup_dir), Path(s.db).stem)
        try:
            journal.rotate()  # its first file now (before any write): a folder we cannot
        except OSError as exc:  # write to must not refuse every action of every game
            log.error("no journal of changes (%s): a damaged database can only be "
                      "restored to its last backup; set TEMPUS_BACKUP_DIR to a folder the "
                      "bot can write to", exc)
            return
        storage.journal = journal

    def _start_upkeep(self) -> None:
        """The database watched, backed up, and the health file kept fresh."""
        storage = self.storage
        if isinstance(storage, SqliteStorage):
            storage.on_broken = self._storage_broken
            self.integrity = IntegrityWatch(storage.quick_check,
                                            self.settings.quick_check_every)
            self.integrity.start()
            self.backups = BackupKeeper(self.settings.db, self.settings.backup_every,
                                        keep=self.settings.backup_keep,
                                        folder=self.settings.backup_dir,
                                        broken=lambda: storage.broken is not None,
                                        journal=storage.journal,
                                        rotate=storage.rotate_journal)
            self.backups.start()
        elif self.settings.backup_every_set:
            log.warning("TEMPUS_BACKUP_EVERY is for a SQLite file; back PostgreSQL up with "
                        "pg_dump (README, compose.yaml)")
        self.health = HealthFile(self.settings.health_file or default_health_path(),
                                 self.settings.health_every, gateway=self._connected,
                                 db=self._db_writable)
        self.health.start()

    def _connected(self) -> bool:
        return (self.is_ready() and not self.is_closed()
                and all(not s.is_closed() for s in self.shards.values()))

    async def _db_writable(self) -> str | None:
        assert self.storage is not None
        writable = getattr(self.storage, "writable", None)
        if writable is not None:
            return cast(str | None, await writable())
        await self.storage.game_ref(0)  # PostgreSQL: the server answers a read
        return None

    def _storage_broken(self, why: StorageUnavailable) -> None:
        """The database was deleted, replaced or damaged under the bot: the players of
        every game in play are told once (every action is refused from now on)."""
        if self.backups is not None and self.backups.newest is not None:
            log.error("the newest backup is %s", self.backups.newest)
        if self.service is None or self.publisher is None:
            return
        for table in self.service.tables:
            if table.game.status not in (ACTIVE, LOBBY):
                continue
            with in_table_language(table):
                text = t("notice.storage_broken", game=table.id)
            self.publisher.notice(table.game.play_channel_id, text)

    async def close(self) -> None:
        if self._closed:  # a clean stop closes, then ``async with`` closes again
            await super().close()
            return
        self._closed = True
        for front in self.beside:
            await front.close()
        for part in (self.health, self.integrity, self.backups):
            if part is not None:
                await part.close()
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

    # ------------------------------------------------------------------ threads
    async def on_raw_thread_update(self, payload: discord.RawThreadUpdateEvent) -> None:
        """A game's thread locked by a moderator: the game goes on in the channel; only
        archived (idle, or by a moderator): it is brought back before the next write."""
        meta = dict(payload.data.get("thread_metadata") or {})
        if self.publisher is None:
            return
        if meta.get("locked"):
            await self.publisher.thread_changed(payload.thread_id, locked=True)
        elif meta.get("archived"):
            await self.publisher.thread_changed(payload.thread_id, archived=True)

    async def on_raw_thread_delete(self, payload: discord.RawThreadDeleteEvent) -> None:
        if self.publisher is not None:
            await self.publisher.thread_changed(payload.thread_id, deleted=True)

    # ------------------------------------------------------------------ clicks
    async def on_interaction(self, interaction: discord.Interaction[Any]) -> None:
        """A click: to :meth:`on_component` if it is on one of our controls, else (a forged
        or unknown id) a private refusal rather than silence. (Commands and autocomplete
        are the command tree's.)"""
        if interaction.type is not discord.InteractionType.component:
            return
        cid = dispatched(interaction)
        if cid is not None:
            await dispatch(interaction, cid, self.on_component)
        else:
            use_interaction_locale(interaction)
            log.info("refused a click on an unknown control %r",
                     str(dict(interaction.data or {}).get("custom_id", ""))[:100])
            with contextlib.suppress(discord.HTTPException):
                await interaction.response.send_message(t("error.bad_control"), ephemeral=True)

    async def on_component(self, interaction: discord.Interaction[Any], cid: ComponentId,
                           values: list[str] | None) -> None:
        received = replies.now()
        use_interaction_locale(interaction)
        if self.stopping:
            await self.refuse_while_stopping(interaction)
            return
        with self.inflight.track():
            await self._on_component(interaction, cid, values, received)

    async def _on_component(self, interaction: discord.Interaction[Any], cid: ComponentId,
                            values: list[str] | None, received: float) -> None:
        msg = interaction.message
        in_place = msg is not None and (msg.flags.ephemeral or interaction.guild_id is None)
        # the op says how it is acknowledged (None: an unknown op, which the table refuses)
        op = Op.named(cid.op)
        if op is not None and op.of_lesson:
            await self._lesson_click(interaction, cid, values, received)
            return
        if op is Op.BOARD and self.launcher.may_launch(interaction) \
                and await self._shown_in_channel(cid.game, interaction.channel_id) \
                and await self.launcher.launch(interaction, received):
            # the page opens in Discord (else the link below); as any click, its person
            # is at the table for a while: no pings meanwhile
            if self.service is not None:
                self.service.presence.seen(cid.game, interaction.user.id)
            return
        private = op is not None and op.answers_privately
        if private and not in_place:
            def ack() -> Any:
                return interaction.response.defer(ephemeral=True, thinking=True)
        else:
            def ack() -> Any:
                return interaction.response.defer()
        if not await replies.acknowledge(interaction, ack, received):
            log.warning("game %s: could not acknowledge a click in time", cid.game)
            return
        assert self.service is not None and self.publisher is not None
        if not in_place and not private:
            # a deferred update of a public message: its token may carry the game's next
            # board writes outside Discord's global limit (bot/publish/carriers.py)
            self.publisher.carriers.offer(cid.game, interaction)
        user = interaction.user
        perms = interaction.permissions
        # a private menu used for a decision says itself what happened: it must not also
        # be retired as "no longer current" by the announcement of that very decision
        taken = None
        if in_place and msg is not None and op is not None and op.decides:
            taken = self.publisher.menus.take(msg.id)
        try:
            reply = await self.service.clicks.use(
                cid.game, cid.version, user.id, user.display_name, cid.op, cid.arg, values,
                can_manage=bool(perms and perms.manage_channels))
        except TableError as exc:
            if taken is not None and msg is not None:
                self.publisher.menus.put_back(msg.id, taken)
            await self._followup(interaction, str(exc), received)
            return
        except Exception:
            log.exception("game %s: click %s by %s failed", cid.game, cid.op, user.id)
            await self._followup(interaction, t("error.internal"), received)
            return
        if reply.menu is not None:
            menu = reply.menu
            await replies.deliver(
                interaction, lambda: self.show_panel(interaction, menu, cid.game,
                                                     reply.version, edit=in_place),
                t("reply.menu_lost"), received, f"a private menu of game {cid.game}")
        elif in_place:
            text = reply.text or "✓"
            await replies.deliver(
                interaction, lambda: interaction.edit_original_response(
                    content=text, view=None, attachments=[]),
                text, received, f"the answer to a click in game {cid.game}")

    async def _shown_in_channel(self, game_id: int, channel_id: int | None) -> bool:
        """Whether the Activity, which finds its game from its channel, would show this
        game there (not for a button of an older game of the channel: its link instead)."""
        if self.service is None or channel_id is None:
            return False
        try:
            return await self.service.tables.last_game_in_channel(channel_id) == game_id
        except TableError:
            return False

    async def _lesson_click(self, interaction: discord.Interaction[Any], cid: ComponentId,
                            values: list[str] | None, received: float) -> None:
        """A click on a lesson's page (its private thread's message, or a private reply):
        the next page replaces the one clicked, for the clicker alone to see; nothing is
        announced and nobody is pinged (bot/table/lessons.py)."""
        if not await replies.acknowledge(interaction, interaction.response.defer, received):
            log.warning("lesson %s: could not acknowledge a click in time", cid.game)
            return
        assert self.service is not None
        user = interaction.user
        try:
            reply = await self.service.clicks.use(cid.game, cid.version, user.id,
                                                  user.display_name, cid.op, cid.arg, values)
        except TableError as exc:
            await self._followup(interaction, str(exc), received)
            return
        except Exception:
            log.exception("lesson %s: click %s by %s failed", cid.game, cid.op, user.id)
            await self._followup(interaction, t("error.internal"), received)
            return
        page = reply.page
        if page is None:
            return
        await replies.deliver(
            interaction, lambda: self.show_page(interaction, page, cid.game, reply.version,
                                                reply.page_game),
            t("reply.menu_lost"), received, f"a page of lesson {cid.game}")

    async def page_files(self, panel: Panel, game: str) -> list[discord.File]:
        """A lesson page's picture, drawn by its game (none if it could not be)."""
        if panel.image is None:
            return []
        picture = await panel_file(self.offloader, panel, i18n.current(),
                                   registry.game(game).media)
        return [picture] if picture is not None else []

    async def show_page(self, interaction: discord.Interaction[Any], panel: Panel,
                        lesson_id: int, version: int, game: str) -> None:
        """A lesson's page in place of the message clicked (the original response of a
        deferred update), its controls made for the lesson's number and the page's."""
        files = await self.page_files(panel, game)
        await interaction.edit_original_response(
            content=fit(panel.text.splitlines()), attachments=files,
            view=make_view(panel, lesson_id, version),
            allowed_mentions=discord.AllowedMentions.none())

    async def _followup(self, interaction: discord.Interaction[Any], text: str,
                        received: float) -> None:
        """A private refusal, shown eventually (or sent by DM)."""
        await replies.deliver(interaction,
                              lambda: replies.answer(interaction, text),
                              text, received, "a refusal")

    async def show_panel(self, interaction: discord.Interaction[Any], panel: Panel,
                         game_id: int, version: int, *, edit: bool = False) -> None:
        """Send ``panel`` privately as the reply to a deferred interaction."""
        picture = None
        if panel.image is not None:  # drawn by the game the table plays
            assert self.service is not None
            table = await self.service.tables.get(game_id)
            picture = await panel_file(self.offloader, panel, i18n.current(),
                                       registry.game(table.game.kind).media)
        files: list[discord.File] = [picture] if picture is not None else []
        view = make_view(panel, game_id, version)
        content = fit(panel.text.splitlines())
        if edit:
            msg: Any = await interaction.edit_original_response(content=content, view=view,
                                                                attachments=files)
        else:
            msg = await replies.answer(interaction, content, files=files, view=view)
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
