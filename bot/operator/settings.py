"""Settings from the environment (and command-line flags on top)."""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum

from bot.cluster.ownership import Ownership, parse_shards
from bot.runtime.worker_pool import default_workers
from bot.store.backup import DEFAULT_EVERY, seconds
from bot.store.opening import is_postgres_url
from bot.timing.presence import AT_TABLE_S
from lang.messages import t


class EventLoop(StrEnum):
    """The event loop the bot runs on (``TEMPUS_EVENT_LOOP``)."""

    #: libuv's (the ``uvloop`` package, requirements.txt): the loop's own work (ready
    #: callbacks, timers, sockets) in C; asyncio's where it is not installed
    UVLOOP = "uvloop"
    #: the standard library's selector loop
    ASYNCIO = "asyncio"


@dataclass
class Settings:
    token: str | None = field(default=None, repr=False)  # (secrets stay out of logs)
    #: a SQLite file, or a ``postgresql://`` URL (several processes sharing the games)
    db: str = "tempus.db"
    #: the gateway shards this process runs (None: all of them) and how many there are
    #: over all processes (None: as Discord recommends)
    shard_ids: list[int] | None = None
    shard_count: int | None = None
    #: worker processes for rendering (0: threads); one per CPU core unless set
    workers: int = field(default_factory=default_workers)
    #: worker processes for computer players' thinking, apart from rendering so that a
    #: long search never delays a board post (0: threads)
    ai_workers: int = 1
    #: seconds a computer player waits before each action, so people can follow
    ai_delay: float = 0.8
    ai_budget_s: float | None = None
    #: register the slash commands with Discord at start-up
    sync_commands: bool = True
    #: the per-channel write bucket the outbox paces itself to: 5 writes per this many
    #: seconds (Discord: 5 s; a time-scaled test Discord uses less)
    outbox_period: float = 5.0
    #: games unused this many seconds are unloaded from memory (bot.runtime.memory), checked
    #: every ``memory_every`` seconds (0: never)
    unload_after: float = 300.0
    memory_every: float = 60.0
    #: a backup of the SQLite database at start and every this many seconds (0: none),
    #: the newest ``backup_keep`` kept in ``backup_dir`` (None: ``backups`` beside the
    #: database); ``backup_every_set``: given in the environment (not the default)
    backup_every: float = seconds(DEFAULT_EVERY)
    backup_keep: int = 7
    backup_dir: str | None = None
    backup_every_set: bool = False
    #: a journal of every change beside the backups (bot/store/journal.py), while backups
    #: are made: what ``python -m bot restore`` replays on the last backup
    journal: bool = True
    #: SQLite's ``quick_check`` every this many seconds while the bot runs (0: never)
    quick_check_every: float = 300.0
    #: the health file (bot.runtime.health; None: the default path) and how often it is
    #: written (0: never)
    health_file: str | None = None
    health_every: float = 15.0
    #: seconds after a click that a person counts as at the table: no ping and no DM for
    #: a secret choice while they are (0: everyone counts as away; bot.timing.presence)
    at_table_s: float = AT_TABLE_S
    #: the event loop (uvloop's unless told otherwise)
    event_loop: EventLoop = EventLoop.UVLOOP
    #: the live pages (bot/web): served on this port (None: off) for the public address
    #: ``web_url`` (a TLS reverse proxy's, which forwards to this port), listening on
    #: ``web_host``; links signed with ``web_secret`` (None: one kept in the data folder),
    #: a seat's link valid ``web_link_hours``; the secret made once kept in
    #: ``web_secret_dir`` (None: beside the SQLite file, or the working folder)
    web_port: int | None = None
    web_url: str | None = None
    web_host: str = "0.0.0.0"
    web_secret: str | None = field(default=None, repr=False)
    web_secret_dir: str | None = None
    web_link_hours: float = 72.0
    #: the live page as the application's Discord Activity: its OAuth2 client secret (from
    #: the developer portal; None: off, the Board button gives links); needs the pages on
    activity_secret: str | None = field(default=None, repr=False)
    #: only for tests: where the Discord REST API and gateway are
    api_base: str | None = None
    gateway: str | None = None

    @classmethod
    def from_env(cls, env: dict[str, str] | None = None) -> Settings:
        e = os.environ if env is None else env
        shards = e.get("TEMPUS_SHARDS") or None
        count = e.get("TEMPUS_SHARD_COUNT") or None
        shard_ids = parse_shards(shards) if shards else None
        try:
            shard_count = int(count) if count else None
        except ValueError:
            raise ValueError(f"TEMPUS_SHARD_COUNT={count!r} is not a number") from None
        ownership = Ownership.of(shard_ids, shard_count)  # a count is needed, ids below it
        db = e.get("TEMPUS_DB") or "tempus.db"
        if not ownership.everything and not is_postgres_url(db):
            # refused before connecting to Discord: a process running some shards shares
            # the games with the others through PostgreSQL (bot.cluster.coordinator)
            raise ValueError(t("cluster.shards_need_postgres", shards=shards, db=db))
        return cls(
            token=e.get("DISCORD_TOKEN") or None,
            db=db,
            shard_ids=shard_ids,
            shard_count=shard_count,
            workers=int(e.get("TEMPUS_WORKERS") or default_workers()),
            ai_workers=int(e.get("TEMPUS_AI_WORKERS", e.get("TEMPUS_WORKERS", "1"))),
            ai_delay=float(e.get("TEMPUS_AI_DELAY", "0.8")),
            ai_budget_s=float(e["TEMPUS_AI_BUDGET"]) if e.get("TEMPUS_AI_BUDGET") else None,
            sync_commands=e.get("TEMPUS_SYNC_COMMANDS", "1") != "0",
            outbox_period=float(e.get("TEMPUS_OUTBOX_PERIOD") or 5.0),
            unload_after=float(e.get("TEMPUS_UNLOAD_AFTER") or 300.0),
            memory_every=float(e.get("TEMPUS_MEMORY_EVERY") or 60.0),
            backup_every=seconds(e.get("TEMPUS_BACKUP_EVERY") or DEFAULT_EVERY),
            backup_every_set=bool(e.get("TEMPUS_BACKUP_EVERY")),
            journal=e.get("TEMPUS_JOURNAL", "1") != "0",
            backup_keep=int(e.get("TEMPUS_BACKUP_KEEP") or 7),
            backup_dir=e.get("TEMPUS_BACKUP_DIR") or None,
            quick_check_every=seconds(e.get("TEMPUS_QUICK_CHECK_EVERY") or "300"),
            health_file=e.get("TEMPUS_HEALTH_FILE") or None,
            health_every=seconds(e.get("TEMPUS_HEALTH_EVERY") or "15"),
            at_table_s=_seconds(e, "TEMPUS_AT_TABLE_S", AT_TABLE_S),
            event_loop=_event_loop(e.get("TEMPUS_EVENT_LOOP") or EventLoop.UVLOOP),
            web_port=_port(e.get("TEMPUS_WEB_PORT") or ""),
            web_url=_web_url(e.get("TEMPUS_WEB_URL") or ""),
            web_host=e.get("TEMPUS_WEB_HOST") or "0.0.0.0",
            web_secret=_web_secret(e.get("TEMPUS_WEB_SECRET") or ""),
            web_secret_dir=e.get("TEMPUS_WEB_SECRET_DIR") or None,
            web_link_hours=_hours(e.get("TEMPUS_WEB_LINK_HOURS") or "72"),
            activity_secret=_activity_secret(e),
            api_base=e.get("TEMPUS_DISCORD_API") or None,
            gateway=e.get("TEMPUS_DISCORD_GATEWAY") or None,
        )

    @property
    def ownership(self) -> Ownership:
        return Ownership.of(self.shard_ids, self.shard_count)


