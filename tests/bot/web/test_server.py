"""The live pages' server: what a link may see and do, and clear answers to anything else
(unknown game, forged or expired link, an illegal action, malformed JSON, a 1 MB body)
that change nothing."""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import AsyncIterator
from typing import Any

import aiohttp
import pytest
import pytest_asyncio

from bot.table.model import Table, undo_seat
from tests.bot.web.rig import BOB, CY, HOST, Rig, in_actions, new_game, play_until, rig


@pytest_asyncio.fixture
async def ready() -> AsyncIterator[tuple[Rig, int]]:
    """A game of three people at the first turn of its actions phase."""
    async with rig() as r:
        g = await new_game(r)
        await play_until(r, g, in_actions)
        yield r, g


def _auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


async def _get(r: Rig, path: str, token: str | None = None) -> tuple[int, Any, Any]:
    async with aiohttp.ClientSession() as s, s.get(
            r.base + path, headers=_auth(token) if token else {}) as resp:
        body = await resp.read()
        try:
            data = json.loads(body)
        except ValueError:
            data = body
        return resp.status, data, resp.headers


async def _post(r: Rig, path: str, token: str | None, body: Any, *,
                raw: bytes | None = None,
                content_type: str = "application/json") -> tuple[int, Any]:
    headers = {"Content-Type": content_type, **(_auth(token) if token else {})}
    data = raw if raw is not None else json.dumps(body).encode()
    async with aiohttp.ClientSession() as s, s.post(r.base + path, data=data,
                                                    headers=headers) as resp:
        text = await resp.read()
        try:
            return resp.status, json.loads(text)
        except ValueError:
            return resp.status, text


def _deciding(table: Table) -> tuple[int, int]:
    seat = sorted(table.since)[0]
    uid = table.seats[seat].user_id
    assert uid is not None
    return seat, uid


async def _log_len(r: Rig, g: int) -> int:
    return len(await r.service.storage.actions(g))


@pytest.mark.asyncio
async def test_the_page_and_its_answers_carry_a_strict_policy_and_no_cookie(ready) -> None:
    r, g = ready
    for path, token in (("/", None), ("/static/app.js", None), ("/api/state", "x"),
                        ("/nothing", None)):
        _, _, headers = await _get(r, path, token)
        assert "script-src 'self'" in headers["Content-Security-Policy"], path
        assert "frame-ancestors 'none'" in headers["Content-Security-Policy"]
        assert headers["X-Content-Type-Options"] == "nosniff"
        assert headers["Referrer-Policy"] == "no-referrer"
        assert "Set-Cookie" not in headers, "no cookie carries authority"


@pytest.mark.asyncio
@pytest.mark.parametrize("lang", ["en", "pl"])
async def test_no_link_a_forged_one_or_an_expired_one_gets_a_clear_refusal(ready, lang) -> None:
    r, g = ready
    headers = {"Accept-Language": lang}
    good = r.token(g, None, HOST)
    expired = r.token(g, None, HOST, hours=-1)
    head, tail = good.split(".")
    forged = head + "." + ("A" if tail[0] != "A" else "B") + tail[1:]
    async with aiohttp.ClientSession() as s:
        for token, status, words in ((None, 401, {"en": "not valid", "pl": "nieprawidłowy"}),
                                     (forged, 401, {"en": "not valid", "pl": "nieprawidłowy"}),
                                     (expired, 401, {"en": "expired", "pl": "wygasł"})):
            h = {**headers, **(_auth(token) if token else {})}
            async with s.get(r.base + "/api/state", headers=h) as resp:
                assert resp.status == status
                assert words[lang] in (await resp.json())["error"]


@pytest.mark.asyncio
async def test_an_unknown_game_is_named(ready) -> None:
    r, _ = ready
    status, data, _ = await _get(r, "/api/state", r.token(999, None, HOST))
    assert status == 404 and "999" in data["error"]
    status, data = await _post(r, "/api/act", r.token(999, 0, HOST),
                               {"v": 1, "steps": ["end_turn"]})
    assert status == 404 and "999" in data["error"]


