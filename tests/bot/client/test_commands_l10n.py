"""Discord localisation of /tempus and /tempus-records: every command, group, option and
choice has its Polish name and description, and every payload respects Discord's limits
(names 1-32 lowercase characters of the allowed kinds, descriptions and choice names
1-100)."""

from __future__ import annotations

import unicodedata
from types import SimpleNamespace
from typing import Any

import pytest
from discord import Locale

from bot.client.app import TempusBot, TempusTree, use_interaction_locale
from bot.client.commands import EXTENSIONS
from bot.client.translator import CatalogueTranslator, discord_language
from bot.operator.settings import Settings
from lang import i18n
from lang.messages import t

NAME_MAX, TEXT_MAX = 32, 100


def valid_name(name: str) -> bool:
    """Discord's ``^[-_\\p{L}\\p{N}\\p{sc=Deva}\\p{sc=Thai}]{1,32}$``, lowercase where the
    letter has a lowercase form."""
    if not 1 <= len(name) <= NAME_MAX or name != name.lower():
        return False
    return all(ch in "-_" or unicodedata.category(ch)[0] in "LN" for ch in name)


def test_name_rule() -> None:
    assert valid_name("dodaj-komputer") and valid_name("ręka") and valid_name("podpowiedź")
    assert not valid_name("Ręka") and not valid_name("two words") and not valid_name("")
    assert not valid_name("x" * 33) and not valid_name("a:b")


async def payloads() -> list[dict[str, Any]]:
    bot = TempusBot(Settings(token=None, workers=0, ai_workers=0, sync_commands=False))
    translator = CatalogueTranslator()
    await bot.tree.set_translator(translator)
    for extension in EXTENSIONS:
        await bot.load_extension(extension)
    out = [await c.get_translated_payload(bot.tree, translator) for c in bot.tree.get_commands()]
    for extension in EXTENSIONS:
        await bot.unload_extension(extension)
    # never logged in: the sharded client's close() needs its start-up queue, so only
    # what the constructor opened is closed
    bot.offloader.close()
    bot.ai_offloader.close()
    await bot.http.close()
    return out


async def tempus_payload() -> dict[str, Any]:
    (group,) = [c for c in await payloads() if c["name"] == "tempus"]
    return group


def walk_all(commands: list[dict[str, Any]]) -> list[tuple[str, dict[str, Any]]]:
    return [n for c in commands for n in walk(c)]


def walk(node: dict[str, Any], path: str = "") -> list[tuple[str, dict[str, Any]]]:
    here = f"{path}/{node['name']}"
    out = [(here, node)]
    for opt in node.get("options", []):
        out += walk(opt, here)
    return out


@pytest.mark.asyncio
async def test_payload_limits_in_every_language() -> None:
    nodes = walk_all(await payloads())
    assert len(nodes) > 40
    for path, node in nodes:
        names = [node["name"], *node.get("name_localizations", {}).values()]
        descs = [node["description"], *node.get("description_localizations", {}).values()]
        for name in names:
            assert valid_name(name), (path, name)
        for desc in descs:
            assert 1 <= len(desc) <= TEXT_MAX, (path, desc)
        for choice in node.get("choices", []):
            for name in [choice["name"], *choice.get("name_localizations", {}).values()]:
                assert 1 <= len(name) <= TEXT_MAX, (path, name)


@pytest.mark.asyncio
async def test_everything_has_a_polish_name_and_description() -> None:
    for path, node in walk_all(await payloads()):
        assert "pl" in node.get("name_localizations", {}), path
        assert "pl" in node.get("description_localizations", {}), path
        for choice in node.get("choices", []):
            assert "pl" in choice.get("name_localizations", {}), (path, choice["name"])
        # English clients get the defaults: no en-US/en-GB localisation is sent
        assert not {"en-US", "en-GB"} & set(node.get("name_localizations", {})), path


@pytest.mark.asyncio
async def test_names_unique_per_level_in_each_language() -> None:
    """Discord refuses two subcommands (or two options of one command) with one name."""
    for path, node in walk_all(await payloads()):
        opts = node.get("options", [])
        for lang in ("default", "pl"):
            names = [o["name"] if lang == "default" else o.get("name_localizations", {})
                     .get("pl", o["name"]) for o in opts]
            assert len(names) == len(set(names)), (path, lang, names)


@pytest.mark.asyncio
async def test_help_and_hint_exist_in_both_languages() -> None:
    group = await tempus_payload()
    subs = {o["name"]: o for o in group["options"]}
    assert subs["help"]["name_localizations"]["pl"] == "pomoc"
    assert subs["hint"]["name_localizations"]["pl"] == "podpowiedź"
    new = {o["name"]: o for o in subs["new"]["options"]}
    assert new["hints"]["type"] == 5  # boolean: the host may switch hints off
    assert {c["value"] for c in new["map"]["choices"]} == {"random", "place"}


def test_discord_locales_map_to_catalogues() -> None:
    assert discord_language(Locale.polish) == "pl"
    assert discord_language(Locale.american_english) is None
    assert discord_language(Locale.british_english) is None
    assert discord_language(Locale.german) is None


@pytest.mark.asyncio
async def test_interaction_sets_the_users_locale() -> None:
    """Every command and autocomplete runs in the user's client language."""
    async def check(locale: str) -> str:
        fake = SimpleNamespace(locale=Locale(locale), user=SimpleNamespace(id=77))
        tree = TempusTree.__new__(TempusTree)
        assert await tree.interaction_check(fake)  # type: ignore[arg-type]
        return t("btn.join")

    import asyncio

    assert await asyncio.create_task(check("pl")) == "🙋 Dołącz"
    assert await asyncio.create_task(check("en-GB")) == "🙋 Join"
    assert i18n.user_locale(77) == "en"
    assert use_interaction_locale(SimpleNamespace(  # type: ignore[arg-type]
        locale=Locale.polish, user=SimpleNamespace(id=78))) == "pl"
    i18n.set_locale("en")
