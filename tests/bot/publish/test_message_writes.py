"""The turn message's writes without a parsed answer (bot/publish/message_writes.py) send
what discord.py's own ``send``/``edit`` methods send with a view of the same panel: the
same route, the same JSON and parts, the same query."""

from __future__ import annotations

import contextlib
import io
import secrets
from collections.abc import Awaitable, Callable, Iterator
from types import SimpleNamespace
from typing import Any

import discord
import pytest
from discord.utils import MISSING
from discord.webhook.async_ import async_context

from bot.publish import message_writes as mw
from bot.publish.components import component_rows, make_view
from games.controls import Button, Option, Panel, Select

PANEL = Panel("Your turn", rows=[
    (Button("Move", "menu", "move", "primary"), Button("?", "help")),
    Select("Where to?", "act", "", (Option("C4", "move_token:C3:C4", "plains"),
                                   Option("C5", "move_token:C3:C5")))])
MENTIONS = discord.AllowedMentions(everyone=False, roles=False, users=[discord.Object(11)])


class Sent(Exception):
    """Raised by the recorders once a request is recorded (discord.py's own methods
    would otherwise parse an answer)."""


def _norm(value: Any) -> Any:
    """A request's arguments, comparable: files by name, content and description."""
    if isinstance(value, discord.File):
        value.fp.seek(0)
        return ("file", value.filename, value.description, value.fp.read())
    if isinstance(value, io.IOBase):
        return "fp"
    if isinstance(value, dict):
        return {k: _norm(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_norm(v) for v in value]
    if isinstance(value, discord.http.MultipartParameters):
        return _norm({"payload": value.payload, "multipart": value.multipart,
                      "files": value.files})
    return value


class Recorder:
    """discord.py's webhook adapter and HTTP client, recording instead of sending."""

    def __init__(self, answer: dict[str, Any] | None = None) -> None:
        self.calls: list[Any] = []
        self.answer = answer

    def _record(self, name: str, args: Any, kwargs: Any) -> Any:
        kwargs = {k: v for k, v in kwargs.items() if k != "session"}
        self.calls.append((name, _norm(list(args)), _norm(kwargs)))
        if self.answer is None:
            raise Sent()
        return self.answer

    def __getattr__(self, name: str) -> Callable[..., Awaitable[Any]]:
        async def call(*args: Any, **kwargs: Any) -> Any:
            return self._record(name, args, kwargs)
        return call


@contextlib.contextmanager
def _adapter(recorder: Recorder) -> Iterator[None]:
    token = async_context.set(recorder)  # type: ignore[arg-type]
    try:
        yield
    finally:
        async_context.reset(token)


def _state(http: Any) -> Any:
    return SimpleNamespace(http=http, allowed_mentions=None,
                           prevent_view_updates_for=lambda message_id: None,
                           store_view=lambda *a: None)


def _interaction(state: Any) -> discord.Interaction[Any]:
    interaction = discord.Interaction.__new__(discord.Interaction)
    interaction._state = state
    interaction.application_id = 777
    interaction.token = "tok"
    interaction._session = None  # type: ignore[assignment]
    return interaction


def _file() -> discord.File:
    return discord.File(io.BytesIO(b"\x89PNG board"), filename="board.png",
                        description="the board")


async def _both(old: Callable[[], Awaitable[Any]], new: Callable[[], Awaitable[Any]],
                recorder: Recorder) -> None:
    for write in (old, new):
        with _adapter(recorder), contextlib.suppress(Sent):
            await write()
    assert len(recorder.calls) == 2
    assert recorder.calls[0] == recorder.calls[1]


@pytest.mark.asyncio
@pytest.mark.parametrize("panel", [PANEL, None])
@pytest.mark.parametrize("with_file", [True, False])
@pytest.mark.parametrize("message_id", [None, 4242])  # the original response, a follow-up
async def test_token_edits_send_what_discord_py_sends(panel: Panel | None, with_file: bool,
                                                     message_id: int | None) -> None:
    http = SimpleNamespace(proxy=None, proxy_auth=None, token="bot",
                           _HTTPClient__session=None)
    interaction = _interaction(_state(http))

    def files() -> list[discord.File]:
        return [_file()] if with_file else []
    recorder = Recorder()

    async def old() -> None:
        view = make_view(panel, 5, 6)
        if message_id is None:
            await interaction.edit_original_response(content="text", attachments=files(),
                                                     view=view)
        else:
            await interaction.followup.edit_message(message_id, content="text",
                                                    attachments=files(), view=view)

    async def new() -> None:
        await mw.edit_with_token(interaction.followup, message_id, content="text",
                                 attachments=files(), components=component_rows(panel, 5, 6))
    await _both(old, new, recorder)
    name, _, kwargs = recorder.calls[0]
    assert name == ("edit_original_interaction_response" if message_id is None
                    else "edit_webhook_message")
    assert ("payload_json" in str(kwargs["multipart"])) == with_file


@pytest.mark.asyncio
@pytest.mark.parametrize("message_id", [None, 4242])
async def test_taking_the_controls_off_with_a_token_changes_nothing_else(
        message_id: int | None) -> None:
    http = SimpleNamespace(proxy=None, proxy_auth=None, token="bot",
                           _HTTPClient__session=None)
    interaction = _interaction(_state(http))
    recorder = Recorder()

    async def old() -> None:
        if message_id is None:
            await interaction.edit_original_response(view=None)
        else:
            await interaction.followup.edit_message(message_id, view=None)

    async def new() -> None:
        await mw.edit_with_token(interaction.followup, message_id, components=None)
    await _both(old, new, recorder)
    payload = recorder.calls[0][2]["payload"]
    assert payload["components"] == [] and "content" not in payload \
        and "attachments" not in payload


@pytest.mark.asyncio
@pytest.mark.parametrize("panel", [PANEL, None])
async def test_token_posts_send_what_discord_py_sends(panel: Panel | None) -> None:
    http = SimpleNamespace(proxy=None, proxy_auth=None, token="bot",
                           _HTTPClient__session=None)
    interaction = _interaction(_state(http))
    recorder = Recorder()

    async def old() -> None:
        view = make_view(panel, 5, 6)
        kwargs: dict[str, Any] = {"files": [_file()], "allowed_mentions": MENTIONS}
        if view is not None:
            kwargs["view"] = view
        await interaction.followup.send("text", wait=True, **kwargs)

    async def new() -> None:
        await mw.post_with_token(interaction.followup, "text", files=[_file()],
                                 allowed_mentions=MENTIONS,
                                 components=component_rows(panel, 5, 6))
    await _both(old, new, recorder)
    assert recorder.calls[0][0] == "execute_webhook"
    recorder.answer = {"id": "123456"}
    with _adapter(recorder):
        assert await mw.post_with_token(interaction.followup, "text", files=[],
                                        allowed_mentions=MENTIONS,
                                        components=None) == 123456


@pytest.mark.asyncio
@pytest.mark.parametrize("panel", [PANEL, None])
async def test_channel_writes_send_what_discord_py_sends(
        panel: Panel | None, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(secrets, "randbits", lambda bits: 99)  # the post's nonce
    recorder = Recorder()
    state = _state(recorder)
    client: Any = SimpleNamespace(http=recorder, allowed_mentions=None)
    channel = discord.PartialMessageable(state=state, id=3000)

    async def old_edit() -> None:
        await channel.get_partial_message(4242).edit(content="text", attachments=[_file()],
                                                     view=make_view(panel, 5, 6))

    async def new_edit() -> None:
        await mw.edit_in_channel(client, 3000, 4242, content="text", attachments=[_file()],
                                 components=component_rows(panel, 5, 6))
    await _both(old_edit, new_edit, recorder)
    assert recorder.calls[0][0] == "edit_message"

    recorder = Recorder()
    state = _state(recorder)
    client = SimpleNamespace(http=recorder, allowed_mentions=None)
    channel = discord.PartialMessageable(state=state, id=3000)

    async def old_post() -> None:
        view = make_view(panel, 5, 6)
        kwargs: dict[str, Any] = {"files": [_file()], "allowed_mentions": MENTIONS}
        if view is not None:
            kwargs["view"] = view
        await channel.send("text", **kwargs)

    async def new_post() -> None:
        await mw.post_in_channel(client, 3000, "text", files=[_file()],
                                 allowed_mentions=MENTIONS,
                                 components=component_rows(panel, 5, 6))
    await _both(old_post, new_post, recorder)
    assert recorder.calls[0][0] == "send_message"


def test_missing_components_leave_the_controls_as_they_are() -> None:
    assert mw._view(MISSING) is MISSING and mw._view(None) is None
    rows = component_rows(PANEL, 1, 2)
    assert rows is not None and mw._view(rows).to_components() is rows
