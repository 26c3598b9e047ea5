"""Engine refusals reach players in their language: every refusal the engine can
raise has a code in :mod:`engine.refusals`, and the bot's catalogue says each one in every
language, with the placeholders the engine passes."""

from __future__ import annotations

import ast
import random
import re
from pathlib import Path

import pytest

from bot.store.sqlite import SqliteStorage
from bot.table.service import TableError, TableService
from engine import actions as A
from engine.content import CONTENT
from engine.errors import IllegalAction, NotYourDecision
from engine.game import HANDLERS
from engine.hexgrid import parse_label
from engine.refusals import (
    CARD,
    CARD_TYPE,
    HEX,
    HEXES,
    KIND,
    KIND_WORDS,
    NUMBERS,
    REFUSALS,
    SEAT,
    SEATS,
    english,
    param_kind,
)
from games.tempus.refusal_text import refusal_text
from lang import i18n
from lang.messages import t_in
from tests.bot.helpers import CollectSink

ENGINE = Path(__file__).resolve().parents[3] / "engine"
REFUSAL_CLASSES = {"IllegalAction", "NotYourDecision", "UndoRefused", "Refusal"}


def _raises_in_source() -> list[tuple[str, int, str, set[str]]]:
    """Every ``X.because("code", name=...)`` in the engine's source, and every direct
    construction of a refusal class (which would have no code)."""
    found = []
    for path in sorted(ENGINE.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call):
                continue
            f = node.func
            if isinstance(f, ast.Attribute) and f.attr == "because" and \
                    isinstance(f.value, ast.Name) and f.value.id in REFUSAL_CLASSES:
                arg = node.args[0]
                assert isinstance(arg, ast.Constant), f"{path.name}:{node.lineno}: a literal code"
                found.append((path.name, node.lineno, arg.value,
                              {k.arg for k in node.keywords if k.arg}))
            elif isinstance(f, ast.Name) and f.id in REFUSAL_CLASSES:
                found.append((path.name, node.lineno, "", set()))
    return found


def _fields(template: str) -> set[str]:
    return i18n.fields(template)


def test_every_refusal_raised_in_the_engine_has_a_registered_code() -> None:
    raised = _raises_in_source()
    assert len(raised) >= 60
    bare = [(f, line) for f, line, code, _ in raised if not code]
    assert bare == [], "refusals built without a code cannot be translated"
    for f, line, code, names in raised:
        assert code in REFUSALS, f"{f}:{line}: {code} is not in engine.refusals.REFUSALS"
        assert names == _fields(REFUSALS[code]), \
            f"{f}:{line}: {code} passes {sorted(names)}, its message uses " \
            f"{sorted(_fields(REFUSALS[code]))}"
    # and no registered code is dead (a message nobody can see is a stale translation)
    assert set(REFUSALS) == {code for *_, code, _ in raised}


@pytest.mark.parametrize("lang", i18n.languages())
def test_every_refusal_code_is_in_the_catalogue_with_its_placeholders(lang: str) -> None:
    messages = i18n.catalogue()[lang].messages
    for code, template in REFUSALS.items():
        key = f"engine.{code}"
        assert key in messages, f"{lang}: {key} missing"
        assert _fields(messages[key]) == _fields(template), f"{lang}: {key} placeholders"
    for kind in HANDLERS:
        assert f"engine.kind.{kind}" in messages
    assert set(KIND_WORDS) == set(HANDLERS)
    for cls in vars(A).values():
        if isinstance(cls, type) and issubclass(cls, A.Action) and cls is not A.Action:
            assert f"engine.action.{cls.type}" in messages, f"{lang}: {cls.type}"


def _sample(name: str) -> object:
    kind = param_kind(name)
    return {HEX: parse_label("C4"), HEXES: [parse_label("C4"), parse_label("D5")], SEAT: 1,
            SEATS: [0, 2], CARD: 0, CARD_TYPE: "SAN", KIND: "turn", "action": "move_token",
            NUMBERS: [2, 3]}.get(kind, 2)


#: words the two languages share: names kept as they are, and technical values
SHARED = {"transport", "tempus", "double", "pass", "true", "false", "none", "limit"}


def _words(text: str) -> set[str]:
    return {w.lower() for w in re.findall(r"[^\W\d_]{3,}", text)}