def _seconds(e: Mapping[str, str], name: str, default: float) -> float:
    """A number of seconds, 0 or more, from ``e[name]`` (``default`` when unset or empty);
    anything else is refused at start-up, naming the setting."""
    raw = e.get(name) or ""
    if not raw:
        return default
    try:
        value = float(raw)
    except ValueError:
        raise ValueError(f"{name}={raw!r} is not a number of seconds") from None
    if not value >= 0 or value == float("inf"):
        raise ValueError(f"{name}={raw!r} must be 0 or more seconds")
    return value


def _port(raw: str) -> int | None:
    """``TEMPUS_WEB_PORT``: a TCP port (unset or empty: the live pages are off)."""
    if not raw:
        return None
    try:
        port = int(raw)
    except ValueError:
        raise ValueError(f"TEMPUS_WEB_PORT={raw!r} is not a port number") from None
    if not 0 < port < 65536:
        raise ValueError(f"TEMPUS_WEB_PORT={raw!r} is not a port number")
    return port


def _web_url(raw: str) -> str | None:
    """``TEMPUS_WEB_URL``: the pages' public address (http or https; unset: off)."""
    if not raw:
        return None
    if not raw.startswith(("https://", "http://")):
        raise ValueError(f"TEMPUS_WEB_URL={raw!r} is not an http(s):// address")
    return raw


def _web_secret(raw: str) -> str | None:
    if raw and len(raw.encode()) < 16:
        raise ValueError("TEMPUS_WEB_SECRET must be at least 16 characters long")
    return raw or None


def _activity_secret(e: Mapping[str, str]) -> str | None:
    """``TEMPUS_ACTIVITY_SECRET``: the application's client secret (unset or empty: the
    Activity is off). It only works beside the live pages, so it is refused without them."""
    raw = (e.get("TEMPUS_ACTIVITY_SECRET") or "").strip()
    if not raw:
        return None
    if len(raw) < 16 or any(c.isspace() for c in raw):
        raise ValueError("TEMPUS_ACTIVITY_SECRET must be the application's client secret "
                         "(the OAuth2 page of the developer portal), not "
                         f"{len(raw)} characters")
    if not (e.get("TEMPUS_WEB_PORT") and e.get("TEMPUS_WEB_URL")):
        raise ValueError("TEMPUS_ACTIVITY_SECRET needs the live pages: set TEMPUS_WEB_PORT "
                         "and TEMPUS_WEB_URL too (the Activity is the live page)")
    return raw


def _hours(raw: str) -> float:
    try:
        value = float(raw)
    except ValueError:
        raise ValueError(f"TEMPUS_WEB_LINK_HOURS={raw!r} is not a number of hours") from None
    if not 0 < value < 24 * 366:
        raise ValueError(f"TEMPUS_WEB_LINK_HOURS={raw!r} must be more than 0 hours, "
                         "less than a year")
    return value


def _event_loop(raw: str) -> EventLoop:
    try:
        return EventLoop(raw)
    except ValueError:
        names = ", ".join(x.value for x in EventLoop)
        raise ValueError(f"TEMPUS_EVENT_LOOP={raw!r} is not one of {names}") from None
