"""The message catalogues: complete in every language, same placeholders, plural forms,
every key the code uses present, game content names in step with data/, the current
locale per task."""

from __future__ import annotations

import ast
import asyncio
import re
import shutil
from pathlib import Path

import pytest

from bot.client.commands import PLAY_WORDS
from bot.store import BUSY, CORRUPT, FULL, GONE, IO, OFFLINE, READONLY
from bot.timing.pace import PACES
from bot.web.pages import UI_KEYS
from engine import actions as A
from engine import game as G
from engine.content import CONTENT
from engine.refusals import REFUSALS
from engine.rules import TABLE_OPTIONS
from engine.state import ACTIONS, OVER, PROGRESS, TILES, TOKENS
from games.tempus import computer_levels as players
from games.tempus.event_text import RENDER
from games.tempus.hint import REASON_KEYS
from games.tempus.lesson.script import CHAPTERS
from games.tempus.panels import HAND_KINDS
from games.tempus.records import OPENING_KINDS
from games.tempus.web.choices import CARD_ACTIONS as WEB_CARD_ACTIONS
from lang import i18n
from lang import tool as i18n_tool
from lang.messages import RULE_TOPICS, t, t_in

ROOT = Path(__file__).resolve().parents[2]
#: the code that asks the catalogues for words
CODE = [*sorted((ROOT / "bot").rglob("*.py")), *sorted((ROOT / "games").rglob("*.py")),
        *sorted((ROOT / "lang").glob("*.py"))]
LANGS = i18n.languages()
OTHER = LANGS[1:]


def test_there_is_english_and_polish() -> None:
    assert LANGS[0] == "en" and "pl" in OTHER


@pytest.mark.parametrize("lang", OTHER)
def test_catalogue_complete_with_same_placeholders(lang: str) -> None:
    """Every message exists in the language, not fuzzy, with the English placeholders and
    as many plural forms as the language's Plural-Forms header says."""
    assert i18n_tool.problems(lang) == []
    en, tr = i18n.catalogue()["en"], i18n.catalogue()[lang]
    assert set(tr.messages) == set(en.messages)
    for key, text in en.messages.items():
        assert i18n.fields(tr.messages[key]) == i18n.fields(text), key


def test_english_plurals_have_two_forms() -> None:
    for key, text in i18n.catalogue()["en"].messages.items():
        for name, forms in i18n.plural_specs(text):
            assert len(forms) == 2, (key, name)


def test_placeholder_mismatch_is_detected(monkeypatch: pytest.MonkeyPatch) -> None:
    """The completeness check can fail: a broken translation is reported."""
    pl = i18n.catalogue()["pl"]
    broken = dict(pl.messages, **{"ph.cards.discard": "Odrzuć {m:kartę|karty}"})
    monkeypatch.setitem(i18n.catalogue(), "pl", i18n.Language(
        "pl", broken, pl.fuzzy, pl.num_plurals, pl.plural))
    found = i18n_tool.problems("pl")
    assert any("placeholders" in p and "ph.cards.discard" in p for p in found)
    assert any("2 forms" in p for p in found)


@pytest.mark.parametrize(("n", "word"), [(0, "kart"), (1, "kartę"), (2, "karty"), (4, "karty"),
                                         (5, "kart"), (11, "kart"), (12, "kart"), (14, "kart"),
                                         (21, "kart"), (22, "karty"), (24, "karty"),
                                         (25, "kart"), (101, "kart"), (102, "karty"),
                                         (112, "kart"), (122, "karty")])
def test_polish_plural_rules(n: int, word: str) -> None:
    """Polish: one (1), few (2-4, 22-24, but not 12-14), many (the rest)."""
    assert t_in("pl", "ph.cards.discard", n=n) == f"Odrzuć dokładnie {n} {word}"


@pytest.mark.parametrize(("n", "word"), [(0, "cards"), (1, "card"), (2, "cards"), (21, "cards")])
def test_english_plural_rules(n: int, word: str) -> None:
    assert t_in("en", "ph.cards.discard", n=n) == f"Discard exactly {n} {word}"


# ------------------------------------------------------------------ keys used by code
KEY = re.compile(r"^[a-z_]+(\.[A-Za-z0-9_]+)+$")


def _literal_keys() -> set[str]:
    """String literals in the bot's code that look like catalogue keys of a known namespace."""
    spaces = {k.split(".")[0] for k in i18n.message_keys()}
    out = set()
    for path in CODE:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) \
                    and KEY.match(node.value) and node.value.split(".")[0] in spaces \
                    and not node.value.endswith("_") \
                    and not node.value.endswith((".png", ".json")):  # file names
                out.add(node.value)
    return out


