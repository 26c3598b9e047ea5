"""End to end with two ``python -m bot`` processes on one PostgreSQL database, against one
fake Discord that speaks sharded gateway sessions.

Process A runs shard 0 of 2 (where Discord sends every DM interaction), process B shard 1,
which has the server (``guild_id = 1 << 22``) and so owns its games (bot.cluster.coordinator). Each
process has its own bot token so that the fake can tell who posted what.

- the secret progress choices clicked in DMs arrive at A, are applied there, and B (the
  owner) announces them in the game's thread; A posts nothing in the thread;
- the same decision clicked at the same time in both processes (the DM menu, to A; the
  menu opened from the thread, to B): exactly one applied, the other refused privately;
- B killed mid-era (SIGKILL) and started again: nothing lost, nothing doubled (the stored
  log against what was announced), a button posted before the kill still works.
"""

from __future__ import annotations

import asyncio
import random
import re
from collections.abc import Callable
from pathlib import Path

import pytest

from bot.store.postgres import PgStorage
from tests.bot.e2e import (
    FakePlayer,
    bot_process,
    by_quiet,
    message_version,
    panel_message,
    play_channel,
    play_until,
    prompt_users,
)
from tests.bot.fake_discord import FakeDiscord, Interaction, Message, running

GUILD = 1 << 22  # (GUILD >> 22) % 2 == 1: shard 1 of 2
TOKEN_A, TOKEN_B = "token-shard-0", "token-shard-1"
PEOPLE = (11, 12, 13)
ROUND = re.compile(r"round (\d+)")


def progress_phase(_applied: int, panel: Message) -> bool:
    return "Progress phase" in panel.content


def by_dm(fake: FakeDiscord, panel: Message) -> list[int]:
    """The people ``panel`` asks for a secret choice who have its menu in their DMs: all of
    them but the one whose step began the phase, who is at the table by definition (even
    with TEMPUS_AT_TABLE_S=0) and chooses from the turn message."""
    return [u for u in prompt_users(panel) if u in PEOPLE and dm_menu(fake, u) is not None]


def shared_progress(fake: FakeDiscord) -> Callable[[int, Message], bool]:
    """A progress phase in which at least two people owe a secret choice and have it by
    DM (the game's seed is random: a player without cards has nothing to choose, so some
    phases have one)."""
    def stop(_applied: int, panel: Message) -> bool:
        return progress_phase(_applied, panel) and len(by_dm(fake, panel)) >= 2
    return stop


def dm_menu(fake: FakeDiscord, uid: int) -> Message | None:
    """The newest DM of ``uid`` with a progress choice to click."""
    menus = [m for m in fake.dms(uid) if m.components]
    if menus and "progress" in menus[-1].content.lower():
        return menus[-1]
    return None


def no_cards(menu: Message) -> str:
    """The custom id of a menu's "no cards" button (a choice always legal)."""
    return next(c["custom_id"] for c in menu.controls() if c["type"] == 2)


async def thread_menu(fake: FakeDiscord, uid: int, panel: Message) -> Message:
    """The private progress menu ``uid`` opens from the thread's turn message (a click
    in the server: shard 1, process B)."""
    for control in panel.controls():
        if control["type"] != 2:
            continue
        inter = await fake.click(uid, panel, control["custom_id"])
        assert inter.shard == 1
        menus = [m for m in inter.replies if m.components
                 and "progress" in m.content.lower()]
        if menus:
            return menus[-1]
    raise AssertionError(f"no progress menu behind the turn message: {panel.content}")


def outcome(inter: Interaction) -> str:
    """"applied": the clicked private menu was edited to say so; "refused": a private
    follow-up said why not (and the menu stayed)."""
    others = [m for m in inter.replies if m.id != inter.message_id]
    if others:
        assert all(not m.public for m in others), [m.content for m in others]
        return "refused"
    return "applied" if inter.replies else "silent"


async def stored(url: str, game_id: int) -> tuple[int, int | None, list[int]]:
    """(version, announced version, action sequence numbers) as stored."""
    storage = await PgStorage.open(url, min_size=1, max_size=1)
    try:
        ref = await storage.game_ref(game_id)
        assert ref is not None
        return ref.version, ref.announced_version, [a.seq for a in await storage.actions(
            game_id)]
    finally:
        await storage.close()


