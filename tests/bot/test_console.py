"""The offline console drives the same table service: computer-only and scripted play."""

from __future__ import annotations

import io
import itertools
import random
import re
from pathlib import Path

import pytest

from bot.__main__ import main
from bot.console import run_console


@pytest.mark.asyncio
async def test_computers_finish_a_game(tmp_path: Path) -> None:
    out = io.StringIO()
    rc = await run_console(players_n=3, humans=0, seed=3, out_dir=str(tmp_path), out=out)
    assert rc == 0
    text = out.getvalue()
    assert "Final scores" in text and "Winner" in text
    assert (tmp_path / "tempus-game-1.json").exists()


@pytest.mark.asyncio
async def test_a_person_plays_through_the_menus(tmp_path: Path) -> None:
    """Random numbers typed at every prompt (some out of range): a whole game by keyboard.
    A cap on the answers turns a game that stops making progress into a failure."""
    rng = random.Random(4)
    reads = itertools.count()

    def read(prompt: str) -> str:
        if next(reads) > 50_000:
            raise EOFError
        wanted = re.search(r"\((\d+)-\d+ numbers", prompt)  # a select: how many at least
        k = int(wanted[1]) if wanted else 1
        return ",".join(str(x) for x in rng.sample(range(1, 8), max(k, 1)))

    out = io.StringIO()
    rc = await run_console(players_n=3, humans=2, seed=4, out_dir=None, read=read, out=out)
    assert rc == 0, out.getvalue()[-2000:]
    assert "Final scores" in out.getvalue()


@pytest.mark.asyncio
async def test_end_of_input_stops_cleanly() -> None:
    def eof(_prompt: str) -> str:
        raise EOFError

    assert await run_console(humans=1, seed=1, out_dir=None, read=eof, out=io.StringIO()) == 1


def test_missing_token_is_explained(monkeypatch: pytest.MonkeyPatch,
                                    capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.delenv("DISCORD_TOKEN", raising=False)
    assert main([]) == 2
    assert "DISCORD_TOKEN" in capsys.readouterr().err
