"""End to end against the fake Discord: double clicks, closed DMs, people who may not act,
bad input, autocomplete of legal choices only, the lobby's rules, computer seats."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path

import discord
import pytest

from bot.client.app import TempusBot
from engine.hexgrid import label
from engine.legal import legal_actions
from tests.bot.e2e import (
    FakePlayer,
    bot_running,
    check_no_leaks,
    final_record,
    in_process,
    message_version,
    panel_message,
    play_channel,
    play_until,
    prompt_users,
    settle,
    writes,
)
from tests.bot.fake_discord import FakeDiscord, Message, UserOption, running

PEOPLE = (11, 12, 13)


async def open_game(fake: FakeDiscord, bot: TempusBot, ch: int,
                    users: tuple[int, ...] = PEOPLE) -> Message:
    """A started game of ``users``; returns the first board's panel message."""
    await fake.slash(users[0], ch, "new", seats=len(users))
    for u in users[1:]:
        await fake.slash(u, ch, "join")
    await fake.slash(users[0], ch, "start")
    await settle(bot)
    msg = panel_message(fake, ch)
    assert msg is not None
    return msg


async def game_state(bot: TempusBot, ch: int):  # type: ignore[no-untyped-def]
    assert bot.service is not None
    game = await bot.service.tables.channel_game_id(ch)
    return (await bot.service.tables.get(game)).state


@pytest.mark.asyncio
async def test_two_simultaneous_clicks_apply_exactly_one(tmp_path: Path) -> None:
    async with running() as fake, bot_running(fake, tmp_path / "t.db", seed=2) as bot:
        ch = fake.channel_ids[0]
        msg = await open_game(fake, bot, ch)
        uid = prompt_users(msg)[0]
        select = next(c for c in msg.controls() if c["type"] == 3)
        values = [o["value"] for o in select["options"]][:2]
        v0 = message_version(msg)
        a, b = await asyncio.gather(
            fake.click(uid, msg, select["custom_id"], [values[0]], wait=False),
            fake.click(uid, msg, select["custom_id"], [values[-1]], wait=False))
        await asyncio.gather(fake.wait_replied(a), fake.wait_replied(b))
        # the refusal and the board come on their own ways (the board may be written
        # with either click's token, before or after the refusal): wait for both
        await fake.wait_for(lambda: any("no longer current" in i.text() for i in (a, b))
                            and message_version(panel_message(fake, ch)) > v0)
        await settle(bot)
        refusals = [i for i in (a, b) if "no longer current" in i.text()]
        assert len(refusals) == 1
        assert message_version(panel_message(fake, ch)) == v0 + 1
        state = await game_state(bot, ch)
        assert len(state.start_hexes) == 1
        fake.check()


@pytest.mark.asyncio
async def test_closed_dms_do_not_stop_the_game(tmp_path: Path) -> None:
    async with running(dm_closed={13}) as fake, \
            bot_running(fake, tmp_path / "t.db", seed=4) as bot:
        ch = fake.channel_ids[0]
        await open_game(fake, bot, ch)
        rng = random.Random(4)
        people = {u: FakePlayer(fake, u, ch, rng) for u in PEOPLE}
        await play_until(fake, in_process(bot), ch, people)
        notices = [m for m in fake.channel_messages(play_channel(fake, ch))
                   if m.content.startswith("<@13>") and "direct message" in m.content]
        assert len(notices) == 1, "told once, in the game's thread"
        assert notices[0].mentions == [13]
        assert not fake.dms(13)
        assert any(a.filename == "hand.png" for m in fake.dms(11) for a in m.attachments)
        check_no_leaks(fake, ch, {11: 0, 12: 1, 13: 2})
        fake.check()


@pytest.mark.asyncio
async def test_closed_dms_hand_by_command(tmp_path: Path) -> None:
    async with running(dm_closed={13}) as fake, \
            bot_running(fake, tmp_path / "t.db", seed=4) as bot:
        ch = fake.channel_ids[0]
        await open_game(fake, bot, ch)
        reply = await fake.slash(13, ch, "hand")
        assert reply.replies and all(m.where == "ephemeral" and m.to_user == 13
                                     for m in reply.replies)
        assert "hand" in reply.text().lower()


