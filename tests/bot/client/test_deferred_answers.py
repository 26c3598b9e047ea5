"""A deferred reply ("thinking ...") is filled by editing it, not by a first follow-up
message (which Discord documents as deprecated); a deferred update of a clicked message
has no reply to fill, so its private answer stays a follow-up. The fake counts follow-ups
that fill a deferral and fails :meth:`FakeDiscord.check` on them.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.bot.e2e import bot_running, panel_message, settle
from tests.bot.fake_discord import running


@pytest.mark.asyncio
async def test_deferred_replies_are_filled_by_editing_them(tmp_path: Path) -> None:
    async with running() as fake, bot_running(fake, tmp_path / "t.db", seed=3) as bot:
        ch = fake.channel_ids[0]
        await fake.slash(11, ch, "new", seats=3)
        await fake.slash(11, ch, "table addbot")
        await fake.slash(12, ch, "join")
        await fake.slash(11, ch, "start")
        await settle(bot)
        answers = [await fake.slash(11, ch, sub) for sub in ("status", "board", "hint")]
        answers.append(await fake.slash(13, ch, "hand"))  # a refusal: not seated
        for inter in answers:
            assert inter.text().strip(), inter
            assert inter.ephemeral
        # a click that is refused (a spectator's) is answered privately: a follow-up of
        # a deferred update, which is no deferred reply
        turn = panel_message(fake, ch)
        assert turn is not None
        refused = await fake.click(13, turn, turn.custom_ids()[0])
        assert refused.text().strip()
        assert fake.deferral_followups == 0
        fake.check()