def _dynamic_keys() -> set[str]:
    """Keys the code builds with f-strings, enumerated from what they are built of."""
    keys = {f"act.{cls.type}" for cls in vars(A).values()  # type: ignore[attr-defined]
            if isinstance(cls, type) and issubclass(cls, A.Action) and cls is not A.Action
            and hasattr(cls, "type") and cls not in (A.PlayGovernment,)}
    keys |= {"act.play_government.double", "act.play_government.pass"}
    keys |= {f"status.phase.{p}" for p in (TILES, TOKENS, ACTIONS, PROGRESS, OVER)}
    keys |= {f"rules.{x}" for x in RULE_TOPICS} | {f"rules.topic.{x}" for x in RULE_TOPICS}
    keys |= {f"ph.cards.{k}" for k in HAND_KINDS}
    keys |= {f"decision.{k}" for k in G.HANDLERS}
    keys |= {f"decision.{k}_none" for k in (G.MOVING, G.GROWING)}
    known = set(i18n.message_keys())
    # a tip for the decisions that have one (the code asks whether the catalogue has it)
    keys |= {f"tip.{k}" for k in G.HANDLERS} & known
    # the lesson's chapters and steps (every page and hint is worded by its own tests)
    keys |= {f"lesson.chapter.{c.key}" for c in CHAPTERS}
    keys |= {f"lesson.learnt.{c.key}" for c in CHAPTERS}
    keys |= {f"lesson.chapter.{c.key}.intro" for c in CHAPTERS} & known
    keys |= {f"lesson.step.{s.key}" for c in CHAPTERS for s in c.steps}
    keys |= {f"lesson.step.{s.key}.hint" for c in CHAPTERS for s in c.steps} & known
    keys |= {f"table_option.{k}" for k in TABLE_OPTIONS}
    keys |= {f"terrain.{x}" for x in CONTENT.terrain_names}
    keys |= {f"city_as.{x}" for x in CONTENT.terrain_names}
    keys |= {f"era.{i}" for i in range(len(CONTENT.eras))}
    keys |= {f"colour.{i}" for i in range(len(CONTENT.colours))}
    keys |= {f"card.{k}.{part}" for k in CONTENT.card_types for part in ("name", "text")}
    keys |= {f"level.{lv}" for lv in players.levels()}
    keys |= {f"level.{lv}.about" for lv in players.levels()}
    keys |= {f"event.card.{k}" for k in ("TRA", "HEA", "REL", "SAN")}
    keys |= {f"hint.why.card.{k}" for k in ("TRA", "HEA", "REL", "SAN")}
    keys |= {f"hint.reason.{k}" for k in REASON_KEYS}
    keys |= {f"{p}.{mode}" for p in ("event.card.GOV", "hint.why.card.GOV")
             for mode in ("double", "pass")}
    keys |= {f"error.storage_{r}" for r in (FULL, BUSY, READONLY, GONE, IO, CORRUPT, OFFLINE)}
    keys |= {f"{p}.{w}" for p in ("history.empty", "history.title", "cmd.history.where")
             for w in ("channel", "server")}
    keys |= {f"cmd.show.what.{w}" for w in ("result", "record", "replay")}
    keys |= {f"opening.{k}" for k in OPENING_KINDS.values()}
    keys |= {f"{p}{name}" for p in ("pace.", "pace.short.") for name in PACES}
    keys |= {f"clock.remind_dm.{stage}" for stage in (1, 2)}
    keys |= {f"play.word.{w}" for w in PLAY_WORDS}
    keys |= {f"engine.{code}" for code in REFUSALS} | {f"engine.kind.{k}" for k in G.HANDLERS}
    keys |= {f"engine.action.{cls.type}" for cls in vars(A).values()  # type: ignore[attr-defined]
             if isinstance(cls, type) and issubclass(cls, A.Action) and cls is not A.Action}
    keys |= {f"web.page.{k}" for k in UI_KEYS}
    keys |= {f"web.cards.{k}" for k in WEB_CARD_ACTIONS}
    return keys


def test_every_key_used_in_code_is_in_the_catalogue() -> None:
    used = _literal_keys() | _dynamic_keys()
    assert len(used) > 300
    assert sorted(k for k in used if not i18n.has(k)) == []


