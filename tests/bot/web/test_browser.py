"""In a real browser (headless Chromium through Selenium, at a phone's size) against the
bot and the fake Discord: a person opens the link the "🗺️ Board" button gave them, taps a
stack and a destination, and sees the board change; the turn message in the game's thread
changes as it does for a click; a second browser on a link to watch shows the move within
a second of the server taking it. Screenshots of both phones are kept (the test prints
where).

Skipped, saying why, where Chromium or its driver is not installed (``.ci/run`` installs
Debian's ``chromium`` and ``chromium-driver`` when it can)."""

from __future__ import annotations

import asyncio
import json
import shutil
import tempfile
import time
from pathlib import Path
from typing import Any

import aiohttp
import aiohttp.web
import pytest

from bot.web import server
from tests.bot.e2e import message_version
from tests.bot.web.discord_rig import ANN, BOB, CY, WATCHER, table_with_pages

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
DRIVER = shutil.which("chromedriver")
PHONE = {"width": 390, "height": 844, "pixelRatio": 2}
PIECES = "return document.getElementById('pieces').innerHTML"

pytestmark = pytest.mark.skipif(
    CHROMIUM is None or DRIVER is None,
    reason="headless Chromium is not installed (Debian: apt-get install chromium "
           "chromium-driver; .ci/run does it when it can)")


def _browser() -> Any:
    from selenium import webdriver
    from selenium.webdriver.chrome.options import Options
    from selenium.webdriver.chrome.service import Service

    options = Options()
    for arg in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                "--disable-extensions", "--no-first-run"):
        options.add_argument(arg)
    options.add_experimental_option("mobileEmulation", {"deviceMetrics": PHONE})
    assert CHROMIUM is not None and DRIVER is not None
    options.binary_location = CHROMIUM
    return webdriver.Chrome(options=options, service=Service(DRIVER))


