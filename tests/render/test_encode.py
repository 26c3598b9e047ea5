"""render.encode: the palette PNG written with ISA-L is a valid PNG of exactly the image
(the board's PNG encoding was two-thirds of the render workers' time)."""

from __future__ import annotations

import io
import random

import pytest
from PIL import Image

from engine import view
from render import encode
from render.board import board_image, palette, render_board
from render.positions import midgame, move_targets, recent_move


def _board() -> Image.Image:
    state, record = midgame(3, 5, era=3)
    return board_image(view(state, None), move_targets(state), recent_move(record))


def _decoded(png: bytes) -> Image.Image:
    checked = Image.open(io.BytesIO(png))
    checked.verify()  # every chunk's CRC and the stream's end
    img = Image.open(io.BytesIO(png))
    img.load()
    return img


def test_a_board_png_holds_exactly_the_quantised_image() -> None:
    assert encode._isal is not None, "isal is in requirements.txt: the fast path is used"
    board = _board()
    expected = board.quantize(palette=palette(), dither=Image.Dither.NONE)
    png = encode.to_png(board, palette())
    got = _decoded(png)
    assert (got.mode, got.size) == ("P", board.size)
    assert got.tobytes() == expected.tobytes()
    assert got.getpalette() == expected.getpalette()
    assert got.convert("RGB").tobytes() == expected.convert("RGB").tobytes()
    assert png == encode.to_png(board, palette()), "the same image gives the same bytes"


def test_same_pixels_as_pillows_own_writer(monkeypatch: pytest.MonkeyPatch) -> None:
    """The fast path and Pillow's writer (used where isal is missing) decode alike, and
    the files are about the same size."""
    board = _board()
    fast = encode.to_png(board, palette())
    monkeypatch.setattr(encode, "_isal", None)
    slow = encode.to_png(board, palette())
    assert _decoded(fast).tobytes() == _decoded(slow).tobytes()
    assert len(fast) < 1.25 * len(slow)


@pytest.mark.parametrize("size", [(1, 1), (7, 3), (300, 1)])
def test_odd_sizes_and_random_pixels(size: tuple[int, int]) -> None:
    rng = random.Random(size[0] * 31 + size[1])
    img = Image.new("P", size)
    img.putpalette([rng.randrange(256) for _ in range(768)])
    img.putdata([rng.randrange(256) for _ in range(size[0] * size[1])])
    got = _decoded(encode.palette_png(img))
    assert got.size == size and got.tobytes() == img.tobytes()
    assert got.getpalette() == img.getpalette()


def test_images_the_fast_path_cannot_write_go_through_pillow() -> None:
    rgb = Image.new("RGB", (4, 4), (10, 200, 30))
    assert not encode.fast_png_fits(rgb)
    assert _decoded(encode.to_png(rgb)).convert("RGB").getpixel((0, 0)) == (10, 200, 30)
    clear = Image.new("P", (4, 4), 0)
    clear.info["transparency"] = 0
    assert not encode.fast_png_fits(clear), "transparency needs a tRNS chunk: Pillow's"
    assert "transparency" in _decoded(encode.to_png(clear)).info
    # a higher level than ISA-L has asks for Pillow's smaller file
    small = encode.to_png(_board(), palette(), compress_level=6)
    assert _decoded(small).mode == "P"


def test_render_board_is_a_png() -> None:
    state, _ = midgame(3, 5, era=3)
    png = render_board(view(state, None))
    assert png.startswith(encode.PNG_SIGNATURE)
    assert _decoded(png).size[0] > 500


def test_read_back_what_palette_png_wrote() -> None:
    board = _board().quantize(palette=palette(), dither=Image.Dither.NONE)
    png = encode.palette_png(board, 1)
    back = encode.read_palette_png(png)
    assert back is not None and back.mode == "P" and back.size == board.size
    assert back.tobytes() == board.tobytes() and back.getpalette() == board.getpalette()


def test_other_or_damaged_pngs_are_left_to_pillow() -> None:
    board = _board().quantize(palette=palette(), dither=Image.Dither.NONE)
    png = encode.palette_png(board, 1)
    pillows = io.BytesIO()
    board.save(pillows, "PNG", compress_level=1)  # Pillow's own layout (IDAT in parts)
    read = encode.read_palette_png(pillows.getvalue())
    assert read is None or read.tobytes() == board.tobytes()
    flipped = bytearray(png)
    flipped[len(png) // 2] ^= 0xFF  # inside the IDAT: its CRC no longer matches
    assert encode.read_palette_png(bytes(flipped)) is None
    assert encode.read_palette_png(png[: len(png) // 2]) is None  # cut short
    assert encode.read_palette_png(b"not a png") is None
    assert encode.read_palette_png(encode.to_png(Image.new("RGB", (3, 3)))) is None
