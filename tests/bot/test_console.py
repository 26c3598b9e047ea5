"""The offline console drives the same table service: computer-only and scripted play."""

from __future__ import annotations

import io
import itertools
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
    """Always the first control and the first option(s): a whole game by keyboard."""
    answers = itertools.cycle(["1", "1"])
    out = io.StringIO()
    rc = await run_console(players_n=3, humans=2, seed=4, out_dir=None,
                           read=lambda _prompt: next(answers), out=out)
    assert rc == 0
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
