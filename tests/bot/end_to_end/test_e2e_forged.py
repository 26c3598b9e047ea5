"""End to end: inputs no Discord client sends (forged custom ids, option values
outside the declared choices) and a database file deleted under the running bot. Every one
gets a private catalogue message; nothing is posted, nothing stored, nothing "Done"."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from lang.messages import t
from tests.bot.client.test_fuzz_input import PYTHON_TEXT
from tests.bot.e2e import bot_running, panel_message, prompt_users, settle
from tests.bot.end_to_end.test_e2e_edges import PEOPLE, game_state, open_game
from tests.bot.fake_discord import FakeDiscord, Forged, Interaction, Message, running
from tests.bot.store.test_storage_failures import stored


async def forge_click(fake: FakeDiscord, uid: int, msg: Message, custom_id: str,
                      values: list[str] | None = None, kind: int | None = None) -> Interaction:
    """A component interaction Discord itself would never send: any id, any type."""
    data: dict[str, Any] = {"custom_id": custom_id,
                            "component_type": kind or (2 if values is None else 3)}
    if values is not None:
        data["values"] = values
    inter = await fake._interact(uid, 3, data, msg.channel_id, msg)
    await fake.wait_replied(inter)
    await fake.wait_for(lambda: inter.replies)
    return inter


def refused_privately(inter: Interaction, uid: int, *expected: str) -> str:
    text = inter.text()
    assert inter.replies and all(m.where == "ephemeral" and m.to_user == uid
                                 for m in inter.replies), text
    assert t("error.internal") not in text and not PYTHON_TEXT.search(text), text
    assert not text.startswith("Done"), text
    for words in expected:
        assert words in text, (words, text)
    return text


@pytest.mark.asyncio
async def test_forged_clicks_and_options_are_refused_privately(tmp_path: Path) -> None:
    db = tmp_path / "t.db"
    async with running() as fake, bot_running(fake, db, seed=21) as bot:
        ch, other_ch = fake.channel_ids
        msg = await open_game(fake, bot, ch)
        uid = prompt_users(msg)[0]
        game = await bot.service.tables.channel_game_id(ch)  # type: ignore[union-attr]
        version = (await bot.service.tables.get(game)).version  # type: ignore[union-attr]
        select = next(c for c in msg.controls() if c["type"] == 3)
        state = (await game_state(bot, ch)).to_json()
        before = stored(str(db))
        posts = len(fake.channel_messages(ch))

        unknown = t("error.bad_control")
        for custom_id, values, kind in (
                (f"tempus:{game}:{version}:zzz", None, None),  # not on the message
                (f"tempus:{game}:{version}:act:draw_cards", None, None),
                ("hello", None, None),
                (f"tempus:{'9' * 30}:1:act", None, None),
                (f"tempus:{game}:{version}:act:\nend_turn", None, None),
                (select["custom_id"], None, 2),  # a select clicked as a button
        ):
            inter = await forge_click(fake, uid, msg, custom_id, values, kind)
            assert refused_privately(inter, uid) == unknown
        # real controls, forged values
        for values in (["x"], ["9" * 40], ["tempus:1:2:act"], ["place_start_token:Z99"],
                       ["draw_cards:1:2"], ["A1"] * 20):
            inter = await forge_click(fake, uid, msg, select["custom_id"], values)
            refused_privately(inter, uid, "could not understand")

        # options outside what the commands declare
        for sub, options, words in (
                ("new", {"seats": 99}, "`seats` cannot be 99. Use a whole number from 3 to 5"),
                ("new", {"seats": "abc"}, "`seats` cannot be abc"),
                ("new", {"seats": 4.5}, "`seats` cannot be 4.5"),
                ("new", {"map": "moon"},
                 "`map` cannot be moon. Choose one of: random map, players place the tiles"),
                ("help", {"topic": "nope"}, "`topic` cannot be nope"),
                ("place", {"hex": "C4", "rotation": 9}, "from 0 to 5"),
                ("city", {"hex": "C4", "value": "x"}, "`value` cannot be x"),
                ("table autopilot", {"on": "yes"}, "True or False"),
                ("play", {"choice": "x" * 300}, "at most 100 characters"),
                ("place", {"hex": 12}, "`hex` cannot be 12. Use text"),
                ("table autopilot", {"player": "123"}, "Choose a member"),  # never resolved
                ("table autopilot", {"player": 5}, "Choose a member"),
                # a bare id with "on" given: discord.py hands on a discord.Object
                ("table autopilot", {"on": True, "player": "12"}, "`player` cannot be 12."),
        ):
            channel = other_ch if sub == "new" else ch
            inter = await fake.slash(uid, channel, sub,
                                     **{k: Forged(v) for k, v in options.items()})
            refused_privately(inter, uid, words)
        inter = await fake.slash(uid, ch, "play", choice="nonsense:1:2")
        refused_privately(inter, uid, "could not understand")

        await settle(bot)
        assert len(fake.channel_messages(ch)) == posts, "nothing was posted"
        assert not fake.channel_messages(other_ch), "no game was created"
        assert stored(str(db)) == before, "nothing was stored"
        assert (await game_state(bot, ch)).to_json() == state
        fake.check()


@pytest.mark.asyncio
async def test_a_database_deleted_under_the_bot_refuses_clicks(tmp_path: Path) -> None:
    db = tmp_path / "t.db"
    async with running() as fake, bot_running(fake, db, seed=22) as bot:
        ch = fake.channel_ids[0]
        msg = await open_game(fake, bot, ch)
        uid = prompt_users(msg)[0]
        select = next(c for c in msg.controls() if c["type"] == 3)
        value = select["options"][0]["value"]
        state = (await game_state(bot, ch)).to_json()
        posts = len(fake.channel_messages(ch))
        db.unlink()  # e.g. an operator cleaning up the wrong folder
        inter = await fake.click(uid, msg, select["custom_id"], [value])
        await fake.wait_for(lambda: inter.replies)
        refused_privately(inter, uid, "deleted or replaced", "not", "bot's side")
        r = await fake.slash(uid, ch, "place", hex=value.split(":")[-1])
        refused_privately(r, uid, "deleted or replaced")
        r = await fake.slash(PEOPLE[0], fake.channel_ids[1], "new")
        refused_privately(r, PEOPLE[0], "deleted or replaced")
        await settle(bot)
        assert len(fake.channel_messages(ch)) == posts, "nothing announced"
        assert (await game_state(bot, ch)).to_json() == state
        assert panel_message(fake, ch) is msg or panel_message(fake, ch).id == msg.id
        fake.check()