@pytest.mark.asyncio
async def test_non_player_and_out_of_turn_player_are_refused(tmp_path: Path) -> None:
    async with running() as fake, bot_running(fake, tmp_path / "t.db", seed=5) as bot:
        ch = fake.channel_ids[0]
        msg = await open_game(fake, bot, ch)
        owing = prompt_users(msg)[0]
        waiting = next(u for u in PEOPLE if u != owing)
        select = next(c for c in msg.controls() if c["type"] == 3)
        value = select["options"][0]["value"]
        posts = writes(fake, ch)
        for uid, words in ((14, "not playing"), (waiting, "not your turn")):
            inter = await fake.click(uid, msg, select["custom_id"], [value])
            await fake.wait_for(lambda i=inter: i.replies)
            assert words in inter.text().lower(), inter.text()
            assert all(m.where == "ephemeral" and m.to_user == uid for m in inter.replies)
            r = await fake.slash(uid, ch, "place", hex=value.split(":")[-1])
            assert words in r.text().lower(), r.text()
        await settle(bot)
        assert writes(fake, ch) == posts, "nothing happened"
        assert not (await game_state(bot, ch)).start_hexes
        fake.check()


@pytest.mark.asyncio
async def test_bad_input_is_explained_privately_and_changes_nothing(tmp_path: Path) -> None:
    async with running() as fake, bot_running(fake, tmp_path / "t.db", seed=6) as bot:
        ch = fake.channel_ids[0]
        msg = await open_game(fake, bot, ch)
        uid = prompt_users(msg)[0]
        state = await game_state(bot, ch)
        seat = next(i for i, _ in enumerate(state.players) if PEOPLE[i] == uid)
        legal = {a.hex for a in legal_actions(state, seat)}
        illegal = next(h for h in range(len(state.terrain)) if h not in legal)
        posts = writes(fake, ch)
        r = await fake.slash(uid, ch, "place", hex="Z99")
        assert "could not understand" in r.text().lower()
        r = await fake.slash(uid, ch, "place", hex=label(illegal))
        assert r.text().startswith("Not allowed:"), r.text()
        r = await fake.slash(uid, ch, "move", **{"from": "A1", "to": "A2"})
        assert r.replies and "Traceback" not in r.text()
        await settle(bot)
        assert writes(fake, ch) == posts
        assert (await game_state(bot, ch)).to_json() == state.to_json()
        fake.check()


@pytest.mark.asyncio
async def test_autocomplete_offers_only_legal_choices(tmp_path: Path) -> None:
    async with running() as fake, bot_running(fake, tmp_path / "t.db", seed=8) as bot:
        ch = fake.channel_ids[0]
        msg = await open_game(fake, bot, ch)
        uid = prompt_users(msg)[0]
        state = await game_state(bot, ch)
        seat = PEOPLE.index(uid)
        legal = sorted(label(a.hex) for a in legal_actions(state, seat))
        choices = await fake.autocomplete(uid, ch, "place", "hex")
        assert sorted(c["value"] for c in choices) == legal[:25]
        assert await fake.autocomplete(14, ch, "place", "hex") == []
        other = next(u for u in PEOPLE if u != uid)
        assert await fake.autocomplete(other, ch, "place", "hex") == []
        fake.check()


@pytest.mark.asyncio
async def test_lobby_rules(tmp_path: Path) -> None:
    async with running(managers={15}) as fake, \
            bot_running(fake, tmp_path / "t.db", seed=9) as bot:
        ch = fake.channel_ids[0]
        assert "no tempus game" in (await fake.slash(12, ch, "join")).text().lower()
        await fake.slash(11, ch, "new", seats=3)
        assert "already" in (await fake.slash(12, ch, "new")).text().lower()
        await fake.slash(12, ch, "join")
        assert "already" in (await fake.slash(12, ch, "join")).text().lower()
        assert "host" in (await fake.slash(12, ch, "start")).text().lower()
        assert "at least 3" in (await fake.slash(11, ch, "start")).text().lower()
        assert "host" in (await fake.slash(13, ch, "table cancel")).text().lower()
        await fake.slash(15, ch, "table cancel")  # may manage the channel
        await settle(bot)
        assert "cancel" in fake.channel_messages(ch)[-1].content.lower()
        await fake.slash(13, ch, "new", seats=3)  # the channel is free again
        fake.check()