@pytest.mark.asyncio
async def test_a_watching_link_sees_the_public_view_and_cannot_act(ready) -> None:
    r, g = ready
    token = r.token(g, None, 555)
    status, data, _ = await _get(r, "/api/state", token)
    assert status == 200
    state = data["state"]
    assert state["seat"] is None and state["choices"] is None
    assert state["page"]["hand"] is None, "a watching page holds no hand"
    assert data["map"].startswith("<defs>") and "data-hex" in data["map"]
    before = (await r.table(g)).version
    status, data = await _post(r, "/api/act", token, {"v": before, "steps": ["end_turn"]})
    assert status == 403 and data["error"]
    assert (await r.table(g)).version == before


@pytest.mark.asyncio
async def test_a_seat_link_acts_through_the_table_service_and_the_announcement_follows(
        ready) -> None:
    r, g = ready
    table = await r.table(g)
    seat, uid = _deciding(table)
    token = r.token(g, seat, uid)
    _, data, _ = await _get(r, "/api/state", token)
    choices = data["state"]["choices"]
    assert choices["kind"] == "turn" and data["state"]["page"]["hand"] is not None
    move = next(p for p in choices["pairs"] if p["tone"] == "move")
    before, logged, announced = table.version, await _log_len(r, g), len(r.sink.outcomes)
    status, answer = await _post(r, "/api/act", token, {"v": before, "steps": move["steps"]})
    assert status == 200, answer
    assert answer["ok"] and answer["v"] > before and "→" in answer["done"]
    assert await _log_len(r, g) == logged + len(move["steps"]), "stored as a click's steps"
    await r.service.idle()
    assert len(r.sink.outcomes) > announced, "the table announced it (Discord follows)"
    state = (await r.table(g)).state
    assert state is not None and state.count[move["to"]] >= 1


@pytest.mark.asyncio
async def test_an_illegal_action_is_refused_and_changes_nothing(ready) -> None:
    r, g = ready
    table = await r.table(g)
    seat, uid = _deciding(table)
    token = r.token(g, seat, uid)
    before, logged = table.version, await _log_len(r, g)
    for steps in (["move_token:A1:A2"], ["begin_move", "move_token:A1:M12"],
                  ["occupy:3"], ["place_start_token:A1"]):
        status, data = await _post(r, "/api/act", token, {"v": before, "steps": steps})
        assert status == 409 and data["error"], steps
    assert (await r.table(g)).version == before
    assert await _log_len(r, g) == logged


@pytest.mark.asyncio
@pytest.mark.parametrize("body", [
    b"{not json", b"[]", b'"text"', b'{"steps": ["end_turn"]}', b'{"v": "1", "steps": []}',
    b'{"v": 1, "steps": "end_turn"}', b'{"v": 1, "steps": ["a", "b", "c", "d"]}',
    b'{"v": 1, "steps": [1]}', b'{"v": 1, "steps": ["nothing:x"]}',
    b'{"v": 1, "steps": ["move_token:Z99:A1"]}', b'{"v": 1, "cards": [1], "decision": "turn"}',
    b'{"v": 1, "cards": [99999], "decision": "discard"}', b'{"v": 1}', b"\xff\xfe",
    b'{"v": true, "steps": ["end_turn"]}', b'{"v": 1e300, "steps": ["end_turn"]}',
])
async def test_malformed_requests_get_a_clear_answer_and_change_nothing(ready, body) -> None:
    r, g = ready
    table = await r.table(g)
    seat, uid = _deciding(table)
    before, logged = table.version, await _log_len(r, g)
    status, data = await _post(r, "/api/act", r.token(g, seat, uid), None, raw=body)
    assert status == 400 and "JSON" in data["error"]
    assert (await r.table(g)).version == before and await _log_len(r, g) == logged


