"""End to end: the database's pages damaged under the running bot (with the defaults: a
backup at start, the journal beside it) while people go on playing; after the bot stops,
``python -m bot restore`` as the README says brings back every action any player was told
was done ("Done: ..."), up to the last one, and the bot starts on the restored file."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import random
import re
import shlex
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from bot.client.app import TempusBot
from bot.store.backup import backups_in
from engine.actions import action_from_json
from games.tempus.labels import action_label
from lang.messages import t
from tests.bot.e2e import bot_running, settle
from tests.bot.fake_discord import FakeDiscord, running

PEOPLE = (11, 12, 13)
README = Path(__file__).resolve().parents[3] / "README.md"


def damage_beneath(db: Path, seed: int = 3) -> None:
    """Overwrite every page of the database file but the first with noise, leaving its
    write-ahead log alone: the pages the bot changed lately are read from there, so it
    goes on acknowledging actions, and the file is malformed once the log is folded in."""
    with contextlib.closing(sqlite3.connect(f"file:{db}?mode=ro", uri=True)) as raw:
        page = int(raw.execute("PRAGMA page_size").fetchone()[0])
    size = db.stat().st_size
    rng = random.Random(seed)
    with db.open("r+b") as f:
        for offset in range(page, size, page):
            f.seek(offset + 8)
            f.write(rng.randbytes(page - 16))


def readme_restore_commands() -> list[list[str]]:
    """The ``python -m bot`` lines of the README's SQLite restore steps, as written."""
    text = README.read_text()
    start = text.index("**Restoring (SQLite).**")
    block = re.search(r"```bash\n(.*?)```", text[start:], re.S)
    assert block is not None
    return [shlex.split(line.split("#", 1)[0]) for line in block[1].splitlines()
            if line.startswith("python -m bot")]


def done_labels(path: Path, game: int) -> list[str]:
    """The "Done" line of every action in the game's stored log."""
    with contextlib.closing(sqlite3.connect(path)) as raw:
        rows = raw.execute("SELECT action FROM actions WHERE game_id = ? ORDER BY seq",
                           (game,)).fetchall()
    return [t("ack.done", what=action_label(action_from_json(json.loads(r[0]))))
            for r in rows]


def in_order(wanted: list[str], have: list[str]) -> list[str]:
    """The items of ``wanted`` not found in ``have`` in that order (a subsequence)."""
    it = iter(have)
    return [w for w in wanted if not any(h == w for h in it)]


async def act_by_command(fake: FakeDiscord, bot: TempusBot, ch: int, game: int,
                         rng: random.Random) -> str:
    """One person who owes a decision types a legal choice into ``/tempus play``; the
    bot's answer (``Done: ...`` when it took it)."""
    await settle(bot)
    assert bot.service is not None
    table = await bot.service.tables.get(game)
    for seat in sorted(table.since):
        uid = table.seats[seat].user_id
        if uid is None:
            continue
        offered = await fake.autocomplete(uid, ch, "play", "choice", choice="")
        if offered:
            r = await fake.slash(uid, ch, "play", choice=rng.choice(offered)["value"])
            return r.text()
    raise AssertionError("nobody can act")


@pytest.mark.asyncio
async def test_every_done_is_back_after_damage_and_restore(tmp_path: Path) -> None:
    db = tmp_path / "tempus.db"  # as the README names it
    rng = random.Random(5)
    async with running() as fake:
        async with bot_running(fake, db, seed=41) as bot:
            assert bot.service is not None and bot.backups is not None
            ch = fake.channel_ids[0]
            # the backup made at start (no TEMPUS_BACKUP_EVERY set: the default)
            await fake.wait_for(lambda: bot.backups is not None
                                and bot.backups.newest is not None, 30)
            await fake.slash(PEOPLE[0], ch, "new", seats=len(PEOPLE))
            for u in PEOPLE[1:]:
                await fake.slash(u, ch, "join")
            await fake.slash(PEOPLE[0], ch, "start")
            game = await bot.service.tables.channel_game_id(ch)
            assert game is not None
            answers = [await act_by_command(fake, bot, ch, game, rng) for _ in range(8)]
            assert all(a.startswith("Done: ") for a in answers), answers
            damage_beneath(db)  # a failing disk under the running bot
            after = []
            for _ in range(12):
                after.append(await act_by_command(fake, bot, ch, game, rng))
                if not after[-1].startswith("Done: "):
                    break  # the damage is noticed: refused from here on
            await settle(bot)
            at_stop = (await bot.service.tables.get(game)).version
        dones = [a for a in answers + after if a.startswith("Done: ")]
        assert len(dones) > len(answers), f"acknowledged after the damage: {after}"
        assert backups_in(tmp_path / "backups", db), "a backup by default"

        # the README's steps, as written, in the database's folder
        env = {k: v for k, v in os.environ.items() if not k.startswith("TEMPUS_")}
        env["PYTHONPATH"] = str(README.parent)
        for argv in readme_restore_commands():
            proc = await asyncio.to_thread(
                subprocess.run, [sys.executable, *argv[1:]], cwd=tmp_path, env=env,
                capture_output=True, text=True, timeout=120)
            assert proc.returncode == 0, (argv, proc.stdout, proc.stderr)
        restored = done_labels(db, game)
        missing = in_order(dones, restored)
        assert not missing, f"acknowledged but not restored: {missing}"
        with contextlib.closing(sqlite3.connect(db)) as raw:
            (version,) = raw.execute("SELECT version FROM games WHERE id = ?",
                                     (game,)).fetchone()
        assert version == at_stop, "up to the last change the bot made"

        # the bot starts on the restored file and the game goes on
        async with bot_running(fake, db, seed=41) as bot:
            assert bot.service is not None
            assert (await bot.service.tables.get(game)).version == at_stop
            assert (await act_by_command(fake, bot, ch, game, rng)).startswith("Done: ")
        fake.check()
