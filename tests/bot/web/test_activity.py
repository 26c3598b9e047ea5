"""The page as a Discord Activity (bot/web/activity.py): the person is known without a link
once Discord confirms the code and the instance, and gets exactly the page a link would
give (their seat's, or one to watch); a forged or reused code, a person not in the
instance, an instance Discord does not know, a channel without a game and Discord not
answering each get clear words and change nothing; no token or secret reaches a log."""

from __future__ import annotations

import json
import logging
from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Any

import aiohttp
import pytest
import pytest_asyncio

from bot.web.server import ACTIVITY_CSP, CSP
from tests.bot.fake_discord import FakeDiscord, running
from tests.bot.web.rig import BOB, CY, HOST, Rig, in_actions, new_game, play_until, rig

GUILD, CHANNEL, THREAD = 1, 10, 555
STRANGER = 104


@dataclass
class Setup:
    r: Rig
    fake: FakeDiscord
    game: int

    def instance(self, channel: int = THREAD, users: tuple[int, ...] = (HOST, BOB, CY,
                                                                         STRANGER),
                 guild: int = GUILD) -> str:
        """An Activity running in ``channel`` with ``users`` in it (as Discord keeps it)."""
        return self.fake.activity_instance(channel, guild, list(users))

    async def sign_in(self, code: Any, instance: Any) -> tuple[int, dict[str, Any]]:
        async with aiohttp.ClientSession() as s, s.post(
                self.r.base + "/api/activity", json={"code": code, "instance": instance},
                headers={"Accept-Language": "pl"}) as resp:
            return resp.status, dict(await resp.json())


@pytest_asyncio.fixture
async def setup() -> AsyncIterator[Setup]:
    """A game of three people, played in its thread, its page also the Activity of a fake
    Discord's application."""
    async with running() as fake:
        fake.enable_activities()
        async with rig(discord=fake) as r:
            g = await new_game(r, channel=CHANNEL)
            await r.service.tables.storage.set_thread(g, THREAD)
            r.service.tables.moved(g, THREAD)
            await play_until(r, g, in_actions)
            yield Setup(r, fake, g)
        assert fake.errors == [], "every body as Discord's API description has it"


async def _state(r: Rig, token: str) -> dict[str, Any]:
    async with aiohttp.ClientSession() as s, s.get(
            r.base + "/api/state", headers={"Authorization": f"Bearer {token}"}) as resp:
        assert resp.status == 200
        return dict((await resp.json())["state"])


@pytest.mark.asyncio
async def test_a_seated_person_gets_their_seats_page_and_anyone_else_the_public_one(
        setup: Setup) -> None:
    table = await setup.r.table(setup.game)
    iid = setup.instance()
    status, body = await setup.sign_in(setup.fake.authorize(BOB), iid)
    assert status == 200 and body["game"] == setup.game
    assert body["seat"] == table.seat_of(BOB) is not None
    state = await _state(setup.r, body["token"])
    assert state["seat"] == body["seat"] and state["page"]["hand"] is not None

    status, body = await setup.sign_in(setup.fake.authorize(STRANGER), iid)
    assert status == 200 and body["seat"] is None
    watching = await _state(setup.r, body["token"])
    assert watching["seat"] is None and watching["choices"] is None


@pytest.mark.asyncio
async def test_the_game_is_found_from_the_thread_or_its_channel_days_later(
        setup: Setup) -> None:
    """Whatever the instance, the page follows the game of the channel it runs in: the
    game's thread, or the channel the game was started in."""
    for channel in (THREAD, CHANNEL):
        status, body = await setup.sign_in(setup.fake.authorize(CY),
                                           setup.instance(channel=channel))
        assert status == 200 and body["game"] == setup.game, channel


@pytest.mark.asyncio
async def test_what_discord_does_not_confirm_is_refused_in_words_and_changes_nothing(
        setup: Setup, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG)
    before = (await setup.r.table(setup.game)).version
    iid = setup.instance(users=(HOST, CY))
    code = setup.fake.authorize(BOB)
    cases = [
        ("forged", "code-nobody-gave", iid, 401, "Discord nie potwierdził"),
        ("not in the instance", code, iid, 403, "nie uczestniczysz"),
        ("reused", code, iid, 401, "Discord nie potwierdził"),
        ("unknown instance", setup.fake.authorize(CY), "i-999-gc-1-555", 404,
         "nie zna tej aktywności"),
        ("no game in the channel", setup.fake.authorize(CY), setup.instance(channel=777),
         404, "nie ma gry"),
        ("another guild", setup.fake.authorize(CY), setup.instance(guild=2), 404,
         "nie ma gry"),
        ("malformed", "<script>", iid, 400, "zapytanie było błędne"),
        ("not a string", {"code": 1}, iid, 400, "zapytanie było błędne"),
    ]
    for name, code_, instance, status, words in cases:
        got, body = await setup.sign_in(code_, instance)
        assert (got, words in body.get("error", "")) == (status, True), (name, body)
        assert "token" not in body, name
    assert (await setup.r.table(setup.game)).version == before, "nothing changed"
    logged = caplog.text
    secrets = [setup.fake.client_secret, *setup.fake.access_tokens, code]
    assert not any(s in logged for s in secrets), "no secret, token or code in the log"


@pytest.mark.asyncio
async def test_a_lobby_has_no_board_yet(setup: Setup) -> None:
    lobby = await setup.r.service.lobby.create(GUILD, 888, HOST, "Ann", seats=3, seed=1)
    status, body = await setup.sign_in(setup.fake.authorize(HOST),
                                       setup.instance(channel=888))
    assert status == 409 and str(lobby.game_id) in body["error"]


