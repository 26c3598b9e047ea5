"""Looking back through the fake Discord: the real bot answers status, board at an era,
history, show (result, record, replay), stats and autocomplete for a finished game
stored in its database. The final post itself belongs to the posting pipeline."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from PIL import Image

from bot.messages import t
from bot.storage import SqliteStorage

from .e2e import bot_running, png_size
from .fake_discord import UserOption, running
from .test_history import store_game


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
        assert t("board.at_era", game=g, era=5) in r.text()
        width, height = png_size(r.replies[0].attachments[0].data)
        assert width >= 600 and height > width, "a board (land above, panel below)"
        r = await fake.slash(13, fake.channel_ids[1], "history", where="server")
        assert f"#{g} ·" in r.text()
        r = await fake.slash(11, ch, "show", game=f"#{g}")
        assert t("result.title", game=g) in r.text()
        assert [a.filename for a in r.replies[0].attachments] == [
            f"tempus-game-{g}-chart.png", f"tempus-game-{g}-board.png"]
        r = await fake.slash(11, ch, "show", what="record")
        record = json.loads(r.replies[0].attachments[0].data)
        assert record["format"] == "tempus-record" and r.ephemeral
        r = await fake.slash(11, ch, "show", what="replay")
        assert not r.ephemeral and r.replies[0].public, "the animation is for sharing"
        gif = Image.open(io.BytesIO(r.replies[0].attachments[0].data))
        assert gif.format == "GIF" and gif.n_frames > 40
        r = await fake.slash(11, ch, "show", game="#999", what="replay")
        assert r.ephemeral and t("error.unknown_game", game=999) in r.text()
        r = await fake.slash(12, ch, "stats", player=UserOption(11))
        assert "P11" in r.text() and t("leaderboard.title") in r.text()
        ac = await fake.autocomplete(11, ch, "show", "game")
        assert ac and ac[0]["value"] == f"#{g}"
        ac = await fake.autocomplete(11, ch, "board", "at", at="round-1")
        assert [c["value"] for c in ac] == ["round-1", "round-10"]
        await bot.service.idle()
        fake.check()
