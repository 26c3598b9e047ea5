"""End-to-end harness: the real bot (discord.py) against :mod:`tests.bot.fake_discord`, and
fake users who play by reading what Discord shows them and clicking its buttons and menus.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import json
import os
import random
import re
import sys
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

import discord.gateway
import discord.http
import yarl

from bot.client.app import TempusBot
from bot.operator.settings import Settings
from bot.timing.time_source import Clock
from bot.web.front import beside
from tests.bot.fake_discord import FakeDiscord, Interaction, Message
from tests.bot.fake_ratelimit import loop_time

#: how a prompt names who must decide: ``<@id> (Red)``
PROMPTED = re.compile(r"<@!?(\d+)> \(")
#: controls a fake player never uses during play
#: (help and recap: look-ups; mute changes nothing of the game: each tested on its own)
AVOID_OPS = {"cancel", "leave", "undo", "help", "recap", "mute"}


@contextlib.asynccontextmanager
async def bot_running(fake: FakeDiscord, db: Path, *, ai_delay: float = 0.0,
                      seed: int | None = None, workers: int = 0, clock: Clock | None = None,
                      ai_budget_s: float | None = None,
                      settings: dict[str, Any] | None = None) -> AsyncIterator[TempusBot]:
    """Start the unchanged bot against ``fake``; stop it (and restore discord.py) after.
    ``clock``: the turn clock's time source (a FakeClock the test drives); ``settings``:
    settings changed (the live pages' start with it, as ``python -m bot`` starts them)."""
    old_base = discord.http.Route.BASE
    old_gateway = discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY
    discord.http.Route.BASE = fake.api_base
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(fake.gateway)
    config = Settings(token="fake-token", db=str(db), workers=workers, ai_workers=workers,
                      outbox_period=fake.limiter.limits.post_per,
                      ai_delay=ai_delay, sync_commands=True, ai_budget_s=ai_budget_s,
                      shard_count=1)  # the fake's /gateway/bot names no shard count
    config = replace(config, **(settings or {}))
    seeds = iter(range(seed, seed + 1000)) if seed is not None else None
    bot = TempusBot(config, seed_source=(lambda: next(seeds)) if seeds else None,
                    clock=clock)
    web = beside(config)
    if web is not None:
        bot.beside.append(web)
    runner = asyncio.create_task(bot.start("fake-token"))
    try:
        await asyncio.wait_for(_until_ready(bot, runner), 30)
        yield bot
    finally:
        await bot.close()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await asyncio.wait_for(runner, 10)
        discord.http.Route.BASE = old_base
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = old_gateway


async def _until_ready(bot: TempusBot, runner: asyncio.Task[None]) -> None:
    while not bot.is_ready():
        if runner.done():
            exc = runner.exception()
            if exc is not None:
                raise RuntimeError("the bot stopped while starting") from exc
            raise RuntimeError("the bot stopped while starting")
        await asyncio.sleep(0.01)


async def settle(bot: TempusBot) -> None:
    """Until no computer player is thinking and every announcement is out."""
    assert bot.service is not None
    await bot.service.idle()


def play_channel(fake: FakeDiscord, channel: int) -> int:
    """Where the game opened in ``channel`` is played: its newest thread, or the channel."""
    threads = fake.threads_in(channel)
    return threads[-1].id if threads else channel


def panel_message(fake: FakeDiscord, channel: int) -> Message | None:
    """The newest public message with controls in the game's thread (or the channel): the
    turn message (or lobby) to click on."""
    for where in dict.fromkeys((play_channel(fake, channel), channel)):
        for m in reversed(fake.channel_messages(where)):
            if m.components:
                return m
    return None


def writes(fake: FakeDiscord, channel: int) -> int:
    """Posts and edits in the game's thread (or channel) so far."""
    return sum(1 + m.edits for m in fake.channel_messages(play_channel(fake, channel)))


def message_version(msg: Message | None) -> int:
    """The game version a message's controls were made at (-1: none)."""
    if msg is None or not msg.custom_ids():
        return -1
    parts = msg.custom_ids()[0].split(":")
    return int(parts[2])


def prompt_users(msg: Message) -> list[int]:
    """People the panel's prompt names (they owe a decision)."""
    tail = msg.content.splitlines()[-3:]
    return [int(x) for line in tail for x in PROMPTED.findall(line)]


def game_over(fake: FakeDiscord, channel: int) -> bool:
    return any(a.filename.endswith(".json")
               for m in fake.channel_messages(play_channel(fake, channel))
               for a in m.attachments)


def final_record(fake: FakeDiscord, channel: int) -> dict[str, Any]:
    for m in fake.channel_messages(play_channel(fake, channel)):
        for a in m.attachments:
            if a.filename.endswith(".json"):
                return json.loads(a.data)
    raise AssertionError("no game record was posted")


def choose(control: dict[str, Any], rng: random.Random) -> list[str] | None:
    """Values for a select (None for a button), a random legal number of options."""
    if control.get("type") == 2:
        return None
    opts = [o["value"] for o in control["options"]]
    lo, hi = control.get("min_values", 1), control.get("max_values", 1)
    k = rng.randint(lo, min(hi, lo + 1))
    return rng.sample(opts, k)


def _op(custom_id: str) -> str:
    parts = custom_id.split(":")
    return parts[4] if custom_id.startswith("tempus-s:") else parts[3]


class FakePlayer:
    """A person at the table: clicks what the channel and private replies offer."""

    def __init__(self, fake: FakeDiscord, uid: int, channel: int, rng: random.Random) -> None:
        self.fake = fake
        self.uid = uid
        self.channel = channel
        self.rng = rng
        self.refusals: list[str] = []
        #: the interactions that applied an action (for timing)
        self.applied: list[Interaction] = []
        #: the files of the private menus this person was shown (menus edit in place, so
        #: a later step may have replaced them)
        self.seen_files: list[str] = []

    async def act_on(self, msg: Message, depth: int = 0, start: int | None = None) -> bool:
        """Use one control of ``msg`` (following private menus); True if that applied an
        action (the turn message moved to a newer version), False if it was refused or
        only looked."""
        if start is None:
            start = message_version(panel_message(self.fake, self.channel))
        controls = [c for c in msg.controls() if _op(c["custom_id"]) not in AVOID_OPS]
        if not controls or depth > 4:
            return False
        # prefer actions over look-ups, so that random play moves on
        acting = [c for c in controls if _op(c["custom_id"]) in ("act", "cards")]
        pool = acting if acting and self.rng.random() < 0.7 else controls
        control = self.rng.choice(pool)
        edits = msg.edits
        inter = await self.fake.click(self.uid, msg, control["custom_id"],
                                      choose(control, self.rng))
        menus = [m for m in inter.replies if m.components]
        if not menus and msg.where == "ephemeral" and _op(control["custom_id"]) == "menu":
            # a private menu's own choice opens the next step in place (the same message)
            await self.fake.wait_for(lambda: msg.edits > edits or inter.replies, 10)
            menus = [m for m in (*inter.replies, msg) if m.components]
        self.seen_files += [a.filename for m in menus for a in m.attachments]
        if menus:
            return await self.act_on(menus[-1], depth + 1, start)
        if _op(control["custom_id"]) not in ("act", "cards", "undo"):
            return False

        def posted() -> bool:
            return (message_version(panel_message(self.fake, self.channel)) > start
                    or game_over(self.fake, self.channel))

        def answered() -> bool:  # a follow-up, not the clicked menu edited in place
            return any(m.id != msg.id for m in inter.replies)

        await self.fake.wait_for(lambda: posted() or answered())
        if not posted():
            self.refusals.append(inter.text())
            return False
        self.applied.append(inter)
        return True


Settle = Callable[[], Awaitable[None]]


def in_process(bot: TempusBot) -> Settle:
    """Settling for a bot in this process: its service says when it is idle."""
    return lambda: settle(bot)


def by_quiet(fake: FakeDiscord, quiet_s: float | None = None) -> Settle:
    """Settling for a bot in another process: until nothing has changed for ``quiet_s``
    (by default longer than the bot's outbox may wait for a free write)."""
    if quiet_s is None:
        quiet_s = max(0.15, 1.5 * fake.limiter.limits.post_per)

    async def wait() -> None:
        # sleep until the quiet would be over, then look again (a change meanwhile moves
        # the end): no more waiting than the quiet itself
        while (left := fake.last_change + quiet_s - loop_time()) > 0:
            await asyncio.sleep(left)
    return wait


def by_asking(socket: Path | str, timeout: float = 120) -> Settle:
    """Settling for a bot in another process started on ``idle_socket``
    (:func:`bot_process`): it says itself when it is idle, as :func:`in_process`."""

    async def wait() -> None:
        reader, writer = await asyncio.open_unix_connection(str(socket))
        try:
            writer.write(b"idle?\n")
            await writer.drain()
            line = await asyncio.wait_for(reader.readline(), timeout)
            assert line == b"idle\n", "the bot closed its idle socket"
        finally:
            writer.close()
    return wait


async def play_until(fake: FakeDiscord, settled: Settle, channel: int,
                     people: dict[int, FakePlayer], *,
                     stop: Callable[[int, Message], bool] | None = None,
                     max_steps: int = 5000) -> int:
    """Let the fake people play until the game is over (or ``stop(applied, panel)`` is
    true); returns the number of actions they applied."""
    applied = 0
    for _ in range(max_steps):
        await settled()
        if game_over(fake, channel):
            return applied
        msg = panel_message(fake, channel)
        if msg is None:
            # the first turn message may still be on its way after a quiet moment (a bot
            # in another process draws its board slower than that on a busy machine): it
            # must come within a minute
            try:
                await fake.wait_for(lambda: panel_message(fake, channel) is not None
                                    or game_over(fake, channel), 60)
            except TimeoutError:
                raise AssertionError("no message with controls in the channel") from None
            continue
        if stop is not None and stop(applied, msg):
            return applied
        owing = [u for u in prompt_users(msg) if u in people]
        if not owing:  # a computer player is thinking, or a post is on its way
            await fake.wait_for_change(60)
            continue
        if await people[owing[0]].act_on(msg):
            applied += 1
    stuck = {u: p.refusals[-2:] for u, p in people.items()}
    raise AssertionError(f"the game did not end in {max_steps} steps; last refusals {stuck}")


def png_size(data: bytes) -> tuple[int, int]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    return int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")


def private_texts(record: dict[str, Any]) -> dict[int, set[str]]:
    """Every private event text of a finished game, per seat (replayed from its record)."""
    from engine.game import apply
    from engine.record import Record

    rec = Record.from_json(record)
    state, events = rec.new_state()
    out: dict[int, set[str]] = {}
    for seat, action in rec.moves:
        state, events = apply(state, seat, action)
        for e in events:
            if e.private_to is not None:
                out.setdefault(e.private_to, set()).add(e.text)
    return out


def turns_in(record: dict[str, object]) -> int:
    """How many turns and phases the finished game had (a new turn message each)."""
    from engine.game import apply_in_place
    from engine.record import Record
    from engine.undo import turn_key

    rec = Record.from_json(record)
    state, _ = rec.new_state()
    keys = {turn_key(state)}
    for seat, action in rec.moves:
        apply_in_place(state, seat, action)
        keys.add(turn_key(state))
    return len(keys)


def check_no_leaks(fake: FakeDiscord, channel: int, seats: dict[int, int]) -> int:
    """R-INFO-1/2: nothing private in the channel, nobody's secrets in another's messages.
    ``seats`` maps user id -> seat. Returns how many messages were checked."""
    secrets = private_texts(final_record(fake, channel))
    hand_line = re.compile(r"^• \*\*", re.M)
    checked = 0
    public = {channel, play_channel(fake, channel)}
    for m in fake.order:
        if m.channel_id not in public and m.where != "dm":
            continue
        checked += 1
        owner = None if m.public else seats.get(m.to_user or -1)
        own = secrets.get(owner, set()) if owner is not None else set()
        for seat, texts in secrets.items():
            if seat == owner:
                continue
            for text in texts - own:  # (two seats may draw look-alike cards)
                assert text not in m.content, f"seat {seat}'s secret in {m.where}: {text}"
        if m.public:
            assert not hand_line.search(m.content), f"a hand listed in public: {m.content}"
            for a in m.attachments:
                assert (a.filename == "board.png" or a.filename.endswith(".json")
                        or a.filename.startswith("tempus-game-")), a.filename
                if a.filename == "board.png":  # a board (land and panel), not a hand
                    width, height = png_size(a.data)
                    assert width >= 600 and height > width
    check_commitment(fake, channel)
    return checked


def check_commitment(fake: FakeDiscord, channel: int) -> None:
    """The seed stays secret until the end and was committed to at the start: nothing
    posted before the result (any message, attachment or alt text) holds the seed or the
    salt or carries the record; the start posts (the thread's and the channel's) show the
    commitment that the revealed seed and salt give (engine/commitment.py)."""
    from engine.commitment import commitment

    record = final_record(fake, channel)
    seed, salt = record["options"]["seed"], record["salt"]
    digest = commitment(seed, salt, record["options"]["rules_version"])
    end = next(i for i, m in enumerate(fake.order)
               if any(a.filename.endswith(".json") for a in m.attachments))
    # a short seed (a test's fixed one) reads like any number: only a real one is looked for
    secrets = [salt, *([str(seed)] if seed >= 10**8 else [])]
    for m in fake.order[:end]:
        texts = [m.content, *(a.description or "" for a in m.attachments),
                 *(a.data.decode("utf-8", "replace") for a in m.attachments
                   if not a.filename.endswith((".png", ".gif")))]
        assert not any(a.filename.endswith(".json") for a in m.attachments), m.content
        for secret in secrets:
            assert not any(secret in text for text in texts), f"the seed before the end: {m}"
    starts = [m for m in fake.order[:end] if digest in m.content]
    assert {m.channel_id for m in starts} >= {channel, play_channel(fake, channel)}, \
        "the commitment is in the start posts of the channel and the thread"
    revealed = [m for m in fake.order[end:] if salt in m.content and str(seed) in m.content]
    assert revealed, "the result post reveals the seed and salt"


ROOT = Path(__file__).resolve().parents[2]


@contextlib.asynccontextmanager
async def bot_process(fake: FakeDiscord, db: Path | str, log: Path, *, ai_delay: float = 0.0,
                      production: bool = False, shards: list[int] | None = None,
                      shard_count: int = 1, token: str = "fake-token", module: str = "bot",
                      env: dict[str, str] | None = None, idle_socket: Path | None = None,
                      cpus: set[int] | None = None
                      ) -> AsyncIterator[asyncio.subprocess.Process]:
    """``python -m bot`` as a separate process against ``fake`` (killed at the end if alive).
    Render and AI work run in threads unless ``production`` (the bot's own defaults: worker
    processes). ``db``: a SQLite file or a ``postgresql://`` URL; ``shards``: the shards of
    ``shard_count`` this process runs (None: all); returns once each has identified.
    ``token``: what the fake records as the poster of its messages (:attr:`Message.token`).
    ``module``: run another entry point (the bench's ``tests.bot.timed_bot``, the bot with
    database timers); ``env``: more environment variables. ``idle_socket``: the bot (run
    by :mod:`tests.bot.idle_bot`) answers on this Unix socket when it is idle, for
    :func:`by_asking`. ``cpus``: the cores the bot and its worker processes may run on
    (the load bench keeps them off the fake's core)."""
    extra = dict(env or {})
    if idle_socket is not None:
        module = "tests.bot.idle_bot"
        extra["TEMPUS_TEST_IDLE_SOCKET"] = str(idle_socket)
    env = {**os.environ, **extra, "DISCORD_TOKEN": token, "TEMPUS_DB": str(db),
           "TEMPUS_AI_DELAY": str(ai_delay),
           "TEMPUS_DISCORD_API": fake.api_base, "TEMPUS_DISCORD_GATEWAY": fake.gateway,
           "TEMPUS_OUTBOX_PERIOD": str(fake.limiter.limits.post_per),
           "TEMPUS_SHARD_COUNT": str(shard_count)}
    if shards is not None:
        env["TEMPUS_SHARDS"] = ",".join(str(s) for s in shards)
    if not production:
        env.update(TEMPUS_WORKERS="0", TEMPUS_AI_WORKERS="0")
    mine = set(shards if shards is not None else range(shard_count))

    def identified() -> int:
        return sum(1 for shard, _ in fake.identified if shard in mine)
    before = identified()
    with log.open("ab") as err:
        pin = None if cpus is None else functools.partial(os.sched_setaffinity, 0, cpus)
        proc = await asyncio.create_subprocess_exec(sys.executable, "-m", module, cwd=ROOT,
                                                    env=env, stdout=err, stderr=err,
                                                    preexec_fn=pin)
    try:
        await fake.wait_for(lambda: identified() >= before + len(mine)
                            or proc.returncode is not None, 60)
        assert proc.returncode is None, log.read_text()[-2000:]
        yield proc
    finally:
        if proc.returncode is None:
            proc.kill()
            await proc.wait()
