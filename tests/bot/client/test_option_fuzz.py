"""Every option of every command, sent with values no Discord client sends (objects
without their "resolved" entry, wrong types, huge numbers, control characters): each
either passes the declared checks or is refused with catalogue words, never Python's."""

from __future__ import annotations

import math
import types
from typing import Any

import discord
import pytest
from discord import app_commands
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.client import options
from bot.client.app import TempusBot
from bot.client.commands import EXTENSIONS
from bot.operator.settings import Settings
from lang.messages import t
from tests.bot.client.test_fuzz_input import PYTHON_TEXT

ODD_VALUES: list[Any] = [
    discord.Object(id=12), discord.Object(id=2**60), object(), [1, 2], {"id": 3}, b"\x00",
    "", "12", " \n\t", "`@everyone`", "x" * 5000, "\x00\x1b[31m", 0, -1, 2**70, 4.5,
    math.nan, math.inf, True, False, ("a",),
]


async def all_commands() -> list[app_commands.Command[Any, ..., Any]]:
    bot = TempusBot(Settings(token=None, workers=0, ai_workers=0, sync_commands=False))
    for extension in EXTENSIONS:
        await bot.load_extension(extension)
    out = [c for c in bot.tree.walk_commands() if isinstance(c, app_commands.Command)]
    bot.offloader.close()
    bot.ai_offloader.close()
    await bot.http.close()
    return out


def check(command: app_commands.Command[Any, ..., Any], values: dict[str, Any]) -> None:
    namespace: Any = types.SimpleNamespace(**values)
    text = options.refusal(command, namespace)
    if text is None:
        return
    assert not PYTHON_TEXT.search(text), (command.qualified_name, values, text)
    assert "Object" not in text and "0x" not in text, text
    head = t("error.bad_option", option="\0", value="\0", allowed="\0").split("\0")[0]
    assert text.startswith(head[:10]) or text == t("error.bad_command"), text


@pytest.mark.asyncio
async def test_every_option_refuses_odd_values_in_words() -> None:
    commands = await all_commands()
    assert commands
    checked = 0
    for command in commands:
        required = {p.display_name: ODD_VALUES[0] for p in command.parameters if p.required}
        for param in command.parameters:
            for value in ODD_VALUES:
                check(command, {**required, param.display_name: value})
                checked += 1
    assert checked > 100


def test_a_bare_user_id_is_quoted_as_the_id() -> None:
    assert options.quoted(discord.Object(id=12)) == "12"
    assert options.quoted(object()) == "?"
    assert options.quoted("a`b\nc") == "a'b c"


_VALUES = st.recursive(
    st.one_of(st.none(), st.booleans(), st.integers(), st.floats(), st.text(max_size=200),
              st.builds(discord.Object, st.integers(0, 2**63 - 1))),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner,
                                                               max_size=3),
    max_leaves=5)


@pytest.mark.asyncio
async def test_random_option_payloads_never_show_python_text() -> None:
    commands = await all_commands()

    @settings(max_examples=300, deadline=None)
    @given(st.sampled_from(commands), st.data())
    def one(command: app_commands.Command[Any, ..., Any], data: st.DataObject) -> None:
        names = [p.display_name for p in command.parameters]
        values = {n: data.draw(_VALUES) for n in names if data.draw(st.booleans())}
        check(command, values)

    one()