@pytest.mark.parametrize("code", sorted(REFUSALS))
def test_each_refusal_reads_polish_to_a_polish_player(code: str) -> None:
    """Rendered with sample parameters, the Polish holds no word of the English."""
    params = {k: _sample(k) for k in _fields(REFUSALS[code])}
    exc = IllegalAction.because(code, **params)
    with i18n.using("pl"):
        pl = refusal_text(exc)
    with i18n.using("en"):
        en = refusal_text(exc)
    assert "{" not in en and "{" not in pl and en != pl
    shared = _words(english(code, params)) & _words(pl)
    assert shared <= SHARED, (code, pl)


# ------------------------------------------------------------------ through the service
HOST, BOB, CY = 100, 101, 102


async def _game() -> tuple[TableService, int]:
    store = await SqliteStorage.open(":memory:")
    svc = TableService(store, CollectSink(), ai_delay=0, seed_source=lambda: 7)
    o = await svc.lobby.create(1, 10, HOST, "Ann", seats=3, seed=7)
    for uid, name in ((BOB, "Bob"), (CY, "Cy")):
        await svc.join(o.game_id, uid, name)
    await svc.start(o.game_id, HOST)
    return svc, o.game_id


async def _to_first_turn(svc: TableService, g: int) -> None:
    rng = random.Random(2)
    while True:
        await svc.idle()
        table = await svc.tables.get(g)
        if table.state.phase == "actions":
            return
        seat = rng.choice(sorted(table.since))
        uid = table.seats[seat].user_id
        await svc.act(g, uid, rng.choice(await svc.play.legal(g, uid)), table.version)


def _english_words() -> set[str]:
    """Every word of the English refusal messages, less the ones Polish shares."""
    words: set[str] = set()
    for code in REFUSALS:
        words |= _words(t_in("en", f"engine.{code}"))
    for key in i18n.message_keys():
        if key.startswith(("card.", "colour.", "terrain.")):
            words -= _words(t_in("pl", key))
    return words - SHARED


async def _refusal(coro) -> tuple[str, str]:
    """A refused request, read by a Polish and by an English user."""
    with pytest.raises(TableError) as err:
        await coro
    with i18n.using("pl"):
        pl = str(err.value)
    with i18n.using("en"):
        en = str(err.value)
    return pl, en


@pytest.mark.asyncio
async def test_refusals_through_the_table_service_are_polish_for_a_polish_player() -> None:
    svc, g = await _game()
    english = _english_words()
    try:
        table = await svc.tables.get(g)
        seat = next(iter(table.since))
        uid = table.seats[seat].user_id
        sea = next(h for h in range(len(table.state.owner)) if table.state.terrain[h] is None)
        # setup: a starting token at sea, and an action of the wrong kind
        seen = [await _refusal(svc.act(g, uid, A.PlaceStartToken(sea), table.version)),
                await _refusal(svc.act(g, uid, A.DrawCards(), table.version))]
        await _to_first_turn(svc, g)
        table = await svc.tables.get(g)
        seat = next(iter(table.since))
        uid = table.seats[seat].user_id
        state = table.state
        mine = next(h for h in range(len(state.owner)) if state.owner[h] == seat)
        empty = next(h for h in range(len(state.owner))
                     if state.owner[h] < 0 and state.terrain[h] is not None)
        # typed /tempus move (begin + step, all or nothing), and typed build / play
        seen += [
            await _refusal(svc.act_many(g, uid, [A.BeginMove(), A.MoveToken(empty, mine)])),
            await _refusal(svc.act_many(g, uid, [A.BeginMove(), A.MoveToken(mine, sea)])),
            await _refusal(svc.act(g, uid, A.BuildCity(mine, 9), table.version)),
            await _refusal(svc.act(g, uid, A.PlayTransport(53), table.version)),
            await _refusal(svc.undo(g, uid, table.version)),
        ]
        for pl, en in seen:
            assert pl != en
            assert pl.startswith(("Niedozwolone: ", "Nie ma czego cofnąć: ")), pl
            left = _words(pl) & english
            assert not left, f"English in a Polish refusal: {sorted(left)} in {pl!r}"
            assert en.startswith(("Not allowed: ", "Nothing to undo: ")), en
    finally:
        await svc.close()
        await svc.storage.close()


def test_a_refusal_without_a_code_still_says_why() -> None:
    """An engine message not (yet) given a code falls back to its English, never to nothing."""
    assert refusal_text(NotYourDecision("plain words.")) == "plain words"
    assert CONTENT.cards  # the card names used in the samples exist