def test_every_fstring_key_prefix_is_enumerated() -> None:
    """An f-string key (``t(f"act.{...}")``) must have its prefix covered above, so that a
    new dynamic key family cannot slip past the check."""
    covered = {k.rsplit(".", 1)[0] + "." for k in _dynamic_keys()}
    covered |= {"card.", "hint.why.card.", "event.card.", "engine."}
    for path in CODE:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.JoinedStr) and node.values and \
                    isinstance(node.values[0], ast.Constant):
                head = str(node.values[0].value)
                if KEY.match(head.rstrip(".") + ".x") and head.endswith(".") and \
                        head.split(".")[0] in {k.split(".")[0] for k in i18n.message_keys()}:
                    assert head in covered, f"{path.name}: f-string key {head}..."


def test_every_engine_event_kind_has_a_message() -> None:
    """Each event kind the bot renders has its catalogue message (one or more variants)."""
    for kind in RENDER:
        assert any(k == f"event.{kind}" or k.startswith(f"event.{kind}.")
                   or (kind == "era" and k == "event.round")
                   for k in i18n.message_keys()), kind


# ------------------------------------------------------------------ content and consistency
def test_content_names_match_the_data_files() -> None:
    """data/ keeps the English names; the catalogue's English must be the same words."""
    with i18n.using("en"):
        assert [t(f"terrain.{x}") for x in CONTENT.terrain_names] == \
            list(CONTENT.terrain_names.values())
        assert [t(f"era.{i}") for i in range(len(CONTENT.eras))] == \
            [e.name for e in CONTENT.eras]
        assert [t(f"colour.{i}") for i in range(len(CONTENT.colours))] == \
            list(CONTENT.colours)
        for key, ct in CONTENT.card_types.items():
            assert (t(f"card.{key}.name"), t(f"card.{key}.text")) == (ct.name, ct.text)


def test_polish_is_translated() -> None:
    """A Polish text equal to the English one is a forgotten translation, except words that
    are the same in both languages."""
    same_ok = {"card.TRA.name", "cmd.start.name", "cmd.group.name", "cmd.autopilot.name",
               "btn.start", "btn.help", "lobby.seat", "lobby.seat_colour", "status.start_mark",
               "clock.due", "hand.drawn",
               "event.score", "help.count", "hex.tokens", "secret.intro",
               # formats and symbols
               "chart.start", "error.store_in_use.who", "opening.sep", "result.part.join",
               "result.rating.change", "result.short_row", "result.tie.value", "result.who",
               # image formats and separators (render/words.py)
               "image.alt.hex", "image.alt.score", "image.card.in_list", "image.desc.hex",
               "image.dot_sep", "prompt.options_sep", "ack.two_steps",
               "image.list_sep", "image.player.start", "image.title", "image.who_what"}
    en, pl = i18n.catalogue()["en"].messages, i18n.catalogue()["pl"].messages
    same = sorted(k for k in en if en[k] == pl[k] and k not in same_ok)
    assert same == []


def _command_names(lang: str) -> set[str]:
    return {t_in(lang, k) for k in i18n.message_keys()
            if k.startswith("cmd.") and k.endswith(".name")}


@pytest.mark.parametrize("lang", LANGS)
def test_messages_name_commands_as_that_language_does(lang: str) -> None:
    """A message that says `/tempus x opt:value` uses that language's command and option
    names, so a user can find them in their client."""
    names = _command_names(lang)
    mention = re.compile(r"`/tempus ([^\s`]+)((?: [^\s`:]+:[^`\s]*)*)")
    found = 0
    for key in i18n.message_keys():
        for m in mention.finditer(i18n.lookup(key, lang)):
            found += 1
            assert m[1] in names, (lang, key, m[1])
            for opt in re.findall(r" ([^\s:]+):", m[2]):
                assert opt in names, (lang, key, opt)
    assert found > 20


def test_one_word_per_thing() -> None:
    """"Era" is the era track row, the counter is the "round"; the draw action is
    "Draw cards"; "Idea" is not used."""
    en = i18n.catalogue()["en"].messages
    for key, text in en.items():
        assert "Idea" not in text, key
        assert not re.search(r"\b[Ee]ra \{(era_number|round)\}", text), key
        assert "action round" not in text, key
    assert "{round}" in en["prompt.turn"] and "{era}" in en["prompt.turn"]
    assert "round {round} of {rounds}" in en["status.head"]
    assert "built" in en["end.row"] and "built" in en["status.player"]
    assert "rules.glossary" in en and "glossary" in RULE_TOPICS