@pytest.mark.asyncio
async def test_discord_not_answering_is_said_plainly(setup: Setup) -> None:
    activity = setup.r.front.activity
    assert activity is not None
    activity.api_base = "http://127.0.0.1:9/api/v10"  # nothing listens there
    status, body = await setup.sign_in(setup.fake.authorize(BOB), setup.instance())
    assert status == 503 and "Discord nie odpowiedział" in body["error"]


@pytest.mark.asyncio
async def test_only_discord_may_frame_the_page_and_only_when_it_is_an_activity(
        setup: Setup) -> None:
    async with aiohttp.ClientSession() as s:
        async with s.get(setup.r.base + "/?instance_id=i-1&frame_id=f&platform=mobile") as resp:
            assert resp.headers["Content-Security-Policy"] == ACTIVITY_CSP
            assert "X-Frame-Options" not in resp.headers
        async with s.get(setup.r.base + "/") as resp:  # a link's page: framed by nobody
            assert resp.headers["Content-Security-Policy"] == CSP
        async with s.get(setup.r.base + "/api/activity") as resp:
            app = await resp.json()
            assert app["client_id"] == str(setup.fake.app_id)
            assert all(app["words"][k] for k in ("signing_in", "declined", "outside"))
            assert resp.headers["X-Frame-Options"] == "DENY"
    async with rig() as plain, aiohttp.ClientSession() as s:
        async with s.get(plain.base + "/") as resp:
            assert resp.headers["Content-Security-Policy"] == CSP
            assert resp.headers["X-Frame-Options"] == "DENY"
        for method in ("GET", "POST"):
            async with s.request(method, plain.base + "/api/activity",
                                 data=json.dumps({"code": "c", "instance": "i"}),
                                 headers={"Content-Type": "application/json"}) as resp:
                assert resp.status == 404 and "Activity" in (await resp.json())["error"]


@pytest.mark.asyncio
async def test_no_activity_without_discords_embedded_flag() -> None:
    """The secret set but Activities not enabled in the developer portal: links only."""
    async with running() as fake, rig(discord=fake) as r:
        assert r.front.activity is None
        assert r.front.server is not None and r.front.server.activity is None


@pytest.mark.asyncio
async def test_a_person_of_another_seat_sees_only_their_own_and_cannot_act_for_the_seat_to_play(
        setup: Setup) -> None:
    """Signed in inside Discord, a person gets their own seat, whatever seat is to play:
    not the other hand, and no action for it."""
    table = await setup.r.table(setup.game)
    assert table.state is not None
    deciding = sorted(table.since)[0]
    other = next(s for s in range(len(table.seats)) if s != deciding)
    other_uid = table.seats[other].user_id
    assert other_uid is not None
    status, body = await setup.sign_in(setup.fake.authorize(other_uid), setup.instance())
    assert status == 200 and body["seat"] == other
    state = await _state(setup.r, body["token"])
    assert [c["id"] for c in state["page"]["hand"]] == list(table.state.players[other].hand)
    assert state["choices"] is None
    before = table.version
    async with aiohttp.ClientSession() as s, s.post(
            setup.r.base + "/api/act", json={"v": before, "steps": ["draw_cards"]},
            headers={"Authorization": f"Bearer {body['token']}"}) as resp:
        assert resp.status == 409 and (await resp.json())["error"]
    assert (await setup.r.table(setup.game)).version == before


@pytest.mark.asyncio
async def test_the_access_token_is_revoked_after_its_one_question(setup: Setup) -> None:
    status, _ = await setup.sign_in(setup.fake.authorize(BOB), setup.instance())
    assert status == 200
    activity = setup.r.front.activity
    assert activity is not None
    await activity.close()  # (waits for the revocation under way)
    assert setup.fake.revoked == 1 and setup.fake.access_tokens == {}


@pytest.mark.asyncio
async def test_junk_spends_no_sign_in_and_a_flood_slows_only_its_sender(setup: Setup) -> None:
    server = setup.r.front.server
    assert server is not None
    for _ in range(100):  # malformed: refused before any limit or Discord is asked
        assert (await setup.sign_in("<junk>", "i-1"))[0] == 400
    iid = setup.instance()
    assert (await setup.sign_in(setup.fake.authorize(BOB), iid))[0] == 200
    # one sender's flood of well-formed codes: slowed down, in words
    statuses = [(await setup.sign_in(f"forged{n}", iid)) for n in range(30)]
    assert statuses[-1][0] == 429 and "minut" in statuses[-1][1]["error"]
    # another sender (behind the operator's reverse proxy) is not
    async with aiohttp.ClientSession() as s, s.post(
            setup.r.base + "/api/activity",
            json={"code": setup.fake.authorize(CY), "instance": iid},
            headers={"X-Forwarded-For": "203.0.113.9"}) as resp:
        assert resp.status == 200


@pytest.mark.asyncio
async def test_a_wrong_client_secret_is_logged_for_the_operator_without_the_secret(
        setup: Setup, caplog: pytest.LogCaptureFixture) -> None:
    activity = setup.r.front.activity
    assert activity is not None
    activity._secret = "a-secret-that-was-reset-since-0000"
    status, body = await setup.sign_in(setup.fake.authorize(BOB), setup.instance())
    assert status == 401 and "Discord nie potwierdził" in body["error"]
    assert "TEMPUS_ACTIVITY_SECRET" in caplog.text
    assert "a-secret-that-was-reset" not in caplog.text