@pytest.mark.asyncio
@pytest.mark.real_time  # the bot runs in other processes, on real time
async def test_two_sharded_processes_share_a_game(tmp_path: Path, pg_url: str) -> None:
    log_a, log_b = tmp_path / "a.log", tmp_path / "b.log"
    async with running(guild_id=GUILD) as fake:
        ch = fake.channel_ids[0]
        #: the version of every turn message when it was posted (a post, not an edit)
        posted: list[int] = []

        def on_message(m: Message) -> None:
            if m.public and m.components and m.channel_id == play_channel(fake, ch):
                posted.append(message_version(m))
        fake.on_message = on_message
        rng = random.Random(5)
        people = {u: FakePlayer(fake, u, ch, rng) for u in PEOPLE}
        quiet = by_quiet(fake)
        # a click does not count as being at the table (TEMPUS_AT_TABLE_S=0): a secret
        # choice reaches the people who owe it by DM, as it reaches people away, but the
        # one whose step began it (see by_dm)
        away = {"TEMPUS_AT_TABLE_S": "0"}
        b_args = dict(shards=[1], shard_count=2, token=TOKEN_B, env=away)
        async with bot_process(fake, pg_url, log_a, shards=[0], shard_count=2,
                               token=TOKEN_A, env=away):
            b = bot_process(fake, pg_url, log_b, **b_args)  # type: ignore[arg-type]
            proc_b = await b.__aenter__()
            try:
                assert sorted(fake.identified) == [(0, 2), (1, 2)]
                assert ("GUILD_CREATE", 1) in fake.routed
                assert ("GUILD_CREATE", 0) not in fake.routed
                r = await fake.slash(11, ch, "new", seats=3)
                assert r.shard == 1
                for u in PEOPLE[1:]:
                    await fake.slash(u, ch, "join")
                await fake.slash(11, ch, "start")
                await play_until(fake, quiet, ch, people, stop=shared_progress(fake))
                await quiet()
                panel = panel_message(fake, ch)
                assert panel is not None and shared_progress(fake)(0, panel)
                owing = by_dm(fake, panel)
                assert len(owing) >= 2, panel.content
                asked = [u for u in prompt_users(panel) if u in people]
                assert len(asked) - len(owing) <= 1, "only the one who just acted: no DM"
                v0 = message_version(panel)

                # (b) the first one's choice, clicked in both processes at once
                first, *others = owing
                dm = dm_menu(fake, first)
                assert dm is not None, fake.dms(first)[-1:]
                gid = await game_id(fake, ch)
                _, _, seqs0 = await stored(pg_url, gid)
                in_thread = await thread_menu(fake, first, panel)
                both = await asyncio.gather(
                    fake.click(first, dm, no_cards(dm), wait=False),
                    fake.click(first, in_thread, no_cards(in_thread), wait=False))
                assert [i.shard for i in both] == [0, 1]
                for inter in both:
                    await fake.wait_replied(inter)
                await quiet()
                _, _, seqs = await stored(pg_url, gid)
                assert sorted(outcome(i) for i in both) == ["applied", "refused"], [
                    i.text() for i in both]
                assert len(seqs) == len(seqs0) + 1, "exactly one of the two was applied"

                # (a) the others choose in their DMs: shard 0, process A
                for u in others:
                    menu = dm_menu(fake, u)
                    assert menu is not None
                    inter = await fake.click(u, menu, no_cards(menu))
                    assert inter.shard == 0
                await fake.wait_for(lambda: message_version(panel_message(fake, ch)) > v0)
                await quiet()
                thread = play_channel(fake, ch)
                by = {m.token for m in fake.channel_messages(thread)}
                assert by == {TOKEN_B}, "only the owner posts in the game's thread"
                assert {m.token for m in fake.order if m.where == "dm"} == {TOKEN_B}
                _, _, after = await stored(pg_url, gid)
                assert len(after) == len(seqs) + len(others)

                # (c) B killed in the middle of the next era, then started again
                def mid_era(applied: int, p: Message) -> bool:
                    m = ROUND.search(p.content.splitlines()[-1])
                    return applied >= 6 and m is not None and int(m[1]) >= 2

                await play_until(fake, quiet, ch, people, stop=mid_era)
                await quiet()
                status_before = (await fake.slash(14, ch, "status")).text()
                panel_before = panel_message(fake, ch)
                assert panel_before is not None
                proc_b.kill()
                await proc_b.wait()
            finally:
                await b.__aexit__(None, None, None)
            async with bot_process(fake, pg_url, log_b, **b_args):  # type: ignore[arg-type]
                await quiet()
                version, announced, seqs = await stored(pg_url, gid)
                assert announced == version == message_version(panel_message(fake, ch))
                assert seqs == list(range(len(seqs))), "the log has no gap and no double"
                assert (await fake.slash(14, ch, "status")).text() == status_before
                who = [int(x) for x in re.findall(r"<@(\d+)>",
                                                  panel_before.content.splitlines()[-1])]
                assert who, panel_before.content
                for _ in range(20):
                    if await people[who[0]].act_on(panel_before):
                        break
                else:
                    raise AssertionError(people[who[0]].refusals[-3:])
                # its board is drawn in B: on a busy machine that takes longer than a quiet
                # moment, so wait for it first (a minute at most)
                await fake.wait_for(
                    lambda: message_version(panel_message(fake, ch)) > version, 60)
                await quiet()
                version2, announced2, seqs2 = await stored(pg_url, gid)
                assert announced2 == version2 > version
                assert len(seqs2) > len(seqs)
                assert message_version(panel_message(fake, ch)) == version2
        real = [v for v in posted if v >= 0]
        assert len(real) == len(set(real)), f"a turn message posted twice: {real}"
        fake.check()
        for log in (log_a, log_b):
            assert "Traceback" not in log.read_text(), log.read_text()[-3000:]


async def game_id(fake: FakeDiscord, ch: int) -> int:
    """The game's id, from the custom ids of its turn message."""
    panel = panel_message(fake, ch)
    assert panel is not None
    return int(panel.custom_ids()[0].split(":")[1])