# ------------------------------------------------------------------ the current locale
def _normalize_uncached(locale: object) -> str:
    """:func:`lang.i18n.normalize` as it was before it remembered its answers."""
    text = str(getattr(locale, "value", locale) or "").strip()
    if not text:
        return i18n.DEFAULT
    base = text.replace("_", "-").split(".")[0].split("-")[0].lower()
    return base if base in i18n.languages() else i18n.DEFAULT


def test_normalize_remembers_the_same_answer_for_every_locale_the_bot_knows() -> None:
    import discord

    known: list[object] = [None, "", "  ", " pl ", "PL", "pl_PL.UTF-8", "pl-PL", "en_GB.utf8",
                           "C", "POSIX", "xx", "pl.", *i18n.languages()]
    known += list(discord.Locale) + [x.value for x in discord.Locale]
    known += [f"{x.value.replace('-', '_')}.UTF-8" for x in discord.Locale]
    for locale in known * 2:  # the second time from what it remembered
        assert i18n.normalize(locale) == _normalize_uncached(locale), locale


def test_normalize_remembers_a_bounded_number_of_texts() -> None:
    for i in range(3 * i18n.NORMALIZED_KEPT):
        assert i18n.normalize(f"pl-{i}") == "pl"
        assert i18n.normalize(f"zz-{i}") == "en"
    assert len(i18n._normalized) <= i18n.NORMALIZED_KEPT


def test_normalize_forgets_its_answers_when_a_language_is_added(scratch_locale: Path) -> None:
    assert i18n.normalize("de-DE") == "en"  # no German yet: English, remembered
    i18n_tool.init("de")
    assert i18n.normalize("de-DE") == "de"


def test_normalize_discord_and_posix_locales() -> None:
    assert i18n.normalize("pl") == "pl"
    assert i18n.normalize("pl_PL.UTF-8") == "pl"
    assert i18n.normalize("en-US") == i18n.normalize("en-GB") == "en"
    assert i18n.normalize("pt-BR") == "en"  # no catalogue: English
    assert i18n.normalize(None) == i18n.normalize("") == "en"


def test_using_is_scoped_and_fuzzy_falls_back() -> None:
    with i18n.using("pl"):
        assert t("btn.join") == "🙋 Dołącz"
        with i18n.using("en-GB"):
            assert t("btn.join") == "🙋 Join"
        assert t("btn.join") == "🙋 Dołącz"
    assert i18n.current() == "en"


@pytest.mark.asyncio
async def test_each_task_keeps_its_own_locale() -> None:
    """Two interactions at once, one Polish, one English: neither changes the other."""
    seen: dict[str, str] = {}

    async def user(locale: str) -> None:
        i18n.set_locale(locale)
        await asyncio.sleep(0.01)
        seen[locale] = t("btn.join")

    await asyncio.gather(asyncio.create_task(user("pl")), asyncio.create_task(user("en-US")))
    assert seen == {"pl": "🙋 Dołącz", "en-US": "🙋 Join"}
    assert i18n.current() == "en"


def test_user_locales_are_remembered_for_dms() -> None:
    i18n.remember_user(4242, "pl")
    assert i18n.user_locale(4242, "en") == "pl"
    assert i18n.user_locale(4243, "pl") == "pl"  # unknown: the game's language
    assert i18n.user_locale(None, None) == "en"