def _wait(driver: Any, script: str, timeout: float = 20.0) -> Any:
    """Until ``script`` returns something true in the page."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = driver.execute_script(script)
        if value:
            return value
        time.sleep(0.05)
    raise AssertionError(f"the page never had: {script}")


def _tap_hex(driver: Any, h: int) -> None:
    from selenium.webdriver.common.by import By

    driver.find_element(By.CSS_SELECTOR, f'#map .hit[data-hex="{h}"]').click()


async def _state(url: str) -> dict[str, Any]:
    base, token = url.split("/#")
    async with aiohttp.ClientSession() as s, s.get(
            base + "/api/state", headers={"Authorization": f"Bearer {token}"}) as resp:
        return dict((await resp.json())["state"])


@pytest.mark.asyncio
async def test_a_move_tapped_on_the_page_reaches_the_table_discord_and_a_watcher(
        tmp_path: Path) -> None:
    shots = Path(tempfile.mkdtemp(prefix="tempus-web-shots-"))
    print(f"\nphone screenshots: {shots}")
    async with table_with_pages(tmp_path) as t:
        service = t.bot.service
        assert service is not None
        table = await service.tables.get(t.game)
        seat = min(table.since)
        uid = table.seats[seat].user_id
        assert uid in (ANN, BOB, CY)
        mine = await t.board_link(uid)
        watching = await t.board_link(WATCHER)
        state = await _state(mine)
        move = next(p for p in state["choices"]["pairs"] if p["tone"] == "move")
        before = state["v"]
        turn = t.turn_message()
        turn_version, turn_edits = message_version(turn), turn.edits

        first: list[str] = []
        player, watcher = await asyncio.gather(asyncio.to_thread(_browser),
                                               asyncio.to_thread(_browser))
        try:
            def open_pages() -> None:
                player.get(mine)
                watcher.get(watching)
                for d in (player, watcher):
                    _wait(d, "return document.body.dataset.v")
                    _wait(d, "return document.querySelector('#map .hit') !== null")
                player.save_screenshot(str(shots / "1-seat-page.png"))
                watcher.save_screenshot(str(shots / "1-watching-page.png"))
                first.append(player.execute_script(PIECES))
                # the whole map in view, then the stack and where it goes
                player.find_element("id", "zfit").click()
                _tap_hex(player, move["from"])
                _wait(player, "return document.querySelectorAll('#marks .sel').length")
                player.save_screenshot(str(shots / "2-stack-tapped.png"))
                _tap_hex(player, move["to"])

            await asyncio.to_thread(open_pages)

            def accepted() -> tuple[int, int, int]:
                at = _wait(player, "return document.body.dataset.accepted")
                v = int(_wait(player, "return document.body.dataset.acceptedV"))
                return int(player.execute_script("return document.body.dataset.sent")), int(at), v

            sent_at, accepted_at, version = await asyncio.to_thread(accepted)
            assert version > before

            def shown() -> tuple[int, int]:
                script = (f"return Number(document.body.dataset.v) >= {version} && "
                          "Number(document.body.dataset.received)")
                return (int(_wait(watcher, script, 10)), int(_wait(player, script, 10)))

            watcher_at, player_at = await asyncio.to_thread(shown)
            print(f"tap to the server's answer {accepted_at - sent_at} ms; tap to the push shown "
                  f"on the watching page {watcher_at - sent_at} ms, on the seat's page "
                  f"{player_at - sent_at} ms")

            def after() -> tuple[str, str]:
                player.save_screenshot(str(shots / "3-moved-seat-page.png"))
                watcher.save_screenshot(str(shots / "3-moved-watching-page.png"))
                return player.execute_script(PIECES), watcher.execute_script(PIECES)

            pieces_player, pieces_watcher = await asyncio.to_thread(after)
        finally:
            await asyncio.gather(asyncio.to_thread(player.quit), asyncio.to_thread(watcher.quit))

        # the table took it through the service: stored, and the board moved
        table = await service.tables.get(t.game)
        assert table.version >= version
        assert table.state is not None and table.state.count[move["to"]] >= 1
        assert pieces_player == pieces_watcher != first[0], "both pages show the move"
        # the thread's turn message follows, as for a click in Discord
        await service.idle()
        await t.fake.wait_for(
            lambda: message_version(t.turn_message()) > turn_version
            or t.turn_message().edits > turn_edits, 10)
        assert list(shots.glob("*.png")), "phone screenshots kept"
        (shots / "move.json").write_text(json.dumps(move))


@pytest.mark.asyncio
async def test_inside_discord_the_activity_shows_the_persons_seat_without_a_link(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The Board button launches the Activity in the game's thread; Discord opens the page
    with the instance in its address; the page signs in through the SDK (Discord's own mock
    from the vendored bundle, in the SDK's place) and the fake Discord's token and user
    endpoints, and shows the person's seat: their hand, and the move they tap is played.
    Declining the authorization leaves the page saying why, with nothing shown."""
    monkeypatch.setitem(server.FILES, "/static/vendor/discord-embedded-app-sdk.mjs",
                        str(Path(__file__).with_name("fake_discord_sdk.mjs")))
    monkeypatch.setitem(server.FILES, "/static/vendor/the-real-sdk.mjs",
                        "vendor/discord-embedded-app-sdk.mjs")
    async with table_with_pages(tmp_path, activity=True) as t:
        service = t.bot.service
        assert service is not None
        table = await service.tables.get(t.game)
        seat = min(table.since)
        uid = table.seats[seat].user_id
        assert uid is not None
        assert (await t.board(uid)).response_type == 12, "launched, no link"
        (iid,) = t.fake.activity_instances
        mine = t.web.links.url(t.web.links.token(t.game, seat, uid))  # (to find a move)
        move = next(p for p in (await _state(mine))["choices"]["pairs"] if p["tone"] == "move")
        base = f"{t.web.links.base_url.rstrip('/')}/?instance_id={iid}&channel_id={t.thread}" \
               f"&guild_id={t.fake.guild_id}&frame_id=f1&platform=mobile&location_id=l1"
        codes = ",".join(t.fake.authorize(uid) for _ in range(2))
        browser = await asyncio.to_thread(_browser)
        try:
            def play() -> tuple[str, str, str]:
                browser.get(base + f"&test_code={codes}")
                _wait(browser, "return document.body.dataset.v")
                sdk = browser.execute_script("return document.body.dataset.sdk")
                asked = browser.execute_script("return document.body.dataset.authorize")
                hand = _wait(browser, "return document.getElementById('hand').textContent")
                browser.find_element("id", "zfit").click()
                _tap_hex(browser, move["from"])
                _wait(browser, "return document.querySelectorAll('#marks .sel').length")
                _tap_hex(browser, move["to"])
                _wait(browser, "return document.body.dataset.accepted")
                return sdk, asked, hand

            sdk, asked, hand = await asyncio.to_thread(play)
            assert sdk == f"mock of {t.fake.app_id}"
            assert json.loads(asked) == {"client_id": str(t.fake.app_id),
                                         "response_type": "code", "state": "",
                                         "prompt": "none", "scope": ["identify"]}
            assert hand, "the person's own hand is shown"

            # three days on, the page still open: its token has expired; the next request
            # renews it through Discord (a second authorization) and goes through
            real_time = t.web.links._time
            t.web.links._time = lambda: real_time() + 73 * 3600  # type: ignore[method-assign]

            def recap() -> tuple[str, str]:
                browser.find_element("id", "recaptitle").click()
                lines = _wait(browser, "return document.getElementById('recap').textContent")
                return str(lines), browser.execute_script("return document.body.dataset.authorized")

            lines, authorized = await asyncio.to_thread(recap)
            assert lines and authorized == "2"

            def declined() -> str:
                browser.get(base + "&declined=1")
                return str(_wait(browser, "return document.getElementById('conn')"
                                          ".textContent.includes('permission') && "
                                          "document.getElementById('conn').textContent"))

            said = await asyncio.to_thread(declined)
            assert "open it again" in said
        finally:
            await asyncio.to_thread(browser.quit)
        table = await service.tables.get(t.game)
        assert table.state is not None and table.state.count[move["to"]] >= 1, "played"
        assert t.fake.errors == []


