"""Looking back through the fake Discord: the real bot answers status, board at a round,
history, show (result, record, replay), stats and autocomplete for a finished game
stored in its database; and a game finished through the fake, looked back on, rated and
rematched."""

from __future__ import annotations

import io
import json
import random
from pathlib import Path
from typing import Any

import pytest
from PIL import Image

from bot.store.sqlite import SqliteStorage
from games.tempus.labels import card_name
from lang.messages import t
from tests.bot.e2e import (
    FakePlayer,
    bot_running,
    in_process,
    play_channel,
    play_until,
    png_size,
    private_texts,
)
from tests.bot.fake_discord import FakeDiscord, UserOption, running
from tests.bot.history.test_history import store_game


@pytest.mark.asyncio
async def test_a_finished_game_can_be_looked_at_again(tmp_path: Path) -> None:
    db = tmp_path / "t.db"
    store = await SqliteStorage.open(str(db))
    g = await store_game(store, [11, 12, None], 5, guild=1000, channel=2000)
    await store.close()
    async with running() as fake, bot_running(fake, db) as bot:
        ch = fake.channel_ids[0]
        r = await fake.slash(12, ch, "status")
        assert t("status.phase.over") in r.text() and r.ephemeral
        r = await fake.slash(12, ch, "board", at="round-5")
        assert t("status.head.ended", game=g, round=5, rounds=10) in r.text()
        width, height = png_size(r.replies[0].attachments[0].data)
        assert width >= 600 and height > width, "a board (land above, panel below)"
        r = await fake.slash(13, fake.channel_ids[1], "/tempus-records history", where="server")
        assert f"#{g} ·" in r.text()
        r = await fake.slash(11, ch, "/tempus-records show", game=f"#{g}")
        assert t("result.title", game=g) in r.text()
        assert [a.filename for a in r.replies[0].attachments] == [
            f"tempus-game-{g}-chart.png", f"tempus-game-{g}-board.png"]
        r = await fake.slash(11, ch, "/tempus-records show", what="record")
        record = json.loads(r.replies[0].attachments[0].data)
        assert record["format"] == "tempus-record" and r.ephemeral
        r = await fake.slash(11, ch, "/tempus-records show", what="replay")
        assert not r.ephemeral and r.replies[0].public, "the animation is for sharing"
        gif = Image.open(io.BytesIO(r.replies[0].attachments[0].data))
        assert gif.format == "GIF" and gif.n_frames > 40
        r = await fake.slash(11, ch, "/tempus-records show", game="#999", what="replay")
        assert r.ephemeral and t("error.unknown_game", game=999) in r.text()
        r = await fake.slash(12, ch, "/tempus-records stats", player=UserOption(11))
        assert "P11" in r.text() and t("leaderboard.title") in r.text()
        ac = await fake.autocomplete(11, ch, "/tempus-records show", "game")
        assert ac and ac[0]["value"] == f"#{g}"
        ac = await fake.autocomplete(11, ch, "board", "at", at="round-1")
        assert [c["value"] for c in ac] == ["round-1", "round-10"]
        await bot.service.idle()
        fake.check()


def _private_leaks(fake: FakeDiscord, record: dict[str, Any], seats: dict[int, int],
                   hands: set[str], since: int) -> int:
    """Every message the fake recorded (channel, thread, DMs and private replies): no
    seat's secret event text reaches anyone else (R-INFO-1/2); and nothing posted or
    answered after the end (``fake.order[since:]``) names a card left in a hand, DMs
    to their owner aside. Returns how many messages were checked."""
    secrets = private_texts(record)
    for i, m in enumerate(fake.order):
        owner = None if m.public else seats.get(m.to_user or -1)
        own = secrets.get(owner, set()) if owner is not None else set()
        for seat, texts in secrets.items():
            if seat != owner:
                for text in texts - own:
                    assert text not in m.content, f"seat {seat}'s secret in {m.where}: {text}"
        if i >= since and m.where != "dm":
            for a in [m.content, *(a.description or "" for a in m.attachments)]:
                assert not any(card in a for card in hands), f"a hand's card shown: {a}"
    return len(fake.order)