@pytest.mark.asyncio
async def test_a_body_not_json_nor_small_is_refused(ready) -> None:
    r, g = ready
    table = await r.table(g)
    seat, uid = _deciding(table)
    token = r.token(g, seat, uid)
    before = table.version
    status, data = await _post(r, "/api/act", token, None, raw=b"x" * (1 << 20))
    assert status == 413 and "too large" in data["error"]
    big = json.dumps({"v": before, "steps": ["end_turn"], "pad": "x" * (1 << 20)}).encode()
    status, data = await _post(r, "/api/act", token, None, raw=big)
    assert status == 413
    status, data = await _post(r, "/api/act", token, {"v": before, "steps": ["end_turn"]},
                               content_type="text/plain")
    assert status == 400, "a form posted from another site is no JSON request"
    assert (await r.table(g)).version == before


@pytest.mark.asyncio
async def test_one_seat_link_cannot_see_or_act_for_another(ready) -> None:
    r, g = ready
    table = await r.table(g)
    seat, uid = _deciding(table)
    other = next(s for s in range(len(table.seats)) if s != seat)
    other_uid = table.seats[other].user_id
    assert other_uid is not None
    # a link made for one person naming another's seat: refused
    status, data, _ = await _get(r, "/api/state", r.token(g, seat, other_uid))
    assert status == 403
    # the other seat's own link: its hand only, no choices, and it cannot act for the seat
    status, data, _ = await _get(r, "/api/state", r.token(g, other, other_uid))
    state = data["state"]
    assert state["seat"] == other and state["choices"] is None
    assert table.state is not None
    assert [c["id"] for c in state["page"]["hand"]] == list(table.state.players[other].hand)
    text = json.dumps(data)
    for card in table.state.players[seat].hand:
        assert f'"id":{card},' not in text.replace(" ", "")
    before = table.version
    status, data = await _post(r, "/api/act", r.token(g, other, other_uid),
                               {"v": before, "steps": ["draw_cards"]})
    assert status == 409 and data["error"]
    assert (await r.table(g)).version == before


@pytest.mark.asyncio
async def test_a_stale_version_is_refused_as_such(ready) -> None:
    r, g = ready
    table = await r.table(g)
    seat, uid = _deciding(table)
    token = r.token(g, seat, uid)
    status, data = await _post(r, "/api/act", token, {"v": table.version - 5,
                                                      "steps": ["draw_cards"]})
    assert status == 409 and data["stale"] is True


@pytest.mark.asyncio
async def test_a_seat_that_changed_hands_makes_its_link_useless(ready) -> None:
    r, g = ready
    table = await r.table(g)
    token = r.token(g, 1, BOB)
    assert (await _get(r, "/api/state", token))[0] == 200
    async with aiohttp.ClientSession() as s, s.get(
            r.base + f"/api/stream?v={table.version}", headers=_auth(token)) as stream:
        assert stream.status == 200
        await r.service.seats.replace(g, HOST, BOB, 999, "Dee", can_manage=True)
        line = await asyncio.wait_for(_event(stream), 5)
        assert line == {"gone": True}, "an open page of it is told, and shows nothing more"
    status, data, _ = await _get(r, "/api/state", token)
    assert status == 403 and "changed hands" in data["error"]
    assert (await _get(r, "/api/state", r.token(g, 1, 999)))[0] == 200


async def _event(resp: aiohttp.ClientResponse) -> Any:
    """The next ``data:`` event of a stream."""
    while True:
        line = await resp.content.readline()
        if not line:
            raise EOFError
        if line.startswith(b"data: "):
            return json.loads(line[6:])


@pytest.mark.asyncio
async def test_pages_get_every_move_pushed(ready) -> None:
    r, g = ready
    table = await r.table(g)
    seat, uid = _deciding(table)
    async with aiohttp.ClientSession() as s:
        watch = await s.get(r.base + f"/api/stream?v={table.version}&map=",
                            headers=_auth(r.token(g, None, CY)))
        mine = await s.get(r.base + "/api/stream?v=-1&map=",
                           headers=_auth(r.token(g, seat, uid)))
        first = await asyncio.wait_for(_event(mine), 5)
        assert first["map"] is not None, "a page that has no map gets it"
        key = first["state"]["board"]["key"]
        move = next(p for p in first["state"]["choices"]["pairs"] if p["tone"] == "move")
        before = first["state"]["v"]
        status, _ = await _post(r, "/api/act", r.token(g, seat, uid),
                                {"v": before, "steps": move["steps"]})
        assert status == 200
        seen = await asyncio.wait_for(_event(watch), 5)
        assert seen["state"]["v"] > before and seen["state"]["choices"] is None
        assert seen["map"] is not None, "the watching page asked with no map"
        pushed = await asyncio.wait_for(_event(mine), 5)
        assert pushed["state"]["v"] > before
        assert pushed["map"] is None and pushed["state"]["board"]["key"] == key, \
            "the same map is not sent again"
        watch.close()
        mine.close()


