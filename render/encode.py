"""PNG encoding with a fixed palette per map: the expensive half of a board render.

An RGB board PNG is ~200 kB and takes ~30 ms to compress. Boards use few colours, so each
image is mapped onto a 256-colour palette (P mode) and written with a low zlib level.
Computing an adaptive palette per image would cost ~15 ms, so the palette is computed
once per map from that map's base layer plus a sheet of every piece, and reused: a
lookup-only quantisation costs ~2 ms. The palette depends only on the map, never on the
position, so the same view always gives the same bytes.
"""

from __future__ import annotations

import io

from PIL import Image

COMPRESS_LEVEL = 3
BASE_COLOURS = 176


def build_palette(base: Image.Image, sheet: Image.Image) -> Image.Image:
    """A P-mode image whose palette has ``BASE_COLOURS`` entries for the map and the rest
    for the pieces, so that small but important colours (players, arrows) get their own."""
    map_pal = base.quantize(BASE_COLOURS, method=Image.Quantize.MEDIANCUT).getpalette() or []
    rest = 256 - BASE_COLOURS
    piece_pal = sheet.quantize(rest, method=Image.Quantize.MEDIANCUT).getpalette() or []
    entries = map_pal[: 3 * BASE_COLOURS] + piece_pal[: 3 * rest]
    entries += [0] * (768 - len(entries))
    pal = Image.new("P", (1, 1))
    pal.putpalette(entries)
    return pal


def to_png(img: Image.Image, palette: Image.Image | None = None,
           compress_level: int = COMPRESS_LEVEL) -> bytes:
    """Encode ``img`` (RGB) as PNG, through ``palette`` when given."""
    if palette is not None:
        img = img.quantize(palette=palette, dither=Image.Dither.NONE)
    out = io.BytesIO()
    img.save(out, "PNG", compress_level=compress_level)
    return out.getvalue()
