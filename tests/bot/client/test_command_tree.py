"""The shape of the command tree: room for new commands under Discord's limits (25
subcommands or groups per command, 25 subcommands per group, one level of groups), every
name and description localised in Polish, and the fake Discord sending and refusing
commands as Discord does."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from lang import i18n
from tests.bot.client.test_commands_l10n import payloads
from tests.bot.fake_commands import MAX_OPTIONS, SUB_COMMAND, SUB_COMMAND_GROUP, command_problems
from tests.bot.fake_discord import CommandUnavailable, FakeDiscord, UserOption

#: how many new subcommands each command and group must still take
ROOM = 8
SUBS = (SUB_COMMAND, SUB_COMMAND_GROUP)


def containers(cmd: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    """The top-level command and each of its groups: what holds subcommands."""
    out = [(f"/{cmd['name']}", cmd)]
    out += [(f"/{cmd['name']} {o['name']}", o) for o in cmd.get("options", [])
            if o["type"] == SUB_COMMAND_GROUP]
    return out


def leaves(cmd: dict[str, Any]) -> list[str]:
    """Every command path a person can run (``tempus table addbot``)."""
    out = []
    for o in cmd.get("options", []):
        if o["type"] == SUB_COMMAND:
            out.append(f"{cmd['name']} {o['name']}")
        elif o["type"] == SUB_COMMAND_GROUP:
            out += [f"{cmd['name']} {o['name']} {s['name']}" for s in o.get("options", [])]
    return out


def named(node: dict[str, Any]) -> list[dict[str, Any]]:
    """``node`` and everything below it that has a name and a description."""
    return [node, *(n for o in node.get("options", []) for n in named(o))]


def dummy(name: str) -> dict[str, Any]:
    return {"type": SUB_COMMAND, "name": name, "description": "A command to come"}


@pytest.mark.asyncio
async def test_every_command_has_room_for_eight_more() -> None:
    """Eight new subcommands fit in each top-level command (in it or in its groups)
    without regrouping; each command and group is within Discord's 25."""
    cmds = sorted(await payloads(), key=lambda c: c["name"])
    assert [c["name"] for c in cmds] == ["tempus", "tempus-records"]
    for cmd in cmds:
        free = {where: MAX_OPTIONS - len(node.get("options", []))
                for where, node in containers(cmd)}
        assert all(n >= 0 for n in free.values()), free
        assert sum(free.values()) >= ROOM, free
    # said by Discord's rules: every free place filled is accepted ...
    body = copy.deepcopy(cmds)
    for cmd in body:
        for _, node in containers(cmd):
            node["options"] += [dummy(f"new-{i}")
                                for i in range(MAX_OPTIONS - len(node["options"]))]
    assert command_problems(body) == []
    # ... and one more is refused
    body[0]["options"].append(dummy("one-too-many"))
    assert command_problems(body) == [f"/tempus: {MAX_OPTIONS + 1} subcommands and groups "
                                      f"(at most {MAX_OPTIONS})"]


@pytest.mark.asyncio
async def test_no_command_was_lost_in_the_move() -> None:
    """The 25 subcommands /tempus had, each still there (some under a new path)."""
    paths = [p for c in await payloads() for p in leaves(c)]
    old = ("new join leave pace remind replace addbot removebot autopilot start cancel hand "
           "help hint play move grow attack city place board status history show stats")
    assert set(old.split()) <= {p.rsplit(" ", 1)[1] for p in paths}
    assert len(paths) == len(set(paths)) >= 25
    assert {"tempus table addbot", "tempus-records show", "tempus new"} <= set(paths)


@pytest.mark.asyncio
async def test_every_name_and_description_has_its_polish_text() -> None:
    """Each command, group, subcommand and option: a Polish name and description, taken
    from the catalogue (not English sent twice); top-level commands too."""
    pl = i18n.catalogue()["pl"].messages
    for cmd in await payloads():
        for node in named(cmd):
            name, desc = node["name_localizations"]["pl"], node["description_localizations"]["pl"]
            assert name in pl.values() and desc in pl.values(), (node["name"], name, desc)
            if node["type"] in SUBS or node is cmd:
                assert name != node["name"] or node["name"] in ("start", "autopilot", "tempus")
    tempus, records = sorted(await payloads(), key=lambda c: c["name"])
    assert records["name_localizations"]["pl"] == "tempus-archiwum"
    table = next(o for o in tempus["options"] if o["type"] == SUB_COMMAND_GROUP)
    assert table["name_localizations"]["pl"] == "stół"