@pytest.mark.asyncio
async def test_a_link_hammering_the_server_is_slowed_down(ready) -> None:
    r, g = ready
    token = r.token(g, None, HOST)
    codes = []
    async with aiohttp.ClientSession() as s:
        for _ in range(40):
            async with s.get(r.base + "/api/state", headers=_auth(token)) as resp:
                codes.append(resp.status)
                if resp.status == 429:
                    assert "Too many" in (await resp.json())["error"]
    assert 429 in codes and codes[0] == 200
    assert (await _get(r, "/api/state", r.token(g, None, BOB)))[0] == 200, \
        "another link is not slowed down"


@pytest.mark.asyncio
async def test_tokens_are_never_logged(ready, caplog) -> None:
    r, g = ready
    caplog.set_level(logging.DEBUG)
    table = await r.table(g)
    seat, uid = _deciding(table)
    token = r.token(g, seat, uid)
    head, tail = token.split(".")
    await _get(r, "/api/state", token)
    await _get(r, "/api/state", head + ".AAAA" + tail[4:])
    await _post(r, "/api/act", token, {"v": 0, "steps": ["end_turn"]})
    await _post(r, "/api/act", token, None, raw=b"{")
    text = "\n".join(rec.getMessage() + str(rec.args) for rec in caplog.records)
    assert head not in text and tail not in text


@pytest.mark.asyncio
async def test_undo_through_the_page(ready) -> None:
    """The page offers Undo exactly when the turn message does, and takes the step back."""
    r, g = ready
    for _ in range(40):
        table = await r.table(g)
        seat, uid = _deciding(table)
        token = r.token(g, seat, uid)
        _, data, _ = await _get(r, "/api/state", token)
        state = data["state"]
        assert state["undo"] == (undo_seat(table) == seat)
        if state["undo"]:
            status, answer = await _post(r, "/api/undo", token, {"v": state["v"]})
            assert status == 200 and answer["v"] == state["v"] + 1
            return
        c = state["choices"]
        if c["cards"] is not None:
            steps: dict[str, Any] = {"decision": c["cards"]["decision"],
                                     "cards": c["cards"]["cards"][:c["cards"]["min"]]}
        else:
            options = [*c["pairs"], *c["spots"], *c["buttons"]]
            steps = {"steps": options[0]["steps"]}
        status, answer = await _post(r, "/api/act", token, {"v": state["v"], **steps})
        assert status == 200, answer
        await r.service.idle()
    raise AssertionError("no step could be taken back")


@pytest.mark.asyncio
async def test_a_page_that_asks_gets_nothing_when_nothing_changed(ready) -> None:
    """The way a page whose stream is held back keeps up: 204 at the same version, the
    state without the map layer it already has when the game moved on."""
    r, g = ready
    table = await r.table(g)
    token = r.token(g, None, CY)
    status, first, _ = await _get(r, "/api/state", token)
    assert status == 200 and first["map"]
    key = first["state"]["board"]["key"]
    before = table.version
    status, body, _ = await _get(r, f"/api/state?v={before}&map={key}", token)
    assert status == 204 and body == b""
    seat, uid = _deciding(table)
    status, _ = await _post(r, "/api/act", r.token(g, seat, uid),
                            {"v": before, "steps": ["draw_cards"]})
    assert status == 200
    status, body, _ = await _get(r, f"/api/state?v={before}&map={key}", token)
    assert status == 200 and body["state"]["v"] > before and not body.get("map")