@pytest.mark.asyncio
async def test_one_person_and_two_computers_finish_a_game(tmp_path: Path) -> None:
    async with running() as fake, bot_running(fake, tmp_path / "t.db", seed=10) as bot:
        ch = fake.channel_ids[0]
        await fake.slash(11, ch, "new", seats=3)
        await fake.slash(11, ch, "table addbot", level="normal")
        await fake.slash(11, ch, "table addbot", level="easy")
        await fake.slash(11, ch, "start")
        people = {11: FakePlayer(fake, 11, ch, random.Random(5))}
        await play_until(fake, in_process(bot), ch, people)
        record = final_record(fake, ch)
        kinds = [p["kind"] for p in record["players"]]
        assert kinds == ["human", "ai:normal", "ai:easy"]
        assert {a["seat"] for a in record["actions"]} == {0, 1, 2}
        check_no_leaks(fake, ch, {11: 0})
        fake.check()


@pytest.mark.asyncio
async def test_players_place_the_tiles_through_menus(tmp_path: Path) -> None:
    """R-SETUP-4 from Discord: choose a centre, preview (rotate), place; then tokens."""
    async with running() as fake, bot_running(fake, tmp_path / "t.db", seed=12) as bot:
        ch = fake.channel_ids[0]
        await fake.slash(11, ch, "new", seats=3, map="place")
        for u in PEOPLE[1:]:
            await fake.slash(u, ch, "join")
        await fake.slash(11, ch, "start")
        await settle(bot)
        first = panel_message(fake, ch)
        assert first is not None and "place tile" in first.content
        people = {u: FakePlayer(fake, u, ch, random.Random(u)) for u in PEOPLE}

        def tokens_phase(_applied: int, panel: Message) -> bool:
            return "starting token" in panel.content

        placed = await play_until(fake, in_process(bot), ch, people, stop=tokens_phase)
        state = await game_state(bot, ch)
        assert placed == len(state.placements) == 8  # R-SETUP-3: 8 tiles with 3 players
        previews = [m for p in people.values() for i in p.applied for m in i.replies]
        assert not previews or all(not m.public for m in previews)
        assert any("board.png" in p.seen_files for p in people.values()), \
            "a private preview of the placed tile"
        fake.check()


@pytest.mark.asyncio
async def test_secret_progress_choice_from_the_direct_message(tmp_path: Path) -> None:
    """R-PROG-2 from a DM: the menu sent privately works there, edited in place."""
    async with running() as fake, bot_running(fake, tmp_path / "t.db", seed=13) as bot:
        ch = fake.channel_ids[0]
        await open_game(fake, bot, ch)
        people = {u: FakePlayer(fake, u, ch, random.Random(u)) for u in PEOPLE}

        game = await bot.service.tables.channel_game_id(ch)  # type: ignore[union-attr]

        def progress(_applied: int, panel: Message) -> bool:
            # each step is made after a while away: whoever does not click now is away
            # from the table, so a secret choice finds them by DM
            bot.service.presence.forget(game)  # type: ignore[union-attr]
            return "Progress phase" in panel.content

        await play_until(fake, in_process(bot), ch, people, stop=progress)
        # open DM menus keep a partial message to retire them with, not the sent message
        # with every parsed select option (memory for as long as the decision waits)
        assert bot.publisher is not None
        open_dms = [m for m in bot.publisher.menus._menus.values() if m.expires is None]
        assert open_dms
        for menu in open_dms:
            edit = getattr(menu.retire, "edit", menu.retire)
            assert type(getattr(edit, "__self__", None)) is discord.PartialMessage, edit
        chosen = 0
        for u in PEOPLE:
            menus = [m for m in fake.dms(u) if m.components]
            if not menus or "progress" not in menus[-1].content.lower():
                continue
            dm = menus[-1]
            button = next(c for c in dm.controls() if c["type"] == 2)  # "no cards"
            v0 = message_version(panel_message(fake, ch))
            await fake.click(u, dm, button["custom_id"])
            await fake.wait_for(lambda v=v0: message_version(panel_message(fake, ch)) > v)
            assert dm.edits >= 1 and not dm.components, "the DM menu is closed after use"
            chosen += 1
        assert chosen >= 1
        fake.check()


