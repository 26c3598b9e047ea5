"""``python -m render``: board and hand from a record, errors as JSON, the benchmark."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine import actions as A
from render.__main__ import main
from render.board import FULL_MAP
from render.positions import last_move_of
from tests.render.helpers import game, open_png


@pytest.fixture
def record_file(tmp_path: Path) -> Path:
    path = tmp_path / "game.json"
    game(4, 2).dump(path)
    return path


def test_board_at_n(record_file: Path, tmp_path: Path, capsys) -> None:
    out = tmp_path / "b.png"
    assert main(["board", str(record_file), "--at", "60", "--highlight", "C4,d5",
                 "--last-move", "C4,D5,attack", "--out", str(out)]) == 0
    size = open_png(out.read_bytes()).size
    assert 600 <= size[0] <= FULL_MAP[0]
    assert json.loads(capsys.readouterr().out)["out"] == str(out)
    assert main(["board", str(record_file), "--out", str(out)]) == 0  # the end


def test_board_bad_at(record_file: Path, tmp_path: Path, capsys) -> None:
    assert main(["board", str(record_file), "--at", "100000", "--out",
                 str(tmp_path / "x.png")]) == 1
    assert "error" in json.loads(capsys.readouterr().out)


def test_hand(record_file: Path, tmp_path: Path) -> None:
    out = tmp_path / "h.png"
    assert main(["hand", str(record_file), "--seat", "2", "--at", "120", "--out", str(out)]) == 0
    assert open_png(out.read_bytes()).size[0] > 0
    assert main(["hand", str(record_file), "--seat", "9", "--out", str(out)]) == 1


def test_last_move_of_actions() -> None:
    assert last_move_of(A.MoveToken(3, 4)) == (3, 4)
    assert last_move_of(A.Attack(3, 4)) == (3, 4, 1)
    assert last_move_of(A.GrowToken(7)) == (7,)
    assert last_move_of(A.BuildCity(7, 2)) == (7,)
    assert last_move_of(A.PlaceTile(50, 2)) == (50,)
    assert last_move_of(A.DrawCards()) is None


def test_bench_prints_timings(capsys) -> None:
    assert main(["bench", "--renders", "3"]) == 0
    out = json.loads(capsys.readouterr().out)
    for key in ("first_render_ms", "board_ms_p50", "board_ms_p95", "png_bytes",
                "board_cpu_ms_p50", "whole_ms_p50", "changed_px_mean", "bands_mean"):
        assert out[key] > 0
    assert out["renders"] == 3
    assert 600 <= out["size"][0] <= FULL_MAP[0]
    assert out["label_px_at_550"] >= 9
    assert out["panel_px_at_550"] >= 9
