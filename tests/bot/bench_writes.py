"""``python -m tests.bot.bench_writes``: the bot's CPU for one board write and one click.

What the load bench (:mod:`tests.bot.bench_load`) measures per action moves 10-20 % from
run to run on a shared machine; this measures the two things a busy bot does most often,
alone, in one process, interleaved, as CPU time of the bot's thread
(``time.thread_time``):

- ``edit``: a turn message's board edit with a click's token (content, the board as a
  file, the turn panel's components; Discord answers with the message), and ``post``, a
  new turn message through the click's token. ``before``: discord.py's own
  ``edit_original_response`` / ``followup.send`` with a ``discord.ui.View`` of dynamic
  items (the bot's code before bot/publish/message_writes.py); ``after``: the bot's
  :mod:`bot.publish.message_writes` with :func:`bot.client.components.component_rows`.
- ``click``: a click on the turn message handed to the application: Discord's
  interaction parsed (the same in both), then ``before`` discord.py's dynamic items
  (the clicked message rebuilt as a view to find the item, a task for it and one for
  ``on_interaction``'s check), ``after`` :func:`bot.client.components.dispatch` from
  ``on_interaction``.

Discord is a small aiohttp server in a child process that answers as Discord does (the
message, with the components it was given and the attachment); its CPU is not counted.
Prints one JSON line: per kind, the median over ``--rounds`` of each side's CPU ms per
operation, and the saving.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import io
import json
import os
import re
import socket
import statistics
import subprocess
import sys
import time
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any, cast

import discord
from aiohttp import BodyPartReader, web

from bot.__main__ import loop_factory
from bot.client.components import dispatch, dispatched
from bot.operator.settings import Settings
from bot.publish.components import component_rows, make_view
from bot.publish.message_writes import edit_with_token, post_with_token
from bot.store import SeatRow
from games.controls import Button, Panel, Select
from games.custom_ids import BUTTON_RE, SELECT_RE, ComponentId
from games.tempus import panels
from tests.bot.helpers import random_states

if TYPE_CHECKING:  # (imported at run time first, discord.types imports itself in a circle)
    from discord.types.interactions import Interaction as InteractionPayload

APP_ID = 555000000000000001
GUILD = 555000000000000002
THREAD = 555000000000000003
PARENT = 555000000000000004
BOT_USER = {"id": str(APP_ID), "username": "tempus", "discriminator": "0",
            "global_name": None, "avatar": None, "bot": True}
TIMESTAMP = "2026-01-01T00:00:00+00:00"
#: about the size of a board's PNG
BOARD = os.urandom(180_000)


# ------------------------------------------------------------------ Discord, in a child
def _message(message_id: int, payload: dict[str, Any]) -> dict[str, Any]:
    return {
        "id": str(message_id), "channel_id": str(THREAD), "type": 20,
        "content": payload.get("content", ""), "author": BOT_USER, "timestamp": TIMESTAMP,
        "edited_timestamp": TIMESTAMP, "tts": False, "mention_everyone": False,
        "mentions": [], "mention_roles": [], "embeds": [], "pinned": False, "flags": 0,
        "components": payload.get("components", []), "application_id": str(APP_ID),
        "guild_id": str(GUILD),
        "attachments": [{"id": str(message_id + i), "filename": a.get("filename", "x"),
                         "size": len(BOARD), "url": f"https://cdn.fake/{a.get('filename')}",
                         "proxy_url": f"https://cdn.fake/{a.get('filename')}",
                         "content_type": "image/png",
                         "description": a.get("description")}
                        for i, a in enumerate(payload.get("attachments", []))]}


def _json(body: Any) -> web.Response:
    """As Discord answers: discord.py parses a body as JSON only for exactly this type."""
    return web.Response(body=json.dumps(body).encode(), content_type="application/json")


async def _payload(request: web.Request) -> dict[str, Any]:
    if request.content_type.startswith("multipart/"):
        out: dict[str, Any] = {}
        async for part in await request.multipart():
            assert isinstance(part, BodyPartReader)  # discord.py nests no multipart
            data = await part.read()
            if part.name == "payload_json":
                out = json.loads(data)
        return out
    return dict(await request.json())


async def _answer(request: web.Request) -> web.Response:
    payload = await _payload(request)
    return _json(_message(900_000_000_000_000_000 + len(payload), payload))


async def _me(request: web.Request) -> web.Response:
    return _json(BOT_USER)


def serve(port: int) -> None:
    app = web.Application(client_max_size=20 * 2**20)
    app.router.add_get("/api/v10/users/@me", _me)
    app.router.add_route("PATCH", "/api/v10/webhooks/{app}/{token}/messages/{mid}", _answer)
    app.router.add_post("/api/v10/webhooks/{app}/{token}", _answer)
    web.run_app(app, host="127.0.0.1", port=port, print=None)


# ------------------------------------------------------------------ the bot's side
class _OldButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=BUTTON_RE.pattern):
    """The bot's dynamic items before clicks went by id (bot/client/components.py)."""

    def __init__(self, item: discord.ui.Button[Any]) -> None:
        super().__init__(item)

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction[Any],
                             item: discord.ui.Item[Any], match: re.Match[str], /
                             ) -> _OldButton:
        assert isinstance(item, discord.ui.Button)
        return cls(item)

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await _handler(interaction, self.custom_id, None)


