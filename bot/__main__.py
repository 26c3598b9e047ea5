"""``python -m bot``: run the Discord bot; ``python -m bot --offline``: play in a terminal;
``python -m bot check-db [--db PATH]``: check the database (read-only; exit status 0 when
all is well).

Environment: ``DISCORD_TOKEN`` (required online), ``TEMPUS_DB`` (SQLite file, default
``tempus.db`` in the working directory; or a ``postgresql://`` URL), ``TEMPUS_SHARDS`` and
``TEMPUS_SHARD_COUNT`` (this process runs shards 0-3 of 8: ``0-3`` and ``8``),
``TEMPUS_WORKERS``, ``TEMPUS_AI_DELAY``; ``TEMPUS_WEB_PORT`` and ``TEMPUS_WEB_URL`` serve
the live pages beside Discord (``bot/web``; README, "The live board").

``python -m bot migrate-db --from tempus.db --to postgresql://...`` copies a SQLite
database into PostgreSQL (see ``bot/operator/migrate_db.py``); ``python -m bot backup --db
tempus.db --to FILE`` copies a SQLite database, also a live one (``bot/store/backup.py``);
``python -m bot health`` says whether the running bot is healthy (``bot/runtime/health.py``).
``python -m bot restore [--db PATH]`` brings a damaged or lost SQLite database back from its
newest sound backup and the journal of changes since (``bot/operator/restore.py``; the bot
stopped).
``python -m bot rebuild-history [--db PATH]`` derives results and ratings again from the
logs and prints what changed (``bot/operator/rebuild_history.py``; refused while a bot runs on the
database).

SIGTERM and SIGINT stop the bot cleanly (``bot/runtime/shutdown.py``).
"""

from __future__ import annotations

import argparse
import asyncio
import importlib
import logging
import os
import sys
from collections.abc import Callable

from bot.operator.settings import EventLoop, Settings
from bot.store import StorageUnavailable
from bot.store.file_lock import StoreInUse, holder
from bot.store.opening import is_postgres_url, without_password
from games import registry
from lang.messages import t

#: exit status when the database cannot be used (in use by another process, unwritable)
EXIT_STORE = 3
#: exit status for a word that is no command (argparse's for a usage error)
EXIT_USAGE = 2
#: the commands before any option (``python -m bot COMMAND ...``), each run by a module's
#: ``main(argv)``; no command runs the bot
COMMANDS = {
    "backup": "bot.store.backup",
    "check-db": "bot.operator.check_db",
    "health": "bot.runtime.health",
    "migrate-db": "bot.operator.migrate_db",  # copy a SQLite database into PostgreSQL
    "rebuild-history": "bot.operator.rebuild_history",
    "restore": "bot.operator.restore",
}


def point_at(api_base: str | None, gateway: str | None) -> None:
    """Talk to another Discord-compatible server (the tests' fake Discord)."""
    import discord.gateway
    import discord.http
    import yarl

    if api_base:
        discord.http.Route.BASE = api_base
    if gateway:
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(gateway)


def store_refusal(exc: StoreInUse | StorageUnavailable, path: str) -> str:
    """Why the bot cannot start on ``path``, for the operator."""
    if isinstance(exc, StorageUnavailable):
        return t("error.store_open", path=path, reason=exc.detail or exc.reason)
    if exc.pid is None:
        who = t("error.store_in_use.unknown")
    elif exc.host:
        who = t("error.store_in_use.who_host", pid=exc.pid, host=exc.host)
    else:
        who = t("error.store_in_use.who", pid=exc.pid)
    return t("error.store_in_use", path=path, who=who)


def loop_factory(kind: EventLoop) -> Callable[[], asyncio.AbstractEventLoop] | None:
    """What makes the bot's event loop (None: asyncio's own). uvloop's does the loop's own
    work in C: scheduling was a sixth of the bot's CPU on asyncio's, under load."""
    if kind == EventLoop.UVLOOP:
        try:
            import uvloop
        except ImportError:  # no wheel for this platform: asyncio's loop does the same
            logging.getLogger(__name__).warning("uvloop is not installed: asyncio's loop")
            return None
        return uvloop.new_event_loop
    return None


