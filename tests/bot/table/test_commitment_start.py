"""The start of a game commits to its seed (engine/commitment.py): the start post shows
the commitment and nothing that gives the seed away; salt and commitment are stored with
the game and survive a restart; the finished game's record reveals them."""

from __future__ import annotations

import pytest

from bot.store.sqlite import SqliteStorage
from bot.table.lobby import SEED_BITS, new_seed
from bot.table.model import OutcomeKind
from bot.table.service import TableService
from engine.commitment import SALT_BYTES, commitment
from engine.rules import RULES_VERSION
from lang.messages import t
from tests.bot.helpers import CollectSink

SEED = 6_543_210_987_654_321


@pytest.mark.asyncio
async def test_the_start_post_commits_to_the_seed_without_showing_it(tmp_path) -> None:
    path = str(tmp_path / "t.db")
    store = await SqliteStorage.open(path)
    sink = CollectSink()
    svc = TableService(store, sink, ai_delay=0)
    g = (await svc.lobby.create(1, 10, 100, "Ann", seats=3, seed=SEED)).game_id
    await svc.join(g, 101, "Bob")
    await svc.join(g, 102, "Cy")
    await svc.start(g, 100)
    await svc.idle()
    game = await store.game(g)
    assert game is not None and game.seed_salt is not None
    assert len(game.seed_salt) == 2 * SALT_BYTES and SALT_BYTES * 8 >= 128
    digest = commitment(SEED, game.seed_salt, RULES_VERSION)
    assert game.seed_commitment == digest
    (start,) = [o for o in sink.outcomes if o.kind == OutcomeKind.START]
    assert t("shuffle.commitment", commitment=digest) in start.lines
    public = "\n".join([*start.lines, start.panel.text if start.panel else ""])
    assert str(SEED) not in public and game.seed_salt not in public
    assert start.record is None, "no record leaves before the end"
    # another game's salt is another one (random, not derived from the seed)
    g2 = (await svc.lobby.create(1, 11, 100, "Ann", seats=3, seed=SEED)).game_id
    await svc.join(g2, 101, "Bob")
    await svc.join(g2, 102, "Cy")
    await svc.start(g2, 100)
    other = await store.game(g2)
    assert other is not None and other.seed_salt != game.seed_salt
    await svc.close()
    await store.close()
    # a restart: stored, and the game's record carries the salt for the end
    store = await SqliteStorage.open(path)
    svc = TableService(store, CollectSink(), ai_delay=0)
    again = await store.game(g)
    assert again is not None
    assert (again.seed_salt, again.seed_commitment) == (game.seed_salt, digest)
    record = await svc.record(g)
    assert record["salt"] == game.seed_salt and record["options"]["seed"] == SEED
    await svc.close()
    await store.close()


def test_a_new_seed_cannot_be_found_by_trying_seeds_against_the_public_map() -> None:
    seeds = {new_seed() for _ in range(50)}
    assert len(seeds) == 50 and all(0 <= s < 2**SEED_BITS for s in seeds)
    assert SEED_BITS >= 60 and max(seeds) > 2**40
