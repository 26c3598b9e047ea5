"""The two fonts every image uses, shipped in ``render/fonts/`` (DejaVu Sans, see its LICENSE).

Text is laid out with Pillow's BASIC layout engine so the same text gives the same pixels
whether or not libraqm is installed. FreeType faces are not safe to share between threads
(the bot renders in ``asyncio.to_thread`` as well as in worker processes), so each thread
keeps its own font objects.
"""

from __future__ import annotations

import threading
from functools import lru_cache
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

FONT_DIR = Path(__file__).resolve().parent / "fonts"
REGULAR = FONT_DIR / "DejaVuSans.ttf"
BOLD = FONT_DIR / "DejaVuSans-Bold.ttf"

_local = threading.local()


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


def text_width(text: str, size: int, bold: bool = False) -> float:
    return font(size, bold).getlength(text)


def wrap(text: str, size: int, width: float, bold: bool = False) -> list[str]:
    """Greedy word wrap of ``text`` into lines at most ``width`` pixels wide."""
    f = font(size, bold)
    lines: list[str] = []
    line = ""
    for word in text.split():
        trial = f"{line} {word}" if line else word
        if not line or f.getlength(trial) <= width:
            line = trial
        else:
            lines.append(line)
            line = word
    if line:
        lines.append(line)
    return lines


def fit(text: str, size: int, width: float, bold: bool = False) -> str:
    """``text`` cut with an ellipsis so that it is at most ``width`` pixels wide."""
    f = font(size, bold)
    if f.getlength(text) <= width:
        return text
    while text and f.getlength(text + "\u2026") > width:
        text = text[:-1]
    return text.rstrip() + "\u2026"


@lru_cache(maxsize=2048)
def _text_mask(text: str, size: int, bold: bool, anchor: str) -> tuple[Image.Image, int, int]:
    """The antialiased coverage mask of ``text`` and its offset from the anchor point."""
    f = font(size, bold)
    left, top, right, bottom = f.getbbox(text, anchor=anchor)
    mask = Image.new("L", (max(1, right - left), max(1, bottom - top)), 0)
    ImageDraw.Draw(mask).text((-left, -top), text, font=f, fill=255, anchor=anchor)
    return mask, left, top


def draw_text(img: Image.Image, xy: tuple[float, float], text: str, size: int,
              fill: tuple[int, int, int], bold: bool = False, anchor: str = "la") -> None:
    """Like ``ImageDraw.text`` but with the glyph mask cached: the panel redraws the same
    few dozen strings on every render, and FreeType rasterising is most of its cost."""
    if not text:
        return
    mask, left, top = _text_mask(text, size, bold, anchor)
    x, y = round(xy[0]) + left, round(xy[1]) + top
    img.paste(fill, (x, y, x + mask.size[0], y + mask.size[1]), mask)