class _OldSelect(discord.ui.DynamicItem[discord.ui.Select[Any]], template=SELECT_RE.pattern):
    def __init__(self, item: discord.ui.Select[Any]) -> None:
        super().__init__(item)

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction[Any],
                             item: discord.ui.Item[Any], match: re.Match[str], /
                             ) -> _OldSelect:
        assert isinstance(item, discord.ui.Select)
        return cls(item)

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await _handler(interaction, self.custom_id, list(self.item.values))


def _old_view(panel: Panel, game_id: int, version: int) -> discord.ui.View:
    """``make_view`` before: the same buttons and selects, each wrapped in a dynamic item."""
    plain = make_view(panel, game_id, version)
    assert plain is not None
    view = discord.ui.View(timeout=None)
    for item in plain.children:
        wrapped: discord.ui.Item[Any]
        if isinstance(item, discord.ui.Select):
            wrapped = _OldSelect(item)
        else:
            assert isinstance(item, discord.ui.Button)
            wrapped = _OldButton(item)
        wrapped.row = item.row
        view.add_item(wrapped)
    return view


_handled: list[asyncio.Future[None]] = []


async def _handler(interaction: discord.Interaction[Any], cid: Any,
                   values: list[str] | None) -> None:
    if _handled and not _handled[0].done():
        _handled[0].set_result(None)


def _turn_panel() -> Panel:
    """A busy turn panel of a random game (the most controls in its first 200 positions)."""
    seats = [SeatRow(i, 100 + i, None, f"P{i}") for i in range(4)]
    best = Panel("")
    for i, state in enumerate(random_states(11, 4, every=3)):
        panel = panels.with_mute(panels.with_help(panels.public_panel(state, seats)))
        if len(panel.controls()) > len(best.controls()):
            best = panel
        if i > 200:
            break
    return best


def _click_payload(panel: Panel, rows: list[dict[str, Any]]) -> dict[str, Any]:
    first = panel.controls()[0]
    assert isinstance(first, Button | Select)
    data: dict[str, Any]
    if isinstance(first, Select):
        data = {"custom_id": ComponentId(7, 3, first.op, first.arg, 0).render(),
                "component_type": 3, "values": [first.options[0].value]}
    else:
        data = {"custom_id": ComponentId(7, 3, first.op, first.arg).render(),
                "component_type": 2}
    message = _message(800_000_000_000_000_001, {"content": panel.text, "components": rows,
                                                 "attachments": [{"filename": "board.png"}]})
    user = {"id": "101", "username": "ann", "discriminator": "0", "global_name": "Ann",
            "avatar": None}
    return {
        "id": "700000000000000001", "application_id": str(APP_ID), "type": 3,
        "token": "tok", "version": 1, "channel_id": str(THREAD),
        "channel": {"id": str(THREAD), "type": 11, "guild_id": str(GUILD),
                    "parent_id": str(PARENT), "name": "Tempus #7", "owner_id": str(APP_ID),
                    "last_message_id": None, "rate_limit_per_user": 0, "flags": 0,
                    "message_count": 40, "member_count": 1, "total_message_sent": 40,
                    "thread_metadata": {"archived": False, "archive_timestamp": TIMESTAMP,
                                        "auto_archive_duration": 10080, "locked": False,
                                        "invitable": True, "create_timestamp": TIMESTAMP}},
        "locale": "en-US", "app_permissions": "2248473465835073", "entitlements": [],
        "attachment_size_limit": 10 * 2**20,
        "authorizing_integration_owners": {"0": str(GUILD)}, "data": data,
        "guild_id": str(GUILD), "guild_locale": "en-US", "context": 0,
        "member": {"user": user, "roles": [], "joined_at": TIMESTAMP, "deaf": False,
                   "mute": False, "flags": 0, "permissions": "2248473465835073"},
        "message": message}