def test_discord_refuses_what_the_fake_refuses() -> None:
    """Names ``^[-_'\\p{L}\\p{N}...]{1,32}$`` in lowercase, 25 subcommands per command or
    group, groups one level deep, no subcommand in a subcommand."""
    def cmd(*options: dict[str, Any], name: str = "tempus") -> list[dict[str, Any]]:
        return [{"name": name, "description": "Play", "options": list(options)}]

    def group(name: str, *subs: dict[str, Any]) -> dict[str, Any]:
        return {"type": SUB_COMMAND_GROUP, "name": name, "description": "A group",
                "options": list(subs)}

    assert command_problems(cmd(dummy("ok"), group("stół", dummy("dodaj-komputer")))) == []
    assert command_problems(cmd(dummy("x"), name="tempus-records")) == []
    for bad in ("Table", "two words", "", "x" * 33, "a:b", "a/b"):
        assert command_problems(cmd(dummy(bad))), bad
        assert command_problems(cmd(group(bad, dummy("x")))), bad
        assert command_problems(cmd(dummy("x"), name=bad)), bad
    assert command_problems(cmd(*[dummy(f"s{i}") for i in range(26)])) == [
        "/tempus: 26 subcommands and groups (at most 25)"]
    assert command_problems(cmd(group("g", *[dummy(f"s{i}") for i in range(26)]))) == [
        "/tempus > 'g': 26 subcommands and groups (at most 25)"]
    assert command_problems(cmd(group("g", *[dummy(f"s{i}") for i in range(25)]))) == []
    deep = command_problems(cmd(group("g", group("h", dummy("x")))))
    assert any("one level" in p for p in deep)
    sub_in_sub = {**dummy("a"), "options": [dummy("b")]}
    assert command_problems(cmd(sub_in_sub))


@pytest.mark.asyncio
async def test_the_fake_sends_subcommands_in_their_group_as_discord_does() -> None:
    """Interaction data: the subcommand (type 1) inside its group (type 2) inside the
    command; a second top-level command by its own name; old paths are not offered."""
    fake = FakeDiscord()
    fake.commands_of_guild[fake.guild_id] = [
        {**c, "id": str(100 + i)} for i, c in enumerate(await payloads())]
    ch = fake.channel_ids[0]
    data = fake._command_data("table addbot", {"level": "easy"}, ch)
    assert data["name"] == "tempus" and data["type"] == 1
    assert data["options"] == [{"name": "table", "type": SUB_COMMAND_GROUP, "options": [
        {"name": "addbot", "type": SUB_COMMAND, "options": [
            {"name": "level", "type": 3, "value": "easy"}]}]}]
    data = fake._command_data("new", {"seats": 3}, ch)
    assert data["options"] == [{"name": "new", "type": SUB_COMMAND, "options": [
        {"name": "seats", "type": 4, "value": 3}]}]
    data = fake._command_data("/tempus-records stats", {"player": UserOption(11)}, ch)
    assert data["name"] == "tempus-records" and data["id"] == "101"
    assert data["options"][0]["name"] == "stats" and "11" in data["resolved"]["users"]
    data = fake._command_data("/tempus-records show", {}, ch, focused="game")
    assert data["options"][0]["options"] == [
        {"name": "game", "type": 3, "value": "", "focused": True}]
    for path in ("addbot", "history", "table", "/tempus-records", "/tempus", "table new",
                 "table addbot x", "/tempus-history show", "/tempus table"):
        with pytest.raises(CommandUnavailable):
            fake._command_data(path, {}, ch)
    with pytest.raises(CommandUnavailable):
        fake._command_data("table pace", {}, ch)  # a required option missing
    with pytest.raises(CommandUnavailable):
        fake._command_data("table pace", {"pace": "hourly"}, ch)  # not a registered choice