@pytest.mark.asyncio
async def test_a_computer_takes_over_an_absent_players_seat(tmp_path: Path) -> None:
    """The host hands an absent player's seat to a computer; the game goes on; the
    player takes the seat back; meanwhile they cannot act for it."""
    async with running() as fake, bot_running(fake, tmp_path / "t.db", seed=14) as bot:
        ch = fake.channel_ids[0]
        await open_game(fake, bot, ch)
        r = await fake.slash(12, ch, "table autopilot", player=UserOption(13))
        assert "host" in r.text().lower(), "only the host, a manager or the player"
        r = await fake.slash(11, ch, "table autopilot", player=UserOption(13), level="easy")
        assert "computer (easy)" in r.text() and "<@13>" in r.text()
        people = {u: FakePlayer(fake, u, ch, random.Random(u)) for u in (11, 12)}

        def enough(applied: int, _panel: Message) -> bool:
            return applied >= 30

        await play_until(fake, in_process(bot), ch, people, stop=enough)
        state = await game_state(bot, ch)
        assert sum(1 for h in state.owner if h == 2) > 0, "the computer placed seat 2's tokens"
        r = await fake.slash(13, ch, "table autopilot", on=False)
        assert "plays" in r.text() and "again" in r.text()
        assert "already" in (await fake.slash(13, ch, "table autopilot", on=False)).text()
        people[13] = FakePlayer(fake, 13, ch, random.Random(13))
        await play_until(fake, in_process(bot), ch, people)
        record = final_record(fake, ch)
        assert [p["kind"] for p in record["players"]] == ["human"] * 3
        fake.check()


@pytest.mark.asyncio
async def test_a_refused_move_command_spends_nothing(tmp_path: Path) -> None:
    """``/tempus move`` = begin the Move action + move a token: all or nothing."""
    async with running() as fake, bot_running(fake, tmp_path / "t.db", seed=15) as bot:
        ch = fake.channel_ids[0]
        await open_game(fake, bot, ch)
        people = {u: FakePlayer(fake, u, ch, random.Random(u)) for u in PEOPLE}

        def turn(_applied: int, panel: Message) -> bool:
            return "your turn" in panel.content.splitlines()[-1]

        await play_until(fake, in_process(bot), ch, people, stop=turn)
        msg = panel_message(fake, ch)
        assert msg is not None
        uid = prompt_users(msg)[0]
        before = (await game_state(bot, ch)).to_json()
        posts = writes(fake, ch)
        r = await fake.slash(uid, ch, "move", **{"from": "A1", "to": "A2"})
        assert r.text().startswith("Not allowed:"), r.text()
        await settle(bot)
        assert (await game_state(bot, ch)).to_json() == before
        assert writes(fake, ch) == posts
        fake.check()


@pytest.mark.asyncio
async def test_play_words_out_of_turn_say_why(tmp_path: Path) -> None:
    """``/tempus play choice:draw`` (or ``end``) that cannot be done now says whose turn it is
    or what is owed instead, as any refused choice does, and changes nothing."""
    async with running() as fake, bot_running(fake, tmp_path / "t.db", seed=2) as bot:
        ch = fake.channel_ids[0]
        msg = await open_game(fake, bot, ch)
        owing = prompt_users(msg)[0]
        other = next(u for u in PEOPLE if u != owing)
        before = (await game_state(bot, ch)).to_json()
        for word in ("draw", "end"):
            text = (await fake.slash(other, ch, "play", choice=word)).text()
            assert text.startswith("It is not your turn. Waiting for:"), text
        # the one who owes a starting token: told that, not "nothing of that kind"
        text = (await fake.slash(owing, ch, "play", choice="draw")).text()
        assert text.startswith("Not allowed: now you must place a starting token"), text
        assert (await game_state(bot, ch)).to_json() == before
        fake.check()