async def _cpu_ms(op: Callable[[], Awaitable[None]], n: int) -> float:
    start = time.thread_time()
    for _ in range(n):
        await op()
    return (time.thread_time() - start) * 1000 / n


async def measure(port: int, rounds: int, n: int) -> dict[str, Any]:
    discord.http.Route.BASE = f"http://127.0.0.1:{port}/api/v10"
    client = discord.Client(intents=discord.Intents.none())
    # logged in without the gateway (the interactions are given here) nor the
    # application's info
    state = client._connection
    state.user = discord.ClientUser(state=state,
                                    data=await client.http.static_login("bench-token"))
    panel = _turn_panel()
    rows = component_rows(panel, 7, 3)
    assert rows is not None
    payload = _click_payload(panel, rows)
    # the JSON Discord sends for a click, built to that shape by _click_payload
    click = cast("InteractionPayload", payload)
    interaction = discord.Interaction(data=click, state=state)
    content = "\n".join(["Red moves a token C3 → C4."] * 6 + [panel.text])

    def board() -> list[discord.File]:
        return [discord.File(io.BytesIO(BOARD), filename="board.png",
                             description="The board: 4 players, era 2 ...")]

    async def edit_before() -> None:
        await interaction.edit_original_response(content=content, attachments=board(),
                                                 view=_old_view(panel, 7, 3))

    async def edit_after() -> None:
        await edit_with_token(interaction.followup, None, content=content,
                              attachments=board(), components=component_rows(panel, 7, 3))

    mentions = discord.AllowedMentions(everyone=False, roles=False, users=[])

    async def post_before() -> None:
        await interaction.followup.send(content, wait=True, files=board(),
                                        allowed_mentions=mentions, view=_old_view(panel, 7, 3))

    async def post_after() -> None:
        await post_with_token(interaction.followup, content, files=board(),
                              allowed_mentions=mentions,
                              components=component_rows(panel, 7, 3))

    store = state._view_store
    store.add_dynamic_items(_OldButton, _OldSelect)

    async def click_before() -> None:
        _handled[:] = [asyncio.get_running_loop().create_future()]
        clicked = discord.Interaction(data=click, state=state)
        store.dispatch_view(payload["data"]["component_type"], payload["data"]["custom_id"],
                            clicked)

        async def on_interaction() -> None:  # the application's check, in its own task
            assert dispatched(clicked) is not None
        await asyncio.gather(_handled[0], asyncio.ensure_future(on_interaction()))

    async def click_after() -> None:
        clicked = discord.Interaction(data=click, state=state)

        async def on_interaction() -> None:
            cid = dispatched(clicked)
            if cid is not None:
                await dispatch(clicked, cid, _handler_after)
        await asyncio.ensure_future(on_interaction())

    kinds: dict[str, tuple[Callable[[], Awaitable[None]], Callable[[], Awaitable[None]]]] = {
        "edit": (edit_before, edit_after), "post": (post_before, post_after),
        "click": (click_before, click_after)}
    out: dict[str, Any] = {"controls": len(panel.controls()), "rounds": rounds, "n": n}
    for kind, (before, after) in kinds.items():
        await before()
        await after()  # warm
        b: list[float] = []
        a: list[float] = []
        for _ in range(rounds):
            b.append(await _cpu_ms(before, n))
            a.append(await _cpu_ms(after, n))
        mb, ma = statistics.median(b), statistics.median(a)
        out[kind] = {"before_ms": round(mb, 3), "after_ms": round(ma, 3),
                     "saved_ms": round(mb - ma, 3), "saved": round(1 - ma / mb, 3),
                     "before_spread_ms": [round(min(b), 3), round(max(b), 3)],
                     "after_spread_ms": [round(min(a), 3), round(max(a), 3)]}
    await client.close()
    return out


async def _handler_after(interaction: discord.Interaction[Any], cid: Any,
                         values: list[str] | None) -> None:
    return None


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--n", type=int, default=200, help="operations per round and side")
    parser.add_argument("--serve", type=int, default=None, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve is not None:
        serve(args.serve)
        return
    port = _free_port()
    server = subprocess.Popen([sys.executable, "-m", "tests.bot.bench_writes",
                               "--serve", str(port)])
    try:
        for _ in range(100):
            with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port)):
                break
            time.sleep(0.1)
        # on the bot's own event loop (uvloop unless TEMPUS_EVENT_LOOP says otherwise)
        factory = loop_factory(Settings.from_env().event_loop)
        with asyncio.Runner(loop_factory=factory) as runner:
            print(json.dumps(runner.run(measure(port, args.rounds, args.n))))
    finally:
        server.terminate()
        server.wait()


if __name__ == "__main__":
    main()