# ------------------------------------------------------------------ the Babel workflow
@pytest.fixture
def scratch_locale(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A copy of the catalogues that the tool may change."""
    root = tmp_path / "locale"
    shutil.copytree(i18n.LOCALE_DIR, root)
    monkeypatch.setattr(i18n, "LOCALE_DIR", root)
    monkeypatch.setattr(i18n, "TEMPLATE", root / "tempus.pot")
    i18n.languages.cache_clear()
    i18n.catalogue.cache_clear()
    yield root
    i18n.languages.cache_clear()
    i18n.catalogue.cache_clear()


def test_adding_a_message_then_translating_it(scratch_locale: Path) -> None:
    i18n_tool.add("test.example", "You have {n} {n:card|cards}.")
    assert "pl: test.example is not translated" in i18n_tool.problems("pl")
    with i18n.using("pl"):  # untranslated: English meanwhile
        assert t("test.example", n=2) == "You have 2 cards."
    i18n_tool.set_translation("pl", "test.example", "Masz {n} {n:kartę|karty|kart}.")
    assert i18n_tool.problems("pl") == []
    assert t_in("pl", "test.example", n=5) == "Masz 5 kart."


def test_changed_english_makes_the_translation_fuzzy(scratch_locale: Path) -> None:
    pot = i18n_tool._read(i18n.TEMPLATE)
    for m in pot:
        if m.context == "btn.cancel":
            m.id = "Cancel the game"
    i18n_tool._write(i18n.TEMPLATE, pot)
    i18n_tool.update()
    assert "pl: btn.cancel is fuzzy (check it, then remove the fuzzy flag)" in \
        i18n_tool.problems("pl")
    assert i18n.catalogue()["pl"].messages["btn.cancel"] == "✖️ Anuluj grę"  # Babel's guess
    assert t_in("pl", "btn.cancel") == "Cancel the game"  # unreviewed: not used


def test_absorb_an_old_style_dictionary(scratch_locale: Path, tmp_path: Path) -> None:
    old = tmp_path / "messages.py"
    old.write_text('MESSAGES: dict[str, str] = {"btn.join": "Join", '
                   '"turn.undo": "Undo the last step"}\n', encoding="utf-8")
    assert i18n_tool.absorb(old) == ["turn.undo"]
    assert t_in("en", "turn.undo") == "Undo the last step"
    assert "pl: turn.undo is not translated" in i18n_tool.problems("pl")


def test_a_new_language_starts_from_the_template(scratch_locale: Path) -> None:
    i18n_tool.init("de")
    assert "de" in i18n.languages()
    assert i18n.normalize("de") == "de"
    assert len(i18n_tool.problems("de")) == len(i18n.message_keys())
    assert t_in("de", "btn.join") == "🙋 Join"


#: the buttons of the lobby and the turn: a person whose client is in another language than
#: the server's still recognises them by their icons
ICON_BUTTONS = ("join", "leave", "addbot", "start", "cancel", "move", "grow", "draw", "attack",
                "city", "cards", "end_turn", "end_move", "end_grow", "secret", "no_cards",
                "rotate", "place", "occupy", "hand", "hint", "undo", "undo_for", "back",
                "move_idle", "grow_idle", "city_terrain", "rematch", "leave_game")


def test_buttons_carry_the_same_icon_in_every_language() -> None:
    """Each main button starts with an icon (not a letter), the same in every language, and
    every button label fits Discord's 80 characters and lacks the mark that separates the
    buttons listed in the turn prompt (a label may contain commas)."""
    for name in ICON_BUTTONS:
        icons = set()
        for lang in LANGS:
            label = i18n.lookup(f"btn.{name}", lang)
            icon = label.split(" ", 1)[0]
            assert not any(ch.isalpha() for ch in icon), (lang, name, label)
            icons.add(icon)
        assert len(icons) == 1, (name, icons)
    # the one-choice buttons ("only.*") name their choice: longest names and numbers
    longest = dict(n=99, colour="Fioletowy", terrain="wzgórza", hex="L12", value=4,
                   dst="L12", src="K11", att=12, dfn=12, owner="Fioletowy")
    for key in i18n.message_keys():
        if key.startswith(("btn.", "only.")):
            for lang in LANGS:
                text = t_in(lang, key, **longest)
                assert len(text) <= 80, (lang, key)
                assert t_in(lang, "prompt.options_sep").strip() not in text, (lang, key)


@pytest.mark.parametrize("lang", i18n.languages())
def test_every_text_fills_in_as_the_plural_aware_formatter_does(lang: str) -> None:
    """Texts without a plural form are filled in by Python's own formatting (the quick
    way), those with one by the catalogue's formatter: both give what the formatter alone
    would, for every text of the catalogue, with numbers and with words."""
    slow = i18n._Formatter(i18n.language(lang))
    plain = plural = 0
    for key in i18n.message_keys():
        template = i18n.lookup(key, lang)
        names = i18n.fields(template)
        if not names:
            continue
        for value in (7, 1, "Ann"):
            kwargs = {n: value for n in names}
            try:
                expected = slow.format(template, **kwargs)
            except (ValueError, TypeError):  # a word where a number is wanted
                continue
            assert i18n.render(key, lang, **kwargs) == expected, key
        if "|" in template:
            plural += 1
        else:
            plain += 1
    assert plain > 100 and plural > 10


def test_the_stats_name_the_actions_as_the_buttons_do() -> None:
    """"Grow" in the stats where the button says "🌱 Grow", not "Growth"; in Polish the
    attack is "⚔️ Atakuj…" as its menu's "Zaatakuj…", not "Walka"."""
    for kind in ("move", "grow", "attack", "draw", "city"):
        button = t_in("en", f"btn.{kind}").split(" ", 1)[1].rstrip("…")
        assert t_in("en", f"opening.{kind}") == button, kind
    assert t_in("pl", "btn.attack") == "⚔️ Atakuj…"
    assert t_in("pl", "opening.attack") == "Atak"