@pytest.mark.asyncio
async def test_a_typed_choice_of_the_game_not_possible_now_is_understood(tmp_path: Path
                                                                       ) -> None:
    """``/tempus play choice:<label typed by hand>``: a label of an action that is not
    possible now (another phase's, or an earlier turn's) is understood and refused as
    such, saying what is possible now or whose turn it is, privately, changing nothing;
    text that names no action is still "not understood"."""
    async with running() as fake, bot_running(fake, tmp_path / "t.db", seed=2) as bot:
        ch = fake.channel_ids[0]
        msg = await open_game(fake, bot, ch)
        owing = prompt_users(msg)[0]
        other = next(u for u in PEOPLE if u != owing)
        state = await game_state(bot, ch)
        seat = PEOPLE.index(owing)
        legal = legal_actions(state, seat)
        assert legal and all(type(a).__name__ == "PlaceStartToken" for a in legal)
        first = f"Starting token on {label(legal[0].hex)}"
        before, posts = state.to_json(), writes(fake, ch)
        # another phase's action, typed by its owner (in any case and spacing)
        r = await fake.slash(owing, ch, "play", choice="attack  f5 from E5")
        assert r.text().startswith("I understood that choice (attack f5 from E5), but you "
                                   "cannot make it now; nothing was changed. Now you can "
                                   f"choose: {first}; "), r.text()
        assert r.text().endswith("Start typing in `choice` to see every choice."), r.text()
        assert all(m.where == "ephemeral" and m.to_user == owing for m in r.replies)
        # a possible choice typed by someone whose turn it is not: whose turn it is
        r = await fake.slash(other, ch, "play", choice=first)
        assert r.text().startswith(f"I understood that choice ({first}), but you cannot "
                                   "make it now; nothing was changed. It is not your turn. "
                                   "Waiting for:"), r.text()
        # text that names no action, or a hex not on the board: not understood
        for typed in ("attack the blue one", "Attack Z99 from E5"):
            r = await fake.slash(owing, ch, "play", choice=typed)
            assert r.text().startswith("I could not understand that choice ("), r.text()
        await settle(bot)
        assert (await game_state(bot, ch)).to_json() == before
        assert writes(fake, ch) == posts
        # an earlier phase's label (the map is laid): understood, not possible
        r = await fake.slash(owing, ch, "play", choice="Place the tile on F5, rotation 2")
        assert r.text().startswith("I understood that choice (Place the tile on F5, "
                                   "rotation 2), but you cannot make it now"), r.text()
        # and the label typed as it is offered: done
        r = await fake.slash(owing, ch, "play", choice=first)
        assert r.text() == f"Done: {first}.", r.text()
        fake.check()


@pytest.mark.asyncio
async def test_typed_nonsense_is_quoted_back_on_one_plain_line(tmp_path: Path) -> None:
    """What a person typed into an option is quoted in the refusal as the control refusals
    quote it (games.tempus.codec.shown): one line, no markup of theirs, short."""
    async with running() as fake, bot_running(fake, tmp_path / "t.db", seed=2) as bot:
        ch = fake.channel_ids[0]
        msg = await open_game(fake, bot, ch)
        owing = prompt_users(msg)[0]
        typed = "`**C4**`\n@everyone " + "z" * 60
        for sub, options in (("play", {"choice": typed}), ("grow", {"hex": typed}),
                             ("move", {"from": typed, "to": "C4"}),
                             ("city", {"hex": typed, "value": 2}),
                             ("place", {"hex": typed})):
            text = (await fake.slash(owing, ch, sub, **options)).text()
            assert text.startswith("I could not understand that choice ("), (sub, text)
            assert "\n" not in text and "`" not in text and "zzzz…" in text, (sub, text)
        fake.check()
