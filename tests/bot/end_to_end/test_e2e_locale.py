"""End to end against the fake Discord, on a Polish server with a Polish and an English
player: each private reply follows its user's client language, the game stores the
server's language for its posts, /tempus help and /tempus hint answer privately."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from games.tempus.help_text import help_for_user
from lang import i18n
from tests.bot.e2e import _op, bot_running, panel_message, prompt_users, settle
from tests.bot.fake_discord import FakeDiscord, running

POLISH, ENGLISH, THIRD = 11, 12, 13
LOCALES = {POLISH: "pl", ENGLISH: "en-GB", THIRD: "pl"}


def speak(fake: FakeDiscord) -> None:
    """Interactions carry each user's client locale and the server's preferred locale."""
    send = fake._dispatch

    async def dispatch(event: str, d: dict[str, Any]) -> None:
        if event == "INTERACTION_CREATE":
            uid = int((d.get("member") or {}).get("user", d.get("user", {})).get("id", 0))
            d = {**d, "locale": LOCALES.get(uid, "en-US")}
            if "guild_id" in d:
                d["guild_locale"] = "pl"
        await send(event, d)

    fake._dispatch = dispatch  # type: ignore[method-assign]


@pytest.mark.asyncio
async def test_replies_follow_each_users_language(tmp_path: Path) -> None:
    async with running() as fake, bot_running(fake, tmp_path / "t.db", seed=3) as bot:
        speak(fake)
        ch = fake.channel_ids[0]
        assert "nie ma gry" in (await fake.slash(POLISH, ch, "help")).text()
        assert "no game in this channel" in (await fake.slash(ENGLISH, ch, "help")).text()
        created = await fake.slash(POLISH, ch, "new", seats=3, hints=True)
        assert created.text().startswith("Utworzono grę")
        assert bot.service is not None
        game = await bot.service.tables.channel_game_id(ch)
        options = (await bot.service.tables.get(game)).game.options
        assert options["locale"] == "pl" and options["hints"] is True
        assert (await fake.slash(ENGLISH, ch, "join")).text().endswith("joins game #1.")
        assert "jeszcze się nie zaczęła" in (await fake.slash(POLISH, ch, "help")).text()
        pl_rules = (await fake.slash(POLISH, ch, "help", topic="glossary")).text()
        en_rules = (await fake.slash(ENGLISH, ch, "help", topic="glossary")).text()
        assert pl_rules.startswith("Słowa, których używa bot") and "**Runda**" in pl_rules
        assert en_rules.startswith("Words the bot uses") and "**Round**" in en_rules

        await fake.slash(THIRD, ch, "join")
        await fake.slash(POLISH, ch, "start")
        await settle(bot)
        msg = panel_message(fake, ch)
        assert msg is not None
        owing = prompt_users(msg)[0]
        choices = await fake.autocomplete(owing, ch, "play", "choice")
        assert choices and all(c["name"].startswith(
            "Pion startowy" if owing != ENGLISH else "Starting token") for c in choices)

        hint = await fake.slash(owing, ch, "hint")  # the fake refuses an ack after 3 s
        assert hint.response_type == 5, "deferred at once, answered later"
        assert all(m.where == "ephemeral" and m.to_user == owing for m in hint.replies)
        head = "**Podpowiedź:**" if owing != ENGLISH else "**Hint:**"
        assert hint.text().startswith(head), hint.text()
        help_text = (await fake.slash(owing, ch, "help")).text()
        assert help_text.startswith("**Pomoc:" if owing != ENGLISH else "**Help:")

        # the turn message follows the server's language; its "?" answers privately, in
        # the language of whoever clicks
        assert "startow" in msg.content and "starting token" not in msg.content, msg.content
        help_id = next(c["custom_id"] for c in msg.controls() if _op(c["custom_id"]) == "help")
        table = await bot.service.tables.get(game)
        for uid in (POLISH, ENGLISH):
            click = await fake.click(uid, msg, help_id)
            assert click.replies and all(m.where == "ephemeral" and m.to_user == uid
                                         for m in click.replies), click.text()
            with i18n.using(LOCALES[uid]):
                assert click.text() == help_for_user(table, uid)


@pytest.mark.asyncio
async def test_hints_switched_off_by_the_host(tmp_path: Path) -> None:
    async with running() as fake, bot_running(fake, tmp_path / "t.db", seed=4) as bot:
        speak(fake)
        ch = fake.channel_ids[0]
        await fake.slash(ENGLISH, ch, "new", seats=3, hints=False)
        await fake.slash(POLISH, ch, "join")
        await fake.slash(THIRD, ch, "join")
        await fake.slash(ENGLISH, ch, "start")
        await settle(bot)
        msg = panel_message(fake, ch)
        assert msg is not None
        owing = prompt_users(msg)[0]
        text = (await fake.slash(owing, ch, "hint")).text()
        assert ("wyłączone" in text) if owing != ENGLISH else ("off" in text)
