"""The bot's image helpers: board, crop, hand, descriptions; failures give None, not errors."""

from __future__ import annotations

import io

from PIL import Image

from engine import view
from engine.setup import new_game
from games.tempus import images


def _size(png: bytes | None) -> tuple[int, int]:
    assert png is not None and png[:8] == b"\x89PNG\r\n\x1a\n"
    return Image.open(io.BytesIO(png)).size


def test_board_crop_and_descriptions() -> None:
    state, _ = new_game(4, 5, random_map=True)
    v = view(state, None)
    land = [h for h, t in enumerate(v["terrain"]) if t is not None]
    board = _size(images.board_png(v, (land[0],), (land[0], land[1])))
    full = _size(images.board_png(v, full=True))
    assert board[0] <= full[0] and board[1] <= full[1]
    crop = _size(images.crop_png(v, (land[0],), (land[1],)))
    assert crop[0] < board[0] / 2
    assert images.board_png(v, lang="pl") != images.board_png(v)
    alt = images.board_alt(v, ["Red placed a starting token on C4."])
    assert alt is not None and len(alt) <= 1024 and "C4" in alt
    # a turn message's board and its words come from one worker job
    assert images.board_png_and_alt(v, (land[0],), None, False, "pl", ["C4"]) == (
        images.board_png(v, (land[0],), lang="pl"), images.board_alt(v, ["C4"], "pl"))
    lines = images.position_lines(v, "pl")
    assert len(lines) > len(land)
    assert images.warm() is True


def test_bad_input_gives_none_not_an_exception(caplog) -> None:
    state, _ = new_game(3, 1, random_map=True)
    v = view(state, None)
    assert images.board_png(v, (999,)) is None
    assert images.crop_png(v, ()) is None
    assert images.board_alt({"format": 1}) is None
    assert images.position_lines({}) == []
    assert "failed" in caplog.text