@pytest.mark.asyncio
async def test_finish_a_game_then_look_back_rate_and_rematch(tmp_path: Path) -> None:
    """End to end: two people and a computer finish a game through the fake
    Discord, then a plain board, status, history (in the channel and in the game's
    thread), show (result, record, replay), stats with the leaderboard, the Rematch click
    and the invited person's Join; nothing secret anywhere."""
    from bot.history import ledger as hist
    from engine.record import Record, replay

    async with running() as fake, bot_running(fake, tmp_path / "t.db", seed=7) as bot:
        ch = fake.channel_ids[0]
        await fake.slash(11, ch, "new", seats=3, pace="none", city_protects=True,
                         hints=False)
        await fake.slash(12, ch, "join")
        await fake.slash(11, ch, "table addbot", level="random")
        await fake.slash(11, ch, "start")
        rng = random.Random(1)
        people = {u: FakePlayer(fake, u, ch, rng) for u in (11, 12)}
        await play_until(fake, in_process(bot), ch, people)
        await bot.service.idle()
        await bot.publisher.drain()
        since = len(fake.order)
        storage = bot.service.storage
        game = await storage.game(1)
        assert game is not None and game.status == "finished"
        record = (await hist.load_record(storage, game)).to_json()
        hands = {card_name(c) for p in replay(Record.from_json(record)).players
                 for c in p.hand}
        names = [s.name for s in await storage.seats(1)]

        # the full result in the thread, the short one with the final board in the channel
        thread = play_channel(fake, ch)
        final = next(m for m in fake.channel_messages(thread)
                     if any(a.filename.endswith(".json") for a in m.attachments))
        changes = await hist.record_finished(storage, 1)
        assert set(changes) == {11, 12}
        line = t("result.rating", changes=", ".join(
            t("result.rating.change", name=n, before=f"{changes[u][0].ordinal:.1f}",
              after=f"{changes[u][1].ordinal:.1f}") for u, n in ((11, names[0]), (12, names[1]))))
        assert line in final.content
        assert all(b.mu != a.mu for b, a in changes.values())
        short = fake.channel_messages(ch)[-1]
        assert short.content.startswith(t("result.channel", game=1, winner="").strip())
        board = next(a for a in short.attachments if a.filename.endswith("-board.png"))
        assert board.description and "🏆" in board.description

        # looking back: a plain board and status show the finished game
        r = await fake.slash(12, ch, "board")
        assert r.ephemeral and t("status.phase.over") in r.text()
        assert png_size(r.replies[0].attachments[0].data)[0] >= 600
        r = await fake.slash(11, ch, "status")
        assert r.ephemeral and t("status.phase.over") in r.text()
        for where in (ch, thread):  # the thread lists its channel's games
            r = await fake.slash(12, where, "/tempus-records history")
            assert "#1 ·" in r.text(), where
        r = await fake.slash(11, thread, "/tempus-records show")
        assert t("result.title", game=1) in r.text() and r.ephemeral
        r = await fake.slash(11, ch, "/tempus-records show", what="record")
        assert json.loads(r.replies[0].attachments[0].data)["format"] == "tempus-record"
        r = await fake.slash(12, ch, "/tempus-records show", what="replay")
        assert r.replies[0].public
        gif = Image.open(io.BytesIO(r.replies[0].attachments[0].data))
        assert gif.format == "GIF" and gif.n_frames > 20
        r = await fake.slash(12, ch, "/tempus-records stats")
        assert t("stats.title", name=names[1]) in r.text()
        assert t("leaderboard.title") in r.text()

        # Rematch: 12 clicks; the lobby in the channel mentions (and pings) 11
        rid = next(c for c in final.custom_ids() if c.endswith(":rematch"))
        await fake.click(12, final, rid)  # acknowledged at once; the lobby follows

        def lobby_posted() -> bool:
            return any("#2" in m.content and m.custom_ids()
                       for m in fake.channel_messages(ch))
        await fake.wait_for(lobby_posted, 30)
        await bot.publisher.drain()
        lobby = next(m for m in fake.channel_messages(ch) if "#2" in m.content)
        assert "#2" in lobby.content and "<@11>" in lobby.content
        assert lobby.mentions == [11], "the invited person is pinged"
        assert t("lobby.opt1.on") in lobby.content and t("lobby.hints_off") in lobby.content
        new = await storage.game(2)
        assert new is not None and new.options["pace"] == "none"
        assert new.options["protection_counts_cities"] and not new.options["hints"]
        join = next(c for c in lobby.custom_ids() if c.endswith(":join"))
        await fake.click(11, lobby, join)
        lobby_id = lobby.id

        def joined() -> bool:  # the lobby message is edited: 11 sits, no longer waited for
            m = next(m for m in fake.channel_messages(ch) if m.id == lobby_id)
            return "<@11>" not in m.content and "3. " + names[0] in m.content
        await fake.wait_for(joined, 30)
        seats = await storage.seats(2)
        assert [(s.user_id, s.ai_level) for s in seats] == [(12, None), (None, "random"),
                                                            (11, None)]

        assert _private_leaks(fake, record, {11: 0, 12: 1}, hands, since) > 0
        fake.check()