def run_online(settings: Settings) -> int:
    if not settings.token:
        print(t("error.no_token"), file=sys.stderr)
        return 2
    # refuse before connecting to Discord: a second process on one file answers every
    # click twice (the storage takes the lock for good when the bot opens it)
    busy = None if is_postgres_url(settings.db) else holder(settings.db)
    if busy is not None:
        print(store_refusal(busy, settings.db), file=sys.stderr)
        return EXIT_STORE
    import discord.utils

    from bot.client.app import TempusBot
    from bot.runtime.heap import keep_freed_pages
    from bot.runtime.shutdown import Shutdown
    from bot.web.front import beside

    keep_freed_pages()  # a board's few hundred kB, freed and taken again all the time
    point_at(settings.api_base, settings.gateway)
    discord.utils.setup_logging(level=logging.INFO, root=True)
    token = settings.token

    async def run() -> None:
        bot = TempusBot(settings, freeze=True)
        web = beside(settings)  # the live pages, when TEMPUS_WEB_PORT and _URL are set
        if web is not None:
            bot.beside.append(web)
        # SIGTERM (docker stop) and SIGINT (Ctrl-C) stop it cleanly (bot.runtime.shutdown)
        stop = Shutdown(begin=bot.begin_stop, inflight=bot.inflight, settle=bot.settle,
                        close=bot.close)
        stop.install(asyncio.get_running_loop())
        try:
            async with bot:
                await bot.start(token)
            if stop.task is not None:
                await stop.task
        finally:
            stop.disarm()

    try:
        with asyncio.Runner(loop_factory=loop_factory(settings.event_loop)) as runner:
            runner.run(run())
    except (StoreInUse, StorageUnavailable) as exc:
        print(store_refusal(exc, without_password(settings.db)), file=sys.stderr)
        return EXIT_STORE
    return 0


def main(argv: list[str] | None = None) -> int:
    args_in = sys.argv[1:] if argv is None else argv
    if args_in and not args_in[0].startswith("-"):
        # (only the command's module is loaded: the container's health check stays light)
        module = COMMANDS.get(args_in[0])
        if module is None:  # a typo must not start the bot, nor print its help and exit 0
            print(t("error.unknown_command", word=args_in[0], commands=", ".join(COMMANDS)),
                  file=sys.stderr)
            return EXIT_USAGE
        command: Callable[[list[str]], int] = importlib.import_module(module).main
        return command(args_in[1:])
    parser = argparse.ArgumentParser(prog="python -m bot", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--offline", action="store_true",
                        help="play in the terminal instead of connecting to Discord")
    parser.add_argument("--db", help="SQLite database file (default: $TEMPUS_DB or tempus.db; "
                        "offline: in memory)")
    parser.add_argument("--no-sync", action="store_true",
                        help="do not register the slash commands at start-up")
    off = parser.add_argument_group("offline play")
    off.add_argument("--players", type=int, default=3, help="seats, 3-5 (default 3)")
    off.add_argument("--humans", type=int, default=1,
                     help="people at the keyboard; the other seats are computer players")
    off.add_argument("--level", help="computer level (see --levels)")
    off.add_argument("--levels", action="store_true", help="list computer levels and exit")
    off.add_argument("--seed", type=int, help="game seed (default random)")
    off.add_argument("--place-tiles", action="store_true",
                     help="players place the map tiles (default: random map)")
    off.add_argument("--out", default="boards", help="folder for board images (default boards)")
    off.add_argument("--ai-delay", type=float, default=0.0,
                     help="seconds computer players wait before acting")
    off.add_argument("--lang", default=None,
                     help="language of the texts: en or pl (default: from $LANG, else en)")
    args = parser.parse_args(args_in)
    try:
        settings = Settings.from_env()
    except ValueError as exc:  # e.g. TEMPUS_SHARDS without TEMPUS_SHARD_COUNT
        print(exc, file=sys.stderr)
        return 2
    if args.levels:
        print(", ".join(registry.game().computers.levels()))
        return 0
    if args.offline:
        from bot.terminal.console import play

        logging.basicConfig(level=logging.WARNING)
        try:
            return play(
                players_n=args.players, humans=args.humans, level=args.level, seed=args.seed,
                random_map=not args.place_tiles, out_dir=args.out or None,
                db=args.db or ":memory:", ai_delay=args.ai_delay,
                lang=args.lang or os.environ.get("LANG"))
        except (StoreInUse, StorageUnavailable) as exc:
            print(store_refusal(exc, args.db or ":memory:"), file=sys.stderr)
            return EXIT_STORE
    if args.db:
        settings.db = args.db
    if args.no_sync:
        settings.sync_commands = False
    return run_online(settings)


if __name__ == "__main__":
    sys.exit(main())