@pytest.mark.asyncio
async def test_the_real_sdk_outside_discord_says_the_page_works_inside_discord_only(
        tmp_path: Path) -> None:
    """The vendored SDK itself, loaded under the page's content security policy, opened as
    Discord would open it but with no Discord around: the page says where it works."""
    async with table_with_pages(tmp_path, activity=True) as t:
        url = f"{t.web.links.base_url.rstrip('/')}/?instance_id=i-1-gc-1-2&channel_id=2" \
              f"&guild_id=1&frame_id=f1&platform=desktop"
        browser = await asyncio.to_thread(_browser)
        try:
            def opened() -> str:
                browser.get(url)
                return str(_wait(browser, "const c = document.getElementById('conn')"
                                          ".textContent; return c.includes('inside') && c",
                                 timeout=40))

            said = await asyncio.to_thread(opened)
            logs = await asyncio.to_thread(browser.get_log, "browser")
        finally:
            await asyncio.to_thread(browser.quit)
        assert "works inside Discord only" in said
        assert not [e for e in logs if "Content Security Policy" in e.get("message", "")]


@pytest.mark.asyncio
async def test_a_page_whose_stream_is_held_back_asks_instead(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Something between the page and the server (a proxy that buffers, which Discord's
    Activity proxy may be) holds the stream back: the page hears nothing, so it asks for
    the state every few seconds instead, and still shows a move made at the table."""
    release = asyncio.Event()

    async def held(self: server.WebServer, request: Any) -> Any:
        response = aiohttp.web.StreamResponse(headers={"Content-Type": "text/event-stream"})
        await response.prepare(request)
        await release.wait()  # nothing gets through while the test runs
        return response

    monkeypatch.setattr(server.WebServer, "_stream", held)
    async with table_with_pages(tmp_path) as t:
        service = t.bot.service
        assert service is not None
        watching = await t.board_link(WATCHER)
        browser = await asyncio.to_thread(_browser)
        try:
            def opened() -> int:
                browser.get(watching)
                return int(_wait(browser, "return document.body.dataset.v"))

            shown = await asyncio.to_thread(opened)
            table = await service.tables.get(t.game)
            seat = min(table.since)
            uid = table.seats[seat].user_id
            assert uid is not None
            action = (await service.play.legal(t.game, uid))[0]
            await service.play.act(t.game, uid, action, table.version)
            version = (await service.tables.get(t.game)).version
            assert version > shown

            def caught_up() -> tuple[str, str]:
                v = _wait(browser, f"return Number(document.body.dataset.v) >= {version} "
                                   "&& document.body.dataset.v", timeout=40)
                return str(v), str(browser.execute_script(
                    "return document.body.dataset.polling"))

            v, polling = await asyncio.to_thread(caught_up)
        finally:
            release.set()
            await asyncio.to_thread(browser.quit)
        assert int(v) >= version and polling == "1"
