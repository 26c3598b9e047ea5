"""The two fonts every image uses, shipped in ``render/fonts/`` (DejaVu Sans, see its LICENSE).

Text is laid out with Pillow's BASIC layout engine so the same text gives the same pixels
whether or not libraqm is installed. FreeType faces are not safe to share between threads
(the bot renders in ``asyncio.to_thread`` as well as in worker processes), so each thread
keeps its own font objects.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from functools import lru_cache
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

from .scene import Canvas

FONT_DIR = Path(__file__).resolve().parent / "fonts"
REGULAR = FONT_DIR / "DejaVuSans.ttf"
BOLD = FONT_DIR / "DejaVuSans-Bold.ttf"

_local = threading.local()
#: When set (see :func:`recording`), every :func:`draw_text` call is noted here.
_log: list[tuple[str, int]] | None = None


def font(size: int, bold: bool = False) -> ImageFont.FreeTypeFont:
    """DejaVu Sans (bold or regular) at ``size`` pixels, cached per thread."""
    cache: dict[tuple[int, bool], ImageFont.FreeTypeFont] | None = getattr(_local, "fonts", None)
    if cache is None:
        cache = _local.fonts = {}
    key = (size, bold)
    f = cache.get(key)
    if f is None:
        f = ImageFont.truetype(
            str(BOLD if bold else REGULAR), size, layout_engine=ImageFont.Layout.BASIC
        )
        cache[key] = f
    return f


@lru_cache(maxsize=4096)
def text_width(text: str, size: int, bold: bool = False) -> float:
    """Advance width of ``text`` in pixels (cached: the panel measures the same strings
    on every render)."""
    return font(size, bold).getlength(text)


@lru_cache(maxsize=1024)
def _wrap(text: str, size: int, width: float, bold: bool) -> tuple[str, ...]:
    lines: list[str] = []
    line = ""
    for word in text.split():
        trial = f"{line} {word}" if line else word
        if not line or text_width(trial, size, bold) <= width:
            line = trial
        else:
            lines.append(line)
            line = word
    if line:
        lines.append(line)
    return tuple(lines)


def wrap(text: str, size: int, width: float, bold: bool = False) -> list[str]:
    """Greedy word wrap of ``text`` into lines at most ``width`` pixels wide."""
    return list(_wrap(text, size, width, bold))


@lru_cache(maxsize=1024)
def fit(text: str, size: int, width: float, bold: bool = False) -> str:
    """``text`` cut with an ellipsis so that it is at most ``width`` pixels wide."""
    if text_width(text, size, bold) <= width:
        return text
    while text and text_width(text + "\u2026", size, bold) > width:
        text = text[:-1]
    return text.rstrip() + "\u2026"


@lru_cache(maxsize=2048)
def _text_mask(text: str, size: int, bold: bool, anchor: str) -> tuple[Image.Image, int, int]:
    """The antialiased coverage mask of ``text`` and its offset from the anchor point."""
    f = font(size, bold)
    # whole pixels already (Pillow annotates the box as float for fractional stroke widths)
    left, top, right, bottom = (int(v) for v in f.getbbox(text, anchor=anchor))
    mask = Image.new("L", (max(1, right - left), max(1, bottom - top)), 0)
    ImageDraw.Draw(mask).text((-left, -top), text, font=f, fill=255, anchor=anchor)
    return mask, left, top


def draw_text(img: Canvas, xy: tuple[float, float], text: str, size: int,
              fill: tuple[int, int, int], bold: bool = False, anchor: str = "la") -> None:
    """Like ``ImageDraw.text`` but with the glyph mask cached: the panel redraws the same
    few dozen strings on every render, and FreeType rasterising is most of its cost."""
    if not text:
        return
    if _log is not None:
        _log.append((text, size))
    mask, left, top = _text_mask(text, size, bold, anchor)
    x, y = round(xy[0]) + left, round(xy[1]) + top
    img.paste(fill, (x, y, x + mask.size[0], y + mask.size[1]), mask)


@contextmanager
def recording() -> Iterator[list[tuple[str, int]]]:
    """Note ``(text, pixel size)`` of every :func:`draw_text` call inside the block (the
    benchmark and tests measure text sizes with it; not for concurrent use)."""
    global _log
    old, _log = _log, []
    try:
        yield _log
    finally:
        _log = old
